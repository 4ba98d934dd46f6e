package api_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/repo/repotest"
)

// BenchmarkTournamentReads serves what a 64-player double round robin
// shows the public once it is played (126 rounds, 4,032 games, each
// adjudicated at its round's deadline): the records of every game, and the tournament's page,
// JSON and CSV standings, each read fresh and revalidated. Run with
//
//	go test -run '^$' -bench TournamentReads -benchtime 5x ./api/
//
// (LESSPOST_TEST_STORE=postgres for PostgreSQL). Making the event takes a
// while: every round is played to its deadline by the scheduler.
func BenchmarkTournamentReads(b *testing.B) {
	db := repotest.Open(b)
	ctx := b.Context()
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	tours := tournaments.NewService(tournaments.Config{Store: db, Now: clock})
	var org domain.User
	if err := db.Transact(ctx, func(tx domain.StoreTx) (err error) {
		org, err = tx.EnsureUser(ctx, "org@example.org", now)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	var players []games.Player
	for i := range 64 {
		players = append(players, games.Player{Name: fmt.Sprintf("P%d", i), Email: fmt.Sprintf("p%d@example.org", i)})
	}
	tour, err := tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Big", Format: tournaments.DoubleRoundRobin, Players: players,
		FirstStart: now.Add(time.Hour), Interval: 24 * time.Hour, RoundLength: 24 * time.Hour,
		Time: games.TimeControl{Kind: games.TimePerTurn, PerTurn: 24 * time.Hour}}, org.ID)
	if err != nil {
		b.Fatal(err)
	}
	// Each round starts, and its deadline adjudicates its games.
	for range 1000 {
		now = now.Add(time.Hour)
		if _, err := tours.TickTournament(ctx, tour.ID); err != nil {
			b.Fatal(err)
		}
		t, err := tours.Tournament(ctx, tour.ID)
		if err != nil {
			b.Fatal(err)
		}
		if t.Status == tournaments.TournamentFinished {
			b.Logf("%d rounds, %d games", len(t.Rounds), len(t.Rounds)*len(t.Rounds[0].Games))
			break
		}
		if r := t.Current(); r != nil {
			now = r.Deadline.Add(-time.Hour)
		}
	}
	srv, err := (&serverConfig{Config: api.Config{DB: db, Secret: []byte("0123456789abcdef0123456789abcdef-test"),
		BaseURL: "http://lesspost.test", Logger: slog.New(slog.DiscardHandler)}, Now: clock}).newServer()
	if err != nil {
		b.Fatal(err)
	}
	base := "/v1/tournaments/" + tour.ID
	for _, c := range []struct{ name, path string }{
		{"records", base + "/records"}, {"page", "/tournaments/" + tour.ID}, {"json", base}, {"csv", base + "/standings?format=csv"},
	} {
		etag := ""
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				etag = serve(b, srv, c.path, "").Header.Get("ETag")
			}
		})
		if etag == "" {
			continue // no revalidation to measure
		}
		b.Run(c.name+"-revalidated", func(b *testing.B) {
			for b.Loop() {
				if res := serve(b, srv, c.path, etag); res.StatusCode != http.StatusNotModified {
					b.Fatalf("%s with its ETag: %d", c.path, res.StatusCode)
				}
			}
		})
	}
}

func serve(b *testing.B, h http.Handler, path, etag string) *http.Response {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		b.Fatal(err)
	}
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusNotModified {
		b.Fatalf("%s: %d", path, res.StatusCode)
	}
	return res
}
