package tournaments_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/tournaments"
)

func entrantNames(tour *tournaments.Tournament) []string {
	var out []string
	for _, e := range tour.Entrants {
		out = append(out, e.Name)
	}
	return out
}

// The organiser sets the seeds before the start: the entrants are
// renumbered in his order, and the bracket (or a Swiss event's first
// pairings) follows it; once the first round has started, or with a list
// that is not every entrant once, he is refused.
func TestSetSeeds(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		name    string
		format  tournaments.Format
		order   []int
		started bool
		code    string
		names   []string
		first   []tournaments.Pairing // round 1's pairings after the start
	}{
		{name: "a knockout's bracket follows the seeds", format: tournaments.Knockout, order: []int{3, 2, 1, 0},
			names: []string{"P3", "P2", "P1", "P0"}, first: []tournaments.Pairing{{White: 0, Black: 3}, {White: 1, Black: 2}}},
		{name: "a Swiss event's first round follows them", format: tournaments.Swiss, order: []int{1, 0, 3, 2},
			names: []string{"P1", "P0", "P3", "P2"}, first: []tournaments.Pairing{{White: 0, Black: 2}, {White: 3, Black: 1}}},
		{name: "a player missing", format: tournaments.Knockout, order: []int{0, 1, 2}, code: domain.CodeInvalidInput},
		{name: "a player twice", format: tournaments.Knockout, order: []int{0, 1, 2, 2}, code: domain.CodeInvalidInput},
		{name: "no such player", format: tournaments.Knockout, order: []int{0, 1, 2, 4}, code: domain.CodeInvalidInput},
		{name: "after the start", format: tournaments.Knockout, order: []int{3, 2, 1, 0}, started: true, code: tournaments.CodeTournamentStarted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tournaments.NewTournamentSpec{Name: "Cup", Format: tt.format, Players: players(4),
				FirstStart: t0.Add(time.Hour), Interval: day, Seeding: tournaments.SeedingRandom}
			if tt.format == tournaments.Swiss {
				spec.Rounds = 2
			}
			tour, err := tournaments.CreateTournament(spec, "t_1", testCreator, t0, 100)
			if err != nil {
				t.Fatal(err)
			}
			if tt.started {
				if _, _, err := tour.StartRound(t0.Add(time.Hour)); err != nil {
					t.Fatal(err)
				}
			}
			err = tour.SetSeeds(tt.order, "by rating", t0)
			if de := (*domain.Error)(nil); tt.code != "" {
				if !errors.As(err, &de) || de.Code != tt.code {
					t.Fatalf("err %v, want %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := entrantNames(&tour); !slices.Equal(got, tt.names) {
				t.Errorf("entrants %v, want %v", got, tt.names)
			}
			last := tour.Log[len(tour.Log)-1]
			if last.Action != tournaments.ActionSeedsSet || last.Reason != "by rating" || tour.Seeding != tournaments.SeedingEntry {
				t.Errorf("log %+v, seeding %q; want seeds_set with the reason, and the order given to stand", last, tour.Seeding)
			}
			r, _, err := tour.StartRound(t0.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if got := entrantNames(&tour); !slices.Equal(got, tt.names) {
				t.Errorf("after the start the entrants are %v, want %v: the organiser's seeds stand", got, tt.names)
			}
			var pairs []tournaments.Pairing
			for _, g := range r.Games {
				pairs = append(pairs, g.Pairing)
			}
			if !slices.Equal(pairs, tt.first) {
				t.Errorf("round 1 %v, want %v", pairs, tt.first)
			}
		})
	}
}

// Random seeding draws the order when the first round starts, from the
// tournament's seed: the same seed draws the same order, and the draw is
// logged with the seeds.
func TestRandomSeeding(t *testing.T) {
	draw := func(seed uint64) ([]string, tournaments.LogEntry) {
		tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.Knockout, Players: players(8),
			FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour, Seeding: tournaments.SeedingRandom}, "t_1", testCreator, t0, seed)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := tour.StartRound(t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		return entrantNames(&tour), tour.Log[len(tour.Log)-1]
	}
	first, logged := draw(100)
	again, _ := draw(100)
	other, _ := draw(101)
	if !slices.Equal(first, again) {
		t.Errorf("seed 100 drew %v, then %v", first, again)
	}
	if slices.Equal(first, other) {
		t.Errorf("seeds 100 and 101 drew the same %v", first)
	}
	sorted := slices.Sorted(slices.Values(first))
	if !slices.Equal(sorted, []string{"P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7"}) {
		t.Errorf("drew %v: not every player once", first)
	}
	if logged.Action != tournaments.ActionSeedsSet || logged.Args == nil || logged.Args.Kind != tournaments.LogRandom || !slices.Equal(logged.Args.Players, first) {
		t.Errorf("logged %+v; want the draw", logged)
	}
	if _, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.Knockout, Players: players(2),
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour, Seeding: "rating"}, "t_1", testCreator, t0, 1); err == nil {
		t.Error("seeding rating accepted")
	}
}
