package games_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// A reminder belongs to the deadline it was sent for: when a vacation
// declared afterwards moves the deadline later, the reminders come again
// before the new deadline; when the deadline moves back earlier, none is
// sent twice.
func TestRemindersFollowTheDeadline(t *testing.T) {
	tc := games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * day, AllowVacation: true}
	g := timedGame(t, twoPlayers(), tc, nil)
	deadline := t0.Add(3 * day)
	sub, err := games.Tick(g, deadline.Add(-23*time.Hour)) // the 24 h reminder
	if err != nil || len(sub.Notices) != 1 {
		t.Fatalf("first reminder: %v %+v", err, sub.Notices)
	}
	reminded := sub.Game

	// White declares two days away, starting after the reminder.
	away := games.Away{reminded.SeatIndex(white): {{Start: deadline.Add(-22 * time.Hour), End: deadline.Add(26 * time.Hour)}}}
	moved := games.WithVacations(reminded, away)
	newDeadline := deadline.Add(48 * time.Hour)
	if !moved.Clock.Deadline.Equal(newDeadline) {
		t.Fatalf("deadline %v, want %v", moved.Clock.Deadline, newDeadline)
	}
	if want := newDeadline.Add(-24 * time.Hour); !moved.Clock.NextDue().Equal(want) {
		t.Fatalf("next due %v, want the 24 h reminder of the new deadline %v", moved.Clock.NextDue(), want)
	}
	again, err := games.Tick(moved, newDeadline.Add(-23*time.Hour))
	if err != nil || len(again.Notices) != 1 || again.Notices[0].Kind != domain.NoticeReminder {
		t.Fatalf("reminder before the new deadline: %v %+v", err, again.Notices)
	}
	if _, err := games.Tick(again.Game, newDeadline.Add(-23*time.Hour)); !notDue(err) {
		t.Errorf("the reminder came twice: %v", err)
	}
	if !again.Game.Clock.NextDue().Equal(newDeadline.Add(-time.Hour)) {
		t.Errorf("next due %v, want the 1 h reminder", again.Game.Clock.NextDue())
	}

	// Cancelled: the deadline moves back; the 24 h reminder was sent for a
	// later one and is not sent again, the 1 h one still comes.
	back := games.WithVacations(again.Game, nil)
	if !back.Clock.Deadline.Equal(deadline) || !back.Clock.NextDue().Equal(deadline.Add(-time.Hour)) {
		t.Errorf("after cancelling: next due %v, want %v", back.Clock.NextDue(), deadline.Add(-time.Hour))
	}

	// A clock stored before reminders knew their deadline keeps its count.
	data, err := json.Marshal(reminded.Clock)
	if err != nil {
		t.Fatal(err)
	}
	var old map[string]any
	json.Unmarshal(data, &old)
	delete(old, "RemindedFor")
	data, _ = json.Marshal(old)
	var stored games.Clock
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatal(err)
	}
	if !stored.NextDue().Equal(deadline.Add(-time.Hour)) {
		t.Errorf("an old clock's next due %v, want the 1 h reminder", stored.NextDue())
	}
}
