package tournaments_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// registering is a Swiss event open for sign-up, with Ann entered.
func registering(t *testing.T) tournaments.Tournament {
	t.Helper()
	tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 2,
		FirstStart: t0.Add(day), Interval: day, Registration: &tournaments.Registration{}}, "t_1", testCreator, t0, 7)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tour.Join(tournaments.Entrant{Player: games.Player{Name: "Ann", Email: "ann@example.org"}}, 5, 1, t0); err != nil {
		t.Fatal(err)
	}
	return tour
}

func actions(tour *tournaments.Tournament) []string {
	var out []string
	for _, e := range tour.Log {
		out = append(out, e.Action+" "+e.Detail)
	}
	return out
}

// A player who joins and leaves before the start, however often, leaves
// no trace in the log: his joining and leaving cancel out (each is still
// a change). They do not when something else named him in between (the
// log would speak of someone who never came), nor after the start.
func TestJoinAndLeaveCancelOut(t *testing.T) {
	bob := tournaments.Entrant{Player: games.Player{Name: "Bob", Email: "bob@example.org"}}
	t.Run("240 times", func(t *testing.T) {
		tour := registering(t)
		before := actions(&tour)
		for i := range 240 {
			version := tour.Version
			n, err := tour.Join(bob, 6, 1, t0.Add(time.Duration(i)*time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tour.Withdraw(n, "", tournaments.ByPlayer("Bob"), "", t0.Add(time.Duration(i)*time.Minute)); err != nil {
				t.Fatal(err)
			}
			if tour.Version != version+2 {
				t.Fatalf("cycle %d: the version went from %d to %d; a join and a leave are two changes", i, version, tour.Version)
			}
		}
		if got := actions(&tour); !slices.Equal(got, before) || len(tour.Entrants) != 1 {
			t.Errorf("after 240 joins and leaves the log is %q (was %q), %d entrants", got, before, len(tour.Entrants))
		}
		b, err := json.Marshal(tour)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 2000 {
			t.Errorf("the stored tournament is %d bytes after 240 joins and leaves", len(b))
		}
	})
	t.Run("others joined meanwhile", func(t *testing.T) {
		tour := registering(t)
		n, _ := tour.Join(bob, 6, 1, t0)
		if _, err := tour.Join(tournaments.Entrant{Player: games.Player{Name: "Cat", Email: "cat@example.org"}}, 7, 1, t0); err != nil {
			t.Fatal(err)
		}
		if _, err := tour.Withdraw(n, "", tournaments.ByPlayer("Bob"), "", t0); err != nil {
			t.Fatal(err)
		}
		if got, want := actions(&tour), []string{"joined Ann joined", "joined Cat joined"}; !slices.Equal(got, want) {
			t.Errorf("the log is %q, want %q", got, want)
		}
	})
	t.Run("added by the organiser", func(t *testing.T) {
		tour := registering(t)
		n, err := tour.AddEntrant(bob, "", t0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tour.Withdraw(n, "", tournaments.ByOrganiser, "", t0); err != nil {
			t.Fatal(err)
		}
		if got, want := actions(&tour), []string{"joined Ann joined"}; !slices.Equal(got, want) {
			t.Errorf("the log is %q, want %q", got, want)
		}
	})
	t.Run("renamed in between", func(t *testing.T) {
		tour := registering(t)
		n, _ := tour.Join(bob, 6, 1, t0)
		if err := tour.UpdateEntrant(n, tournaments.EntrantChange{Name: ptr("Robert")}, false, t0); err != nil {
			t.Fatal(err)
		}
		if _, err := tour.Withdraw(n, "", tournaments.ByPlayer("Robert"), "", t0); err != nil {
			t.Fatal(err)
		}
		want := []string{"joined Ann joined", "joined Bob joined", "entrant_edited Bob is now called Robert", "left Robert left before the start"}
		if got := actions(&tour); !slices.Equal(got, want) {
			t.Errorf("the log is %q, want %q", got, want)
		}
	})
	t.Run("after the start", func(t *testing.T) {
		tour := started(t)
		if _, err := tour.Withdraw(1, "", tournaments.ByPlayer("P1"), "", t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if last := tour.Log[len(tour.Log)-1]; last.Action != tournaments.ActionWithdrawn {
			t.Errorf("the log ends with %+v", last)
		}
	})
}

// The log keeps its newest entries: TrimLog drops the oldest and counts
// them. An entry keeps its number however many go before it, so a mail
// about it finds it, or finds it gone; the next entry numbers on.
func TestTrimLog(t *testing.T) {
	tour := swiss4(t)
	for i := range 250 {
		if err := tour.Pause(fmt.Sprint(i), t0); err != nil {
			t.Fatal(err)
		}
		if _, err := tour.Resume("", t0); err != nil {
			t.Fatal(err)
		}
	}
	tour.TrimLog(200)
	if len(tour.Log) != 200 || tour.Trimmed != 300 || tour.LastLogNumber() != 500 {
		t.Fatalf("after trimming 500 entries to 200: %d kept, %d trimmed, the last numbered %d", len(tour.Log), tour.Trimmed, tour.LastLogNumber())
	}
	if _, ok := tour.LogEntryNumbered(300); ok {
		t.Error("entry 300 is still found")
	}
	if e, ok := tour.LogEntryNumbered(301); !ok || e.Action != tournaments.ActionPaused || e.Reason != "150" {
		t.Errorf("entry 301 is %+v, %v; want the 151st pause", e, ok)
	}
	if err := tour.Pause("again", t0); err != nil {
		t.Fatal(err)
	}
	if e, ok := tour.LogEntryNumbered(501); !ok || e.Reason != "again" || tour.LastLogNumber() != 501 {
		t.Errorf("the next entry is %+v, %v, the last %d", e, ok, tour.LastLogNumber())
	}
	tour.TrimLog(200)
	if len(tour.Log) != 200 || tour.Trimmed != 301 {
		t.Errorf("after one more: %d kept, %d trimmed", len(tour.Log), tour.Trimmed)
	}
}

// A log stored before entries were numbered numbers them by their place,
// which is what mail queued then names.
func TestLogStoredBeforeNumbers(t *testing.T) {
	tour := swiss4(t)
	at := t0.Add(time.Hour)
	for range 3 {
		if err := tour.Pause("", at); err != nil {
			t.Fatal(err)
		}
		if _, err := tour.Resume("", at); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(tour)
	if err != nil {
		t.Fatal(err)
	}
	var old tournaments.Tournament // as stored before: no numbers, no count
	if err := json.Unmarshal(b, &old); err != nil {
		t.Fatal(err)
	}
	for i := range old.Log {
		old.Log[i].Number = 0
	}
	old.Logged = 0
	if e, ok := old.LogEntryNumbered(5); !ok || e.Action != tournaments.ActionPaused || old.LastLogNumber() != 6 {
		t.Errorf("entry 5 of an old log: %+v, %v; last %d", e, ok, old.LastLogNumber())
	}
	if err := old.Pause("new", at); err != nil {
		t.Fatal(err)
	}
	old.TrimLog(4)
	if e, ok := old.LogEntryNumbered(7); !ok || e.Reason != "new" || old.Trimmed != 3 {
		t.Errorf("entry 7 after trimming an old log: %+v, %v; %d trimmed", e, ok, old.Trimmed)
	}
	if e, ok := old.LogEntryNumbered(4); !ok || e.Action != tournaments.ActionResumed {
		t.Errorf("entry 4 after trimming an old log: %+v, %v", e, ok)
	}
}

// Through the use cases: joining and leaving again and again before the
// start leaves the stored log as it was and mails nobody (a team's partner
// was told of each entry, whose log entry is then gone); the organiser's
// actions past the server's bound keep the newest entries, and each mail
// names its entry by a number that stays its own.
func TestServiceLogStaysBounded(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tours := tournaments.NewService(tournaments.Config{Store: f.store, Now: func() time.Time { return f.now }, Log: 20})
	spec := teamSpec(0)
	spec.Registration = &tournaments.Registration{Public: true}
	tour, err := tours.CreateTournament(ctx, spec, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	req := tournaments.TournamentRequest{ID: tour.ID}
	// A mailed action first: leaving, which logs nothing, must not mail
	// it again.
	if _, err := tours.PostponeRound(ctx, req, 1, day, "club holiday"); err != nil {
		t.Fatal(err)
	}
	ann := domain.User{ID: annID, Email: "ann@example.org"}
	entry := tournaments.Entrant{Player: games.Player{Name: "Ann"}, Partner: &games.Player{Name: "Bob", Email: "bob@example.org"}}
	seen := len(f.store.Queued())
	for range 240 {
		if _, err := tours.JoinTournament(ctx, req, ann, entry, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := tours.Withdraw(ctx, req, 0, "", tournaments.ByPlayer("Ann"), ""); err != nil {
			t.Fatal(err)
		}
	}
	stored, err := tours.Tournament(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored.Log) != 1 || len(stored.Entrants) != 0 || stored.LastLogNumber() != 241 {
		t.Errorf("after 240 joins and leaves: log %q, %d entrants, last number %d", actions(&stored), len(stored.Entrants), stored.LastLogNumber())
	}
	var mail []string
	for _, q := range f.store.Queued()[seen:] {
		if _, ok := stored.LogEntryNumbered(q.Ply); ok || q.Email != "bob@example.org" {
			mail = append(mail, fmt.Sprintf("%s %d %s", q.Kind, q.Ply, q.Email))
		}
	}
	if len(mail) != 0 {
		t.Errorf("mail but the partner's (of entries since gone): %q", mail)
	}

	for range 15 {
		if _, err := tours.PauseTournament(ctx, req, "holiday"); err != nil {
			t.Fatal(err)
		}
		if _, err := tours.ResumeTournament(ctx, req, "back"); err != nil {
			t.Fatal(err)
		}
	}
	if stored, err = tours.Tournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if len(stored.Log) != 20 || stored.Trimmed != 11 || stored.LastLogNumber() != 271 {
		t.Errorf("after 30 actions under a bound of 20: %d kept, %d trimmed, the last numbered %d", len(stored.Log), stored.Trimmed, stored.LastLogNumber())
	}
	if first := stored.Log[0]; first.Number != 252 || first.Action != tournaments.ActionPaused {
		t.Errorf("the oldest entry kept is %+v", first)
	}
}
