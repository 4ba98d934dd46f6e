package tournaments_test

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/memstore"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// A round robin of four on the memory store: the organiser creates it, and
// the scheduler's tick at its first start pairs the first round and
// creates its games.
func ExampleService() {
	ctx := context.Background()
	store := memstore.New(domain.User{ID: 1, Email: "org@example.org"})
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tours := tournaments.NewService(tournaments.Config{Store: store, Now: func() time.Time { return now }})

	tour, err := tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Spring Cup", Format: tournaments.RoundRobin,
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"},
			{Name: "Cat", Email: "cat@example.org"}, {Name: "Dan", Email: "dan@example.org"}},
		FirstStart: now.Add(time.Hour), Interval: 7 * 24 * time.Hour}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tour.Name, tour.Status, len(tour.Rounds), "rounds")

	now = now.Add(time.Hour)
	acted, err := tours.TickTournament(ctx, tour.ID)
	if err != nil {
		fmt.Println(err)
		return
	}
	tour, _ = tours.Tournament(ctx, tour.ID)
	r := tour.Current()
	fmt.Println("acted:", acted, "round", r.Number, "games:", len(r.Games))
	// Output:
	// Spring Cup scheduled 3 rounds
	// acted: true round 1 games: 2
}
