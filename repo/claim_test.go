package repo

import (
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
)

// testClaimant claims mail in tests that deliver as one worker.
const testClaimant = "test"

const testLease = 5 * time.Minute

// claimAll claims every claimable mail for testClaimant.
func claimAll(t *testing.T, db *DB, now time.Time) []domain.OutboxMail {
	t.Helper()
	_, mail := claim(t, db, testClaimant, now, 1000)
	return mail
}

// claim claims up to limit mails and lists them as "kind email" strings.
func claim(t *testing.T, db *DB, claimant string, now time.Time, limit int) (string, []domain.OutboxMail) {
	t.Helper()
	mail, err := db.ClaimMail(t.Context(), claimant, now, testLease, limit)
	if err != nil {
		t.Fatalf("ClaimMail %s: %v", claimant, err)
	}
	var out []string
	for _, m := range mail {
		out = append(out, string(m.Notice.Kind)+" "+m.Email)
	}
	return strings.Join(out, "|"), mail
}

// claimFixture is the outbox fixture plus a turn, so that black@ has a
// thread of two mails: t0+1m ann's login; t0+2m the invitations of white@
// and black@; t0+3m bob's login; t0+4m black@'s "your turn".
func claimFixture(t *testing.T) outboxFixture {
	t.Helper()
	f := newOutboxFixture(t)
	if err := submitTurn(t.Context(), f.db, f.game.ID, seatOf(less.White), 0, firstTurn, t0.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	return f
}

// Two claimants never hold one mail: each claim takes the oldest mail
// nobody holds, and mail stays claimed until its lease ends.
func TestClaimMailTwoClaimants(t *testing.T) {
	f := claimFixture(t)
	now := t0.Add(time.Hour)
	steps := []struct {
		claimant string
		at       time.Time
		limit    int
		want     string
	}{
		{"a", now, 2, "login ann@example.org|invitation white@example.org"},
		{"b", now, 2, "invitation black@example.org|login bob@example.org"},
		// black@'s "your turn" waits for its invitation, which b holds.
		{"a", now, 100, ""},
		{"b", now.Add(testLease - time.Millisecond), 100, ""},
		// The leases have ended: all of it can be claimed again, in order.
		{"b", now.Add(testLease), 100, "login ann@example.org|invitation white@example.org|invitation black@example.org|" +
			"login bob@example.org|your_turn black@example.org"},
	}
	for i, s := range steps {
		if got, _ := claim(t, f.db, s.claimant, s.at, s.limit); got != s.want {
			t.Errorf("step %d: %s claimed %q, want %q", i, s.claimant, got, s.want)
		}
	}
}

// A mail is not claimed while an earlier mail of its thread (address and
// game) is claimed or waiting for a retry; once that one is delivered or
// due again, the two are claimed in order.
func TestClaimMailKeepsThreadOrder(t *testing.T) {
	ctx := t.Context()
	f := claimFixture(t)
	now := t0.Add(time.Hour)
	_, a := claim(t, f.db, "a", now, 3) // ann's login and both invitations
	black := a[2]
	if black.Notice.Kind != domain.NoticeInvitation || black.Email != "black@example.org" {
		t.Fatalf("third claimed mail = %+v", black)
	}
	if got, _ := claim(t, f.db, "b", now, 100); got != "login bob@example.org" {
		t.Errorf("b claimed %q while a holds black@'s invitation", got)
	}

	// The invitation fails; until its retry, black@'s "your turn" waits
	// (a's other claims last beyond it).
	retry := now.Add(testLease / 2)
	if err := f.db.MarkAttemptFailed(ctx, "a", black.ID, domain.MailFailure{Code: "temporary_failure", Message: "try later"}, retry, now); err != nil {
		t.Fatal(err)
	}
	if got, _ := claim(t, f.db, "b", retry.Add(-time.Millisecond), 100); got != "" {
		t.Errorf("b claimed %q while black@'s invitation waits for its retry", got)
	}
	// Retried, it goes first, with the "your turn" behind it in one claim.
	got, mail := claim(t, f.db, "b", retry, 100)
	if got != "invitation black@example.org|your_turn black@example.org" {
		t.Fatalf("b claimed %q at the retry", got)
	}
	if mail[0].ID != black.ID || mail[0].Attempts != 1 {
		t.Errorf("retried invitation = %+v", mail[0])
	}

	// Delivered, the thread's next mail is free: here a new one.
	if err := f.db.MarkSentBatch(ctx, "b", []domain.SentMail{{ID: mail[0].ID, At: retry}}); err != nil {
		t.Fatal(err)
	}
	if err := resignGame(ctx, f.db, f.game.ID, seatOf(less.Black), retry); err != nil {
		t.Fatal(err)
	}
	// white@'s game over waits for white@'s invitation (held by a), black@'s
	// for black@'s "your turn" (held by b).
	if got, _ := claim(t, f.db, "c", retry, 100); got != "" {
		t.Errorf("c claimed %q", got)
	}
	if err := f.db.MarkSentBatch(ctx, "b", []domain.SentMail{{ID: mail[1].ID, At: retry}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := claim(t, f.db, "c", retry, 100); got != "game_over black@example.org" {
		t.Errorf("c claimed %q, want black@'s game over", got)
	}
}

// An outcome counts only from the mail's claimant: once another claimant
// took the mail over after the lease ended, what the first one records,
// sent, failed or released, is ignored.
func TestClaimMailOutcomeOfLostLease(t *testing.T) {
	now := t0.Add(time.Hour)
	later := now.Add(testLease)
	tests := []struct {
		name   string
		record func(db *DB, id int64) error
	}{
		{"sent", func(db *DB, id int64) error {
			return db.MarkSentBatch(t.Context(), "a", []domain.SentMail{{ID: id, At: later}})
		}},
		{"retry", func(db *DB, id int64) error {
			return db.MarkAttemptFailed(t.Context(), "a", id, domain.MailFailure{Code: "temporary_failure", Message: "x"}, later.Add(time.Hour), later)
		}},
		{"given up", func(db *DB, id int64) error {
			return db.MarkAttemptFailed(t.Context(), "a", id, domain.MailFailure{Code: "rejected", Message: "x"}, time.Time{}, later)
		}},
		{"released", func(db *DB, id int64) error { return db.ReleaseMail(t.Context(), "a", []int64{id}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newOutboxFixture(t)
			_, a := claim(t, f.db, "a", now, 1) // ann's login
			if got, _ := claim(t, f.db, "b", later, 1); got != "login ann@example.org" {
				t.Fatalf("b claimed %q after a's lease ended", got)
			}
			if err := tt.record(f.db, a[0].ID); err != nil {
				t.Fatal(err)
			}
			// b still holds it: nobody else can claim it, and it is unchanged.
			if got, _ := claim(t, f.db, "c", later, 1); got != "invitation white@example.org" {
				t.Errorf("c claimed %q; a's outcome freed ann's login", got)
			}
			var attempts int
			var sent, failed, secret bool
			if err := f.db.read.QueryRowContext(t.Context(), `SELECT attempts, sent_at IS NOT NULL, failed_at IS NOT NULL,
				secret IS NOT NULL FROM outbox WHERE id = ?`, a[0].ID).Scan(&attempts, &sent, &failed, &secret); err != nil {
				t.Fatal(err)
			}
			if attempts != 0 || sent || failed || !secret {
				t.Errorf("a's outcome was recorded: attempts %d, sent %v, failed %v, secret kept %v", attempts, sent, failed, secret)
			}
			// b's own outcome counts.
			if err := f.db.MarkSentBatch(t.Context(), "b", []domain.SentMail{{ID: a[0].ID, At: later}}); err != nil {
				t.Fatal(err)
			}
			if s := secretOf(t, f.db, a[0].ID); s.Valid {
				t.Error("b's delivery was not recorded: the login code is still stored")
			}
			var by string
			if err := f.db.read.QueryRowContext(t.Context(), `SELECT claimed_by FROM outbox WHERE id = ?`, a[0].ID).Scan(&by); err != nil || by != "b" {
				t.Errorf("delivered by %q (%v), want b", by, err)
			}
		})
	}
}

// A claim whose claimant never records an outcome (it crashed) keeps the
// mail from others until the lease ends, then the mail is claimed again,
// with the rest of its thread behind it; a released claim is free at once.
func TestClaimMailAfterCrashAndRelease(t *testing.T) {
	f := claimFixture(t)
	now := t0.Add(time.Hour)
	if got, _ := claim(t, f.db, "crashed", now, 100); !strings.HasSuffix(got, "your_turn black@example.org") {
		t.Fatalf("claimed %q", got)
	}
	if got, _ := claim(t, f.db, "b", now.Add(testLease-time.Millisecond), 100); got != "" {
		t.Errorf("claimed %q within the crashed claimant's lease", got)
	}
	got, mail := claim(t, f.db, "b", now.Add(testLease), 100)
	if got != "login ann@example.org|invitation white@example.org|invitation black@example.org|login bob@example.org|your_turn black@example.org" {
		t.Errorf("after the lease: claimed %q", got)
	}
	var ids []int64
	for _, m := range mail {
		ids = append(ids, m.ID)
	}
	if err := f.db.ReleaseMail(t.Context(), "b", ids[2:]); err != nil {
		t.Fatal(err)
	}
	if got, _ := claim(t, f.db, "c", now.Add(testLease), 100); got != "invitation black@example.org|login bob@example.org|your_turn black@example.org" {
		t.Errorf("after a release: claimed %q", got)
	}
}
