package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

type personalTokenJSON struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Scopes     []string   `json:"scopes"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	Token      string     `json:"token"`
}

func listTokens(t *testing.T, h *harness, account string) []personalTokenJSON {
	t.Helper()
	var list struct {
		Tokens []personalTokenJSON `json:"tokens"`
	}
	r := h.do("GET", "/v1/me/tokens", account, nil).want(t, http.StatusOK)
	r.decode(t, &list)
	return list.Tokens
}

// A personal access token is shown once, listed without its secret, used
// with its scopes, and revoked by its owner.
func TestPersonalTokenLifecycle(t *testing.T) {
	h := newHarness(t)
	ann, bob := h.login("ann@example.org"), h.login("bob@example.org")
	var tok personalTokenJSON
	h.do("POST", "/v1/me/tokens", ann, map[string]any{"name": "bot", "scopes": []string{"games:read", "account:read"}, "expires_in_days": 30}).
		want(t, http.StatusCreated).decode(t, &tok)
	if !strings.HasPrefix(tok.Token, "lp_pat_") || len(tok.Token) < len("lp_pat_")+26 || tok.Name != "bot" ||
		len(tok.Scopes) != 2 || tok.LastUsedAt != nil || tok.ExpiresAt == nil || !tok.ExpiresAt.Equal(tok.CreatedAt.Add(30*24*time.Hour)) {
		t.Fatalf("created %+v", tok)
	}
	r := h.do("GET", "/v1/me/tokens", ann, nil).want(t, http.StatusOK)
	if strings.Contains(string(r.body), tok.Token) || strings.Contains(string(r.body), tok.Token[len("lp_pat_"):]) {
		t.Errorf("the list shows the secret: %s", r.body)
	}

	// Used: it acts for Ann within its scopes, and its use is kept to the hour.
	h.clock.Advance(90 * time.Minute)
	var me struct{ Email string }
	h.do("GET", "/v1/me", tok.Token, nil).want(t, http.StatusOK).decode(t, &me)
	if me.Email != "ann@example.org" {
		t.Errorf("the token is %s's", me.Email)
	}
	h.do("GET", "/v1/me/games", tok.Token, nil).want(t, http.StatusOK)
	res := h.do("PATCH", "/v1/me", tok.Token, map[string]any{"name": "Bot"}).want(t, http.StatusForbidden, "insufficient_scope")
	if !strings.Contains(string(res.body), `"scope":"account:write"`) {
		t.Errorf("the refusal names no scope: %s", res.body)
	}
	list := listTokens(t, h, ann)
	if len(list) != 1 || list[0].LastUsedAt == nil || !list[0].LastUsedAt.Equal(h.clock.Now().Truncate(time.Hour)) {
		t.Errorf("after use: %+v, want last used at %v", list, h.clock.Now().Truncate(time.Hour))
	}

	// What only a signed-in account may do.
	h.do("POST", "/v1/me/tokens", tok.Token, map[string]any{"name": "x", "scopes": []string{"games:read"}}).want(t, http.StatusForbidden, "account_required")
	h.do("GET", "/v1/me/tokens", tok.Token, nil).want(t, http.StatusForbidden, "account_required")
	h.do("POST", "/v1/auth/logout", tok.Token, nil).want(t, http.StatusForbidden, "account_required")
	if r := h.send("POST", "/v1/auth/refresh", "", map[string]any{"refresh_token": tok.Token}); r.status != http.StatusUnauthorized {
		t.Errorf("a personal token refreshed: %d %s", r.status, r.body)
	}

	// Revoked by its owner only.
	path := "/v1/me/tokens/" + strconv.FormatInt(tok.ID, 10)
	h.do("DELETE", path, bob, nil).want(t, http.StatusNotFound, "not_found")
	h.do("GET", "/v1/me", tok.Token, nil).want(t, http.StatusOK)
	h.do("DELETE", path, ann, nil).want(t, http.StatusNoContent)
	h.do("GET", "/v1/me", tok.Token, nil).want(t, http.StatusUnauthorized, "unauthorized")
	h.do("DELETE", path, ann, nil).want(t, http.StatusNotFound, "not_found")
	if list := listTokens(t, h, ann); len(list) != 0 {
		t.Errorf("after revoking: %+v", list)
	}
}

func TestPersonalTokenExpires(t *testing.T) {
	h := newHarness(t)
	ann := h.login("ann@example.org")
	var tok personalTokenJSON
	h.do("POST", "/v1/me/tokens", ann, map[string]any{"name": "brief", "scopes": []string{"account:read"}, "expires_in_days": 1}).
		want(t, http.StatusCreated).decode(t, &tok)
	forever := h.personalToken(ann, "account:read")
	h.clock.Advance(24 * time.Hour)
	h.do("GET", "/v1/me", tok.Token, nil).want(t, http.StatusUnauthorized, "unauthorized")
	h.do("GET", "/v1/me", forever, nil).want(t, http.StatusOK)
	// Logging out ends sessions, not personal tokens.
	h.do("POST", "/v1/auth/logout", ann, nil).want(t, http.StatusNoContent)
	h.do("GET", "/v1/me", forever, nil).want(t, http.StatusOK)
}

func TestPersonalTokenRefused(t *testing.T) {
	h := newHarness(t)
	ann := h.login("ann@example.org")
	for _, c := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
	}{
		{"no scopes", map[string]any{"name": "x", "scopes": []string{}}, http.StatusBadRequest, "invalid_request"},
		{"unknown scope", map[string]any{"name": "x", "scopes": []string{"admin"}}, http.StatusBadRequest, "invalid_request"},
		{"no name", map[string]any{"scopes": []string{"games:read"}}, http.StatusBadRequest, "invalid_request"},
		{"blank name", map[string]any{"name": "  ", "scopes": []string{"games:read"}}, http.StatusUnprocessableEntity, "invalid_input"},
		{"too long", map[string]any{"name": "x", "scopes": []string{"games:read"}, "expires_in_days": 3651}, http.StatusBadRequest, "invalid_request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h.do("POST", "/v1/me/tokens", ann, c.body).want(t, c.status, c.code)
		})
	}
	h.do("GET", "/v1/me", "lp_pat_guessed", nil).want(t, http.StatusUnauthorized, "unauthorized")
}
