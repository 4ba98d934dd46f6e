package api_test

// The security test list, continued: the edges of HTTP (caching, the
// Authorization scheme, HEAD, cross-origin requests).

import (
	"net/http"
	"strings"
	"testing"
)

// The bearer scheme is case-insensitive (RFC 9110 11.1); anything that is
// not a bearer token is refused with 401 and changes nothing.
func TestBearerScheme(t *testing.T) {
	h := newAttackHarness(t)
	token := h.login("ann@example.org")
	for _, header := range []string{"Bearer " + token, "bearer " + token, "BEARER " + token, "BeArEr " + token, "Bearer  " + token, " Bearer " + token + " "} {
		t.Run(header[:8], func(t *testing.T) {
			h.do("GET", "/v1/me", "", nil, "Authorization", header).want(t, http.StatusOK)
		})
	}
	for _, header := range []string{"", "Bearer", "Bearer ", "Bearer" + token, "Basic " + token, "Token " + token, token, "Bearer x" + token} {
		t.Run("refused "+header[:min(len(header), 8)], func(t *testing.T) {
			h.refused(t, http.StatusUnauthorized, "unauthorized", "PATCH", "/v1/me", "", map[string]any{"name": "Eve"}, "Authorization", header)
		})
	}
}

// Responses that carry a token or private data are never stored by a cache:
// the access token and the calendar link, the account, my games, the game
// with its spectator link, the game's mail log, and the errors on the way.
func TestPrivateResponsesAreNotStored(t *testing.T) {
	h := newAttackHarness(t)
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "org@example.org"}).want(t, http.StatusAccepted)
	code := loginCodeRE.FindStringSubmatch(only(t, h.deliver(), "org@example.org").Text)[1]
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	exchange := h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}).want(t, http.StatusOK)
	exchange.decode(t, &tok)
	org := tok.AccessToken
	var g gameJSON
	created := h.do("POST", "/v1/games", org, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated)
	created.decode(t, &g)
	game := "/v1/games/" + g.ID
	tests := []struct {
		name string
		res  response
	}{
		{"token", exchange},
		{"created game", created},
		{"me", h.do("GET", "/v1/me", org, nil).want(t, http.StatusOK)},
		{"updated me", h.do("PATCH", "/v1/me", org, map[string]any{"name": "Org"}).want(t, http.StatusOK)},
		{"my games", h.do("GET", "/v1/me/games", org, nil).want(t, http.StatusOK)},
		{"vacations", h.do("GET", "/v1/me/vacations", org, nil).want(t, http.StatusOK)},
		{"game", h.do("GET", game, org, nil).want(t, http.StatusOK)},
		{"game not modified", h.do("GET", game, org, nil, "If-None-Match", `"v1"`).want(t, http.StatusNotModified)},
		{"mail log", h.do("GET", game+"/mail", org, nil).want(t, http.StatusOK)},
		{"refused token", h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}).want(t, http.StatusUnauthorized)},
		{"refused me", h.do("GET", "/v1/me", "nonsense", nil).want(t, http.StatusUnauthorized)},
	}
	for _, tt := range tests {
		if got := tt.res.header.Values("Cache-Control"); len(got) != 1 || got[0] != "no-store" {
			t.Errorf("%s: Cache-Control %q, want no-store", tt.name, got)
		}
	}
}
