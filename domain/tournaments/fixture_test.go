package tournaments_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/memstore"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// The use cases of tournaments on the in-memory store, beside the games'
// (the fixture is the games' one, with the tournaments' service on the
// same store, clock and ids).

const (
	testCreator = int64(7)
	day         = 24 * time.Hour
)

var (
	t0        = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	openWalls = strings.Repeat("0", 60) // 6x6 without walls
	black     = less.Black.String()
)

// result is how a game ended; zero while it runs.
func result(g games.Game) ruleset.Result {
	r, _ := g.Result()
	return r
}

// asRequester names who asks, as the edge does in a request's context.
func asRequester(ctx context.Context, caller, client string) context.Context {
	return domain.WithRequester(ctx, domain.Requester{Caller: caller, Client: client})
}

const (
	creatorID = 1
	annID     = 2
)

type fixture struct {
	store *memstore.Store
	svc   *games.Service
	tours *tournaments.Service
	game  games.Game
	now   time.Time
}

// newFixture creates a two-player game (ann White, bob Black) made by org.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{store: memstore.New(
		domain.User{ID: creatorID, Email: "org@example.org"},
		domain.User{ID: annID, Email: "ann@example.org", Locale: "de"}), now: t0}
	ids := 0
	f.svc = games.NewService(games.Config{Store: f.store, Now: func() time.Time { return f.now },
		NewID:  func(prefix string) string { ids++; return fmt.Sprintf("%s_%d", prefix, ids) },
		Random: func() uint64 { return 7 }})
	f.tours = tournaments.NewService(tournaments.Config{Store: f.store, Now: func() time.Time { return f.now },
		NewID:  func(prefix string) string { ids++; return fmt.Sprintf("%s_%d", prefix, ids) },
		Random: func() uint64 { return 7 }})
	g, err := f.svc.CreateGame(t.Context(), games.NewGameSpec{Players: []games.Player{
		{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org", Locale: "fr"}}, Params: less.Params{Walls: openWalls}.Map()}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	f.game = g
	return f
}

func seat(g games.Game, c string) games.Credentials {
	s, _ := g.Seat(c)
	return games.Credentials{GameID: g.ID, Seat: &c, LinkVersion: s.TokenVersion}
}

// present renders the change as its new version and ply: enough to tell
// one stored response from another.
func present(a games.Actor, before *games.Game, done *games.Submitted, now time.Time) (domain.Response, error) {
	return domain.Response{Status: 201, Body: fmt.Appendf(nil, "v%d ply %d", done.Game.Version, done.Game.Ply())}, nil
}

func ptr[T any](v T) *T { return &v }
