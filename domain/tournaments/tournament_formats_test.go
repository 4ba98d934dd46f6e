package tournaments_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// Each round may have its own time control; the rest play under the
// tournament's, and the games of a round are created with the round's.
func TestRoundTimeControls(t *testing.T) {
	day := 24 * time.Hour
	first := t0.Add(time.Hour)
	perTurn := func(d time.Duration) games.TimeControl {
		return games.TimeControl{Kind: games.TimePerTurn, PerTurn: d}
	}
	tests := []struct {
		name   string
		spec   tournaments.NewTournamentSpec
		want   []time.Duration // per turn of rounds 1.. (0: no time control)
		reason string          // "" when the spec is accepted
	}{
		{name: "none given: the tournament's for all",
			spec: tournaments.NewTournamentSpec{Format: tournaments.Swiss, Rounds: 3, Time: perTurn(3 * day)},
			want: []time.Duration{3 * day, 3 * day, 3 * day}},
		{name: "the last round slower, a zero entry is the tournament's",
			spec: tournaments.NewTournamentSpec{Format: tournaments.Swiss, Rounds: 3, Time: perTurn(2 * day),
				RoundTimes: []games.TimeControl{{}, perTurn(2 * day), perTurn(5 * day)}},
			want: []time.Duration{2 * day, 2 * day, 5 * day}},
		{name: "a shorter list: later rounds the tournament's",
			spec: tournaments.NewTournamentSpec{Format: tournaments.Swiss, Rounds: 3, Time: perTurn(2 * day),
				RoundTimes: []games.TimeControl{perTurn(day)}},
			want: []time.Duration{day, 2 * day, 2 * day}},
		{name: "a round without time control in a timed event",
			spec: tournaments.NewTournamentSpec{Format: tournaments.Swiss, Rounds: 2, Time: perTurn(day),
				RoundTimes: []games.TimeControl{{Kind: games.TimeNone}}},
			want: []time.Duration{0, day}},
		{name: "more entries than rounds",
			spec: tournaments.NewTournamentSpec{Format: tournaments.Swiss, Rounds: 2,
				RoundTimes: []games.TimeControl{perTurn(day), perTurn(day), perTurn(day)}},
			reason: "a time control for round 3: the tournament has 2 rounds"},
		{name: "a bad entry names its round",
			spec: tournaments.NewTournamentSpec{Format: tournaments.Swiss, Rounds: 2,
				RoundTimes: []games.TimeControl{{}, perTurn(time.Minute)}},
			reason: "round 2's time control"},
		{name: "a round robin with sign-up may list its most rounds",
			spec: tournaments.NewTournamentSpec{Format: tournaments.RoundRobin, Registration: &tournaments.Registration{},
				RoundTimes: []games.TimeControl{perTurn(day), perTurn(2 * day), perTurn(3 * day), perTurn(4 * day), perTurn(5 * day)}},
			want: []time.Duration{day, 2 * day, 3 * day}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.spec
			spec.Name, spec.FirstStart, spec.Interval = "Cup", first, 10*day
			if spec.Registration == nil {
				spec.Players = players(4)
			}
			tour, err := tournaments.CreateTournament(spec, "t_1", testCreator, t0, 100)
			if tt.reason != "" {
				if err == nil || !strings.Contains(err.Error(), tt.reason) {
					t.Fatalf("CreateTournament: %v, want an error saying %q", err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range players(4)[len(tour.Entrants):] {
				if _, err := tour.Join(tournaments.Entrant{Player: p}, 0, tour.Registration.InviteVersion, t0); err != nil {
					t.Fatal(err)
				}
			}
			for i, want := range tt.want {
				now := tour.Rounds[i].Start
				r, toPlay, err := tour.StartRound(now)
				if err != nil || r == nil {
					t.Fatalf("round %d: %v", i+1, err)
				}
				for _, g := range toPlay {
					got := tour.GameSpec(r, g).Time
					if got.PerTurn != want || (want == 0) != (got.Kind == games.TimeNone) {
						t.Errorf("round %d game %d: time %+v, want %v per turn", r.Number, g, got, want)
					}
					if _, err := got.Normalize(2); err != nil {
						t.Errorf("round %d: the game's time control is refused: %v", r.Number, err)
					}
				}
				for j := range r.Games {
					r.Games[j].Outcome = &tournaments.PairingResult{Round: r.Number, White: r.Games[j].White, Black: r.Games[j].Black, Score: 1}
				}
				if err := tour.CloseRound(now); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// decideAll gives every undecided game of the round a result: White wins
// the first game of each pair, the return game is drawn (by the pairing's
// place), so both games of a pair count on their own.
func decideAll(t *testing.T, tour *tournaments.Tournament, r *tournaments.Round) {
	t.Helper()
	for i := range r.Games {
		g := &r.Games[i]
		if g.Outcome != nil {
			continue
		}
		score := 1.0
		if g.Return {
			score = 0.5
		}
		g.Outcome = &tournaments.PairingResult{Round: r.Number, White: g.White, Black: g.Black, Score: score}
	}
	if err := tour.CloseRound(r.Start); err != nil {
		t.Fatal(err)
	}
}

// A simultaneous event plays each pairing as two games on the round's
// board, colours reversed; each game scores on its own, a bye is two games
// won and a withdrawal forfeits both games.
func TestSimultaneousPairs(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		name      string
		format    tournaments.Format
		players   int
		rounds    int
		withdrawn int // entrant withdrawn before round 2; -1 none
		// the points after each round, by entrant (when given)
		points [][]float64
	}{
		{name: "round robin of 3: a bye is two games won", format: tournaments.RoundRobin, players: 3, withdrawn: -1,
			points: [][]float64{{2, 1.5, 0.5}, {2.5, 3.5, 2}, {4, 4, 4}}},
		{name: "swiss of 4 without rematches", format: tournaments.Swiss, players: 4, rounds: 3, withdrawn: -1},
		{name: "round robin of 4, a player withdraws: both games forfeited", format: tournaments.RoundRobin, players: 4, withdrawn: 3,
			points: [][]float64{{1.5, 1.5, 0.5, 0.5}, {2, 3.5, 2, 0.5}, {3.5, 4, 4, 0.5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Pairs", Format: tt.format, Rounds: tt.rounds,
				Players: players(tt.players), Simultaneous: true, FirstStart: t0.Add(time.Hour), Interval: 7 * day}, "t_1", testCreator, t0, 100)
			if err != nil {
				t.Fatal(err)
			}
			met := map[[2]int]int{}
			forfeits := 0
			for n := range tour.Rounds {
				if n == 1 && tt.withdrawn >= 0 {
					if ids, err := tour.Withdraw(tt.withdrawn, tournaments.WithdrawForfeit, tournaments.ByOrganiser, "", tour.Rounds[n].Start); err != nil || ids != nil {
						t.Fatalf("withdrawing between rounds: %v, %v", ids, err)
					}
				}
				r, toPlay, err := tour.StartRound(tour.Rounds[n].Start)
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Games)%2 != 0 {
					t.Fatalf("round %d: %d games, want pairs", r.Number, len(r.Games))
				}
				played := 0
				for i := 0; i < len(r.Games); i += 2 {
					a, b := r.Games[i], r.Games[i+1]
					if a.Return || !b.Return || r.Board(i) != i/2+1 || r.Board(i+1) != i/2+1 {
						t.Errorf("round %d games %d, %d: return %v %v, boards %d %d; want a pair on board %d", r.Number, i, i+1, a.Return, b.Return, r.Board(i), r.Board(i+1), i/2+1)
					}
					switch {
					case a.Black == tournaments.Bye:
						if b.White != a.White || b.Black != tournaments.Bye || a.Outcome == nil || b.Outcome == nil || a.Outcome.Score != 1 || b.Outcome.Score != 1 || a.Outcome == b.Outcome {
							t.Errorf("round %d: a bye %+v %+v; want two games won", r.Number, a, b)
						}
					case n >= 1 && (a.White == tt.withdrawn || a.Black == tt.withdrawn):
						forfeits++
						for _, g := range []tournaments.TournamentGame{a, b} {
							if g.Outcome == nil || !g.Outcome.Forfeit || (g.White == tt.withdrawn) != (g.Outcome.Score == 0) {
								t.Errorf("round %d: game %+v against the withdrawn player; want forfeited to the other", r.Number, g)
							}
						}
					default:
						if b.White != a.Black || b.Black != a.White {
							t.Errorf("round %d: return game %+v of %+v; want colours reversed", r.Number, b.Pairing, a.Pairing)
						}
						met[[2]int{min(a.White, a.Black), max(a.White, a.Black)}]++
						played += 2
						for _, g := range []tournaments.TournamentGame{a, b} {
							spec := tour.GameSpec(r, slices.Index(r.Games, g))
							if *spec.Seed != r.Seed || spec.Players[0] != tour.Entrants[g.White].Player {
								t.Errorf("round %d: game %+v on seed %d with %v first", r.Number, g.Pairing, *spec.Seed, spec.Players[0])
							}
						}
					}
				}
				if len(toPlay) != played {
					t.Errorf("round %d: %d games to play, want %d", r.Number, len(toPlay), played)
				}
				decideAll(t, &tour, r)
				if n < len(tt.points) {
					got := make([]float64, tt.players)
					for _, s := range tour.Standings() {
						got[s.Player] = s.Points
					}
					if !slices.Equal(got, tt.points[n]) {
						t.Errorf("after round %d: points %v, want %v", r.Number, got, tt.points[n])
					}
				}
			}
			if want := len(tour.Rounds) - 1; tt.withdrawn >= 0 && forfeits != want {
				t.Errorf("%d forfeited pairs, want %d (one each round after the withdrawal)", forfeits, want)
			}
			for pair, n := range met {
				if n != 1 {
					t.Errorf("pair %v met in %d rounds", pair, n)
				}
			}
			if tour.Status != tournaments.TournamentFinished {
				t.Errorf("status %s", tour.Status)
			}
		})
	}
}

// In a simultaneous event an entrant plays two games at once: correcting
// his address moves him in both, and withdrawing resigns both.
func TestServiceSimultaneousPair(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour, err := f.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Pairs", Format: tournaments.RoundRobin, Simultaneous: true,
		Players:    []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	f.now = t0.Add(time.Hour)
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if tour, err = f.tours.Tournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	games := tour.Current().Games
	if len(games) != 2 || games[0].GameID == "" || games[1].GameID == "" || games[0].GameID == games[1].GameID {
		t.Fatalf("round 1: %+v; want two games", games)
	}
	if _, err := f.tours.UpdateEntrant(ctx, tournaments.TournamentRequest{ID: tour.ID}, 1, tournaments.EntrantChange{Email: ptr("bob@example.net"), Correction: true, Reason: "typo"}); err != nil {
		t.Fatal(err)
	}
	for _, tg := range games {
		g, err := f.store.Game(ctx, tg.GameID)
		if err != nil {
			t.Fatal(err)
		}
		seat := 1
		if tg.White == 1 {
			seat = 0
		}
		if g.Seats[seat].Email != "bob@example.net" {
			t.Errorf("game %s: seat %d is %s; want Bob's corrected address", g.ID, seat, g.Seats[seat].Email)
		}
	}
	if _, err := f.tours.Withdraw(ctx, tournaments.TournamentRequest{ID: tour.ID}, 0, tournaments.WithdrawForfeit, tournaments.ByOrganiser, ""); err != nil {
		t.Fatal(err)
	}
	if tour, err = f.tours.Tournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	for _, tg := range tour.Rounds[0].Games {
		g, _ := f.store.Game(ctx, tg.GameID)
		if !g.Over() || tg.Outcome == nil || (tg.White == 0) != (tg.Outcome.Score == 0) {
			t.Errorf("game %s after Ann withdrew: over %v, outcome %+v; want resigned by her", tg.GameID, g.Over(), tg.Outcome)
		}
	}
	if s := tour.Standings(); s[0].Player != 1 || s[0].Points != 2 {
		t.Errorf("standings %+v; want Bob first with both games", s)
	}
}

// Withdrawing under WithdrawAnnul counts rounds played, not games: a
// simultaneous pair is one round's play.
func TestSimultaneousWithdrawAnnulCountsRounds(t *testing.T) {
	tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Pairs", Format: tournaments.RoundRobin, Simultaneous: true,
		Players: players(4), FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, "t_1", testCreator, t0, 100)
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := tour.StartRound(t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Games {
		r.Games[i].GameID = fmt.Sprintf("g_%d", i)
	}
	decideAll(t, &tour, r)
	// One round of three played (two games): fewer than half, so annulled.
	if _, err := tour.Withdraw(0, tournaments.WithdrawAnnul, tournaments.ByOrganiser, "", t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if !tour.Entrants[0].Annulled {
		t.Error("P0 withdrew after one round of three: his games are not annulled")
	}
}
