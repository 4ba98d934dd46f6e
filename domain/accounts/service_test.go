package accounts_test

import (
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/memstore"
)

const (
	creatorID = 1
	annID     = 2
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// fixture is the accounts' use cases on the in-memory store, with two
// accounts (org and ann) and a clock that stands still until moved.
type fixture struct {
	store *memstore.Store
	svc   *accounts.Service
	now   time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{store: memstore.New(
		domain.User{ID: creatorID, Email: "org@example.org"},
		domain.User{ID: annID, Email: "ann@example.org", Locale: "de"}), now: t0}
	f.svc = accounts.NewService(accounts.Config{Store: f.store, Now: func() time.Time { return f.now }})
	return f
}

// code is the code of a domain error, "" for none.

func TestServiceLogin(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	for i := range accounts.MaxLoginsPerHour {
		if err := f.svc.RequestLogin(ctx, "cat@example.org", ""); err != nil {
			t.Fatalf("login %d: %v", i+1, err)
		}
	}
	if err := f.svc.RequestLogin(ctx, "cat@example.org", ""); domain.CodeOf(err) != domain.CodeTooManyLogins {
		t.Errorf("one login too many: %v, want %s", err, domain.CodeTooManyLogins)
	}
	q := f.store.Queued()
	last := q[len(q)-1]
	if last.Kind != domain.NoticeLogin || last.Email != "cat@example.org" || len(q) != accounts.MaxLoginsPerHour {
		t.Fatalf("queued %d notices, the last %+v; want %d, a login to cat", len(q), last, accounts.MaxLoginsPerHour)
	}
	g, err := f.svc.ExchangeLogin(ctx, last.Secret, time.Hour)
	sess := g.Session
	if err != nil || sess.User.Email != "cat@example.org" || !sess.ExpiresAt.Equal(f.now.Add(time.Hour)) {
		t.Fatalf("ExchangeLogin = %+v, %v", sess, err)
	}
	if _, err := f.svc.ActiveSession(ctx, sess.ID); err != nil {
		t.Errorf("the new session: %v", err)
	}
	for _, token := range []string{last.Secret, "not-a-token"} {
		if _, err := f.svc.ExchangeLogin(ctx, token, time.Hour); domain.CodeOf(err) != domain.CodeLoginInvalid {
			t.Errorf("exchanging %q: %v, want %s", token, err, domain.CodeLoginInvalid)
		}
	}
	if err := f.svc.Logout(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.ActiveSession(ctx, sess.ID); domain.CodeOf(err) != domain.CodeUnauthorized {
		t.Errorf("the session after logout: %v, want %s", err, domain.CodeUnauthorized)
	}
}

func TestServiceSessions(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.svc.ActiveSession(ctx, "nope"); domain.CodeOf(err) != domain.CodeUnauthorized {
		t.Errorf("an unknown session: %v, want %s", err, domain.CodeUnauthorized)
	}
	u, err := f.svc.RotateCalendarLink(ctx, annID)
	if err != nil || u.CalendarVersion != 1 {
		t.Errorf("RotateCalendarLink = %+v, %v; want version 1", u, err)
	}
	if _, err := f.svc.RotateCalendarLink(ctx, 99); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("rotating a missing account's link: %v, want %s", err, domain.CodeNotFound)
	}
	if u, err := f.svc.UpdateUser(ctx, annID, accounts.AccountSettings{Name: "Ann A.", Locale: "fr"}); err != nil || u.Name != "Ann A." || u.Locale != "fr" {
		t.Errorf("UpdateUser = %+v, %v", u, err)
	}
}
