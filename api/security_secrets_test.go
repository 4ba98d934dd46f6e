package api_test

import (
	"crypto/sha256"
	"log/slog"
	"net/http"
	"net/url"
	"testing"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/notify"
)

// rekey serves the API again on h's database with other signing keys, as
// after an operator rotated the secret and restarted.
func rekey(t *testing.T, h *harness, secret string, previous ...string) {
	t.Helper()
	cfg := serverConfig{Config: api.Config{DB: h.db, Secret: []byte(secret), BaseURL: "http://lesspost.test",
		Logger: slog.New(slog.DiscardHandler)}, Now: h.clock.Now}
	for _, p := range previous {
		cfg.PreviousSecrets = append(cfg.PreviousSecrets, []byte(p))
	}
	srv, err := cfg.newServer()
	if err != nil {
		t.Fatal(err)
	}
	renderer := &notify.Renderer{Store: h.db, Links: srv.Links(), Host: "lesspost.test"}
	h.outbox = notify.NewWorker(h.db, h.mail, renderer, slog.New(slog.DiscardHandler), h.clock.Now)
	ts, client := apitest.NewServer(t, srv)
	h.url, h.client = ts.URL, client
}

// calendarToken is the token of the caller's calendar_url.
func calendarToken(t *testing.T, h *harness, account string) string {
	t.Helper()
	var me struct {
		CalendarURL string `json:"calendar_url"`
	}
	h.do("GET", "/v1/me", account, nil).want(t, http.StatusOK).decode(t, &me)
	u, err := url.Parse(me.CalendarURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("t")
}

// A rotated signing key: tokens it signed keep working while it is listed
// as a previous key (the grace period) and are refused once it is removed;
// new tokens are signed with the new key and name it (kid). A token cannot
// name one key and be signed with another.
func TestSigningKeyRotation(t *testing.T) {
	const newKey = "fedcba9876543210fedcba9876543210-new"
	h := newAttackHarness(t)
	s := startGame(t, h)
	calendar := calendarToken(t, h, s.organiser)
	header, claims, _ := jwtParts(t, s.organiser)
	if header["kid"] != api.KeyID([]byte(harnessSecret)) {
		t.Errorf("token header %v, want the kid of its key %q", header, api.KeyID([]byte(harnessSecret)))
	}
	// Signed before tokens had a kid, by the one key there was.
	legacy := forge(t, map[string]any{"alg": "HS256", "typ": "JWT"}, claims, hmacWith(sha256.New, harnessSecret))
	// Names the new key, but is signed with the old one.
	misnamed := forge(t, map[string]any{"alg": "HS256", "typ": "JWT", "kid": api.KeyID([]byte(newKey))}, claims,
		hmacWith(sha256.New, harnessSecret))
	old := []struct {
		name, method, path, token string
	}{
		{"account token", "GET", "/v1/me", s.organiser},
		{"account token without kid", "GET", "/v1/me", legacy},
		{"seat token", "GET", "/v1/games/" + s.id, s.white},
		{"spectator token", "GET", "/v1/games/" + s.id, s.watch},
	}

	rekey(t, h, newKey, harnessSecret) // the grace period
	for _, tc := range old {
		h.do(tc.method, tc.path, tc.token, nil).want(t, http.StatusOK)
	}
	h.do("GET", "/calendar.ics?t="+url.QueryEscape(calendar), "", nil).want(t, http.StatusOK)
	h.refused(t, http.StatusUnauthorized, "unauthorized", "GET", "/v1/me", misnamed, nil)
	fresh := h.login("org@example.org")
	if header, _, _ := jwtParts(t, fresh); header["kid"] != api.KeyID([]byte(newKey)) {
		t.Errorf("new token header %v, want the new key's kid %q", header, api.KeyID([]byte(newKey)))
	}
	if header, _, _ := jwtParts(t, calendarToken(t, h, fresh)); header["kid"] != api.KeyID([]byte(newKey)) {
		t.Errorf("new calendar token header %v, want the new key's kid", header)
	}

	rekey(t, h, newKey) // the old key is retired
	for _, tc := range old {
		t.Run(tc.name+" after the grace period", func(t *testing.T) {
			h.refused(t, http.StatusUnauthorized, "unauthorized", tc.method, tc.path, tc.token, nil)
		})
	}
	h.refused(t, http.StatusBadRequest, "invalid_link", "GET", "/calendar.ics?t="+url.QueryEscape(calendar), "", nil)
	h.do("GET", "/v1/me", fresh, nil).want(t, http.StatusOK)
}

// Keys too short to sign HS256 safely, or listed twice, are refused at start.
func TestSigningKeysAreChecked(t *testing.T) {
	for name, cfg := range map[string]serverConfig{
		"short key":          {Config: api.Config{Secret: []byte("short")}},
		"short previous key": {Config: api.Config{Secret: []byte(harnessSecret), PreviousSecrets: [][]byte{[]byte("short")}}},
		"key listed twice":   {Config: api.Config{Secret: []byte(harnessSecret), PreviousSecrets: [][]byte{[]byte(harnessSecret)}}},
	} {
		t.Run(name, func(t *testing.T) {
			cfg.DB = newAttackHarness(t).db
			if _, err := cfg.newServer(); err == nil {
				t.Error("api.New accepted the keys")
			}
		})
	}
}
