package tournaments

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/games"
)

// A knockout match level on points and margins gets a deciding game the
// moment its games end (the lower seed White, a round's length or
// TiebreakLength to play, later rounds moved back as far as it overruns);
// its winner goes through, a drawn one sends the higher seed, and
// TiebreakSeed sends the higher seed at once.
func TestKnockoutDecidingGame(t *testing.T) {
	const day = 24 * time.Hour
	start := time.Date(2025, 3, 1, 13, 0, 0, 0, time.UTC)
	type result struct {
		score  float64
		margin int
	}
	tests := []struct {
		name         string
		simultaneous bool
		tiebreak     KnockoutTiebreak
		length       time.Duration
		// The games of the match seed 1 – seed 4 (entrants 0 and 3), each
		// from its White's side; the match seed 2 – seed 3 is won by seed 2.
		games   []result
		decider *result // the deciding game's result, White's (seed 4's) side; nil: none expected
		// want
		deadline time.Time // the deciding game's; zero: none
		moved    time.Duration
		winner   int
	}{
		{name: "a drawn game: a deciding game, the lower seed wins it", games: []result{{0.5, 0}},
			decider: &result{1, 3}, deadline: start.Add(2*day + 7*day), moved: 2 * day, winner: 3},
		{name: "a drawn deciding game sends the higher seed", games: []result{{0.5, 0}},
			decider: &result{0.5, 0}, deadline: start.Add(9 * day), moved: 2 * day, winner: 0},
		{name: "the higher seed wins the deciding game", games: []result{{0.5, 0}},
			decider: &result{0, -2}, deadline: start.Add(9 * day), moved: 2 * day, winner: 0},
		{name: "a short deciding game moves nothing", games: []result{{0.5, 0}}, length: 2 * day,
			decider: &result{1, 1}, deadline: start.Add(4 * day), winner: 3},
		{name: "simultaneous 1–1, margins level", simultaneous: true, games: []result{{1, 4}, {1, 4}},
			decider: &result{1, 2}, deadline: start.Add(9 * day), moved: 2 * day, winner: 3},
		{name: "simultaneous 1–1, margins apart: no deciding game", simultaneous: true, games: []result{{1, 5}, {1, 4}},
			winner: 0},
		{name: "a won game: no deciding game", games: []result{{0, -1}}, winner: 3},
		{name: "tie-break by seed: no deciding game", tiebreak: TiebreakSeed, games: []result{{0.5, 0}}, winner: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ps []games.Player
			for i := range 4 {
				ps = append(ps, games.Player{Name: fmt.Sprintf("P%d", i), Email: fmt.Sprintf("p%d@example.org", i)})
			}
			tour, err := CreateTournament(NewTournamentSpec{Name: "Cup", Format: Knockout, Simultaneous: tt.simultaneous, Players: ps,
				FirstStart: start, Interval: 7 * day, KnockoutTiebreak: tt.tiebreak, TiebreakLength: tt.length}, "t_1", 1, start.Add(-day), 5)
			if err != nil {
				t.Fatal(err)
			}
			want := cmpOr(tt.tiebreak, TiebreakGame)
			if tour.KnockoutTiebreak != want {
				t.Fatalf("tie-break %q, want %q", tour.KnockoutTiebreak, want)
			}
			r, _, err := tour.StartRound(start)
			if err != nil {
				t.Fatal(err)
			}
			nextStart := tour.Rounds[1].Start
			played := 0
			for i := range r.Games {
				g := &r.Games[i]
				g.GameID = fmt.Sprintf("g_%d", i)
				res := result{1, 1} // seed 2 wins his match
				if g.White == 2 {
					res = result{0, -1}
				}
				if g.White == 0 || g.White == 3 {
					res = tt.games[played]
					played++
				}
				g.Outcome = &PairingResult{Round: 1, White: g.White, Black: g.Black, Score: res.score, Margin: res.margin}
			}
			now := start.Add(2 * day)
			toPlay := tour.addDeciders(r, now)
			if tt.decider == nil {
				if len(toPlay) != 0 || slices.ContainsFunc(r.Games, func(g TournamentGame) bool { return g.Decider }) {
					t.Fatalf("a deciding game: %+v", r.Games)
				}
			} else {
				if len(toPlay) != 1 || toPlay[0] != len(r.Games)-1 {
					t.Fatalf("games to create %v of %d; want the last", toPlay, len(r.Games))
				}
				i := toPlay[0]
				g := &r.Games[i]
				if !g.Decider || g.White != 3 || g.Black != 0 || g.Outcome != nil {
					t.Fatalf("deciding game %+v; want seed 4 White against seed 1, undecided", g)
				}
				if got := r.GameDeadline(i); !got.Equal(tt.deadline) {
					t.Errorf("deadline %v, want %v", got, tt.deadline)
				}
				if r.Board(i) != 1 {
					t.Errorf("board %d, want its match's, 1", r.Board(i))
				}
				if got := tour.Rounds[1].Start.Sub(nextStart); got != tt.moved {
					t.Errorf("the next round moved by %v, want %v", got, tt.moved)
				}
				last := tour.Log[len(tour.Log)-1]
				if last.Action != ActionDecider || last.Args == nil || !slices.Equal(last.Args.Players, []string{"P3", "P0"}) || !strings.Contains(last.Detail, "P0 – P3") {
					t.Errorf("logged %+v", last)
				}
				if _, decided := tour.MatchWinner(1, 0, 3); decided {
					t.Error("the match is decided before its deciding game")
				}
				if again := tour.addDeciders(r, now); len(again) != 0 {
					t.Errorf("a second deciding game: %v", again)
				}
				g.Outcome = &PairingResult{Round: 1, White: 3, Black: 0, Score: tt.decider.score, Margin: tt.decider.margin}
			}
			if w, decided := tour.MatchWinner(1, 0, 3); !decided || w != tt.winner {
				t.Errorf("winner %d (decided %v), want %d", w, decided, tt.winner)
			}
			if err := tour.CloseRound(now); err != nil {
				t.Fatal(err)
			}
			if _, _, err := tour.StartRound(tour.Rounds[1].Start); err != nil {
				t.Fatal(err)
			}
			if got := tour.Bracket[1]; !slices.Equal(got, []int{tt.winner, 1}) {
				t.Errorf("the final's slots %v, want %d and 1", got, tt.winner)
			}
		})
	}
}

func cmpOr[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}

// A knockout stored before deciding games existed has no KnockoutTiebreak:
// its level matches go to the higher seed, as they did.
func TestKnockoutStoredBeforeDecidingGames(t *testing.T) {
	start := time.Date(2025, 3, 1, 13, 0, 0, 0, time.UTC)
	tour, err := CreateTournament(NewTournamentSpec{Name: "Cup", Format: Knockout, FirstStart: start, Interval: 24 * time.Hour,
		Players: []games.Player{{Name: "A", Email: "a@example.org"}, {Name: "B", Email: "b@example.org"}}}, "t_1", 1, start.Add(-time.Hour), 5)
	if err != nil {
		t.Fatal(err)
	}
	tour.KnockoutTiebreak = ""
	r, _, err := tour.StartRound(start)
	if err != nil {
		t.Fatal(err)
	}
	r.Games[0].GameID = "g_1"
	r.Games[0].Outcome = &PairingResult{Round: 1, White: 0, Black: 1, Score: 0.5}
	if got := tour.addDeciders(r, start); len(got) != 0 || len(r.Games) != 1 {
		t.Errorf("a deciding game %v in %+v", got, r.Games)
	}
	if w, ok := tour.MatchWinner(1, 0, 1); !ok || w != 0 {
		t.Errorf("winner %d (decided %v), want the higher seed", w, ok)
	}
}
