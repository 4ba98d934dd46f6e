package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// The store's part of a turn, below HTTP: sqlite.UpdateGame with
// games.SubmitTurn, an Idempotency-Key and a stored answer of the size the
// API stores (about 2.5 KB), one write transaction each. Every turn commits
// on the one write connection, so this is the ceiling of accepted turns per
// second whatever the HTTP side does:
//
//	go test -run '^$' -bench StoreTurn -benchtime 5s ./cmd/loadtest
//
// Serial is one caller; Parallel is GOMAXPROCS*16 callers contending for the
// write connection, as the API's request goroutines do.
func BenchmarkStoreTurn(b *testing.B) {
	b.Run("Serial", func(b *testing.B) { benchStoreTurn(b, false) })
	b.Run("Parallel", func(b *testing.B) { benchStoreTurn(b, true) })
}

func benchStoreTurn(b *testing.B, parallel bool) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "bench.db")
	store, err := sqlite.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	store.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		b.Fatal(err)
	}
	const email = "bench@example.org"
	var userID int64
	err = raw.QueryRow(`INSERT INTO users (email, created_at) VALUES (?, ?) RETURNING id`, email, time.Now().UnixMilli()).Scan(&userID)
	raw.Close()
	if err != nil {
		b.Fatal(err)
	}
	if store, err = sqlite.Open(ctx, path); err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	app := games.NewService(games.Config{Store: store, Now: time.Now})
	actor := games.Actor{UserID: userID, UserEmail: email}
	answer := []byte(`{"game":` + strings.Repeat(`"x",`, 600) + `"played":[]}`) // ~2.5 KB, as the API stores
	newGame := func() games.Game {
		spec := games.NewGameSpec{Players: []games.Player{{Name: "P1", Email: email}, {Name: "P2", Email: email}}}
		g, err := app.CreateGame(ctx, spec, userID)
		if err != nil {
			b.Fatal(err)
		}
		return g
	}
	var seq atomic.Int64
	// play plays one turn in *g (a new game once it is over).
	play := func(g *games.Game, rng *rand.Rand) {
		if g.Over() {
			*g = newGame()
		}
		pos, err := lessPosition(g.Rules)
		if err != nil {
			b.Fatal(err)
		}
		turn, err := pickTurn(pos, rng)
		if err != nil {
			b.Fatal(err)
		}
		idem := &sqlite.Idempotency{Scope: "user:bench", Key: fmt.Sprint(seq.Add(1)), Fingerprint: []byte("0123456789abcdef0123456789abcdef")}
		_, _, err = games.UpdateGame(ctx, store, nil, games.GameUpdate{GameID: g.ID, Idem: idem, Now: time.Now(),
			Compute: func(cur games.Game) (sqlite.Change, error) {
				sub, err := games.SubmitTurn(cur, actor, cur.Ply(), turn.String(), time.Now())
				if err != nil {
					return sqlite.Change{}, err
				}
				*g = sub.Game
				return sqlite.Change{Game: sub.Game, Played: sub.Played, Notices: sub.Notices,
					Response: sqlite.Response{Status: 201, Body: answer}}, nil
			}})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	if !parallel {
		g := newGame()
		rng := rand.New(rand.NewPCG(1, 2))
		b.ResetTimer()
		for b.Loop() {
			play(&g, rng)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
		return
	}
	b.SetParallelism(16)
	var mu sync.Mutex
	n := 0
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		n++
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		mu.Unlock()
		g := newGame()
		for pb.Next() {
			play(&g, rng)
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}
