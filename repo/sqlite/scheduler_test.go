package sqlite

import (
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
)

// outboxKinds counts the outbox rows of a game by kind.
func outboxKinds(t *testing.T, db *DB, gameID string) map[domain.NoticeKind]int {
	t.Helper()
	mail, err := db.GameMail(t.Context(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[domain.NoticeKind]int{}
	for _, m := range mail {
		out[m.Kind]++
	}
	return out
}

// Reminders and the time-out run once, whoever runs the scheduler and how
// often; a restart in between changes nothing.
func TestSchedulerActsOnce(t *testing.T) {
	ctx := t.Context()
	path := freshPath(t)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Open(ctx, path) // another server on the same file
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	organiser := signUp(t, db, "org@example.org", t0)
	g, err := db.serviceAt(t0).CreateGame(ctx, games.NewGameSpec{
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		Time:    games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour},
	}, organiser.ID)
	if err != nil {
		t.Fatal(err)
	}
	deadline := t0.Add(3 * 24 * time.Hour)

	if ids, _ := db.DueGames(ctx, deadline.Add(-25*time.Hour), 10); len(ids) != 0 {
		t.Fatalf("due before the first reminder: %v", ids)
	}
	at := deadline.Add(-23 * time.Hour)
	ids, err := db.DueGames(ctx, at, 10)
	if err != nil || len(ids) != 1 || ids[0] != g.ID {
		t.Fatalf("due games %v, %v", ids, err)
	}
	// Two schedulers tick the same game at once: one acts.
	var wg sync.WaitGroup
	acted := make([]bool, 2)
	for i, store := range []*DB{db, second} {
		wg.Go(func() {
			ok, err := store.serviceAt(at).TickGame(ctx, g.ID)
			if err != nil {
				t.Errorf("tick %d: %v", i, err)
			}
			acted[i] = ok
		})
	}
	wg.Wait()
	if acted[0] == acted[1] {
		t.Fatalf("acted %v, want exactly one", acted)
	}
	if k := outboxKinds(t, db, g.ID); k[domain.NoticeReminder] != 1 {
		t.Fatalf("reminders queued: %v", k)
	}

	// A restart between the due time and the action: the state is in the file.
	db.Close()
	if db, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ok, _ := db.serviceAt(at).TickGame(ctx, g.ID); ok {
		t.Fatal("the reminder ran again after a restart")
	}
	// Bob unsubscribed from reminders, but it is Ann's turn: hers still comes.
	if err := db.Unsubscribe(ctx, "ann@example.org", at); err != nil {
		t.Fatal(err)
	}
	if ok, err := db.serviceAt(deadline.Add(-30*time.Minute)).TickGame(ctx, g.ID); !ok || err != nil {
		t.Fatalf("1 h reminder: %v %v", ok, err)
	}
	if k := outboxKinds(t, db, g.ID); k[domain.NoticeReminder] != 1 {
		t.Errorf("a reminder was queued for an address that unsubscribed: %v", k)
	}

	// The deadline passes: White loses on time, both are told, once.
	if ok, err := db.serviceAt(deadline).TickGame(ctx, g.ID); !ok || err != nil {
		t.Fatalf("time-out: %v %v", ok, err)
	}
	if ok, _ := second.serviceAt(deadline.Add(time.Minute)).TickGame(ctx, g.ID); ok {
		t.Error("timed out twice")
	}
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := lessOf(t, got).Game.Result()
	if !got.Over() || r.Reason != less.ReasonTimeout || r.Loser != less.SideWhite {
		t.Fatalf("result %+v", r)
	}
	if k := outboxKinds(t, db, g.ID); k[domain.NoticeGameOver] != 2 {
		t.Errorf("game over mail %v", k)
	}
	if ids, _ := db.DueGames(ctx, deadline.Add(time.Hour), 10); len(ids) != 0 {
		t.Errorf("a finished game is still due: %v", ids)
	}
}

// A vacation declared while it is the player's turn moves his deadline,
// and cancelling it moves it back.
func TestVacationMovesRunningDeadlines(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	ann := signUp(t, db, "ann@example.org", t0)
	g, err := db.serviceAt(t0).CreateGame(ctx, games.NewGameSpec{
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		Time:    games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour, AllowVacation: true},
	}, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	day := 24 * time.Hour
	v, err := db.serviceAt(t0.Add(time.Hour)).DeclareVacation(ctx, ann, games.Period{Start: t0.Add(day), End: t0.Add(3 * day)})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := db.Game(ctx, g.ID)
	if want := t0.Add(5 * day); !got.Clock.Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v", got.Clock.Deadline, want)
	}
	current, left, err := db.serviceAt(t0.Add(time.Hour)).Vacations(ctx, ann)
	if err != nil || len(current) != 1 || left != 12 {
		t.Errorf("vacations %+v, %d days left, %v", current, left, err)
	}
	if _, err := db.serviceAt(t0.Add(time.Hour)).DeclareVacation(ctx, ann, games.Period{Start: t0.Add(2 * day), End: t0.Add(4 * day)}); err == nil {
		t.Error("an overlapping vacation was accepted")
	}
	if err := db.serviceAt(t0.Add(2*time.Hour)).CancelVacation(ctx, ann, v.ID); err != nil {
		t.Fatal(err)
	}
	got, _ = db.Game(ctx, g.ID)
	if want := t0.Add(3 * day); !got.Clock.Deadline.Equal(want) {
		t.Errorf("deadline after cancelling %v, want %v", got.Clock.Deadline, want)
	}
}
