package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// A login email's code signs in with the address it was sent to, typed in
// either case, with or without its dash; it can be guessed at only 5 times
// (accounts.MaxLoginCodeMisses), after which its link still signs in.
func TestLoginCode(t *testing.T) {
	h := newHarness(t)
	ask := func(email string) (code, token string) {
		t.Helper()
		h.do("POST", "/v1/auth/login", "", map[string]any{"email": email}).want(t, http.StatusAccepted)
		m := only(t, h.deliver(), email)
		c, tok := loginCodeRE.FindStringSubmatch(m.Text), loginTokenRE.FindStringSubmatch(m.Text)
		if c == nil || tok == nil {
			t.Fatalf("no code or link in:\n%s", m.Text)
		}
		return c[1], tok[1]
	}
	code, _ := ask("ann@example.org")
	if len(code) != 9 || code[4] != '-' || strings.ContainsAny(code, "0O1IL") {
		t.Fatalf("code %q, want XXXX-XXXX without 0 O 1 I L", code)
	}

	// Shapes refused before any code is looked up.
	for _, c := range []struct {
		name string
		body map[string]any
	}{
		{"nothing", map[string]any{}},
		{"a code without its address", map[string]any{"code": code}},
		{"a token and a code", map[string]any{"token": "abc", "email": "ann@example.org", "code": code}},
		{"a code of the wrong length", map[string]any{"email": "ann@example.org", "code": "ABCD-234"}},
		{"a code with an O", map[string]any{"email": "ann@example.org", "code": "ABCD-234O"}},
		{"no address", map[string]any{"email": "ann", "code": code}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h.do("POST", "/v1/auth/token", "", c.body).want(t, http.StatusUnprocessableEntity, "invalid_input")
		})
	}

	// Another address's code, or the code as a token, signs nobody in.
	h.do("POST", "/v1/auth/token", "", map[string]any{"email": "bob@example.org", "code": code}).want(t, http.StatusUnauthorized, "login_invalid")
	h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}).want(t, http.StatusUnauthorized, "login_invalid")

	// Typed as people type it, in another letter case of the address too.
	var tok tokenPair
	typed := strings.ToLower(strings.ReplaceAll(code, "-", " "))
	h.do("POST", "/v1/auth/token", "", map[string]any{"email": "Ann@Example.org", "code": typed}).want(t, http.StatusOK).decode(t, &tok)
	h.do("GET", "/v1/me", tok.AccessToken, nil).want(t, http.StatusOK)
	h.do("POST", "/v1/auth/token", "", map[string]any{"email": "ann@example.org", "code": code}).want(t, http.StatusUnauthorized, "login_invalid")

	// Five wrong codes for Bob's address, and his right code no longer
	// works; his link does.
	bobCode, bobToken := ask("bob@example.org")
	wrong := "2222-2222"
	if bobCode == wrong {
		wrong = "3333-3333"
	}
	for range 5 {
		h.do("POST", "/v1/auth/token", "", map[string]any{"email": "bob@example.org", "code": wrong}).want(t, http.StatusUnauthorized, "login_invalid")
	}
	h.do("POST", "/v1/auth/token", "", map[string]any{"email": "bob@example.org", "code": bobCode}).want(t, http.StatusUnauthorized, "login_invalid")
	h.do("POST", "/v1/auth/token", "", map[string]any{"token": bobToken}).want(t, http.StatusOK)

	// Four wrong codes leave a code working.
	carlCode, _ := ask("carl@example.org")
	wrong = "2222-2222"
	if carlCode == wrong {
		wrong = "3333-3333"
	}
	for range 4 {
		h.do("POST", "/v1/auth/token", "", map[string]any{"email": "carl@example.org", "code": wrong}).want(t, http.StatusUnauthorized, "login_invalid")
	}
	h.do("POST", "/v1/auth/token", "", map[string]any{"email": "carl@example.org", "code": carlCode}).want(t, http.StatusOK)
}
