package games_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/memstore"
)

// A game's use cases on the memory store: the creator makes a game and
// White plays its first turn with his move link's credentials.
func ExampleService() {
	ctx := context.Background()
	store := memstore.New(domain.User{ID: 1, Email: "org@example.org"})
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	svc := games.NewService(games.Config{Store: store, Now: func() time.Time { return now }})

	g, err := svc.CreateGame(ctx, games.NewGameSpec{
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		Params:  less.Params{Walls: strings.Repeat("0", 60)}.Map(), // a board without walls
	}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("to move:", g.ToMove())

	white := g.ToMove()
	seat, _ := g.Seat(white)
	by := games.Credentials{GameID: g.ID, Seat: &white, LinkVersion: seat.TokenVersion}
	present := func(a games.Actor, before *games.Game, done *games.Submitted, now time.Time) (domain.Response, error) {
		return domain.Response{Status: 201}, nil
	}
	if _, _, err := svc.SubmitTurn(ctx, games.GameRequest{GameID: g.ID, By: by}, 0, "e5e4:e4d4:d4c4", present); err != nil {
		fmt.Println(err)
		return
	}
	g, _ = store.Game(ctx, g.ID)
	fmt.Println("ply:", g.Ply(), "to move:", g.ToMove())

	// The same turn again is refused: the game has moved on.
	_, _, err = svc.SubmitTurn(ctx, games.GameRequest{GameID: g.ID, By: by}, 0, "e5e4:e4d4:d4c4", present)
	if de, ok := domain.ErrorOf(err); ok {
		fmt.Println("again:", de.Code)
	}
	// Output:
	// to move: white
	// ply: 1 to move: black
	// again: stale_ply
}
