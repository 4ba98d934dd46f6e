package games_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/memstore"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/internal/vectors"
)

// Every whole Les game of the conformance vectors, played through the use
// cases on the in-memory store by the seats' links: the setter sets up,
// the chooser chooses, then whoever holds Black moves first. The stored
// game ends as the vectors say, and everyone is told.
func TestServicePlaysLesGames(t *testing.T) {
	for i, gc := range vectors.LoadLes(t).GameCases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			ctx := t.Context()
			store := memstore.New(domain.User{ID: creatorID, Email: "org@example.org"})
			now := t0
			svc := games.NewService(games.Config{Store: store, Now: func() time.Time { return now }})
			g, err := svc.CreateGame(ctx, games.NewGameSpec{Ruleset: "les",
				Params:  map[string]string{"size": fmt.Sprint(gc.Size)},
				Players: []games.Player{{Name: "Sue", Email: "sue@example.org"}, {Name: "Cho", Email: "cho@example.org"}},
				Time:    games.TimeControl{Kind: games.TimePerTurn, PerTurn: 72 * time.Hour}}, creatorID)
			if err != nil {
				t.Fatal(err)
			}
			if g.Seats[0].Color != "setter" || g.Seats[1].Color != "chooser" || g.ToMove() != "setter" || g.Clock.Deadline.IsZero() {
				t.Fatalf("new Les game: seats %+v, to move %s, deadline %v", g.Seats, g.ToMove(), g.Clock.Deadline)
			}
			plies := append([]string{gc.Setup, gc.Choice}, gc.Turns...)
			for ply, text := range plies {
				now = now.Add(time.Hour)
				req := games.GameRequest{GameID: g.ID, By: seat(g, g.ToMove())}
				if _, _, err := svc.SubmitTurn(ctx, req, ply, text, present); err != nil {
					t.Fatalf("ply %d %q by %s: %v", ply, text, g.ToMove(), err)
				}
				if g, err = store.Game(ctx, g.ID); err != nil {
					t.Fatal(err)
				}
			}
			r, over := g.Result()
			if !over || r.Reason != "no_move" || !g.Clock.Deadline.IsZero() {
				t.Fatalf("after the last turn: over %v, result %+v, deadline %v", over, r, g.Clock.Deadline)
			}
			if gc.Result.Winner == nil {
				if !r.Draw {
					t.Errorf("result %+v, want a draw", r)
				}
			} else if r.Draw || r.Margin != gc.Result.Margin {
				t.Errorf("result %+v, want %s by %d", r, *gc.Result.Winner, gc.Result.Margin)
			}
			turns, err := store.Turns(ctx, g.ID)
			if err != nil || len(turns) != len(plies) {
				t.Fatalf("%d turns stored (%v), want %d", len(turns), err, len(plies))
			}
			var overMail int
			for _, q := range store.Queued() {
				if q.GameID == g.ID && q.Kind == domain.NoticeGameOver {
					overMail++
				}
			}
			if overMail != 2 {
				t.Errorf("%d game-over notices, want 2", overMail)
			}
			// The stored turns make a record that replays to the stored game.
			history := make([]ruleset.Played, len(turns))
			for i, tu := range turns {
				history[i] = tu.Played()
			}
			rec, err := g.Rules.Record(history, map[string]string{"setter": "Sue", "chooser": "Cho"})
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := les.Rules{}.ImportRecord(rec)
			if err != nil {
				t.Fatalf("import the record: %v\n%s", err, rec)
			}
			want, _ := g.Rules.Encode()
			if got, _ := back.Encode(); string(got) != string(want) {
				t.Errorf("the record replays to %s, stored %s", got, want)
			}
		})
	}
}

// A Les player who runs out of time loses: Les has no pass.
func TestServiceLesTimeOut(t *testing.T) {
	ctx := t.Context()
	store := memstore.New(domain.User{ID: creatorID, Email: "org@example.org"})
	now := t0
	svc := games.NewService(games.Config{Store: store, Now: func() time.Time { return now }})
	g, err := svc.CreateGame(ctx, games.NewGameSpec{Ruleset: "les",
		Players: []games.Player{{Name: "Sue", Email: "sue@example.org"}, {Name: "Cho", Email: "cho@example.org"}},
		Time:    games.TimeControl{Kind: games.TimePerTurn, PerTurn: 24 * time.Hour}}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(25 * time.Hour)
	if acted, err := svc.TickGame(ctx, g.ID); err != nil || !acted {
		t.Fatalf("TickGame = %v, %v", acted, err)
	}
	g, _ = store.Game(ctx, g.ID)
	r, over := g.Result()
	if !over || r.Reason != "timeout" || r.Winner != 1 || len(r.Winners) != 1 || r.Winners[0] != "chooser" {
		t.Errorf("after the setter's time ran out: over %v, %+v", over, r)
	}
}
