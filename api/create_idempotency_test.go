package api_test

import (
	"net/http"
	"testing"
)

// A game created with an Idempotency-Key and retried (the answer was lost)
// is one game with one set of invitations; the retry gets the first answer.
// The key with another request is refused, and without a key every request
// is a game of its own.
func TestCreateGameRetriedWithItsKey(t *testing.T) {
	h := newHarness(t)
	org := h.login("org@example.org")
	req := twoPlayers(openBoard)
	first := h.do("POST", "/v1/games", org, req, "Idempotency-Key", "new-1").want(t, http.StatusCreated)
	again := h.do("POST", "/v1/games", org, req, "Idempotency-Key", "new-1").want(t, http.StatusCreated)
	if string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" ||
		again.header.Get("Location") != first.header.Get("Location") || first.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("retry: %q (replayed %q, location %q)\nfirst: %q (location %q)", again.body, again.header.Get("Idempotent-Replayed"),
			again.header.Get("Location"), first.body, first.header.Get("Location"))
	}
	if mail := h.deliver(); len(mail) != 2 {
		t.Errorf("%d invitations, want 2 (one game): %v", len(mail), subjects(mail))
	}
	other := twoPlayers(openBoard)
	other["players"] = []map[string]any{{"name": "Ann", "email": "ann@example.org"}, {"name": "Cy", "email": "cy@example.org"}}
	h.do("POST", "/v1/games", org, other, "Idempotency-Key", "new-1").want(t, http.StatusConflict, "idempotency_key_reused")

	var page struct {
		Games []struct {
			ID string `json:"id"`
		} `json:"games"`
	}
	h.do("GET", "/v1/me/games", org, nil).want(t, http.StatusOK).decode(t, &page)
	if len(page.Games) != 1 {
		t.Errorf("the organiser has %d games, want 1", len(page.Games))
	}
	h.do("POST", "/v1/games", org, req).want(t, http.StatusCreated)
	h.do("POST", "/v1/games", org, req).want(t, http.StatusCreated)
	h.do("GET", "/v1/me/games", org, nil).want(t, http.StatusOK).decode(t, &page)
	if len(page.Games) != 3 {
		t.Errorf("without a key: %d games, want 3", len(page.Games))
	}
}
