package games_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/memstore"
)

// The use cases on the in-memory store: what each does to the store, and
// what it refuses without changing anything.

const opening = "e5e4:e4d4:d4c4" // legal for White on openWalls

const (
	creatorID = 1
	annID     = 2
)

type fixture struct {
	store *memstore.Store
	svc   *games.Service
	game  games.Game
	now   time.Time
	// replies counts the replies sent (see reply), for their Message-IDs;
	// unread is what they say of why they were not read.
	replies int
	unread  string
}

// newFixture creates a two-player game (ann White, bob Black) made by org.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWith(t, domain.User{ID: annID, Email: "ann@example.org", Locale: "de"})
}

// newFixtureWith is newFixture with ann's account as given.
func newFixtureWith(t *testing.T, ann domain.User) *fixture {
	t.Helper()
	f := &fixture{store: memstore.New(domain.User{ID: creatorID, Email: "org@example.org"}, ann), now: t0}
	ids := 0
	f.svc = games.NewService(games.Config{Store: f.store, Now: func() time.Time { return f.now },
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

var creator = games.Credentials{UserID: creatorID, UserEmail: "org@example.org"}

// present renders the change as its new version and ply: enough to tell
// one stored response from another.
func present(a games.Actor, before *games.Game, done *games.Submitted, now time.Time) (domain.Response, error) {
	return domain.Response{Status: 201, Body: fmt.Appendf(nil, "v%d ply %d", done.Game.Version, done.Game.Ply())}, nil
}

func TestServiceCreateGame(t *testing.T) {
	f := newFixture(t)
	g, err := f.store.Game(t.Context(), f.game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ply := stateOf(t, g).Ply; g.ID != "g_1" || g.CreatorID != creatorID || g.Version != 1 || ply != 0 {
		t.Errorf("stored game: id %s creator %d version %d ply %d", g.ID, g.CreatorID, g.Version, ply)
	}
	// A seat without a locale gets its account's; a chosen one is kept.
	if got := []string{g.Seats[0].Locale, g.Seats[1].Locale}; got[0] != "de" || got[1] != "fr" {
		t.Errorf("locales %v, want [de fr]", got)
	}
	var kinds []string
	for _, q := range f.store.Queued() {
		kinds = append(kinds, fmt.Sprintf("%s %s budgeted %v", q.Kind, q.Email, q.Budgeted))
	}
	want := "invitation ann@example.org budgeted true,invitation bob@example.org budgeted true"
	if strings.Join(kinds, ",") != want {
		t.Errorf("queued %q, want %q", kinds, want)
	}
	// A spec the domain refuses stores nothing.
	if _, err := f.svc.CreateGame(t.Context(), games.NewGameSpec{Players: []games.Player{{Name: "Solo", Email: "solo@example.org"}}}, creatorID); domain.CodeOf(err) != domain.CodeInvalidInput {
		t.Errorf("one player: %v, want %s", err, domain.CodeInvalidInput)
	}
	if n := len(f.store.Queued()); n != 2 {
		t.Errorf("after the refused spec, %d notices queued, want 2", n)
	}
}

func TestServiceSubmitTurn(t *testing.T) {
	tests := []struct {
		name     string
		by       func(g games.Game) games.Credentials
		ply      int
		turn     string
		wantCode string // "" for success
	}{
		{name: "the seat to move", by: func(g games.Game) games.Credentials { return seat(g, white) }, turn: opening},
		{name: "the mover's account", by: func(games.Game) games.Credentials {
			return games.Credentials{UserID: annID, UserEmail: "ann@example.org"}
		}, turn: opening},
		{name: "stale ply", by: func(g games.Game) games.Credentials { return seat(g, white) }, ply: 1, turn: opening,
			wantCode: domain.CodeStalePly},
		{name: "wrong seat", by: func(g games.Game) games.Credentials { return seat(g, black) }, turn: opening,
			wantCode: domain.CodeNotYourTurn},
		{name: "not a player", by: func(games.Game) games.Credentials { return creator }, turn: opening,
			wantCode: domain.CodeForbidden},
		{name: "illegal turn", by: func(g games.Game) games.Credentials { return seat(g, white) }, turn: "e5e1",
			wantCode: domain.CodeIllegalTurn},
		{name: "link of another game", by: func(g games.Game) games.Credentials {
			c := seat(g, white)
			c.GameID = "g_other"
			return c
		}, turn: opening, wantCode: domain.CodeWrongGame},
		{name: "replaced link", by: func(g games.Game) games.Credentials {
			c := seat(g, white)
			c.LinkVersion--
			return c
		}, turn: opening, wantCode: domain.CodeLinkReplaced},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.now = t0.Add(time.Minute)
			resp, replayed, err := f.svc.SubmitTurn(t.Context(), games.GameRequest{GameID: f.game.ID, By: tt.by(f.game)},
				tt.ply, tt.turn, present)
			g, gerr := f.store.Game(t.Context(), f.game.ID)
			if gerr != nil {
				t.Fatal(gerr)
			}
			turns, _ := f.store.Turns(t.Context(), f.game.ID)
			if tt.wantCode != "" {
				if domain.CodeOf(err) != tt.wantCode {
					t.Fatalf("err = %v, want %s", err, tt.wantCode)
				}
				if g.Version != 1 || len(turns) != 0 || len(f.store.Queued()) != 2 {
					t.Errorf("a refused turn changed the store: version %d, %d turns, %d notices", g.Version, len(turns), len(f.store.Queued()))
				}
				return
			}
			if err != nil || replayed || string(resp.Body) != "v2 ply 1" {
				t.Fatalf("SubmitTurn = %q, %v, %v; want v2 ply 1", resp.Body, replayed, err)
			}
			if ply := stateOf(t, g).Ply; g.Version != 2 || ply != 1 || len(turns) != 1 || turns[0].Notation != opening || !turns[0].PlayedAt.Equal(f.now) {
				t.Errorf("stored: version %d ply %d turns %+v", g.Version, ply, turns)
			}
			q := f.store.Queued()
			if last := q[len(q)-1]; last.Kind != domain.NoticeYourTurn || last.Email != "bob@example.org" {
				t.Errorf("last notice %+v, want your_turn to bob", last)
			}
		})
	}
}

func TestServiceSubmitTurnIsIdempotent(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	idem := &domain.Idempotency{Scope: "seat", Key: "k1", Fingerprint: []byte("turn 1")}
	r := games.GameRequest{GameID: f.game.ID, By: seat(f.game, white), Idem: idem}
	first, replayed, err := f.svc.SubmitTurn(ctx, r, 0, opening, present)
	if err != nil || replayed {
		t.Fatalf("first: %v, replayed %v", err, replayed)
	}
	again, replayed, err := f.svc.SubmitTurn(ctx, r, 0, opening, present)
	if err != nil || !replayed || string(again.Body) != string(first.Body) {
		t.Errorf("retry = %q, replayed %v, %v; want the stored %q", again.Body, replayed, err, first.Body)
	}
	// The same key for another request is refused, not answered.
	r.Idem = &domain.Idempotency{Scope: "seat", Key: "k1", Fingerprint: []byte("something else")}
	if _, _, err := f.svc.SubmitTurn(ctx, r, 1, opening, present); domain.CodeOf(err) != domain.CodeIdempotencyReused {
		t.Errorf("reused key: %v, want %s", err, domain.CodeIdempotencyReused)
	}
	// A retry whose link was replaced meanwhile is refused like any request.
	if err := f.svc.RotateSeat(ctx, f.game.ID, creator, white); err != nil {
		t.Fatal(err)
	}
	r.Idem = idem
	if _, _, err := f.svc.SubmitTurn(ctx, r, 0, opening, present); domain.CodeOf(err) != domain.CodeLinkReplaced {
		t.Errorf("retry with a replaced link: %v, want %s", err, domain.CodeLinkReplaced)
	}
	if turns, _ := f.store.Turns(ctx, f.game.ID); len(turns) != 1 {
		t.Errorf("%d turns stored, want 1", len(turns))
	}
}

func TestServiceResign(t *testing.T) {
	tests := []struct {
		name     string
		by       func(g games.Game) games.Credentials
		wantCode string
	}{
		{name: "a player, not on his turn", by: func(g games.Game) games.Credentials { return seat(g, black) }},
		{name: "the creator, not a player", by: func(games.Game) games.Credentials { return creator }, wantCode: domain.CodeForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			_, _, err := f.svc.Resign(t.Context(), games.GameRequest{GameID: f.game.ID, By: tt.by(f.game)}, present)
			g, _ := f.store.Game(t.Context(), f.game.ID)
			if tt.wantCode != "" {
				if domain.CodeOf(err) != tt.wantCode || g.Over() {
					t.Errorf("err = %v, over %v; want %s and a running game", err, g.Over(), tt.wantCode)
				}
				return
			}
			if err != nil || !g.Over() || stateOf(t, g).Result.Winner != less.SideOf(less.White) {
				t.Errorf("err = %v, result %+v; want White to win", err, stateOf(t, g).Result)
			}
			if _, _, err := f.svc.Resign(t.Context(), games.GameRequest{GameID: f.game.ID, By: tt.by(f.game)}, present); domain.CodeOf(err) != domain.CodeGameOver {
				t.Errorf("resigning again: %v, want %s", err, domain.CodeGameOver)
			}
		})
	}
}

func TestServiceRotateSeat(t *testing.T) {
	tests := []struct {
		name     string
		by       func(g games.Game) games.Credentials
		wantCode string
		// wantBudgeted: the new link's mail counts against ann's budget
		// (it is not her own doing).
		wantBudgeted bool
	}{
		{name: "the seat itself", by: func(g games.Game) games.Credentials { return seat(g, white) }},
		{name: "the creator", by: func(games.Game) games.Credentials { return creator }, wantBudgeted: true},
		{name: "another seat", by: func(g games.Game) games.Credentials { return seat(g, black) }, wantCode: domain.CodeForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			old := seat(f.game, white)
			err := f.svc.RotateSeat(t.Context(), f.game.ID, tt.by(f.game), white)
			_, _, readErr := f.svc.ReadGame(t.Context(), f.game.ID, old)
			q := f.store.Queued()
			if tt.wantCode != "" {
				if domain.CodeOf(err) != tt.wantCode || readErr != nil || len(q) != 2 {
					t.Errorf("err = %v, old link: %v, %d notices; want %s and nothing changed", err, readErr, len(q), tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if domain.CodeOf(readErr) != domain.CodeLinkReplaced {
				t.Errorf("the old link reads: %v, want %s", readErr, domain.CodeLinkReplaced)
			}
			if last := q[len(q)-1]; last.Kind != domain.NoticeNewLink || last.Email != "ann@example.org" || last.Budgeted != tt.wantBudgeted {
				t.Errorf("last notice %+v, want new_link to ann, budgeted %v", last, tt.wantBudgeted)
			}
		})
	}
}

func TestServiceRotateSpectatorLink(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	watch := games.Credentials{GameID: f.game.ID, Spectator: true, LinkVersion: f.game.WatchVersion}
	if _, _, err := f.svc.RotateSpectatorLink(ctx, f.game.ID, watch); domain.CodeOf(err) != domain.CodeForbidden {
		t.Errorf("a spectator rotates: %v, want %s", err, domain.CodeForbidden)
	}
	g, a, err := f.svc.RotateSpectatorLink(ctx, f.game.ID, seat(f.game, black))
	if err != nil || g.WatchVersion != f.game.WatchVersion+1 || a.SeatColor == nil {
		t.Fatalf("RotateSpectatorLink = version %d, %+v, %v", g.WatchVersion, a, err)
	}
	if _, _, err := f.svc.ReadGame(ctx, f.game.ID, watch); domain.CodeOf(err) != domain.CodeLinkReplaced {
		t.Errorf("the old spectator link reads: %v, want %s", err, domain.CodeLinkReplaced)
	}
}

func TestServiceReadGame(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	stranger := games.Credentials{UserID: 99, UserEmail: "eve@example.org"}
	if _, _, err := f.svc.ReadGame(ctx, f.game.ID, stranger); domain.CodeOf(err) != domain.CodeForbidden {
		t.Errorf("a stranger reads: %v, want %s", err, domain.CodeForbidden)
	}
	if _, _, err := f.svc.ReadGame(ctx, "g_nope", creator); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("a missing game: %v, want %s", err, domain.CodeNotFound)
	}
	g, a, err := f.svc.ReadGame(ctx, f.game.ID, seat(f.game, white))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := games.PreviewTurn(g, a, "e5e1"); domain.CodeOf(err) != domain.CodeIllegalTurn {
		t.Errorf("preview of an illegal turn: %v, want %s", err, domain.CodeIllegalTurn)
	}
}

// A change overtaken between its read and its write is computed again
// from a fresh read; after OptimisticAttempts races it is computed inside
// the unit of work.
func TestUpdateGameRetriesWhenOvertaken(t *testing.T) {
	for races := range games.OptimisticAttempts + 1 {
		t.Run(fmt.Sprint(races), func(t *testing.T) {
			f := newFixture(t)
			ctx := t.Context()
			calls := 0
			_, _, err := games.UpdateGame(ctx, f.store, nil, games.GameUpdate{GameID: f.game.ID, Now: t0,
				Compute: func(g games.Game) (games.GameChange, error) {
					calls++
					if calls <= races {
						overtake(ctx, t, f)
					}
					sub, err := games.SubmitTurn(g, games.Actor{SeatColor: ptr(white)}, 0, opening, t0)
					return games.GameChange{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, err
				}})
			if err != nil {
				t.Fatal(err)
			}
			g, _ := f.store.Game(ctx, f.game.ID)
			if ply := stateOf(t, g).Ply; calls != races+1 || g.Version != 2+races || ply != 1 {
				t.Errorf("%d calls, version %d, ply %d; want %d calls, version %d, ply 1", calls, g.Version, ply, races+1, 2+races)
			}
		})
	}
}

// A retry of the same request that commits first is not played twice:
// the overtaken request finds its response stored and replays it.
func TestUpdateGameOvertakenByItsOwnRetry(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	r := games.GameRequest{GameID: f.game.ID, By: seat(f.game, white),
		Idem: &domain.Idempotency{Scope: "seat", Key: "k", Fingerprint: []byte("turn")}}
	calls := 0
	racing := func(a games.Actor, before *games.Game, done *games.Submitted, now time.Time) (domain.Response, error) {
		calls++
		if calls == 1 { // the retry arrives while the first is computed
			if _, replayed, err := f.svc.SubmitTurn(ctx, r, 0, opening, present); err != nil || replayed {
				t.Fatalf("the retry: replayed %v, %v", replayed, err)
			}
		}
		return present(a, before, done, now)
	}
	resp, replayed, err := f.svc.SubmitTurn(ctx, r, 0, opening, racing)
	if err != nil || !replayed || string(resp.Body) != "v2 ply 1" {
		t.Errorf("the overtaken request = %q, replayed %v, %v; want the retry's response replayed", resp.Body, replayed, err)
	}
	if turns, _ := f.store.Turns(ctx, f.game.ID); len(turns) != 1 {
		t.Errorf("%d turns stored, want 1", len(turns))
	}
}

// overtake commits another change to the fixture's game.
func overtake(ctx context.Context, t *testing.T, f *fixture) {
	t.Helper()
	if err := f.svc.RotateSeat(ctx, f.game.ID, creator, black); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestServiceVacations(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ann, err := f.store.UserByID(ctx, annID)
	if err != nil {
		t.Fatal(err)
	}
	ann.VacationDays = 20
	day := 24 * time.Hour
	tests := []struct {
		name     string
		period   games.Period
		wantCode string
	}{
		{name: "next week", period: games.Period{Start: t0.Add(7 * day), End: t0.Add(10 * day)}},
		{name: "overlapping it", period: games.Period{Start: t0.Add(8 * day), End: t0.Add(9 * day)}, wantCode: domain.CodeInvalidVacation},
		{name: "ends before it starts", period: games.Period{Start: t0.Add(20 * day), End: t0.Add(19 * day)}, wantCode: domain.CodeInvalidVacation},
	}
	for _, tt := range tests {
		_, err := f.svc.DeclareVacation(ctx, ann, tt.period)
		if domain.CodeOf(err) != tt.wantCode {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.wantCode)
		}
	}
	list, left, err := f.svc.Vacations(ctx, ann)
	if err != nil || len(list) != 1 || left != 17 {
		t.Fatalf("Vacations = %+v, %d left, %v; want one, 17 days left", list, left, err)
	}
	if err := f.svc.CancelVacation(ctx, ann, list[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.CancelVacation(ctx, ann, list[0].ID); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("cancelling it again: %v, want %s", err, domain.CodeNotFound)
	}
}

// A game whose deadline passed is timed out once: a second tick, or a
// second server's, finds nothing due.
func TestServiceTickGame(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	g, err := f.svc.CreateGame(ctx, games.NewGameSpec{Players: []games.Player{
		{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		Time: games.TimeControl{Kind: games.TimePerTurn, PerTurn: 24 * time.Hour}, Params: less.Params{Walls: openWalls}.Map()}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		at        time.Time
		wantDue   bool
		wantActed bool
		wantOver  bool
	}{
		{name: "before any reminder", at: t0.Add(time.Hour)},
		{name: "after the deadline", at: t0.Add(25 * time.Hour), wantDue: true, wantActed: true, wantOver: true},
		{name: "again", at: t0.Add(26 * time.Hour), wantOver: true},
	}
	for _, tt := range tests {
		f.now = tt.at
		due, err := f.svc.DueGames(ctx, 10)
		if err != nil || slices.Contains(due, g.ID) != tt.wantDue {
			t.Errorf("%s: due %v, %v; want due %v", tt.name, due, err, tt.wantDue)
		}
		acted, err := f.svc.TickGame(ctx, g.ID)
		if err != nil || acted != tt.wantActed {
			t.Errorf("%s: TickGame = %v, %v; want %v", tt.name, acted, err, tt.wantActed)
		}
		if got, _ := f.store.Game(ctx, g.ID); got.Over() != tt.wantOver {
			t.Errorf("%s: over %v, want %v", tt.name, got.Over(), tt.wantOver)
		}
	}
}
