package api_test

import (
	"net/http"
	"testing"
	"time"
)

// signIn logs in by email and returns the first pair, without the
// harness's renewal.
func signIn(t *testing.T, h *harness, email string) tokenPair {
	t.Helper()
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": email}).want(t, http.StatusAccepted)
	code := loginTokenRE.FindStringSubmatch(only(t, h.deliver(), email).Text)[1]
	var tok struct {
		tokenPair
		TokenType string `json:"token_type"`
		ExpiresIn int    `json:"expires_in"`
	}
	h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}).want(t, http.StatusOK).decode(t, &tok)
	if tok.TokenType != "Bearer" || tok.ExpiresIn != 15*60 || len(tok.RefreshToken) < 26 || tok.AccessToken == "" {
		t.Fatalf("token response %+v: want a Bearer token for 900 s and a refresh token of at least 128 bits", tok)
	}
	return tok.tokenPair
}

func refresh(t *testing.T, h *harness, refreshToken string, status int) tokenPair {
	t.Helper()
	var tok tokenPair
	r := h.send("POST", "/v1/auth/refresh", "", map[string]any{"refresh_token": refreshToken}).want(t, status, wantCode(status)...)
	if status == http.StatusOK {
		r.decode(t, &tok)
	}
	return tok
}

// An access token lives 15 minutes; the refresh token gets the next pair,
// once. Presenting a spent refresh token again ends the session: the newest
// access and refresh tokens stop working too.
func TestRefreshRotation(t *testing.T) {
	h := newHarness(t)
	first := signIn(t, h, "ann@example.org")
	h.send("GET", "/v1/me", first.AccessToken, nil).want(t, http.StatusOK)
	h.clock.Advance(15 * time.Minute)
	h.send("GET", "/v1/me", first.AccessToken, nil).want(t, http.StatusUnauthorized, "unauthorized")

	next := refresh(t, h, first.RefreshToken, http.StatusOK)
	if next.RefreshToken == first.RefreshToken || next.AccessToken == first.AccessToken {
		t.Fatalf("refresh answered the same tokens")
	}
	h.send("GET", "/v1/me", next.AccessToken, nil).want(t, http.StatusOK)

	refresh(t, h, first.RefreshToken, http.StatusUnauthorized) // reused: the family ends
	h.send("GET", "/v1/me", next.AccessToken, nil).want(t, http.StatusUnauthorized, "unauthorized")
	refresh(t, h, next.RefreshToken, http.StatusUnauthorized)

	// Another session of the same account is untouched.
	other := signIn(t, h, "ann@example.org")
	h.send("GET", "/v1/me", other.AccessToken, nil).want(t, http.StatusOK)
}

func TestRefreshRefused(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		name string
		body any
		code string
	}{
		{"unknown", map[string]any{"refresh_token": "abc"}, "refresh_invalid"},
		{"empty", map[string]any{"refresh_token": ""}, "refresh_invalid"},
		{"missing", map[string]any{}, "invalid_request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := h.send("POST", "/v1/auth/refresh", "", c.body)
			if r.status != http.StatusUnauthorized && r.status != http.StatusBadRequest || r.problem(t).Code != c.code {
				t.Errorf("%d %s, want code %s", r.status, r.body, c.code)
			}
		})
	}
	// An access token is no refresh token, nor the reverse.
	tok := signIn(t, h, "ann@example.org")
	if r := h.send("POST", "/v1/auth/refresh", "", map[string]any{"refresh_token": tok.AccessToken}); r.status == http.StatusOK {
		t.Errorf("an access token refreshed: %s", r.body)
	}
	h.send("GET", "/v1/me", tok.RefreshToken, nil).want(t, http.StatusUnauthorized, "unauthorized")
}

// Logging out ends the refresh token too; a refresh token idle for 30 days
// expires.
func TestRefreshEnds(t *testing.T) {
	h := newHarness(t)
	tok := signIn(t, h, "ann@example.org")
	h.send("POST", "/v1/auth/logout", tok.AccessToken, nil).want(t, http.StatusNoContent)
	refresh(t, h, tok.RefreshToken, http.StatusUnauthorized)

	tok = signIn(t, h, "bob@example.org")
	h.clock.Advance(30*24*time.Hour - time.Second)
	tok = refresh(t, h, tok.RefreshToken, http.StatusOK)
	h.clock.Advance(30 * 24 * time.Hour)
	refresh(t, h, tok.RefreshToken, http.StatusUnauthorized)
}

// wantCode is the code a refused refresh answers.
func wantCode(status int) []string {
	if status == http.StatusUnauthorized {
		return []string{"refresh_invalid"}
	}
	return nil
}
