package domain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// Each round may have its own time control; the rest play under the
// tournament's, and the games of a round are created with the round's.
func TestRoundTimeControls(t *testing.T) {
	day := 24 * time.Hour
	first := t0.Add(time.Hour)
	perTurn := func(d time.Duration) domain.TimeControl {
		return domain.TimeControl{Kind: domain.TimePerTurn, PerTurn: d}
	}
	tests := []struct {
		name   string
		spec   domain.NewTournamentSpec
		want   []time.Duration // per turn of rounds 1.. (0: no time control)
		reason string          // "" when the spec is accepted
	}{
		{name: "none given: the tournament's for all",
			spec: domain.NewTournamentSpec{Format: domain.Swiss, Rounds: 3, Time: perTurn(3 * day)},
			want: []time.Duration{3 * day, 3 * day, 3 * day}},
		{name: "the last round slower, a zero entry is the tournament's",
			spec: domain.NewTournamentSpec{Format: domain.Swiss, Rounds: 3, Time: perTurn(2 * day),
				RoundTimes: []domain.TimeControl{{}, perTurn(2 * day), perTurn(5 * day)}},
			want: []time.Duration{2 * day, 2 * day, 5 * day}},
		{name: "a shorter list: later rounds the tournament's",
			spec: domain.NewTournamentSpec{Format: domain.Swiss, Rounds: 3, Time: perTurn(2 * day),
				RoundTimes: []domain.TimeControl{perTurn(day)}},
			want: []time.Duration{day, 2 * day, 2 * day}},
		{name: "a round without time control in a timed event",
			spec: domain.NewTournamentSpec{Format: domain.Swiss, Rounds: 2, Time: perTurn(day),
				RoundTimes: []domain.TimeControl{{Kind: domain.TimeNone}}},
			want: []time.Duration{0, day}},
		{name: "more entries than rounds",
			spec: domain.NewTournamentSpec{Format: domain.Swiss, Rounds: 2,
				RoundTimes: []domain.TimeControl{perTurn(day), perTurn(day), perTurn(day)}},
			reason: "3 round time controls for 2 rounds"},
		{name: "a bad entry names its round",
			spec: domain.NewTournamentSpec{Format: domain.Swiss, Rounds: 2,
				RoundTimes: []domain.TimeControl{{}, perTurn(time.Minute)}},
			reason: "round 2's time control"},
		{name: "a round robin with sign-up may list its most rounds",
			spec: domain.NewTournamentSpec{Format: domain.RoundRobin, Registration: &domain.Registration{},
				RoundTimes: []domain.TimeControl{perTurn(day), perTurn(2 * day), perTurn(3 * day), perTurn(4 * day), perTurn(5 * day)}},
			want: []time.Duration{day, 2 * day, 3 * day}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.spec
			spec.Name, spec.FirstStart, spec.Interval = "Cup", first, 10*day
			if spec.Registration == nil {
				spec.Players = players(4)
			}
			tour, err := domain.CreateTournament(spec, "t_1", testCreator, t0, 100)
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
				if _, err := tour.Join(p, 0, tour.Registration.InviteVersion, t0); err != nil {
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
					if got.PerTurn != want || (want == 0) != (got.Kind == domain.TimeNone) {
						t.Errorf("round %d game %d: time %+v, want %v per turn", r.Number, g, got, want)
					}
					if _, err := got.Normalize(2); err != nil {
						t.Errorf("round %d: the game's time control is refused: %v", r.Number, err)
					}
				}
				for j := range r.Games {
					r.Games[j].Outcome = &domain.PairingResult{Round: r.Number, White: r.Games[j].White, Black: r.Games[j].Black, Score: 1}
				}
				if err := tour.CloseRound(now); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
