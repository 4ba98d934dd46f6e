// Package storetest is the contract of the stores (repo/port.Store): what
// every store (repo/sqlite, repo/postgres, and domain/memstore, the
// in-memory one of the use-case tests) must do.
// A store's tests call Run with a constructor of empty stores.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// Store is every port a store implements: the kernel's and each
// aggregate's.
type Store interface {
	tournaments.Store
	accounts.Store
	hooks.Store
	playersStore
}

// Run runs the contract against stores made by newStore, each empty.
func Run(t *testing.T, newStore func(t *testing.T) Store) {
	tests := []struct {
		name string
		run  func(t *testing.T, s Store)
	}{
		{"GameRoundTrip", testGameRoundTrip},
		{"MissingGame", testMissingGame},
		{"TurnsFrom", testTurnsFrom},
		{"UnitOfWorkAllOrNothing", testAllOrNothing},
		{"VersionGuard", testVersionGuard},
		{"ChangeWithoutGameChange", testChangeWithoutGameChange},
		{"IdempotentResponses", testIdempotentResponses},
		{"Rematches", testRematches},
		{"Sessions", testSessions},
		{"LoginTokens", testLoginTokens},
		{"LoginCodes", testLoginCodes},
		{"RefreshTokens", testRefreshTokens},
		{"RefreshTokensRollBack", testRefreshTokensRollBack},
		{"PersonalTokens", testPersonalTokens},
		{"PushSubscriptions", testPushSubscriptions},
		{"PushSubscriptionCap", testPushSubscriptionCap},
		{"PushSeatScope", testPushSeatScope},
		{"PushCapConcurrently", testPushCapConcurrently},
		{"PushRenewal", testPushRenewal},
		{"PushKey", testPushKey},
		{"Accounts", testAccounts},
		{"Vacations", testVacations},
		{"VacationDuringATurn", testVacationDuringATurn},
		{"GamesOfAnAddress", testGamesOfAnAddress},
		{"MailChoices", testMailChoices},
		{"MyGamesOrderAndCursor", testMyGamesOrder},
		{"MyGamesFollowsChanges", testMyGamesFollowsChanges},
		{"DueGames", testDueGames},
		{"Tournaments", testTournaments},
		{"AccountTournaments", testAccountTournaments},
		{"AccountTournamentPages", testAccountTournamentPages},
		{"GamesInBulk", testGamesInBulk},
		{"SeatChangesHands", testSeatChangesHands},
		{"Handles", testHandles},
		{"HandleRetirement", testHandleRetirement},
		{"HandleRace", testHandleRace},
		{"RetiredHandles", testRetiredHandles},
		{"Profiles", testProfiles},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, newStore(t)) })
	}
}

// T0 is the time the contract's changes happen at: milliseconds, UTC, which
// is what stores keep.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const (
	openWalls = "000000000000000000000000000000000000000000000000000000000000" // 6x6 without walls
	opening   = "e5e4:e4d4:d4c4"                                               // legal for White on openWalls
)

// unit is a unit of work of the store under the default mail policy, as
// each aggregate's use cases see theirs: the games' Tx (the kernel's
// within), and the writes of accounts, tournaments and push.
type unit struct {
	*games.Tx
	accounts.StoreTx
	tournamentTx
	hooks.PushTx
}

// tournamentTx is the tournaments' StoreTx, named apart from the accounts'.
type tournamentTx = tournaments.StoreTx

// newUnit is st as a unit.
func newUnit(st domain.StoreTx) *unit {
	gt, err := games.NewTx(st, nil)
	if err != nil {
		panic(err)
	}
	return &unit{Tx: gt, StoreTx: st.(accounts.StoreTx), tournamentTx: st.(tournaments.StoreTx), PushTx: st.(hooks.PushTx)}
}

// AddLoginToken stores a login token and queues its mail, as the accounts'
// unit of work does.
func (u *unit) AddLoginToken(ctx context.Context, lt accounts.LoginToken, now time.Time) error {
	at := &accounts.Tx{Tx: u.Tx.Tx, SessionTx: u.StoreTx, PersonalTokenTx: u.StoreTx}
	return at.AddLoginToken(ctx, lt, now)
}

// transact runs fn in a unit of work and fails the test if it fails.
func transact(t *testing.T, s Store, fn func(ctx context.Context, tx *unit) error) {
	t.Helper()
	ctx := t.Context()
	if err := s.Transact(ctx, func(st domain.StoreTx) error { return fn(ctx, newUnit(st)) }); err != nil {
		t.Fatal(err)
	}
}

func ensureUser(t *testing.T, s Store, email string) domain.User {
	t.Helper()
	var u domain.User
	transact(t, s, func(ctx context.Context, tx *unit) (err error) {
		u, err = tx.EnsureUser(ctx, email, T0)
		return err
	})
	return u
}

// newGame builds a game of ann (White) and bob (Black) made by org, without
// storing it.
func newGame(t *testing.T, s Store, id string) games.Created {
	t.Helper()
	org := ensureUser(t, s, "org@example.org")
	return newGameOf(t, id, org, "ann@example.org", "bob@example.org", games.TimeControl{}, T0)
}

// newGameOf builds a game of white and black made by creator at now,
// without storing it.
func newGameOf(t *testing.T, id string, creator domain.User, white, black string, tc games.TimeControl, now time.Time) games.Created {
	t.Helper()
	c, err := games.CreateGame(games.NewGameSpec{Players: []games.Player{
		{Name: "Ann", Email: white, Locale: "en"}, {Name: "Bob", Email: black, Locale: "fr"}},
		Params: less.Params{Walls: openWalls}.Map(), Creator: creator.Email, Time: tc}, id, creator.ID, now, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func insertGame(t *testing.T, s Store, id string) games.Game {
	t.Helper()
	c := newGame(t, s, id)
	transact(t, s, func(ctx context.Context, tx *unit) error {
		return tx.InsertGame(ctx, &c, domain.Cause{By: "org@example.org"}, T0)
	})
	return c.Game
}

// createGame stores a game of white and black made by creator at now.
func createGame(t *testing.T, s Store, id string, creator domain.User, white, black string, now time.Time) games.Game {
	t.Helper()
	c := newGameOf(t, id, creator, white, black, games.TimeControl{}, now)
	transact(t, s, func(ctx context.Context, tx *unit) error {
		return tx.InsertGame(ctx, &c, domain.Cause{By: creator.Email}, now)
	})
	return c.Game
}

// play plays the opening on g and stores it.
func play(t *testing.T, s Store, g games.Game, at time.Time) games.Game {
	t.Helper()
	return change(t, s, g, at, func(g games.Game) (games.Submitted, error) {
		white := "white"
		return games.SubmitTurn(g, games.Actor{SeatColor: &white}, g.Ply(), opening, at)
	})
}

// resign has the seat of color resign g and stores it.
func resign(t *testing.T, s Store, g games.Game, color string, at time.Time) games.Game {
	t.Helper()
	return change(t, s, g, at, func(g games.Game) (games.Submitted, error) {
		return games.Resign(g, games.Actor{SeatColor: &color}, at)
	})
}

// change stores what submit does to g, at g's version.
func change(t *testing.T, s Store, g games.Game, at time.Time, submit func(games.Game) (games.Submitted, error)) games.Game {
	t.Helper()
	sub, err := submit(g)
	if err != nil {
		t.Fatal(err)
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		return tx.UpdateGame(ctx, &g, &games.GameChange{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, at)
	})
	return sub.Game
}

func testGameRoundTrip(t *testing.T, s Store) {
	ctx := t.Context()
	g := insertGame(t, s, "g_round")
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != g.ID || got.CreatorID != g.CreatorID || got.Version != g.Version || len(got.Seats) != 2 ||
		got.Seats[1] != g.Seats[1] || !sameState(got, g) || !got.CreatedAt.Equal(T0) {
		t.Errorf("read back %+v\nstored    %+v", got, g)
	}
	at := T0.Add(time.Minute)
	played := play(t, s, got, at)
	if got, err = s.Game(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if got.Version != played.Version || got.Ply() != 1 || !sameState(got, played) {
		t.Errorf("after a turn: version %d ply %d; want %d, 1", got.Version, got.Ply(), played.Version)
	}
	turns, err := s.Turns(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 1 || turns[0].Ply != 1 || turns[0].Color != "white" || turns[0].Notation != opening ||
		!turns[0].PlayedAt.Equal(at) || turns[0].Counted != 3 {
		t.Errorf("turns %+v", turns)
	}
}

// TurnsFrom reads the end of a game's record, the same turns as Turns,
// and nothing of another game's.
func testTurnsFrom(t *testing.T, s Store) {
	ctx := t.Context()
	g, other := insertGame(t, s, "g_tail"), insertGame(t, s, "g_other")
	for i := range 5 {
		g = change(t, s, g, T0.Add(time.Duration(i)*time.Minute), func(g games.Game) (games.Submitted, error) {
			c := g.ToMove()
			turn, _ := g.Rules.Example()
			return games.SubmitTurn(g, games.Actor{SeatColor: &c}, g.Ply(), turn, T0)
		})
	}
	play(t, s, other, T0)
	all, err := s.Turns(ctx, g.ID)
	if err != nil || len(all) != 5 {
		t.Fatalf("Turns: %d turns, %v", len(all), err)
	}
	for _, from := range []int{-1, 0, 1, 2, 5, 6, 100} {
		want := all[min(max(from-1, 0), len(all)):]
		got, err := s.TurnsFrom(ctx, g.ID, from)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("TurnsFrom(%d) = %+v, %v; want %+v", from, got, err, want)
		}
		transact(t, s, func(ctx context.Context, tx *unit) error {
			if got, err := tx.TurnsFrom(ctx, g.ID, from); err != nil || !slices.Equal(got, want) {
				t.Errorf("in a unit of work, TurnsFrom(%d) = %+v, %v; want %+v", from, got, err, want)
			}
			return nil
		})
	}
	if got, err := s.TurnsFrom(ctx, "g_missing", 1); err != nil || len(got) != 0 {
		t.Errorf("TurnsFrom of a missing game = %+v, %v", got, err)
	}
}

func testMissingGame(t *testing.T, s Store) {
	if _, err := s.Game(t.Context(), "g_missing"); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("a missing game: %v, want %s", err, domain.CodeNotFound)
	}
}

func testAllOrNothing(t *testing.T, s Store) {
	ctx := t.Context()
	c := newGame(t, s, "g_undone")
	failed := errors.New("the change fails after its writes")
	err := s.Transact(ctx, func(st domain.StoreTx) error {
		tx := newUnit(st)

		if err := tx.InsertGame(ctx, &c, domain.Cause{}, T0); err != nil {
			return err
		}
		if _, err := tx.Game(ctx, c.Game.ID); err != nil {
			t.Errorf("the unit of work does not see its own write: %v", err)
		}
		return failed
	})
	if !errors.Is(err, failed) {
		t.Errorf("Transact = %v, want the error of fn as is", err)
	}
	if _, err := s.Game(ctx, c.Game.ID); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("the game of a failed unit of work: %v, want %s", err, domain.CodeNotFound)
	}
}

func testVersionGuard(t *testing.T, s Store) {
	ctx := t.Context()
	g := insertGame(t, s, "g_guard")
	play(t, s, g, T0.Add(time.Minute)) // g is now stale
	white := "white"
	sub, err := games.Resign(g, games.Actor{SeatColor: &white}, T0.Add(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Transact(ctx, func(st domain.StoreTx) error {
		tx := newUnit(st)

		return tx.UpdateGame(ctx, &g, &games.GameChange{Game: sub.Game, Notices: sub.Notices}, T0.Add(2*time.Minute))
	})
	if !errors.Is(err, domain.ErrStale) {
		t.Errorf("a change to a stale game: %v, want ErrStale", err)
	}
	if got, _ := s.Game(ctx, g.ID); got.Over() || got.Ply() != 1 {
		t.Errorf("the stale change was written: over %v, ply %d", got.Over(), got.Ply())
	}
}

func testIdempotentResponses(t *testing.T, s Store) {
	ctx := t.Context()
	idem := domain.Idempotency{Scope: "seat:g:white", Key: "k", Fingerprint: []byte{1, 2}}
	if _, found, err := s.StoredResponse(ctx, idem); err != nil || found {
		t.Fatalf("before: found %v, %v", found, err)
	}
	resp := domain.Response{Status: 201, Body: []byte(`{"ok":true}`)}
	transact(t, s, func(ctx context.Context, tx *unit) error { return tx.StoreResponse(ctx, idem, resp, T0) })
	got, found, err := s.StoredResponse(ctx, idem)
	if err != nil || !found || got.Status != 201 || string(got.Body) != string(resp.Body) {
		t.Errorf("StoredResponse = %+v, %v, %v", got, found, err)
	}
	err = s.Transact(ctx, func(st domain.StoreTx) error {
		tx := newUnit(st)
		return tx.StoreResponse(ctx, idem, resp, T0)
	})
	if !errors.Is(err, domain.ErrStale) {
		t.Errorf("storing a key twice: %v, want ErrStale", err)
	}
	other := idem
	other.Fingerprint = []byte{3}
	if _, _, err := s.StoredResponse(ctx, other); domain.CodeOf(err) != domain.CodeIdempotencyReused {
		t.Errorf("the key with another request: %v, want %s", err, domain.CodeIdempotencyReused)
	}
}

func testSessions(t *testing.T, s Store) {
	ctx := t.Context()
	u := ensureUser(t, s, "ann@example.org")
	sess := accounts.Session{ID: "s1", User: u, ExpiresAt: T0.Add(time.Hour)}
	transact(t, s, func(ctx context.Context, tx *unit) error { return tx.AddSession(ctx, sess, T0) })
	got, err := s.ActiveSession(ctx, "s1", T0.Add(time.Minute))
	if err != nil || got.User.ID != u.ID || got.User.Email != u.Email || !got.ExpiresAt.Equal(sess.ExpiresAt) {
		t.Errorf("ActiveSession = %+v, %v", got, err)
	}
	if _, err := s.ActiveSession(ctx, "s1", T0.Add(time.Hour)); domain.CodeOf(err) != domain.CodeUnauthorized {
		t.Errorf("an expired session: %v, want %s", err, domain.CodeUnauthorized)
	}
	transact(t, s, func(ctx context.Context, tx *unit) error { return tx.RevokeSession(ctx, "s1", T0) })
	if _, err := s.ActiveSession(ctx, "s1", T0.Add(time.Minute)); domain.CodeOf(err) != domain.CodeUnauthorized {
		t.Errorf("a revoked session: %v, want %s", err, domain.CodeUnauthorized)
	}
}

// A login code signs in with its address only, once, while it lives and
// has had fewer than maxMisses wrong codes for its address; a wrong code
// counts against every live code of the address and no other's, and the
// link's token still signs in after its code has stopped.
func testLoginCodes(t *testing.T, s Store) {
	const maxMisses = 3
	add := func(email, token string, expires time.Time) {
		l := accounts.LoginToken{Email: email, Token: token, CodeHash: accounts.LoginCodeHash(email, accounts.LoginCode(token)), Locale: "en",
			ExpiresAt: expires}
		transact(t, s, func(ctx context.Context, tx *unit) error { return tx.AddLoginToken(ctx, l, T0) })
	}
	spend := func(email, code string, at time.Time) bool {
		var ok bool
		transact(t, s, func(ctx context.Context, tx *unit) error {
			var err error
			ok, err = tx.SpendLoginCode(ctx, email, accounts.LoginCodeHash(email, code), maxMisses, at)
			return err
		})
		return ok
	}
	const ann, bob = "ann@example.org", "bob@example.org"
	add(ann, "ann-1", T0.Add(accounts.LoginTTL))
	add(ann, "ann-2", T0.Add(accounts.LoginTTL))
	add(bob, "bob-1", T0.Add(accounts.LoginTTL))
	add(bob, "bob-old", T0.Add(time.Minute))
	annCode, bobCode := accounts.LoginCode("ann-1"), accounts.LoginCode("bob-1")
	wrong := accounts.LoginCode("nobody's")

	if spend(bob, annCode, T0) {
		t.Error("Ann's code signed Bob in")
	}
	if spend(ann, annCode, T0.Add(accounts.LoginTTL)) {
		t.Error("an expired code signed in")
	}
	if !spend(ann, annCode, T0) {
		t.Fatal("Ann's code did not sign her in")
	}
	if spend(ann, annCode, T0) {
		t.Error("a code signed in twice")
	}
	// Bob has one miss (Ann's code) on both his codes; the expired one is
	// untouched by later misses.
	for range maxMisses - 2 {
		if spend(bob, wrong, T0.Add(2*time.Minute)) {
			t.Fatal("a wrong code signed in")
		}
	}
	if !spend(bob, bobCode, T0.Add(2*time.Minute)) {
		t.Fatalf("Bob's code after %d misses did not sign in", maxMisses-1)
	}
	// Ann's second code: her one miss so far is her spent code tried
	// again (the try after expiry met no live code to count against).
	for range maxMisses - 1 {
		if spend(ann, wrong, T0) {
			t.Fatal("a wrong code signed in")
		}
	}
	if spend(ann, accounts.LoginCode("ann-2"), T0) {
		t.Errorf("a code signed in after %d misses", maxMisses)
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		if email, ok, err := tx.SpendLoginToken(ctx, "ann-2", T0); err != nil || !ok || email != ann {
			t.Errorf("the link of a code that stopped: %q, %v, %v", email, ok, err)
		}
		return nil
	})
}

func testLoginTokens(t *testing.T, s Store) {
	token := accounts.LoginToken{Email: "ann@example.org", Token: "secret", Locale: "en", ExpiresAt: T0.Add(accounts.LoginTTL)}
	transact(t, s, func(ctx context.Context, tx *unit) error { return tx.AddLoginToken(ctx, token, T0) })
	transact(t, s, func(ctx context.Context, tx *unit) error {
		for _, c := range []struct {
			after time.Time
			want  int
		}{{T0, 1}, {T0.Add(accounts.LoginTTL), 0}} {
			if n, err := tx.LoginTokensExpiringAfter(ctx, token.Email, c.after); err != nil || n != c.want {
				t.Errorf("tokens expiring after %v: %d, %v; want %d", c.after, n, err, c.want)
			}
		}
		if _, ok, err := tx.SpendLoginToken(ctx, "secret", T0.Add(accounts.LoginTTL)); err != nil || ok {
			t.Errorf("spending an expired token: ok %v, %v", ok, err)
		}
		if email, ok, err := tx.SpendLoginToken(ctx, "secret", T0); err != nil || !ok || email != token.Email {
			t.Errorf("SpendLoginToken = %q, %v, %v", email, ok, err)
		}
		if _, ok, err := tx.SpendLoginToken(ctx, "secret", T0); err != nil || ok {
			t.Errorf("spending it again: ok %v, %v", ok, err)
		}
		return nil
	})
}

func testAccounts(t *testing.T, s Store) {
	ctx := t.Context()
	u := ensureUser(t, s, "ann@example.org")
	if again := ensureUser(t, s, "ann@example.org"); again.ID != u.ID {
		t.Errorf("EnsureUser made a second account: %d and %d", u.ID, again.ID)
	}
	if !u.ReplyConfirmations {
		t.Error("a new account has ReplyConfirmations off, want on")
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		got, err := tx.UpdateUser(ctx, u.ID, accounts.AccountSettings{Name: "Ann", Locale: "de"})
		if err != nil || got.Name != "Ann" || got.Locale != "de" || got.ReplyConfirmations {
			t.Errorf("UpdateUser = %+v, %v", got, err)
		}
		if l, err := tx.AccountLocale(ctx, "ann@example.org"); err != nil || l != "de" {
			t.Errorf("AccountLocale = %q, %v; want de", l, err)
		}
		if l, err := tx.AccountLocale(ctx, "nobody@example.org"); err != nil || l != domain.DefaultLocale {
			t.Errorf("AccountLocale of no account = %q, %v; want the default", l, err)
		}
		if e, err := tx.UserEmail(ctx, u.ID); err != nil || e != u.Email {
			t.Errorf("UserEmail = %q, %v", e, err)
		}
		got, ok, err := tx.NextCalendarVersion(ctx, u.ID)
		if err != nil || !ok || got.CalendarVersion != u.CalendarVersion+1 {
			t.Errorf("NextCalendarVersion = %+v, %v, %v", got, ok, err)
		}
		if _, ok, err := tx.NextCalendarVersion(ctx, u.ID+1000); err != nil || ok {
			t.Errorf("NextCalendarVersion of no account: ok %v, %v", ok, err)
		}
		return nil
	})
	got, err := s.UserByID(ctx, u.ID)
	if err != nil || got.Name != "Ann" || got.CalendarVersion != u.CalendarVersion+1 {
		t.Errorf("UserByID = %+v, %v", got, err)
	}
	if _, err := s.UserByID(ctx, u.ID+1000); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("UserByID of no account: %v, want %s", err, domain.CodeNotFound)
	}
	for email, want := range map[string]bool{"ann@example.org": false, "nobody@example.org": true} {
		if on, err := s.ReplyConfirmations(ctx, email); err != nil || on != want {
			t.Errorf("ReplyConfirmations(%s) = %v, %v; want %v", email, on, err, want)
		}
	}
}

// testChangeWithoutGameChange: a change that leaves the game as read (an
// answer to a reply that played nothing) queues its notices and stores its
// response, and is still guarded by the game's version.
func testChangeWithoutGameChange(t *testing.T, s Store) {
	ctx := t.Context()
	g := insertGame(t, s, "g_same")
	idem := domain.Idempotency{Scope: "reply:g_same/white", Key: "m1", Fingerprint: []byte("reply")}
	refusal := domain.Notice{Kind: domain.NoticeReplyRefused, GameID: g.ID, Color: "white", Ply: 0,
		Reply: &domain.ReplyDetail{Reason: games.ReplyNoTurn, Lines: []string{"hello"}}}
	resp := domain.Response{Status: 200, Body: []byte(`{"status":"refused"}`)}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		c := games.GameChange{Game: g, Notices: []domain.Notice{refusal}, Response: resp}
		if err := tx.UpdateGame(ctx, &g, &c, T0.Add(time.Minute)); err != nil {
			return err
		}
		return tx.StoreResponse(ctx, idem, resp, T0.Add(time.Minute))
	})
	got, err := s.Game(ctx, g.ID)
	if err != nil || got.Version != g.Version || !got.UpdatedAt.Equal(g.UpdatedAt) || !sameState(got, g) {
		t.Errorf("the game after a change that left it alone: version %d (want %d), %v", got.Version, g.Version, err)
	}
	if r, found, err := s.StoredResponse(ctx, idem); err != nil || !found || string(r.Body) != string(resp.Body) {
		t.Errorf("StoredResponse = %+v, %v, %v", r, found, err)
	}
	mail, err := s.GameMail(ctx, g.ID)
	if err != nil || len(mail) != 3 || mail[2].Kind != domain.NoticeReplyRefused || mail[2].Color != "white" {
		t.Errorf("GameMail = %+v, %v; want the invitations and the refusal", mail, err)
	}
	play(t, s, g, T0.Add(2*time.Minute)) // g is now stale
	err = s.Transact(ctx, func(st domain.StoreTx) error {
		tx := newUnit(st)

		return tx.UpdateGame(ctx, &g, &games.GameChange{Game: g, Notices: []domain.Notice{refusal}}, T0.Add(3*time.Minute))
	})
	if !errors.Is(err, domain.ErrStale) {
		t.Errorf("a change without game change to a stale game: %v, want ErrStale", err)
	}
}

func testVacations(t *testing.T, s Store) {
	ctx := t.Context()
	u := ensureUser(t, s, "ann@example.org")
	day := 24 * time.Hour
	later := games.Period{Start: T0.Add(10 * day), End: T0.Add(12 * day)}
	now := games.Period{Start: T0.Add(-day), End: T0.Add(day)}
	var ids [2]int64
	transact(t, s, func(ctx context.Context, tx *unit) (err error) {
		if ids[0], err = tx.AddVacation(ctx, u.ID, later, T0); err != nil {
			return err
		}
		ids[1], err = tx.AddVacation(ctx, u.ID, now, T0)
		return err
	})
	list, err := s.UserVacations(ctx, u.ID)
	if err != nil || len(list) != 2 || list[0].ID != ids[1] || !list[0].End.Equal(now.End) || list[1].ID != ids[0] {
		t.Fatalf("UserVacations = %+v, %v; want both, by start", list, err)
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		if p, err := tx.Vacations(ctx, u.Email, T0.Add(5*day)); err != nil || len(p) != 1 || !p[0].Start.Equal(later.Start) {
			t.Errorf("Vacations after 5 days = %+v, %v; want the later one", p, err)
		}
		for _, id := range ids {
			if ok, err := tx.EndVacation(ctx, u.ID, id, T0); err != nil || !ok {
				t.Errorf("EndVacation(%d) = %v, %v", id, ok, err)
			}
		}
		if ok, err := tx.EndVacation(ctx, u.ID, ids[0], T0); err != nil || ok {
			t.Errorf("ending a removed vacation: ok %v, %v", ok, err)
		}
		return nil
	})
	list, err = s.UserVacations(ctx, u.ID)
	if err != nil || len(list) != 1 || !list[0].End.Equal(T0) {
		t.Errorf("after ending them: %+v, %v; want the one under way, ended now", list, err)
	}
}

func testGamesOfAnAddress(t *testing.T, s Store) {
	ctx := t.Context()
	g := insertGame(t, s, "g_mine")
	for _, c := range []struct {
		email string
		want  int
	}{{"ann@example.org", 1}, {"bob@example.org", 1}, {"org@example.org", 1}, {"eve@example.org", 0}} {
		page, err := s.MyGames(ctx, c.email, "", 10)
		if err != nil || len(page.Games) != c.want || page.Next != "" {
			t.Errorf("MyGames(%s) = %d games, next %q, %v; want %d", c.email, len(page.Games), page.Next, err, c.want)
		}
	}
	if _, err := s.MyGames(ctx, "ann@example.org", "not a cursor", 10); domain.CodeOf(err) != domain.CodeInvalidCursor {
		t.Errorf("a cursor the store did not write: %v, want %s", err, domain.CodeInvalidCursor)
	}
	// Without a time control, no game has a deadline to move by.
	if games, err := s.GamesToMove(ctx, "ann@example.org"); err != nil || len(games) != 0 {
		t.Errorf("GamesToMove = %d games, %v; want none: %s has no deadline", len(games), err, g.ID)
	}
	// A unit of work sees the running games each address plays in, to
	// move or not, but not one that ended nor one it only created.
	over := resign(t, s, insertGame(t, s, "g_over"), "black", T0)
	other := insertGame(t, s, "g_mine2")
	for _, c := range []struct {
		email string
		want  []string
	}{{"ann@example.org", []string{g.ID, other.ID}}, {"bob@example.org", []string{g.ID, other.ID}}, {"org@example.org", nil}} {
		transact(t, s, func(ctx context.Context, tx *unit) error {
			games, err := tx.GamesPlaying(ctx, c.email)
			var ids []string
			for _, g := range games {
				ids = append(ids, g.ID)
			}
			if err != nil || !slices.Equal(ids, c.want) {
				t.Errorf("GamesPlaying(%s) = %v, %v; want %v (not %s, over)", c.email, ids, err, c.want, over.ID)
			}
			return nil
		})
	}
}

// A vacation declared while a turn is being computed, by the player whom
// the turn makes the one to move, counts in the deadline the turn gives
// him: the vacation changes the game's version, so the turn is computed
// again from the game as it now is.
func testVacationDuringATurn(t *testing.T, s Store) {
	ctx := t.Context()
	day := 24 * time.Hour
	org := ensureUser(t, s, "org@example.org")
	bob := ensureUser(t, s, "bob@example.org")
	now := T0
	svc := games.NewService(games.Config{Store: s, Now: func() time.Time { return now }})
	tc := games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * day, AllowVacation: true}
	c := newGameOf(t, "g_away", org, "ann@example.org", bob.Email, tc, T0)
	transact(t, s, func(ctx context.Context, tx *unit) error {
		return tx.InsertGame(ctx, &c, domain.Cause{By: org.Email}, T0)
	})
	away := games.Period{Start: T0.Add(day), End: T0.Add(3 * day)}
	computed := 0
	played := T0.Add(time.Hour)
	_, _, err := games.UpdateGame(ctx, s, nil, games.GameUpdate{GameID: c.Game.ID, Now: played,
		Compute: func(g games.Game) (games.GameChange, error) {
			computed++
			if computed == 1 { // Bob, not to move, goes away meanwhile
				if _, err := svc.DeclareVacation(ctx, bob, away); err != nil {
					t.Fatal(err)
				}
			}
			white := "white"
			sub, err := games.SubmitTurn(g, games.Actor{SeatColor: &white}, g.Ply(), opening, played)
			return games.GameChange{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, err
		}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, c.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := played.Add(3*day + away.End.Sub(away.Start)); computed != 2 || !g.Clock.Deadline.Equal(want) {
		t.Errorf("Bob's deadline %v after %d computations, want %v after 2: his vacation counts",
			g.Clock.Deadline, computed, want)
	}
}

// A game's mail is listed in order with its status; an address that asks
// for no more mail has its waiting mail marked failed, and asking twice
// changes nothing; unsubscribing is kept.
func testMailChoices(t *testing.T, s Store) {
	ctx := t.Context()
	g := insertGame(t, s, "g_mail")
	g = play(t, s, g, T0.Add(time.Minute))
	mail, err := s.GameMail(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.NoticeDelivery{
		{Kind: domain.NoticeInvitation, Color: "white", Status: "pending"},
		{Kind: domain.NoticeInvitation, Color: "black", Status: "pending"},
		{Kind: domain.NoticeYourTurn, Color: "black", Ply: 1, Status: "pending"},
	}
	if len(mail) != len(want) {
		t.Fatalf("GameMail = %+v, want %+v", mail, want)
	}
	for i, m := range mail {
		if m.Kind != want[i].Kind || m.Color != want[i].Color || m.Ply != want[i].Ply || m.Status != want[i].Status {
			t.Errorf("mail %d = %+v, want %+v", i, m, want[i])
		}
	}
	if err := s.Unsubscribe(ctx, "ann@example.org", T0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.Suppress(ctx, "bob@example.org", T0.Add(3*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if mail, err = s.GameMail(ctx, g.ID); err != nil || len(mail) != 3 {
		t.Fatalf("GameMail after suppressing = %+v, %v", mail, err)
	}
	for i, m := range mail {
		status, code := "pending", ""
		if m.Color == "black" {
			status, code = "failed", "suppressed"
		}
		if m.Status != status || m.ErrorCode != code {
			t.Errorf("mail %d after bob asked for no more mail = %+v, want %s %q", i, m, status, code)
		}
	}
	if got, err := s.GameMail(ctx, "g_none"); err != nil || len(got) != 0 {
		t.Errorf("GameMail of a missing game = %+v, %v", got, err)
	}
}

// sameState reports whether two games are in the same state under their
// rules: what the store keeps of them.
func sameState(a, b games.Game) bool {
	an, as, aerr := games.EncodeState(&a)
	bn, bs, berr := games.EncodeState(&b)
	return aerr == nil && berr == nil && an == bn && bytes.Equal(as, bs)
}
