package tournaments_test

import (
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/tournaments"
)

func TestSeededBracket(t *testing.T) {
	const bye = tournaments.Bye
	tests := []struct {
		n      int
		rounds int
		want   []int
	}{
		{1, 0, nil},
		{2, 1, []int{0, 1}},
		{3, 2, []int{0, bye, 1, 2}},
		{4, 2, []int{0, 3, 1, 2}},
		{5, 3, []int{0, bye, 3, 4, 1, bye, 2, bye}},
		{8, 3, []int{0, 7, 3, 4, 1, 6, 2, 5}},
		{9, 4, []int{0, bye, 7, 8, 3, bye, 4, bye, 1, bye, 6, bye, 2, bye, 5, bye}},
	}
	for _, tt := range tests {
		got := tournaments.SeededBracket(tt.n)
		if !slices.Equal(got, tt.want) || tournaments.KnockoutRoundCount(tt.n) != tt.rounds {
			t.Errorf("n=%d: bracket %v, %d rounds; want %v, %d", tt.n, got, tournaments.KnockoutRoundCount(tt.n), tt.want, tt.rounds)
		}
	}
}

// knockoutGame is a scripted result: White's score and margin in the
// game of a and b with a White (a game with b White is the reverse).
type knockoutGame struct {
	white, black int
	score        float64
	margin       int
}

// A knockout played round by round from scripted results: the bracket,
// byes for the top seeds, who goes through (points, then margins, then the
// higher seed), withdrawals, and the final standings by round reached.
func TestKnockout(t *testing.T) {
	day := 24 * time.Hour
	const bye = tournaments.Bye
	tests := []struct {
		name         string
		players      int
		simultaneous bool
		// results by round: the score of the game with this White and Black
		// (missing: White wins by 1).
		results   []map[[2]int]knockoutGame
		withdraw  map[int]int // entrant → before round (1-based)
		brackets  [][]int
		ranks     []int // by entrant
		champion  int
		gameCount []int // games per round (byes included)
	}{
		{name: "5 players: byes for seeds 1-3, upsets go through", players: 5,
			results: []map[[2]int]knockoutGame{
				{{3, 4}: {3, 4, 0, -3}}, // seed 5 beats seed 4
				{{0, 4}: {0, 4, 0, -1}}, // and seed 1
				{{1, 4}: {1, 4, 0, -2}}, // and seed 2
			},
			brackets:  [][]int{{0, bye, 3, 4, 1, bye, 2, bye}, {0, 4, 1, 2}, {4, 1}},
			ranks:     []int{3, 2, 3, 5, 1},
			champion:  4,
			gameCount: []int{4, 2, 1}},
		{name: "a drawn game: margins are level, the higher seed goes through", players: 2,
			results:   []map[[2]int]knockoutGame{{{0, 1}: {0, 1, 0.5, 0}}},
			brackets:  [][]int{{0, 1}},
			ranks:     []int{1, 2},
			champion:  0,
			gameCount: []int{1}},
		{name: "pairs 1–1: the greater sum of margins goes through, then the higher seed", players: 4, simultaneous: true,
			results: []map[[2]int]knockoutGame{
				{{0, 3}: {0, 3, 1, 2}, {3, 0}: {3, 0, 1, 5}, {1, 2}: {1, 2, 1, 4}, {2, 1}: {2, 1, 0, -1}},
				{{3, 1}: {3, 1, 1, 1}, {1, 3}: {1, 3, 1, 1}},
			},
			brackets:  [][]int{{0, 3, 1, 2}, {3, 1}},
			ranks:     []int{3, 1, 3, 2},
			champion:  1, // the final 1–1, margins level: seed 2 beats seed 4
			gameCount: []int{2, 1}},
		{name: "a winner who withdraws: his next opponent wins by forfeit", players: 8,
			withdraw:  map[int]int{3: 2},
			brackets:  [][]int{{0, 7, 3, 4, 1, 6, 2, 5}, {0, 3, 1, 2}, {0, 1}},
			ranks:     []int{1, 2, 3, 3, 5, 5, 5, 5},
			champion:  0,
			gameCount: []int{4, 2, 1}},
		{name: "two withdrawn send nobody: a bye in the final", players: 8,
			withdraw:  map[int]int{1: 2, 2: 2},
			brackets:  [][]int{{0, 7, 3, 4, 1, 6, 2, 5}, {0, 3, 1, 2}, {0, bye}},
			ranks:     []int{1, 2, 2, 2, 5, 5, 5, 5},
			champion:  0,
			gameCount: []int{4, 2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.Knockout, Simultaneous: tt.simultaneous,
				Players: players(tt.players), FirstStart: t0.Add(time.Hour), Interval: 7 * day}, "t_1", testCreator, t0, 100)
			if err != nil {
				t.Fatal(err)
			}
			if len(tour.Rounds) != len(tt.brackets) {
				t.Fatalf("%d rounds, want %d", len(tour.Rounds), len(tt.brackets))
			}
			for n := range tour.Rounds {
				now := tour.Rounds[n].Start
				for e, before := range tt.withdraw {
					if before == n+1 {
						if _, err := tour.Withdraw(e, tournaments.WithdrawForfeit, tournaments.ByOrganiser, "", now); err != nil {
							t.Fatal(err)
						}
					}
				}
				r, _, err := tour.StartRound(now)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(tour.Bracket[n], tt.brackets[n]) {
					t.Errorf("round %d: bracket %v, want %v", r.Number, tour.Bracket[n], tt.brackets[n])
				}
				if len(r.Games) != tt.gameCount[n]*(1+btoi(tt.simultaneous)) {
					t.Errorf("round %d: %d games %+v, want %d matches", r.Number, len(r.Games), r.Games, tt.gameCount[n])
				}
				for i := range r.Games {
					g := &r.Games[i]
					if g.Black != bye && !g.Return && g.White > g.Black {
						t.Errorf("round %d: %+v; want the higher seed White", r.Number, g.Pairing)
					}
					if g.Outcome != nil {
						continue
					}
					res := knockoutGame{g.White, g.Black, 1, 1}
					if n < len(tt.results) {
						if s, ok := tt.results[n][[2]int{g.White, g.Black}]; ok {
							res = s
						}
					}
					g.Outcome = &tournaments.PairingResult{Round: r.Number, White: g.White, Black: g.Black, Score: res.score, Margin: res.margin}
				}
				if err := tour.CloseRound(now); err != nil {
					t.Fatal(err)
				}
			}
			if tour.Status != tournaments.TournamentFinished {
				t.Fatalf("status %s after the final", tour.Status)
			}
			final := tour.Bracket[len(tour.Bracket)-1]
			if w, ok := tour.MatchWinner(len(tour.Rounds), final[0], final[1]); !ok || w != tt.champion {
				t.Errorf("champion %d (decided %v), want %d", w, ok, tt.champion)
			}
			got := make([]int, tt.players)
			for _, s := range tour.Standings() {
				got[s.Player] = s.Rank
			}
			if !slices.Equal(got, tt.ranks) {
				t.Errorf("ranks %v, want %v", got, tt.ranks)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A match is decided only when all its games are.
func TestMatchWinnerUndecided(t *testing.T) {
	tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.Knockout, Simultaneous: true,
		Players: players(2), FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, "t_1", testCreator, t0, 100)
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := tour.StartRound(t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	r.Games[0].Outcome = &tournaments.PairingResult{Round: 1, White: 0, Black: 1, Score: 1, Margin: 3}
	if _, ok := tour.MatchWinner(1, 0, 1); ok {
		t.Error("decided with its return game still playing")
	}
}

// A knockout's matches decided who went through: a withdrawal cannot annul
// them.
func TestKnockoutRefusesAnnul(t *testing.T) {
	tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.Knockout,
		Players: players(4), FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, "t_1", testCreator, t0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tour.StartRound(t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := tour.Withdraw(3, tournaments.WithdrawAnnul, tournaments.ByOrganiser, "", t0.Add(2*time.Hour)); err == nil || tour.Entrants[3].Withdrawn {
		t.Errorf("withdrawing under annul: %v, withdrawn %v; want refused", err, tour.Entrants[3].Withdrawn)
	}
}
