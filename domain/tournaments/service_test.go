package tournaments_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// What the tournaments' use cases do to the store and its mail.

// An organiser's words (a reason, a team's name) reach only entrants who
// signed up themselves; a player he typed in gets the same mail without
// them, counted against his budget, and a partner named at sign-up too.
// Addresses typed in that asked for no mail are refused.
func TestMailPolicyTournamentWords(t *testing.T) {
	f := newFixture(t)
	ctx := asRequester(t.Context(), "user:1", "ip:192.0.2.1")
	spec := tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players:    []games.Player{{Name: "Bob", Email: "bob@example.org"}, {Name: "Cat", Email: "cat@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour, Registration: &tournaments.Registration{Public: true}}
	tour, err := f.tours.CreateTournament(ctx, spec, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	req := tournaments.TournamentRequest{ID: tour.ID}
	ann := domain.User{ID: annID, Email: "ann@example.org"}
	if _, err := f.tours.JoinTournament(ctx, req, ann, tournaments.Entrant{Player: games.Player{Name: "Ann"}}, 0); err != nil {
		t.Fatal(err)
	}
	if err := f.store.Suppress(ctx, "dan@example.org", f.now); err != nil {
		t.Fatal(err)
	}
	if _, err := f.tours.AddEntrant(ctx, req, tournaments.Entrant{Player: games.Player{Name: "Dan", Email: "dan+cup@example.org"}}, ""); domain.CodeOf(err) != domain.CodeAddressSuppressed {
		t.Errorf("entering a suppressed address: %v, want %s", err, domain.CodeAddressSuppressed)
	}
	if _, err := f.tours.UpdateEntrant(ctx, req, 0, tournaments.EntrantChange{Email: ptr("dan@example.org"), Correction: true, Reason: "a typo"}); domain.CodeOf(err) != domain.CodeAddressSuppressed {
		t.Errorf("correcting an address to a suppressed one: %v, want %s", err, domain.CodeAddressSuppressed)
	}
	replace := tournaments.EntrantChange{Name: ptr("Dan"), Email: ptr("dan@example.org"), Replace: true, Reason: "Bob left"}
	if _, err := f.tours.UpdateEntrant(ctx, req, 0, replace); domain.CodeOf(err) != domain.CodeAddressSuppressed {
		t.Errorf("replacing a player by a suppressed address: %v, want %s", err, domain.CodeAddressSuppressed)
	}
	seen := len(f.store.Queued())
	if _, err := f.tours.PauseTournament(ctx, req, "Cheap pills http://spam.example"); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, q := range f.store.Queued()[seen:] {
		got[q.Email] = fmt.Sprintf("quiet %v budgeted %v", q.Quiet, q.Budgeted)
	}
	want := map[string]string{
		"ann@example.org": "quiet false budgeted false", // she signed up
		"bob@example.org": "quiet true budgeted true",   // typed in by the organiser
		"cat@example.org": "quiet true budgeted true",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the pause's mail: %v, want %v", got, want)
	}
}

// What the schedule does to an event is its organiser's doing: the rounds
// of his events mail a stranger he typed in no more than a request of his
// could; past that the rounds go on and the stranger is not mailed.
func TestMailPolicyScheduledRoundsAreTheOrganisers(t *testing.T) {
	f := newFixture(t)
	limit := domain.DefaultMailLimits.PairPerDay
	var ids []string
	for i := range limit + 2 {
		tour, err := f.tours.CreateTournament(t.Context(), tournaments.NewTournamentSpec{Name: fmt.Sprint("Cup ", i), Format: tournaments.RoundRobin,
			Players:    []games.Player{{Name: "Vic", Email: "vic@example.org"}, {Name: fmt.Sprint("P", i), Email: fmt.Sprintf("p%d@example.org", i)}},
			FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tour.ID)
	}
	f.now = t0.Add(time.Hour)
	for _, id := range ids {
		if acted, err := f.tours.TickTournament(t.Context(), id); err != nil || !acted {
			t.Fatalf("round 1 of %s: %v, %v", id, acted, err)
		}
		if tour, _ := f.tours.Tournament(t.Context(), id); tour.Current() == nil || tour.Current().Games[0].GameID == "" {
			t.Errorf("%s: round 1 did not start with its game", id)
		}
	}
	vic, others := 0, 0
	for _, q := range f.store.Queued() {
		switch {
		case q.Email == "vic@example.org":
			vic++
		case q.Kind == domain.NoticeInvitation && q.Email[0] == 'p':
			others++
		}
	}
	if vic != limit || others != limit+2 {
		t.Errorf("invitations: %d to the stranger in every event, %d to the others; want %d and %d", vic, others, limit, limit+2)
	}
}

// An entrant the organiser typed in who has played a turn in the event
// takes part: its mail counts against nothing of his, as a game's once he
// played in it, though it still leaves out the organiser's words; one who
// has not is a stranger to it.
func TestMailPolicyEntrantsWhoPlayed(t *testing.T) {
	f := newFixture(t)
	tour, err := f.tours.CreateTournament(t.Context(), tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.DoubleRoundRobin,
		Players:    []games.Player{{Name: "Vic", Email: "vic@example.org"}, {Name: "Wes", Email: "wes@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	f.now = t0.Add(time.Hour)
	if _, err := f.tours.TickTournament(t.Context(), tour.ID); err != nil {
		t.Fatal(err)
	}
	tour, _ = f.tours.Tournament(t.Context(), tour.ID)
	g, err := f.store.Game(t.Context(), tour.Current().Games[0].GameID)
	if err != nil {
		t.Fatal(err)
	}
	mover := g.Seats[0] // White moves first
	if _, _, err := f.svc.SubmitTurn(t.Context(), games.GameRequest{GameID: g.ID, By: seat(g, mover.Color)}, 0, legalOpening(t, g), present); err != nil {
		t.Fatal(err)
	}
	seen := len(f.store.Queued())
	if _, err := f.tours.PauseTournament(t.Context(), tournaments.TournamentRequest{ID: tour.ID}, "holidays"); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, q := range f.store.Queued()[seen:] {
		got[q.Email] = fmt.Sprintf("budgeted %v quiet %v", q.Budgeted, q.Quiet)
	}
	other := g.Seats[1].Email
	if got[mover.Email] != "budgeted false quiet true" || got[other] != "budgeted true quiet true" {
		t.Errorf("the pause's mail: %v; want %s (who played) not counted, %s counted, both without the reason", got, mover.Email, other)
	}
}

// An organiser's change to his event happens however its mail fares: past
// a stranger's allowance his pause, and the resumption that undoes it, go
// ahead without mail to him.
func TestMailPolicyOrganiserCanAlwaysResume(t *testing.T) {
	f := newFixture(t)
	ctx := asRequester(t.Context(), "user:1", "ip:192.0.2.1")
	tour, err := f.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players:    []games.Player{{Name: "Bob", Email: "bob@example.org"}, {Name: "Cat", Email: "cat@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	req := tournaments.TournamentRequest{ID: tour.ID}
	seen := len(f.store.Queued())
	limit := domain.DefaultMailLimits.PairPerDay
	for i := range limit {
		if _, err := f.tours.PauseTournament(ctx, req, ""); err != nil {
			t.Fatalf("pause %d: %v", i, err)
		}
		if _, err := f.tours.ResumeTournament(ctx, req, ""); err != nil {
			t.Fatalf("resumption %d: %v", i, err)
		}
	}
	bob := 0
	for _, q := range f.store.Queued()[seen:] {
		if q.Email == "bob@example.org" {
			bob++
		}
	}
	if bob != limit {
		t.Errorf("Bob got %d emails of %d pauses and resumptions, want %d", bob, 2*limit, limit)
	}
	// But not without end: each takes from his hourly allowance of
	// requests that email others, mail sent or not.
	change := func(i int) error {
		if i%2 == 0 {
			_, err := f.tours.PauseTournament(ctx, req, "")
			return err
		}
		_, err := f.tours.ResumeTournament(ctx, req, "")
		return err
	}
	for i := 2 * limit; i < domain.DefaultMailLimits.CallerPerHour; i++ {
		if err := change(i); err != nil {
			t.Fatalf("change %d: %v", i, err)
		}
	}
	if err := change(domain.DefaultMailLimits.CallerPerHour); domain.CodeOf(err) != domain.CodeMailLimited {
		t.Errorf("change %d within the hour: %v, want %s", domain.DefaultMailLimits.CallerPerHour, err, domain.CodeMailLimited)
	}
}

// A tournament of Les: every game of a round is Les on the tournament's
// board side; a result counts with Les's margin (LE4), and a pairing
// forfeited by a withdrawal counts Les's forfeit margin, not Less's.
func TestServiceLesTournament(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	players := []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"},
		{Name: "Cat", Email: "cat@example.org"}, {Name: "Dan", Email: "dan@example.org"}}
	if _, err := f.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Hex", Format: tournaments.RoundRobin,
		Ruleset: "les", Params: map[string]string{"size": "2"}, Players: players,
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID); domain.CodeOf(err) != domain.CodeInvalidInput {
		t.Errorf("a Les tournament on a board of side 2: %v, want invalid_input", err)
	}
	tour, err := f.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Hex", Format: tournaments.RoundRobin,
		Ruleset: "les", Params: map[string]string{"size": "5"}, Players: players,
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	f.now = t0.Add(time.Hour)
	if acted, err := f.tours.TickTournament(ctx, tour.ID); err != nil || !acted {
		t.Fatalf("at the start: TickTournament = %v, %v", acted, err)
	}
	if tour, err = f.tours.Tournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	r := tour.Current()
	if len(r.Games) != 2 {
		t.Fatalf("round 1 of 4 players: %+v", r.Games)
	}
	for _, pg := range r.Games {
		g, err := f.store.Game(ctx, pg.GameID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := g.Rules.Board("")
		if err != nil || g.Rules.Ruleset() != les.RulesetName || b.Rows != 2*5-1 || g.Seats[0].Email != tour.Entrants[pg.White].Email {
			t.Fatalf("game %s: %T, seats %+v", g.ID, g.Rules, g.Seats)
		}
	}
	// The first pairing's setter resigns: his opponent wins by 1 (LE4).
	first := r.Games[0]
	g, _ := f.store.Game(ctx, first.GameID)
	if _, _, err := f.svc.Resign(ctx, games.GameRequest{GameID: g.ID, By: seat(g, "setter")}, present); err != nil {
		t.Fatal(err)
	}
	// Black of the second pairing withdraws before playing: a forfeit.
	second := r.Games[1]
	if _, err := f.tours.Withdraw(ctx, tournaments.TournamentRequest{ID: tour.ID}, second.Black, tournaments.WithdrawForfeit, tournaments.ByOrganiser, ""); err != nil {
		t.Fatal(err)
	}
	f.now = t0.Add(25 * time.Hour) // the round's deadline has passed
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if tour, err = f.tours.Tournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	margins := map[int]int{}
	for _, o := range tour.Outcomes() {
		if o.Round == 1 {
			margins[o.White] = o.Margin
		}
	}
	if margins[first.White] != -1 || margins[second.White] != 1 {
		t.Errorf("round 1 margins by White %v; want -1 for the resigned setter, +1 for the forfeit", margins)
	}
	for _, o := range tour.Outcomes() {
		if o.Forfeit && (o.Margin > 1 || o.Margin < -1) {
			t.Errorf("a forfeit counts %d, more than Les's margin of 1", o.Margin)
		}
	}
}

// A tournament of three: its first round starts on schedule with one game
// and a bye, withdrawing resigns the withdrawn player's game, and a
// cancelled tournament starts no more rounds.
func TestServiceTournament(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour, err := f.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"},
			{Name: "Cat", Email: "cat@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	if acted, err := f.tours.TickTournament(ctx, tour.ID); err != nil || acted {
		t.Errorf("before the start: TickTournament = %v, %v; want nothing done", acted, err)
	}
	f.now = t0.Add(time.Hour)
	if due, err := f.tours.DueTournaments(ctx, 10); err != nil || !slices.Contains(due, tour.ID) {
		t.Errorf("at the start: due %v, %v", due, err)
	}
	if acted, err := f.tours.TickTournament(ctx, tour.ID); err != nil || !acted {
		t.Fatalf("at the start: TickTournament = %v, %v", acted, err)
	}
	if acted, err := f.tours.TickTournament(ctx, tour.ID); err != nil || acted {
		t.Errorf("ticking again: %v, %v; want nothing done", acted, err)
	}
	tour, err = f.tours.Tournament(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	r := tour.Current()
	var gameID string
	var inGame int
	for _, g := range r.Games {
		if g.GameID != "" {
			gameID, inGame = g.GameID, g.White
		}
	}
	var byes int
	for _, q := range f.store.Queued() {
		if q.Kind == domain.NoticeBye {
			byes++
		}
	}
	if gameID == "" || byes != 1 {
		t.Fatalf("round 1: games %+v, %d byes; want a game and a bye", r.Games, byes)
	}
	if _, err := f.tours.Withdraw(ctx, tournaments.TournamentRequest{ID: tour.ID}, inGame, tournaments.WithdrawForfeit, tournaments.ByOrganiser, ""); err != nil {
		t.Fatal(err)
	}
	if g, _ := f.store.Game(ctx, gameID); !g.Over() || result(g).Reason != string(less.ReasonResignation) {
		t.Errorf("the withdrawn player's game: over %v, result %+v; want resigned", g.Over(), result(g))
	}
	if _, err := f.tours.CancelTournament(ctx, tournaments.TournamentRequest{ID: tour.ID}, ""); err != nil {
		t.Fatal(err)
	}
	queued := len(f.store.Queued())
	f.now = t0.Add(50 * time.Hour)
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if n := len(f.store.Queued()); n != queued {
		t.Errorf("a cancelled tournament's tick queued %d notices", n-queued)
	}
}

// One mailbox holds one place in an event, however its addresses are
// tagged: each more would be one email more to it for every round.
func TestOneMailboxOnePlace(t *testing.T) {
	f := newFixture(t)
	_, err := f.tours.CreateTournament(t.Context(), tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players:    []games.Player{{Name: "Vic", Email: "vic@example.org"}, {Name: "Vic 2", Email: "vic+2@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
	if domain.CodeOf(err) != domain.CodeDuplicateAddress {
		t.Errorf("two places of one mailbox: %v, want %s", err, domain.CodeDuplicateAddress)
	}
}
