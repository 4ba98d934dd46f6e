package tournaments_test

import (
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// unplayedFixture creates an event without a clock (nobody times out, so a
// game nobody moves in reaches its round's deadline), rounds of a day from
// an hour on, and starts its first round.
func unplayedFixture(t *testing.T, f *fixture, spec tournaments.NewTournamentSpec) tournaments.Tournament {
	t.Helper()
	ctx := t.Context()
	spec.Name, spec.FirstStart, spec.Interval = "No-shows", f.now.Add(time.Hour), day
	tour, err := f.tours.CreateTournament(ctx, spec, creatorID)
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
	return tour
}

// A game in which nobody moved by its round's deadline is no draw: it is a
// double forfeit, lost by both (0 points each, a game played and lost in
// the standings), logged, and its players are told so instead of the
// game's adjudication. A game with a move is adjudicated as before.
func TestServiceUnplayedGameIsADoubleForfeit(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour := unplayedFixture(t, f, tournaments.NewTournamentSpec{Format: tournaments.Swiss, Rounds: 1, Players: players(4)})
	round := tour.Rounds[0].Games
	moved, err := f.store.Game(ctx, round[1].GameID)
	if err != nil {
		t.Fatal(err)
	}
	white := moved.ToMove()
	if _, _, err := f.svc.SubmitTurn(ctx, games.GameRequest{GameID: moved.ID, By: seat(moved, white)}, 0, legalOpening(t, moved), present); err != nil {
		t.Fatal(err)
	}
	queued := len(f.store.Queued())
	f.now = tour.Rounds[0].Deadline
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	after, err := f.tours.Tournament(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	unplayed, played := after.Rounds[0].Games[0], after.Rounds[0].Games[1]
	if o := unplayed.Outcome; o == nil || !unplayed.Unplayed || !o.Forfeit || o.Score != 0 || o.Margin != 0 || !o.BothForfeited() {
		t.Errorf("the game nobody moved in: %+v, outcome %+v; want a double forfeit", unplayed, o)
	}
	if o := played.Outcome; o == nil || played.Unplayed || o.Forfeit {
		t.Errorf("the game with a move: %+v, outcome %+v; want its adjudication", played, o)
	}
	if g, _ := f.store.Game(ctx, unplayed.GameID); !g.Over() {
		t.Errorf("the unplayed game still runs")
	}
	for _, s := range after.Standings() {
		if s.Player != unplayed.White && s.Player != unplayed.Black {
			continue
		}
		if s.Points != 0 || s.Played != 1 || s.Lost != 1 || s.Drawn != 0 || s.Margins != 0 {
			t.Errorf("a player of the unplayed game stands %+v; want one game played and lost, 0 points", s)
		}
	}
	if after.Status != tournaments.TournamentFinished {
		t.Errorf("the event is %s after its last deadline", after.Status)
	}
	last := after.Log[len(after.Log)-1]
	if last.Action != tournaments.ActionUnplayed || last.By != tournaments.ByScheduler ||
		last.Detail != "the game P0 – P2 of round 1 had no move by its deadline: a double forfeit, lost by both" {
		t.Errorf("the log ends with %+v", last)
	}
	var told []string
	for _, q := range f.store.Queued()[queued:] {
		if q.GameID == unplayed.GameID {
			t.Errorf("the unplayed game's own mail was queued: %+v", q)
		}
		if q.Kind == domain.NoticeTournamentUpdate {
			told = append(told, q.Email)
		}
	}
	slices.Sort(told)
	if want := []string{"p0@example.org", "p2@example.org"}; !slices.Equal(told, want) {
		t.Errorf("tournament_update mail to %v, want %v", told, want)
	}
}

// legalOpening is a legal first turn of g: the cheapest move offered, as
// long as the turn may not end.
func legalOpening(t *testing.T, g games.Game) string {
	t.Helper()
	turn := ""
	for {
		legal, err := g.Rules.Legal(turn)
		if err != nil {
			t.Fatal(err)
		}
		if legal.CanEnd && legal.Left == 0 || len(legal.Choices) == 0 {
			return turn
		}
		c := legal.Choices[0]
		for _, o := range legal.Choices {
			if o.Cost < c.Cost {
				c = o
			}
		}
		if turn != "" {
			turn += ":"
		}
		turn += c.From + c.To
	}
}

// A Swiss event may pair again the two players of a double forfeit: they
// never met. Here they are the two on zero points, and meet in round 2.
func TestSwissPairsADoubleForfeitAgain(t *testing.T) {
	outcomes := []tournaments.PairingResult{
		{Round: 1, White: 0, Black: 1, Forfeit: true}, // nobody moved
		{Round: 1, White: 2, Black: 3, Score: 0.5},
		{Round: 1, White: 4, Black: 5, Score: 0.5},
	}
	pairings, err := tournaments.SwissPairings(6, 2, outcomes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(pairings, func(p tournaments.Pairing) bool { return p.White+p.Black == 1 && p.White*p.Black == 0 }) {
		t.Errorf("round 2 pairs %v; want the two without a point together again", pairings)
	}
}

// A knockout match nobody played sends the higher seed through at its
// deadline, without a deciding game (which would hold up the bracket).
func TestServiceKnockoutUnplayedMatch(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour := unplayedFixture(t, f, tournaments.NewTournamentSpec{Format: tournaments.Knockout, Players: players(4), KnockoutTiebreak: tournaments.TiebreakGame})
	// Seeds 1 and 4 (entrants 0 and 3) meet, and 2 and 3 (1 and 2): the
	// latter play, and entrant 2 wins.
	var playedID string
	for _, g := range tour.Rounds[0].Games {
		if g.White == 1 || g.Black == 1 {
			playedID = g.GameID
		}
	}
	g, err := f.store.Game(ctx, playedID)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.Resign(ctx, games.GameRequest{GameID: g.ID, By: seat(g, g.Seats[0].Color)}, present); err != nil {
		t.Fatal(err)
	}
	f.now = tour.Rounds[0].Deadline
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	after, err := f.tours.Tournament(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	r := after.Rounds[0]
	if r.Status != tournaments.RoundClosed || len(r.Games) != 2 {
		t.Fatalf("round 1 is %s with %d games; want closed without a deciding game", r.Status, len(r.Games))
	}
	if w, decided := after.MatchWinner(1, 0, 3); !decided || w != 0 {
		t.Errorf("the unplayed match goes to %d (decided %v); want the higher seed, 0", w, decided)
	}
	f.now = after.Rounds[1].Start
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if after, err = f.tours.Tournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if final := after.Rounds[1].Games; len(final) != 1 || final[0].White != 0 || final[0].Black != 2 {
		t.Errorf("the final pairs %+v; want entrants 0 and 2", final)
	}
}
