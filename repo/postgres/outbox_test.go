package postgres_test

import (
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/games"
)

// DueMail lists undelivered due mail in order, claimed or not; MarkSent
// records a delivery whoever holds the mail (for tests and tools).
func TestDueMailAndMarkSent(t *testing.T) {
	db := open(t)
	g := createGame(t, db, "g_due", games.TimeControl{})
	ctx := t.Context()
	if due, err := db.DueMail(ctx, t0.Add(-time.Millisecond), 10); err != nil || len(due) != 0 {
		t.Errorf("due before it was queued: %+v, %v", due, err)
	}
	due, err := db.DueMail(ctx, t0, 10)
	if err != nil || len(due) != 2 || due[0].Notice.Color != "white" || due[1].Notice.Color != "black" ||
		due[0].Notice.GameID != g.ID || !due[0].CreatedAt.Equal(t0) {
		t.Fatalf("DueMail = %+v, %v; want both invitations", due, err)
	}
	if _, err := db.ClaimMail(ctx, "w", t0, time.Hour, 1); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkSent(ctx, due[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	if due, err := db.DueMail(ctx, t0, 10); err != nil || len(due) != 1 || due[0].Notice.Color != "black" {
		t.Errorf("DueMail after a delivery = %+v, %v; want black's invitation", due, err)
	}
}
