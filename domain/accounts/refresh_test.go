package accounts_test

import (
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

// signIn logs cat in and returns his first grant.
func signIn(t *testing.T, f *fixture, ttl time.Duration) accounts.Grant {
	t.Helper()
	if err := f.svc.RequestLogin(t.Context(), "cat@example.org", ""); err != nil {
		t.Fatal(err)
	}
	q := f.store.Queued()
	g, err := f.svc.ExchangeLogin(t.Context(), q[len(q)-1].Secret, ttl)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRefreshRotates(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	first := signIn(t, f, accounts.SessionTTL)
	if len(first.RefreshToken) < 26 || !first.RefreshExpiresAt.Equal(f.now.Add(accounts.RefreshIdleTTL)) {
		t.Fatalf("first grant %+v: want a 128-bit token, live %v", first, accounts.RefreshIdleTTL)
	}
	f.now = f.now.Add(time.Hour)
	next, err := f.svc.Refresh(ctx, first.RefreshToken)
	if err != nil || next.Session.ID != first.Session.ID || next.RefreshToken == first.RefreshToken ||
		next.Session.User.Email != "cat@example.org" || !next.RefreshExpiresAt.Equal(f.now.Add(accounts.RefreshIdleTTL)) {
		t.Fatalf("Refresh = %+v, %v; want a new token of the same session, live from now", next, err)
	}
	if _, err := f.svc.Refresh(ctx, next.RefreshToken); err != nil {
		t.Errorf("refreshing with the new token: %v", err)
	}
}

// Presenting a spent token again ends the session: the thief's or the
// owner's tokens, whichever came second, and every other one.
func TestRefreshReuseRevokesFamily(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	first := signIn(t, f, accounts.SessionTTL)
	next, err := f.svc.Refresh(ctx, first.RefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Refresh(ctx, first.RefreshToken); domain.CodeOf(err) != domain.CodeRefreshInvalid {
		t.Errorf("reusing a spent token: %v, want %s", err, domain.CodeUnauthorized)
	}
	if _, err := f.svc.ActiveSession(ctx, first.Session.ID); domain.CodeOf(err) != domain.CodeUnauthorized {
		t.Errorf("the session after reuse: %v, want it revoked", err)
	}
	if _, err := f.svc.Refresh(ctx, next.RefreshToken); domain.CodeOf(err) != domain.CodeRefreshInvalid {
		t.Errorf("the newest token after reuse: %v, want it revoked with its family", err)
	}
}

func TestRefreshExpiry(t *testing.T) {
	tests := []struct {
		name    string
		ttl     time.Duration // the session's
		wait    time.Duration
		refused bool
	}{
		{"within idle time", accounts.SessionTTL, accounts.RefreshIdleTTL - time.Millisecond, false},
		{"idle too long", accounts.SessionTTL, accounts.RefreshIdleTTL, true},
		{"the session ended first", time.Hour, time.Hour, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			g := signIn(t, f, tt.ttl)
			f.now = f.now.Add(tt.wait)
			_, err := f.svc.Refresh(t.Context(), g.RefreshToken)
			if refused := domain.CodeOf(err) == domain.CodeRefreshInvalid; refused != tt.refused || !refused && err != nil {
				t.Errorf("Refresh after %v: %v; want refused %v", tt.wait, err, tt.refused)
			}
		})
	}
}

// The session's absolute end bounds every refresh token, however often it
// is refreshed.
func TestRefreshBoundedBySession(t *testing.T) {
	f := newFixture(t)
	g := signIn(t, f, 40*24*time.Hour)
	f.now = f.now.Add(20 * 24 * time.Hour)
	g, err := f.svc.Refresh(t.Context(), g.RefreshToken)
	if err != nil || !g.RefreshExpiresAt.Equal(g.Session.ExpiresAt) {
		t.Errorf("Refresh = %+v, %v; want it to expire with the session", g, err)
	}
}

func TestLogoutEndsRefresh(t *testing.T) {
	f := newFixture(t)
	g := signIn(t, f, accounts.SessionTTL)
	if err := f.svc.Logout(t.Context(), g.Session.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Refresh(t.Context(), g.RefreshToken); domain.CodeOf(err) != domain.CodeRefreshInvalid {
		t.Errorf("refreshing after logout: %v, want %s", err, domain.CodeUnauthorized)
	}
}
