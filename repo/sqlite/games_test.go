package sqlite

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/tournaments"
)

var (
	// t0 has sub-millisecond digits and a zone other than UTC: what the
	// store gives back is t0 truncated to the millisecond, in UTC.
	t0        = time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.FixedZone("CET", 3600))
	openWalls = strings.Repeat("0", 60) // 6x6 without walls
)

const firstTurn = "e5e4:e4d4:d4c4" // a legal opening for White on openWalls

// serviceAt is the use cases on this store with the clock stopped at now.
func (db *DB) serviceAt(now time.Time) *games.Service {
	return games.NewService(games.Config{Store: db, Now: func() time.Time { return now }})
}

// accountsAt is the use cases of accounts with the clock stopped at now.
func (db *DB) accountsAt(now time.Time) *accounts.Service {
	return accounts.NewService(accounts.Config{Store: db, Now: func() time.Time { return now }})
}

// tournamentsAt is the use cases of tournaments on db with the clock
// stopped at now.
func (db *DB) tournamentsAt(now time.Time) *tournaments.Service {
	return tournaments.NewService(tournaments.Config{Store: db, Now: func() time.Time { return now }})
}

func newStore(t testing.TB) *DB {
	t.Helper()
	db, err := Open(t.Context(), freshPath(t))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// msUTC is t as the store gives it back.
func msUTC(t time.Time) time.Time { return t.Truncate(time.Millisecond).UTC() }

func sameTime(got, want time.Time) bool {
	return got.Equal(msUTC(want)) && got.Location() == time.UTC
}

// signUp creates an account through the login flow and returns it.
func signUp(t testing.TB, db *DB, email string, now time.Time) User {
	t.Helper()
	token := requestToken(t, db, email, now)
	g, err := db.accountsAt(now).ExchangeLogin(t.Context(), token, time.Hour)
	if err != nil {
		t.Fatalf("ExchangeLogin for %s: %v", email, err)
	}
	return g.Session.User
}

// requestToken asks for a login link and returns the token of its email,
// which it marks sent so that it no longer shows among due mail.
func requestToken(t testing.TB, db *DB, email string, now time.Time) string {
	t.Helper()
	if err := db.accountsAt(now).RequestLogin(t.Context(), email, "en"); err != nil {
		t.Fatalf("RequestLogin %s: %v", email, err)
	}
	mail := lastLoginMail(t, db, email, now)
	if err := db.MarkSent(t.Context(), mail.ID, now); err != nil {
		t.Fatal(err)
	}
	return mail.Secret
}

func lastLoginMail(t testing.TB, db *DB, email string, now time.Time) domain.OutboxMail {
	t.Helper()
	due, err := db.DueMail(t.Context(), now, 1000)
	if err != nil {
		t.Fatalf("DueMail: %v", err)
	}
	var found *domain.OutboxMail
	for i := range due {
		if due[i].Email == email && due[i].Notice.Kind == domain.NoticeLogin && (found == nil || due[i].ID > found.ID) {
			found = &due[i]
		}
	}
	if found == nil {
		t.Fatalf("no login mail for %s among %+v", email, due)
	}
	return *found
}

func twoPlayerSpec(white, black string) games.NewGameSpec {
	return games.NewGameSpec{Players: []games.Player{
		{Name: "White " + white, Email: white},
		{Name: "Black " + black, Email: black, Locale: "fr"},
	}, Params: less.Params{Walls: openWalls}.Map()}
}

func mustCreate(t *testing.T, db *DB, spec games.NewGameSpec, creator int64, now time.Time) games.Game {
	t.Helper()
	g, err := db.serviceAt(now).CreateGame(t.Context(), spec, creator)
	if err != nil {
		t.Fatalf("CreateGame: %v", err)
	}
	return g
}

func seatOf(c less.Color) games.Actor { return seatNamed(c.String()) }

// seatNamed is the seat of a colour by name.
func seatNamed(color string) games.Actor { return games.Actor{SeatColor: &color} }

// lessOf is the Less game behind a stored game, read from its state as a
// store keeps it.
func lessOf(t testing.TB, g games.Game) *less.RulesGame {
	t.Helper()
	state, err := g.Rules.Encode()
	if err != nil {
		t.Fatalf("game %s: %v", g.ID, err)
	}
	lg, err := less.DecodeGame(state)
	if err != nil {
		t.Fatalf("game %s is not Less: %v", g.ID, err)
	}
	return lg
}

func changeOf(sub games.Submitted) Change {
	return Change{Game: sub.Game, Played: sub.Played, Notices: sub.Notices, Response: Response{Status: 201, Body: []byte(`{"ok":true}`)}}
}

// submit plays a turn through UpdateGame, as the API does.
func submitTurn(ctx context.Context, db *DB, id string, a games.Actor, ply int, turn string, now time.Time) error {
	_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: id, Now: now,
		Compute: func(g games.Game) (Change, error) {
			sub, err := games.SubmitTurn(g, a, ply, turn, now)
			if err != nil {
				return Change{}, err
			}
			return changeOf(sub), nil
		}})
	return err
}

func resignGame(ctx context.Context, db *DB, id string, a games.Actor, now time.Time) error {
	_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: id, Now: now,
		Compute: func(g games.Game) (Change, error) {
			sub, err := games.Resign(g, a, now)
			if err != nil {
				return Change{}, err
			}
			return changeOf(sub), nil
		}})
	return err
}

func wantDomainError(t *testing.T, err error, kind domain.Kind, code string) {
	t.Helper()
	var de *domain.Error
	if !errors.As(err, &de) || de.Kind != kind || de.Code != code {
		t.Fatalf("error = %v (%T), want *domain.Error kind %d code %s", err, err, kind, code)
	}
}

// checkSameGame compares a game read back from the store with the one stored.
func checkSameGame(t *testing.T, got, want games.Game) {
	t.Helper()
	gl, wl := lessOf(t, got), lessOf(t, want)
	if got.ID != want.ID || got.CreatorID != want.CreatorID || gl.Preset != wl.Preset || got.Version != want.Version {
		t.Errorf("game = id %s creator %d preset %s version %d; want %s %d %s %d",
			got.ID, got.CreatorID, gl.Preset, got.Version, want.ID, want.CreatorID, wl.Preset, want.Version)
	}
	if (gl.Seed == nil) != (wl.Seed == nil) || gl.Seed != nil && *gl.Seed != *wl.Seed {
		t.Errorf("seed = %v, want %v", gl.Seed, wl.Seed)
	}
	if !reflect.DeepEqual(got.Seats, want.Seats) {
		t.Errorf("seats = %+v\nwant %+v", got.Seats, want.Seats)
	}
	if !sameTime(got.CreatedAt, want.CreatedAt) || !sameTime(got.UpdatedAt, want.UpdatedAt) {
		t.Errorf("times = %v, %v; want %v, %v", got.CreatedAt, got.UpdatedAt, msUTC(want.CreatedAt), msUTC(want.UpdatedAt))
	}
	gs, ws := gl.Game.State(), wl.Game.State()
	if !gs.Start.Equal(ws.Start) || !gs.Position.Equal(ws.Position) {
		t.Errorf("start %s position %s; want %s and %s", gs.Start, gs.Position, ws.Start, ws.Position)
	}
	if gs.Start.Board().Walls() != ws.Start.Board().Walls() || gs.Position.Board().Walls() != ws.Position.Board().Walls() {
		t.Errorf("walls = %s, want %s", gs.Start.Board().Walls(), ws.Start.Board().Walls())
	}
	if gs.Options != ws.Options || gs.Counts != ws.Counts || gs.Ply != ws.Ply || !reflect.DeepEqual(gs.Result, ws.Result) {
		t.Errorf("state = options %+v counts %v ply %d result %+v; want %+v %v %d %+v",
			gs.Options, gs.Counts, gs.Ply, gs.Result, ws.Options, ws.Counts, ws.Ply, ws.Result)
	}
	// The restored state must be playable.
	if _, err := less.RestoreGame(gs); err != nil {
		t.Errorf("RestoreGame: %v", err)
	}
}

func TestCreateGameRoundTrip(t *testing.T) {
	seed := uint64(1234567890123456789) // more than an int64 can hold is fine too
	bigSeed := ^uint64(0)
	yes, thirty := true, 30
	sq := func(s string) less.Square {
		q, err := less.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	hemmed := []byte(openWalls)
	for _, i := range []int{57, 46, 31, 32} {
		hemmed[i] = '1'
	}
	tests := []struct {
		name      string
		spec      games.NewGameSpec
		wantTurns []games.StoredTurn
	}{
		{name: "two players on given walls", spec: twoPlayerSpec("ann@example.org", "bob@example.org")},
		{name: "seed, early stop and max turns", spec: games.NewGameSpec{
			Players: twoPlayerSpec("ann@example.org", "bob@example.org").Players, Seed: &seed, Params: less.Params{EarlyStop: &yes, MaxTurns: &thirty}.Map()}},
		{name: "the largest seed", spec: games.NewGameSpec{
			Players: twoPlayerSpec("ann@example.org", "bob@example.org").Players, Seed: &bigSeed}},
		{name: "four players, codecup", spec: games.NewGameSpec{Players: []games.Player{
			{Name: "Yves", Email: "yves@example.org", Locale: "de"}, {Name: "Bea", Email: "bea@example.org", Locale: "es"},
			{Name: "Wim", Email: "wim@example.org", Locale: "it"}, {Name: "Zoë 🎲", Email: "Rut@Example.org"},
		}, Params: less.Params{Preset: less.PresetCodeCup}.Map()}},
		{name: "setup with an automatic pass at the start", spec: games.NewGameSpec{
			Players: twoPlayerSpec("ann@example.org", "bob@example.org").Players, Params: less.Params{Walls: string(hemmed), Setup: &less.Setup{Pieces: map[less.Color][]less.Square{
				less.White: {sq("e5"), sq("e6"), sq("f5"), sq("f6")},
				less.Black: {sq("d5"), sq("d6"), sq("e4"), sq("f4")},
			}, ToMove: less.White}}.Map()},
			wantTurns: []games.StoredTurn{{Ply: 1, Color: "white", Notation: "Nil", Used: 0, Counted: 3, Auto: true, PlayedAt: msUTC(t0)}},
		},
	}
	ctx := t.Context()
	db := newStore(t)
	creator := signUp(t, db, "org@example.org", t0)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			created := mustCreate(t, db, tt.spec, creator.ID, t0)
			if !strings.HasPrefix(created.ID, "g_") || created.CreatorID != creator.ID {
				t.Errorf("created id %q creator %d", created.ID, created.CreatorID)
			}
			got, err := db.Game(ctx, created.ID)
			if err != nil {
				t.Fatalf("Game: %v", err)
			}
			checkSameGame(t, got, created)
			turns, err := db.Turns(ctx, created.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(turns, tt.wantTurns) {
				t.Errorf("turns = %+v, want %+v", turns, tt.wantTurns)
			}
			mail, err := db.GameMail(ctx, created.ID)
			if err != nil {
				t.Fatal(err)
			}
			var invited []string
			for _, m := range mail {
				if m.Kind == domain.NoticeInvitation {
					invited = append(invited, m.Color)
				}
			}
			var seats []string
			for _, s := range created.Seats {
				seats = append(seats, s.Color)
			}
			if !slices.Equal(invited, seats) {
				t.Errorf("invitations to %v, want %v", invited, seats)
			}
		})
	}
}

func TestGameRoundTripsAFinishedGame(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	u := signUp(t, db, "org@example.org", t0)
	g := mustCreate(t, db, twoPlayerSpec("ann@example.org", "bob@example.org"), u.ID, t0)
	if err := submitTurn(ctx, db, g.ID, seatOf(less.White), 0, firstTurn, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	var want games.Game
	_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Now: t0.Add(time.Hour),
		Compute: func(g games.Game) (Change, error) {
			sub, err := games.Resign(g, seatOf(less.White), t0.Add(time.Hour))
			want = sub.Game
			return changeOf(sub), err
		}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r, over := got.Result(); !over || r.Reason != string(less.ReasonResignation) {
		t.Fatalf("result = %+v (over %v)", r, over)
	}
	checkSameGame(t, got, want)
	if !got.Over() || got.Version != 3 {
		t.Errorf("over %v version %d", got.Over(), got.Version)
	}
}

func TestGameNotFound(t *testing.T) {
	db := newStore(t)
	for _, id := range []string{"g_missing", "", strings.Repeat("x", 500)} {
		_, err := db.Game(t.Context(), id)
		wantDomainError(t, err, domain.KindNotFound, domain.CodeNotFound)
	}
	authorize := func(*games.Game) error {
		t.Error("authorize called for a missing game")
		return nil
	}
	_, _, err := games.UpdateGame(t.Context(), db, nil, games.GameUpdate{GameID: "g_missing", Idem: &Idempotency{Scope: "s", Key: "k", Fingerprint: []byte("f")}, Now: t0, Authorize: authorize,
		Compute: func(games.Game) (Change, error) {
			t.Error("change called for a missing game")
			return Change{}, nil
		}})
	wantDomainError(t, err, domain.KindNotFound, domain.CodeNotFound)
}

func TestUpdateGameCommitsEverything(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	u := signUp(t, db, "org@example.org", t0)
	g := mustCreate(t, db, twoPlayerSpec("ann@example.org", "bob@example.org"), u.ID, t0)
	now := t0.Add(time.Minute)
	var want games.Game
	authorized := 0
	authorize := func(current *games.Game) error {
		authorized++
		checkSameGame(t, *current, g)
		return nil
	}
	resp, replayed, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Now: now, Authorize: authorize,
		Compute: func(before games.Game) (Change, error) {
			checkSameGame(t, before, g)
			sub, err := games.SubmitTurn(before, seatOf(less.White), 0, "e5-e4 e4-d4 d4-c4", now)
			want = sub.Game
			return changeOf(sub), err
		}})
	if err != nil || replayed || resp.Status != 201 || string(resp.Body) != `{"ok":true}` {
		t.Fatalf("UpdateGame = %+v, %v, %v", resp, replayed, err)
	}
	if authorized != 1 {
		t.Errorf("authorize called %d times, want 1", authorized)
	}
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkSameGame(t, got, want)
	if got.Version != 2 || got.Ply() != 1 || got.ToMove() != "black" {
		t.Errorf("version %d ply %d to move %s", got.Version, got.Ply(), got.ToMove())
	}
	turns, err := db.Turns(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	wantTurns := []games.StoredTurn{{Ply: 1, Color: "white", Notation: firstTurn, Used: 3, Counted: 3, PlayedAt: msUTC(now)}}
	if !reflect.DeepEqual(turns, wantTurns) {
		t.Errorf("turns = %+v, want %+v", turns, wantTurns)
	}
	mail, err := db.GameMail(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	wantMail := []domain.NoticeDelivery{
		{Kind: domain.NoticeInvitation, Color: "white", Status: "pending", CreatedAt: msUTC(t0)},
		{Kind: domain.NoticeInvitation, Color: "black", Status: "pending", CreatedAt: msUTC(t0)},
		{Kind: domain.NoticeYourTurn, Color: "black", Ply: 1, Status: "pending", CreatedAt: msUTC(now)},
	}
	if !reflect.DeepEqual(mail, wantMail) {
		t.Errorf("mail = %+v\nwant %+v", mail, wantMail)
	}
	due, err := db.DueMail(ctx, now, 100)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(due); n != 3 || due[2].Email != "bob@example.org" || due[2].Notice.Kind != domain.NoticeYourTurn {
		t.Errorf("due mail = %+v", due)
	}
}

func TestUpdateGameFailureLeavesNoTrace(t *testing.T) {
	errBoom := errors.New("boom")
	errRefused := domain.Errorf(domain.KindForbidden, domain.CodeForbidden, "the link was renewed")
	tests := []struct {
		name      string
		idem      *Idempotency
		authorize func(*games.Game) error // nil: anyone may act
		change    func(g games.Game, now time.Time) (Change, error)
		calls     int // want calls to change
		check     func(t *testing.T, err error)
	}{
		{
			name:      "authorize refuses: change is not called",
			idem:      &Idempotency{Scope: "seat:white", Key: "k1", Fingerprint: []byte("f")},
			authorize: func(*games.Game) error { return errRefused },
			change: func(g games.Game, now time.Time) (Change, error) {
				sub, err := games.SubmitTurn(g, seatOf(less.White), 0, firstTurn, now)
				return changeOf(sub), err
			},
			check: func(t *testing.T, err error) {
				if err != errRefused {
					t.Fatalf("error = %v, want authorize's error as is", err)
				}
			},
		},
		{
			name:  "the domain refuses the change",
			calls: 1,
			change: func(g games.Game, now time.Time) (Change, error) {
				sub, err := games.SubmitTurn(g, seatOf(less.Black), 0, firstTurn, now)
				return changeOf(sub), err
			},
			check: func(t *testing.T, err error) { wantDomainError(t, err, domain.KindForbidden, domain.CodeNotYourTurn) },
		},
		{
			name:  "the change fails after computing a new state",
			calls: 1,
			idem:  &Idempotency{Scope: "seat:white", Key: "k1", Fingerprint: []byte("f")},
			change: func(g games.Game, now time.Time) (Change, error) {
				sub, err := games.SubmitTurn(g, seatOf(less.White), 0, firstTurn, now)
				if err != nil {
					return Change{}, err
				}
				return changeOf(sub), errBoom
			},
			check: func(t *testing.T, err error) {
				if !errors.Is(err, errBoom) {
					t.Fatalf("error = %v, want the change's error as is", err)
				}
			},
		},
		{
			// The idempotency row is the last statement of the transaction,
			// after the game, its turns and its mail were written; storing it
			// fails (a fingerprint is required), and all of it must go.
			name:  "the store fails after writing the game, turns and mail",
			calls: 1,
			idem:  &Idempotency{Scope: "seat:white", Key: "k1", Fingerprint: nil},
			change: func(g games.Game, now time.Time) (Change, error) {
				sub, err := games.SubmitTurn(g, seatOf(less.White), 0, firstTurn, now)
				return changeOf(sub), err
			},
			check: func(t *testing.T, err error) {
				if err == nil {
					t.Fatal("UpdateGame succeeded")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			db := newStore(t)
			u := signUp(t, db, "org@example.org", t0)
			g := mustCreate(t, db, twoPlayerSpec("ann@example.org", "bob@example.org"), u.ID, t0)
			now := t0.Add(time.Minute)
			calls := 0
			resp, replayed, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Idem: tt.idem, Now: now, Authorize: tt.authorize,
				Compute: func(g games.Game) (Change, error) {
					calls++
					return tt.change(g, now)
				}})
			tt.check(t, err)
			if calls != tt.calls || replayed || resp.Status != 0 {
				t.Errorf("calls %d replayed %v response %+v", calls, replayed, resp)
			}
			got, err := db.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			checkSameGame(t, got, g)
			if turns, err := db.Turns(ctx, g.ID); err != nil || len(turns) != 0 {
				t.Errorf("turns = %+v, %v; want none", turns, err)
			}
			if mail, err := db.GameMail(ctx, g.ID); err != nil || len(mail) != 2 {
				t.Errorf("mail = %+v, %v; want the 2 invitations only", mail, err)
			}
			var keys int
			if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM idempotency_keys`).Scan(&keys); err != nil || keys != 0 {
				t.Errorf("%d idempotency keys stored (%v), want none", keys, err)
			}
			// The write connection is fine afterwards, and the key was not
			// used up: a retry with it is a new request.
			idem := &Idempotency{Scope: "seat:white", Key: "k1", Fingerprint: []byte("f")}
			resp, replayed, err = games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Idem: idem, Now: now,
				Compute: func(g games.Game) (Change, error) {
					sub, err := games.SubmitTurn(g, seatOf(less.White), 0, firstTurn, now)
					return changeOf(sub), err
				}})
			if err != nil || replayed || resp.Status != 201 {
				t.Fatalf("retry = %+v, %v, %v", resp, replayed, err)
			}
			if got, _ := db.Game(ctx, g.ID); got.Version != 2 {
				t.Errorf("version after the retry = %d, want 2", got.Version)
			}
		})
	}
}

func TestUpdateGameIdempotency(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	u := signUp(t, db, "org@example.org", t0)
	g := mustCreate(t, db, twoPlayerSpec("ann@example.org", "bob@example.org"), u.ID, t0)
	calls := 0
	play := func(a games.Actor, ply int, turn string, now time.Time) func(games.Game) (Change, error) {
		return func(g games.Game) (Change, error) {
			calls++
			sub, err := games.SubmitTurn(g, a, ply, turn, now)
			if err != nil {
				return Change{}, err
			}
			c := changeOf(sub)
			c.Response = Response{Status: 201, Body: []byte(lessOf(t, sub.Game).Game.Position().String())}
			return c, nil
		}
	}
	white := &Idempotency{Scope: "seat:" + g.ID + ":white", Key: "key-1", Fingerprint: []byte{1, 2, 3}}
	t1 := t0.Add(time.Minute)
	first, replayed, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Idem: white, Now: t1, Compute: play(seatOf(less.White), 0, firstTurn, t1)})
	if err != nil || replayed || calls != 1 || first.Status != 201 || len(first.Body) == 0 {
		t.Fatalf("first = %+v, %v, %v (calls %d)", first, replayed, err, calls)
	}
	refuse := func(*games.Game) error {
		return domain.Errorf(domain.KindForbidden, domain.CodeForbidden, "the link was renewed")
	}
	steps := []struct {
		name      string
		idem      *Idempotency
		authorize func(*games.Game) error // nil: anyone may act
		change    func(games.Game) (Change, error)
		replayed  bool
		code      string
		calls     int // total calls to a change function after this step
		version   int
	}{
		{
			name: "same key, same request: the stored response", idem: white,
			change: play(seatOf(less.White), 0, firstTurn, t1), replayed: true, calls: 1, version: 2,
		},
		{
			name: "same key, same request, again", idem: &Idempotency{Scope: white.Scope, Key: white.Key, Fingerprint: []byte{1, 2, 3}},
			change: play(seatOf(less.White), 0, firstTurn, t1), replayed: true, calls: 1, version: 2,
		},
		{
			// authorize runs before a replay too: a stored answer is not
			// given to credentials that no longer hold.
			name: "same key, same request, caller no longer allowed", idem: white, authorize: refuse,
			change: play(seatOf(less.White), 0, firstTurn, t1), code: domain.CodeForbidden, calls: 1, version: 2,
		},
		{
			name: "same key, another request", idem: &Idempotency{Scope: white.Scope, Key: white.Key, Fingerprint: []byte{1, 2, 4}},
			change: play(seatOf(less.White), 0, firstTurn, t1), code: domain.CodeIdempotencyReused, calls: 1, version: 2,
		},
		{
			name: "same key, no fingerprint", idem: &Idempotency{Scope: white.Scope, Key: white.Key},
			change: play(seatOf(less.White), 0, firstTurn, t1), code: domain.CodeIdempotencyReused, calls: 1, version: 2,
		},
		{
			name: "same key in another scope is another request", idem: &Idempotency{Scope: "seat:" + g.ID + ":black", Key: white.Key, Fingerprint: []byte{1, 2, 3}},
			change: play(seatOf(less.Black), 1, "a2a3:a3a4:b2b3", t1), calls: 2, version: 3,
		},
		{
			name: "another key in the first scope is another request", idem: &Idempotency{Scope: white.Scope, Key: "key-2", Fingerprint: []byte{1, 2, 3}},
			change: play(seatOf(less.White), 2, "e6e5:e5d5:d5c5", t1), calls: 3, version: 4,
		},
		{
			name: "the first key still answers with its first response", idem: white,
			change: play(seatOf(less.White), 0, firstTurn, t1), replayed: true, calls: 3, version: 4,
		},
	}
	for _, st := range steps {
		resp, replayed, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Idem: st.idem, Now: t1, Authorize: st.authorize, Compute: st.change})
		switch {
		case st.code != "":
			var de *domain.Error
			if !errors.As(err, &de) || de.Code != st.code || replayed {
				t.Errorf("%s: error = %v (replayed %v), want %s", st.name, err, replayed, st.code)
			}
			if st.code == domain.CodeIdempotencyReused && de != nil && de.Kind != domain.KindConflict {
				t.Errorf("%s: kind = %d, want conflict", st.name, de.Kind)
			}
		case err != nil:
			t.Errorf("%s: %v", st.name, err)
		case replayed != st.replayed:
			t.Errorf("%s: replayed = %v, want %v", st.name, replayed, st.replayed)
		case st.replayed && !reflect.DeepEqual(resp, first):
			t.Errorf("%s: response = %+v, want the stored %+v", st.name, resp, first)
		case !st.replayed && (resp.Status != 201 || reflect.DeepEqual(resp, first)):
			t.Errorf("%s: response = %+v, want a new one", st.name, resp)
		}
		if calls != st.calls {
			t.Errorf("%s: change called %d times in all, want %d", st.name, calls, st.calls)
		}
		if got, err := db.Game(ctx, g.ID); err != nil || got.Version != st.version {
			t.Errorf("%s: version = %d (%v), want %d", st.name, got.Version, err, st.version)
		}
	}
	if turns, err := db.Turns(ctx, g.ID); err != nil || len(turns) != 3 {
		t.Errorf("turns = %+v, %v; want 3", turns, err)
	}
}

// Many submissions of the same first turn at once: the single write
// connection serialises them, exactly one is played, and the others find
// the game moved on.
func TestUpdateGameConcurrentSubmissions(t *testing.T) {
	tests := []struct {
		name  string
		spec  games.NewGameSpec
		actor games.Actor
	}{
		{"White's seat link", twoPlayerSpec("ann@example.org", "bob@example.org"), seatOf(less.White)},
		{"an account holding both seats", twoPlayerSpec("ann@example.org", "bob@example.org"),
			games.Actor{UserID: 42, UserEmail: "ann@example.org"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			db := newStore(t)
			u := signUp(t, db, "org@example.org", t0)
			g := mustCreate(t, db, tt.spec, u.ID, t0)
			if tt.actor.UserID != 0 {
				if err := giveBothSeats(t, db, g.ID, tt.actor.UserEmail); err != nil {
					t.Fatal(err)
				}
			}
			const n = 8
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					errs[i] = submitTurn(ctx, db, g.ID, tt.actor, 0, firstTurn, t0.Add(time.Duration(i+1)*time.Second))
				})
			}
			wg.Wait()
			won := 0
			for i, err := range errs {
				if err == nil {
					won++
					continue
				}
				var de *domain.Error
				if !errors.As(err, &de) || de.Kind != domain.KindConflict || de.Code != domain.CodeStalePly {
					t.Errorf("submission %d: %v, want %s", i, err, domain.CodeStalePly)
				}
			}
			if won != 1 {
				t.Fatalf("%d submissions won, want exactly 1", won)
			}
			got, err := db.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Version != 2 || got.Ply() != 1 || lessOf(t, got).Game.Count(less.White) != 3 {
				t.Errorf("after the race: version %d ply %d counts %v", got.Version, got.Ply(), lessOf(t, got).Game.State().Counts)
			}
			if turns, err := db.Turns(ctx, g.ID); err != nil || len(turns) != 1 {
				t.Errorf("turns = %+v, %v; want 1", turns, err)
			}
			mail, err := db.GameMail(ctx, g.ID)
			if err != nil || len(mail) != 3 {
				t.Errorf("mail = %+v, %v; want 2 invitations and 1 your_turn", mail, err)
			}
		})
	}
}

// UpdateGame reads and computes outside the write transaction. When another
// change lands in between, it must notice, read again and compute again;
// after games.OptimisticAttempts such races it computes inside the transaction.
func TestUpdateGameRetriesAfterARace(t *testing.T) {
	tests := []struct {
		name  string
		races int // how many of the first calls of change another change overtakes
		idem  bool
		// a race that is a retry of the same request with the same key
		sameRequest bool
		wantCalls   int
		wantReplay  bool
		wantVersion int
	}{
		{name: "no race", races: 0, wantCalls: 1, wantVersion: 2},
		{name: "one race", races: 1, wantCalls: 2, wantVersion: 3},
		{name: "races until the locked path", races: games.OptimisticAttempts, wantCalls: games.OptimisticAttempts + 1, wantVersion: 2 + games.OptimisticAttempts},
		{name: "overtaken by its own retry", races: 1, idem: true, sameRequest: true, wantCalls: 1, wantReplay: true, wantVersion: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			db := newStore(t)
			u := signUp(t, db, "org@example.org", t0)
			g := mustCreate(t, db, twoPlayerSpec("ann@example.org", "bob@example.org"), u.ID, t0)
			creator := games.Actor{UserID: u.ID, UserEmail: "org@example.org"}
			var idem *Idempotency
			if tt.idem {
				idem = &Idempotency{Scope: "seat:" + g.ID + ":white", Key: "k", Fingerprint: []byte{1}}
			}
			now := t0.Add(time.Minute)
			play := func(g games.Game) (Change, error) {
				sub, err := games.SubmitTurn(g, seatOf(less.White), 0, firstTurn, now)
				return changeOf(sub), err
			}
			calls := 0
			resp, replayed, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Idem: idem, Now: now,
				Compute: func(g games.Game) (Change, error) {
					calls++
					if calls <= tt.races {
						// Another change commits between this read and its write.
						other := func(g games.Game) (Change, error) {
							ng, notice, err := games.RotateSeat(g, creator, "black", now)
							return Change{Game: ng, Notices: []domain.Notice{notice}}, err
						}
						if tt.sameRequest {
							other = play
						}
						if _, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Idem: idem, Now: now, Compute: other}); err != nil {
							t.Fatalf("the overtaking change: %v", err)
						}
					}
					return play(g)
				}})
			if err != nil {
				t.Fatal(err)
			}
			if calls != tt.wantCalls || replayed != tt.wantReplay || resp.Status != 201 {
				t.Errorf("change called %d times, replayed %v, response %+v; want %d calls, replayed %v",
					calls, replayed, resp, tt.wantCalls, tt.wantReplay)
			}
			got, err := db.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Version != tt.wantVersion || got.Ply() != 1 {
				t.Errorf("version %d, ply %d; want version %d, ply 1", got.Version, got.Ply(), tt.wantVersion)
			}
			if turns, err := db.Turns(ctx, g.ID); err != nil || len(turns) != 1 {
				t.Errorf("turns = %+v, %v; want 1", turns, err)
			}
		})
	}
}

// A user's Idempotency-Key used at the same moment for a request on
// another game: the write finds the key taken, rolls back, and the retry
// refuses the request as a reuse of the key.
func TestUpdateGameKeyTakenMeanwhile(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	u := signUp(t, db, "ann@example.org", t0)
	spec := twoPlayerSpec("ann@example.org", "bob@example.org")
	g1, g2 := mustCreate(t, db, spec, u.ID, t0), mustCreate(t, db, spec, u.ID, t0)
	ann := games.Actor{UserID: u.ID, UserEmail: "ann@example.org"}
	now := t0.Add(time.Minute)
	key := func(game string) *Idempotency {
		return &Idempotency{Scope: "user:1", Key: "k", Fingerprint: []byte("POST /v1/games/" + game + "/turns")}
	}
	play := func(g games.Game) (Change, error) {
		sub, err := games.SubmitTurn(g, ann, 0, firstTurn, now)
		return changeOf(sub), err
	}
	raced := false
	_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g1.ID, Idem: key(g1.ID), Now: now,
		Compute: func(g games.Game) (Change, error) {
			if !raced {
				raced = true
				if _, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g2.ID, Idem: key(g2.ID), Now: now, Compute: play}); err != nil {
					t.Fatalf("the request on the other game: %v", err)
				}
			}
			return play(g)
		}})
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.CodeIdempotencyReused {
		t.Fatalf("error = %v, want %s", err, domain.CodeIdempotencyReused)
	}
	if got, err := db.Game(ctx, g1.ID); err != nil || got.Version != g1.Version || got.Ply() != 0 {
		t.Errorf("game 1 changed: version %d ply %d (%v)", got.Version, got.Ply(), err)
	}
}

func TestTurns(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	u := signUp(t, db, "org@example.org", t0)
	g := mustCreate(t, db, twoPlayerSpec("ann@example.org", "bob@example.org"), u.ID, t0)
	if turns, err := db.Turns(ctx, g.ID); err != nil || len(turns) != 0 {
		t.Fatalf("turns of a new game = %+v, %v", turns, err)
	}
	plays := []struct {
		color less.Color
		input string
		want  string
	}{
		{less.White, "e5-e4, e4-d4 d4-c4", firstTurn},
		{less.Black, "A2A3:a3a4:b2b3:", "a2a3:a3a4:b2b3"},
		{less.White, "e6e5 e5d5 d5c5", "e6e5:e5d5:d5c5"},
	}
	var played []ruleset.Played
	var wantRows []games.StoredTurn
	for i, p := range plays {
		now := t0.Add(time.Duration(i+1)*time.Hour + 987654*time.Nanosecond)
		_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Now: now,
			Compute: func(g games.Game) (Change, error) {
				sub, err := games.SubmitTurn(g, seatOf(p.color), i, p.input, now)
				played = append(played, sub.Played...)
				return changeOf(sub), err
			}})
		if err != nil {
			t.Fatalf("turn %d: %v", i+1, err)
		}
		wantRows = append(wantRows, games.StoredTurn{Ply: i + 1, Color: p.color.String(), Notation: p.want, Used: 3, Counted: 3, PlayedAt: msUTC(now)})
	}
	rows, err := db.Turns(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows, wantRows) {
		t.Fatalf("turns = %+v\nwant %+v", rows, wantRows)
	}
	for i, r := range rows {
		want := played[i]
		if p := r.Played(); !reflect.DeepEqual(p, want) {
			t.Errorf("row %d Played = %+v; want %+v", i, p, want)
		}
	}
	// The stored turns replay to the stored position.
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	pos := lessOf(t, got).Game.Start()
	for _, r := range rows {
		p, _ := less.PlayedFrom(r.Played())
		if pos, _, err = pos.Play(p.Turn); err != nil {
			t.Fatalf("replay ply %d: %v", r.Ply, err)
		}
	}
	if stored := lessOf(t, got).Game.Position(); !pos.Equal(stored) {
		t.Errorf("replayed %s, stored %s", pos, stored)
	}
	if other, err := db.Turns(ctx, "g_missing"); err != nil || len(other) != 0 {
		t.Errorf("turns of a missing game = %+v, %v", other, err)
	}
}

func TestTurnRecordPlayed(t *testing.T) {
	tests := []struct {
		row     games.StoredTurn
		want    less.Played
		wantErr bool
	}{
		{
			row:  games.StoredTurn{Ply: 1, Color: "white", Notation: "Nil", Counted: 3, Auto: true},
			want: less.Played{Color: less.White, Turn: less.Turn{}, Outcome: less.Outcome{Counted: 3}, Auto: true},
		},
		{
			row:  games.StoredTurn{Ply: 2, Color: "red", Notation: "a1a2:a2a4", Used: 3, Counted: 3},
			want: less.Played{Color: less.Red, Turn: less.MustParseTurn("a1a2:a2a4"), Outcome: less.Outcome{Used: 3, Counted: 3}},
		},
		{
			row:  games.StoredTurn{Ply: 3, Color: "black", Notation: "c3c4", Used: 1, Counted: 1},
			want: less.Played{Color: less.Black, Turn: less.MustParseTurn("c3c4"), Outcome: less.Outcome{Used: 1, Counted: 1}},
		},
		{row: games.StoredTurn{Ply: 4, Notation: "garbage"}, wantErr: true},
		{row: games.StoredTurn{Ply: 5, Notation: ""}, wantErr: true},
	}
	for _, tt := range tests {
		got, err := less.PlayedFrom(tt.row.Played())
		if (err != nil) != tt.wantErr {
			t.Errorf("%+v: Played error = %v, want error %v", tt.row, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && (got.Color != tt.want.Color || got.Turn.String() != tt.want.Turn.String() ||
			got.Outcome != tt.want.Outcome || got.Auto != tt.want.Auto) {
			t.Errorf("%+v: Played = %+v, want %+v", tt.row, got, tt.want)
		}
	}
}

// loadGames reads several games in two queries, in the order asked, with
// each game's own seats, and skips ids that do not exist.
func TestLoadGames(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	u := signUp(t, db, "org@example.org", t0)
	var want []games.Game
	for _, p := range [][2]string{{"a@example.org", "b@example.org"}, {"c@example.org", "d@example.org"}, {"e@example.org", "f@example.org"}} {
		want = append(want, mustCreate(t, db, twoPlayerSpec(p[0], p[1]), u.ID, t0))
	}
	got, err := loadGames(ctx, db.read, []string{want[2].ID, "g-missing", want[0].ID, want[1].ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d games, want 3", len(got))
	}
	for i, w := range []games.Game{want[2], want[0], want[1]} {
		checkSameGame(t, got[i], w)
	}
	if got, err := loadGames(ctx, db.read, nil); err != nil || len(got) != 0 {
		t.Errorf("loadGames(nil) = %v, %v", got, err)
	}
}

// giveBothSeats gives every seat of a game to one address, as games created
// before one address could hold only one seat may have it.
func giveBothSeats(t *testing.T, db *DB, gameID, email string) error {
	t.Helper()
	return db.WithTx(t.Context(), func(tx *Tx) error {
		_, err := tx.ExecContext(t.Context(), `UPDATE seats SET email = ? WHERE game_id = ?`, email, gameID)
		return err
	})
}
