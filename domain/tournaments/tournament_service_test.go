package tournaments_test

import (
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// startDuel creates a one-round event of Ann and Bob, 3 days per turn, and
// starts it: it returns the tournament and its game.
func startDuel(t *testing.T, f *fixture) (tournaments.Tournament, games.Game) {
	t.Helper()
	ctx := t.Context()
	tour, err := f.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Duel", Format: tournaments.RoundRobin,
		Players:    []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		Time:       games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * day},
		FirstStart: f.now.Add(time.Hour), RoundLength: 10 * day, Interval: 10 * day}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(time.Hour)
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if tour, err = f.tours.Tournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	g, err := f.store.Game(ctx, tour.RunningGames()[0])
	if err != nil {
		t.Fatal(err)
	}
	return tour, g
}

// Pausing the event stops its game's clock: the scheduler neither times
// the game out nor closes the round; resuming moves both deadlines by the
// pause.
func TestServicePauseTournament(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour, g := startDuel(t, f)
	req := tournaments.TournamentRequest{ID: tour.ID}
	turnDeadline, roundDeadline := g.Clock.Deadline, tour.Rounds[0].Deadline
	f.now = f.now.Add(day)
	if _, err := f.tours.PauseTournament(ctx, req, "holidays"); err != nil {
		t.Fatal(err)
	}
	if g, _ = f.store.Game(ctx, g.ID); !g.Clock.Deadline.IsZero() {
		t.Fatalf("a paused game has the deadline %v", g.Clock.Deadline)
	}
	f.now = roundDeadline.Add(time.Hour)
	if due, _ := f.svc.DueGames(ctx, 10); len(due) != 0 {
		t.Errorf("games due during the pause: %v", due)
	}
	if acted, err := f.tours.TickTournament(ctx, tour.ID); err != nil || acted {
		t.Errorf("the scheduler acted on a paused event: %v, %v", acted, err)
	}
	pause := f.now.Sub(t0.Add(time.Hour + day))
	done, err := f.tours.ResumeTournament(ctx, req, "")
	if err != nil {
		t.Fatal(err)
	}
	if g, _ = f.store.Game(ctx, g.ID); !g.Clock.Deadline.Equal(turnDeadline.Add(pause)) {
		t.Errorf("after the pause the turn's deadline is %v, want %v", g.Clock.Deadline, turnDeadline.Add(pause))
	}
	if got := done.Tournament.Rounds[0].Deadline; !got.Equal(roundDeadline.Add(pause)) {
		t.Errorf("after the pause the round ends %v, want %v", got, roundDeadline.Add(pause))
	}
	var events int
	for _, who := range []string{"ann@example.org", "bob@example.org"} {
		evs, err := f.store.Events(ctx, domain.EventFilter{Email: who}, domain.EventPos{}, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.Kind == domain.EventTournamentUpdate && e.Data.Tournament == tour.ID {
				events++
			}
		}
	}
	if events != 4 {
		t.Errorf("%d tournament_update events, want a pause and a resumption for each player", events)
	}
}

// Replacing a player who has not moved puts the newcomer in his seat with
// a new link, sent to him; the old address is told.
func TestServiceReplaceEntrant(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour, g := startDuel(t, f)
	req := tournaments.TournamentRequest{ID: tour.ID}
	black := 1
	if tour.Rounds[0].Games[0].Black != 1 {
		black = 0
	}
	queued := len(f.store.Queued())
	if _, err := f.tours.UpdateEntrant(ctx, req, black, tournaments.EntrantChange{Name: ptr("Cat"), Email: ptr("cat@example.org"), Replace: true, Reason: "Bob is ill"}); err != nil {
		t.Fatal(err)
	}
	after, _ := f.store.Game(ctx, g.ID)
	if s := after.Seats[1]; s.Email != "cat@example.org" || s.Name != "Cat" || s.TokenVersion != g.Seats[1].TokenVersion+1 {
		t.Errorf("Black's seat after the replacement: %+v", s)
	}
	// The newcomer is invited; the player put out is told, in his language.
	mail := f.store.Queued()[queued:]
	if len(mail) != 2 || mail[0].Kind != domain.NoticeInvitation || mail[0].Email != "cat@example.org" ||
		mail[1].Kind != domain.NoticeTournamentUpdate || mail[1].Email != g.Seats[1].Email {
		t.Errorf("mail after the replacement: %+v", mail)
	}
	// A correction of the name keeps the link.
	if _, err := f.tours.UpdateEntrant(ctx, req, black, tournaments.EntrantChange{Name: ptr("Catherine")}); err != nil {
		t.Fatal(err)
	}
	renamed, _ := f.store.Game(ctx, g.ID)
	if s := renamed.Seats[1]; s.Name != "Catherine" || s.TokenVersion != after.Seats[1].TokenVersion {
		t.Errorf("Black's seat after the correction: %+v", s)
	}
}

// A change names only what changes, and is applied to the entrant as the
// unit of work reads him: a new name after an address correction keeps
// the corrected address (a request built from an older read would not).
func TestServiceEntrantChangeKeepsWhatItDoesNotName(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour, _ := startDuel(t, f)
	req := tournaments.TournamentRequest{ID: tour.ID}
	if _, err := f.tours.UpdateEntrant(ctx, req, 0, tournaments.EntrantChange{Email: ptr("ann@example.net"), Correction: true}); err != nil {
		t.Fatal(err)
	}
	done, err := f.tours.UpdateEntrant(ctx, req, 0, tournaments.EntrantChange{Name: ptr("Anna")})
	if err != nil {
		t.Fatal(err)
	}
	if e := done.Tournament.Entrants[0]; e.Name != "Anna" || e.Email != "ann@example.net" {
		t.Errorf("after a correction and a new name: %+v", e.Player)
	}
}

// An extension moves the game's turn deadline and its adjudication, and a
// retry with the same Idempotency-Key does not extend it again.
func TestServiceExtendGame(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour, g := startDuel(t, f)
	idem := &domain.Idempotency{Scope: "user:1", Key: "k", Fingerprint: []byte("extend")}
	req := tournaments.TournamentRequest{ID: tour.ID, Idem: idem, Present: func(t *tournaments.Tournament) (domain.Response, error) {
		return domain.Response{Status: 200, Body: []byte(t.ID)}, nil
	}}
	for i := range 2 {
		done, err := f.tours.ExtendGame(ctx, req, g.ID, 2*day, "power cut")
		if err != nil {
			t.Fatal(err)
		}
		if done.Replayed != (i == 1) || string(done.Response.Body) != tour.ID {
			t.Errorf("attempt %d: replayed %v, response %q", i+1, done.Replayed, done.Response.Body)
		}
	}
	after, _ := f.store.Game(ctx, g.ID)
	if !after.Clock.Deadline.Equal(g.Clock.Deadline.Add(2 * day)) {
		t.Errorf("the turn's deadline %v, want %v", after.Clock.Deadline, g.Clock.Deadline.Add(2*day))
	}
	tour, _ = f.tours.Tournament(ctx, tour.ID)
	if got := tour.Rounds[0].GameDeadline(0); !got.Equal(tour.Rounds[0].Deadline.Add(2 * day)) {
		t.Errorf("the game is adjudicated at %v", got)
	}
	if !tour.NextDue().Equal(tour.Rounds[0].ReminderAt(0)) || !tour.Rounds[0].ReminderAt(0).After(tour.Rounds[0].Deadline) {
		t.Errorf("the event is next due at %v, want the extended game's reminder %v", tour.NextDue(), tour.Rounds[0].ReminderAt(0))
	}
}

// Once the last round has closed and the final standings are out, a result
// can no longer be set or annulled: the event is over (409 tournament_over),
// and nothing changes or is mailed.
func TestServiceOverrideAfterTheEndIsRefused(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour, g := startDuel(t, f)
	if _, _, err := f.svc.Resign(ctx, games.GameRequest{GameID: g.ID, By: seat(g, black)}, present); err != nil {
		t.Fatal(err)
	}
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	over, err := f.tours.Tournament(ctx, tour.ID)
	if err != nil || over.Status != tournaments.TournamentFinished {
		t.Fatalf("after its only game: %s, %v", over.Status, err)
	}
	queued := len(f.store.Queued())
	req := tournaments.TournamentRequest{ID: tour.ID}
	for _, annul := range []bool{false, true} {
		if _, err := f.tours.OverrideResult(ctx, req, 1, 0, 0.5, 0, annul, "a late complaint"); domain.CodeOf(err) != domain.CodeTournamentOver {
			t.Errorf("override (annul %v) after the end: %v, want %s", annul, err, domain.CodeTournamentOver)
		}
	}
	after, err := f.tours.Tournament(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != over.Version || *after.Rounds[0].Games[0].Outcome != *over.Rounds[0].Games[0].Outcome || len(after.Log) != len(over.Log) {
		t.Errorf("the finished event changed: %+v", after.Rounds[0].Games[0])
	}
	if n := len(f.store.Queued()); n != queued {
		t.Errorf("%d emails queued by a refused override", n-queued)
	}
}

// The use case refuses a schedule whose rounds end before a turn's time
// (see TestRoundsOutlastATurn) and stores nothing.
func TestServiceRefusesRoundsShorterThanATurn(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	_, err := f.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Rush", Format: tournaments.RoundRobin,
		Players:    []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		Time:       games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * day},
		FirstStart: f.now.Add(time.Hour), Interval: day}, creatorID)
	if domain.CodeOf(err) != domain.CodeInvalidInput {
		t.Fatalf("rounds of a day with turns of 3 days: %v, want %s", err, domain.CodeInvalidInput)
	}
	page, err := f.store.AccountTournaments(ctx, creatorID, "org@example.org", f.now, tournaments.Organising, "", 10)
	if err != nil || len(page.Tournaments) != 0 {
		t.Errorf("a refused tournament was stored: %+v, %v", page.Tournaments, err)
	}
}
