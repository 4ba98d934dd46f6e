package repo

import (
	"context"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
)

func countRows(t *testing.T, db *DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.read.QueryRowContext(t.Context(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// drainBatches calls prune until it changes fewer than limit rows, as the
// scheduler does, and returns the total.
func drainBatches(t *testing.T, prune func(context.Context, int) (int, error), limit int) int {
	t.Helper()
	total := 0
	for {
		n, err := prune(t.Context(), limit)
		if err != nil {
			t.Fatal(err)
		}
		if n > limit {
			t.Fatalf("a batch changed %d rows, more than its limit %d", n, limit)
		}
		total += n
		if n < limit {
			return total
		}
	}
}

// Delivered and given-up mail goes after the retention period, in batches;
// mail still being tried stays, however old.
func TestPruneMail(t *testing.T) {
	ctx := t.Context()
	f := newOutboxFixture(t) // org's sent login at t0; ann's login, two invitations, bob's login pending
	_, due := dueList(t, f.db, t0.Add(time.Hour), 100)
	if err := f.db.MarkSent(ctx, due[0].ID, t0.Add(time.Hour)); err != nil { // ann's login
		t.Fatal(err)
	}
	claimAll(t, f.db, t0.Add(time.Hour))
	if err := f.db.MarkAttemptFailed(ctx, testClaimant, due[1].ID, domain.MailFailure{Code: "rejected", Message: "SMTP 550"}, time.Time{}, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	// Later mail, delivered: within the retention period at the cut-off.
	if err := f.db.RequestLogin(ctx, "cy@example.org", "en", t0.Add(40*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	later := lastLoginMail(t, f.db, "cy@example.org", t0.Add(40*24*time.Hour))
	if err := f.db.MarkSent(ctx, later.ID, t0.Add(40*24*time.Hour)); err != nil {
		t.Fatal(err)
	}

	before := t0.Add(40*24*time.Hour - DefaultMailRetention)
	n := drainBatches(t, func(ctx context.Context, limit int) (int, error) { return f.db.PruneMail(ctx, before, limit) }, 2)
	if n != 3 { // org's and ann's logins, white's failed invitation
		t.Errorf("pruned %d rows, want 3", n)
	}
	if got := countRows(t, f.db, `SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL`); got != 2 {
		t.Errorf("%d pending rows left, want 2 (black's invitation, bob's login)", got)
	}
	if got := countRows(t, f.db, `SELECT count(*) FROM outbox WHERE id = ?`, later.ID); got != 1 {
		t.Error("mail within the retention period was pruned")
	}
}

// Sessions go once they have ended, by expiry or by logout; live ones stay.
func TestPruneSessions(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	var ids []string
	for _, email := range []string{"a@example.org", "b@example.org", "c@example.org", "d@example.org"} {
		s, err := db.ExchangeLogin(ctx, requestToken(t, db, email, t0), time.Hour, t0)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	long, err := db.ExchangeLogin(ctx, requestToken(t, db, "e@example.org", t0), 30*24*time.Hour, t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.serviceAt(t0.Add(time.Minute)).Logout(ctx, long.ID); err != nil {
		t.Fatal(err)
	}
	live, err := db.ExchangeLogin(ctx, requestToken(t, db, "f@example.org", t0), 30*24*time.Hour, t0)
	if err != nil {
		t.Fatal(err)
	}

	now := t0.Add(2 * time.Hour) // the four one-hour sessions expired, one was revoked
	n := drainBatches(t, func(ctx context.Context, limit int) (int, error) { return db.PruneSessions(ctx, now, limit) }, 3)
	if n != 5 {
		t.Errorf("pruned %d sessions, want 5", n)
	}
	if got := countRows(t, db, `SELECT count(*) FROM sessions`); got != 1 {
		t.Errorf("%d sessions left, want 1", got)
	}
	if _, err := db.ActiveSession(ctx, live.ID, now); err != nil {
		t.Errorf("the live session was pruned: %v", err)
	}
}

// Login tokens go an hour after they expire, which keeps them for the
// per-address cap on login mail: pruning never lets an address get more.
func TestPruneLoginTokens(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	for i := range domain.MaxLoginsPerHour {
		if err := db.RequestLogin(ctx, "ann@example.org", "en", t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	old := t0.Add(-3 * time.Hour)
	if err := db.RequestLogin(ctx, "bob@example.org", "en", old); err != nil {
		t.Fatal(err)
	}

	now := t0.Add(50 * time.Minute) // ann's tokens expired, but within the hour of the cap
	n := drainBatches(t, func(ctx context.Context, limit int) (int, error) { return db.PruneLoginTokens(ctx, now, limit) }, 10)
	if n != 1 {
		t.Errorf("pruned %d login tokens, want 1 (bob's)", n)
	}
	err := db.RequestLogin(ctx, "ann@example.org", "en", now)
	if de, ok := domain.ErrorOf(err); !ok || de.Kind != domain.KindRateLimited {
		t.Errorf("after pruning, a sixth login mail within the hour: %v, want rate limited", err)
	}
}

// A login mail not delivered before its code expires is given up, and the
// code is no longer stored; mail delivered in time lost its code already.
func TestExpireLoginMail(t *testing.T) {
	f := newOutboxFixture(t) // ann's login at t0+1m, bob's at t0+3m, pending
	now := t0.Add(time.Minute + LoginTTL)
	n := drainBatches(t, func(ctx context.Context, limit int) (int, error) { return f.db.ExpireLoginMail(ctx, now, limit) }, 1)
	if n != 1 {
		t.Errorf("expired %d login mails, want 1 (ann's)", n)
	}
	got, due := dueList(t, f.db, now, 100)
	want := []string{"invitation white@example.org", "invitation black@example.org", "login bob@example.org"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("due after expiry = %q, want %q", got, want)
	}
	if due[2].Secret == "" {
		t.Error("bob's login mail lost its code before it expired")
	}
	if got := countRows(t, f.db, `SELECT count(*) FROM outbox WHERE kind = 'login' AND secret IS NOT NULL`); got != 1 {
		t.Errorf("%d login mails hold a code, want 1 (bob's)", got)
	}
	if got := countRows(t, f.db, `SELECT count(*) FROM outbox WHERE email = 'ann@example.org' AND failed_at IS NOT NULL`); got != 1 {
		t.Error("ann's expired login mail is not marked failed")
	}
}
