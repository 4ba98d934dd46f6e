package sqlite

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
)

// myGamesFixture is a store in which ann has seven games in every state,
// and wes one more that is none of ann's business.
type myGamesFixture struct {
	db            *DB
	ann, vic, wes User
	// want is ann's games in MyGames order, named for the messages.
	want  []string
	names map[string]string // game id -> name
	ids   map[string]string // name -> game id
	// wesWant is wes's games in order.
	wesWant []string
}

func newMyGamesFixture(t *testing.T) myGamesFixture {
	t.Helper()
	return buildMyGamesFixture(t, newStore(t))
}

// buildMyGamesFixture creates the fixture's accounts and games in db.
func buildMyGamesFixture(t *testing.T, db *DB) myGamesFixture {
	t.Helper()
	ctx := t.Context()
	ann := signUp(t, db, "ann@example.org", t0)
	vic := signUp(t, db, "vic@example.org", t0)
	wes := signUp(t, db, "wes@example.org", t0)
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	f := myGamesFixture{db: db, ann: ann, vic: vic, wes: wes, names: map[string]string{}, ids: map[string]string{}}
	ids := f.ids
	create := func(name string, creator User, white, black string, h int) string {
		g := mustCreate(t, db, twoPlayerSpec(white, black), creator.ID, at(h))
		ids[name], f.names[g.ID] = g.ID, name
		return g.ID
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// Ann's turn since hour 1: she is White and has not moved.
	create("A: her turn since 1", vic, "ann@example.org", "vic@example.org", 1)
	// Ann's turn since hour 5, when Vic moved.
	b := create("B: her turn since 5", ann, "vic@example.org", "ann@example.org", 2)
	must(submitTurn(ctx, db, b, seatOf(less.White), 0, firstTurn, at(5)))
	// Vic's turn since hour 4, when Ann moved.
	c := create("C: his turn since 4", ann, "ann@example.org", "vic@example.org", 3)
	must(submitTurn(ctx, db, c, seatOf(less.White), 0, firstTurn, at(4)))
	// Vic's turn since the game was created at hour 6.
	create("D: his turn since 6", vic, "vic@example.org", "ann@example.org", 6)
	// Created by Ann for others at hour 7: she does not play in it.
	create("E: created by her at 7", ann, "vic@example.org", "wes@example.org", 7)
	// Finished at hour 9: Ann resigned.
	fg := create("F: finished at 9", vic, "ann@example.org", "vic@example.org", 8)
	must(resignGame(ctx, db, fg, seatOf(less.White), at(9)))
	// Finished at hour 11: Vic resigned.
	gg := create("G: finished at 11", ann, "vic@example.org", "ann@example.org", 10)
	must(resignGame(ctx, db, gg, seatOf(less.White), at(11)))
	// Wes's game, without Ann: his turn.
	create("X: wes's", wes, "wes@example.org", "vic@example.org", 12)
	// A game changed after all others, between other people.
	y := create("Y: others'", vic, "vic@example.org", "zed@example.org", 13)
	must(submitTurn(ctx, db, y, seatOf(less.White), 0, firstTurn, at(14)))

	f.want = []string{
		"A: her turn since 1", "B: her turn since 5", // her turn, longest waiting first
		"E: created by her at 7", "D: his turn since 6", "C: his turn since 4", // others, latest first
		"G: finished at 11", "F: finished at 9", // finished, latest first
	}
	f.wesWant = []string{"X: wes's", "E: created by her at 7"}
	return f
}

func TestMyGamesBadCursor(t *testing.T) {
	f := newMyGamesFixture(t)
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, c := range []string{
		"!!!",
		"not base64 at all",
		enc("not-a-cursor"),
		enc("1:2"),
		enc("x:1:g_a"),
		enc("0:y:g_a"),
		base64.StdEncoding.EncodeToString([]byte("0:1:g_a")) + "==",
	} {
		page, err := f.db.MyGames(t.Context(), f.ann.Email, c, 2)
		if !errors.Is(err, ErrBadCursor) {
			t.Errorf("cursor %q: page %+v, error %v; want ErrBadCursor", c, page, err)
			continue
		}
		var de *domain.Error
		if !errors.As(err, &de) || de.Kind != domain.KindInvalid {
			t.Errorf("cursor %q: error %v is not a KindInvalid domain error", c, err)
		}
	}
	// A cursor of this server is accepted, whoever's it was.
	page, err := f.db.MyGames(t.Context(), f.ann.Email, "", 2)
	if err != nil || page.Next == "" || strings.Contains(page.Next, "=") {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	if _, err := f.db.MyGames(t.Context(), f.wes.Email, page.Next, 2); err != nil {
		t.Errorf("another user's cursor: %v", err)
	}
}

// oldMyGamesPage is the page query of MyGames before the listings table
// (migration 0006), from scratch: ?1 the address, ?2 its account's id (0 for
// an address without one), ?3-?5 the cursor, ?6 the limit. myGamesPage must
// give the same rows for every cursor.
const oldMyGamesPage = `
	WITH mine AS (
		SELECT g.id,
			CASE WHEN g.status = 'active' AND EXISTS (
				SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.email = ?1 AND s.color = g.to_move) THEN 0
			WHEN g.status = 'active' THEN 1 ELSE 2 END AS urgency,
			g.updated_at, g.deadline_at
		FROM games g
		WHERE g.creator_id = ?2 OR g.id IN (SELECT game_id FROM seats WHERE email = ?1)
	), keyed AS (
		SELECT id, urgency, CASE urgency
			WHEN 0 THEN COALESCE(deadline_at, 8000000000000 + updated_at)
			ELSE -updated_at END AS k FROM mine
	)
	SELECT id, urgency, k FROM keyed WHERE (urgency, k, id) > (?3, ?4, ?5)
	ORDER BY urgency, k, id LIMIT ?6`

// listingsOracle is what the listings table must hold, computed from
// scratch: for each address with an account or a seat, the games it created
// or plays in, whether each is finished, and the sort key of the finished
// ones.
const listingsOracle = `
	WITH addr AS (
		SELECT a.email, (SELECT u.id FROM users u WHERE u.email = a.email) AS uid
		FROM (SELECT email FROM seats UNION SELECT email FROM users) a
	)
	SELECT g.id, addr.email, g.status <> 'active', CASE WHEN g.status <> 'active' THEN -g.updated_at ELSE 0 END
	FROM addr JOIN games g
	WHERE g.creator_id = addr.uid OR g.id IN (SELECT game_id FROM seats WHERE email = addr.email)
	ORDER BY 1, 2`

// checkListings compares the listings table, kept by triggers, with
// listingsOracle, and the pages myGamesPage gives for every address with
// its whole list as oldMyGamesPage computes it: after no cursor, after each
// of its games (the cursors MyGames gives out) and after cursors between
// and around them, for several limits.
func checkListings(t *testing.T, db *DB) {
	t.Helper()
	ctx := t.Context()
	rowsOf := func(query string, args ...any) []string {
		t.Helper()
		rows, err := db.read.QueryContext(ctx, query, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			row := make([]string, len(vals))
			for i, v := range vals {
				row[i] = fmt.Sprint(v)
			}
			out = append(out, strings.Join(row, " "))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := rowsOf(`SELECT game_id, email, finished, sort_key FROM listings ORDER BY 1, 2`)
	want := rowsOf(listingsOracle)
	if !slices.Equal(got, want) {
		t.Errorf("listings\n%s\nwant (computed from games and seats)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	type addr struct {
		email string
		uid   int64
	}
	var addrs []addr
	rows, err := db.read.QueryContext(ctx, `SELECT a.email, COALESCE((SELECT u.id FROM users u WHERE u.email = a.email), 0)
		FROM (SELECT email FROM seats UNION SELECT email FROM users) a ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a addr
		if err := rows.Scan(&a.email, &a.uid); err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// Each address's whole list from scratch; a page after any cursor is
	// then the games after it, which is what oldMyGamesPage computes too.
	type cursor struct {
		urgency int
		key     int64
		id      string
	}
	after := func(a, c cursor) bool {
		return cmp.Or(cmp.Compare(a.urgency, c.urgency), cmp.Compare(a.key, c.key), strings.Compare(a.id, c.id)) > 0
	}
	for _, a := range addrs {
		var all []cursor
		rows, err := db.read.QueryContext(ctx, oldMyGamesPage, a.email, a.uid, -1, 0, "", 1000)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var c cursor
			if err := rows.Scan(&c.id, &c.urgency, &c.key); err != nil {
				t.Fatal(err)
			}
			all = append(all, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		// No cursor, cursors before, between and after the urgencies, the
		// cursors MyGames gives out (a game's own), and cursors just before
		// and after each game's.
		cursors := []cursor{{-1, 0, ""}, {-7, 5, "z"}, {0, math.MinInt64, ""}, {1, math.MinInt64, ""},
			{2, math.MinInt64, ""}, {2, math.MaxInt64, "~"}, {3, math.MinInt64, ""}}
		for _, c := range all {
			cursors = append(cursors, c, cursor{c.urgency, c.key, ""}, cursor{c.urgency, c.key, c.id + "~"},
				cursor{c.urgency, c.key - 1, c.id}, cursor{c.urgency, c.key + 1, ""})
		}
		for _, c := range cursors {
			for _, limit := range []int{1, 3, 100} {
				var want []string
				for _, g := range all {
					if after(g, c) && len(want) < limit {
						want = append(want, fmt.Sprintf("%s %d %d", g.id, g.urgency, g.key))
					}
				}
				got := rowsOf(myGamesPage, a.email, c.urgency, c.key, c.id, limit)
				if !slices.Equal(got, want) {
					t.Errorf("%s's games after %v, limit %d:\n%s\nwant (computed from scratch)\n%s",
						a.email, c, limit, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		}
	}
}

// Every kind of write keeps the listing in step: each step changes the
// store and gives ann's whole list afterwards.
func TestMyGamesFollowsChanges(t *testing.T) {
	f := newMyGamesFixture(t)
	ctx := t.Context()
	db := f.db
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	create := func(name string, spec games.NewGameSpec, creator User, h int) {
		g := mustCreate(t, db, spec, creator.ID, at(h))
		f.ids[name], f.names[g.ID] = g.ID, name
	}
	// T lets vacations move its deadline, U does not.
	timed := func(vacation bool) games.NewGameSpec {
		spec := twoPlayerSpec("ann@example.org", "vic@example.org")
		spec.Time = games.TimeControl{Kind: games.TimePerTurn, PerTurn: 72 * time.Hour, AllowVacation: vacation}
		return spec
	}
	const (
		A, B, C, D, E = "A: her turn since 1", "B: her turn since 5", "C: his turn since 4", "D: his turn since 6", "E: created by her at 7"
		F, G          = "F: finished at 9", "G: finished at 11"
		H, T, U       = "H: both seats hers", "T: hers, deadline 89", "U: hers, deadline 90"
	)
	checkListings(t, db)
	steps := []struct {
		name string
		do   func() error
	}{
		{"she holds both seats of a new game: listed once, her turn",
			func() error {
				create(H, twoPlayerSpec("ann@example.org", "bob@example.org"), f.vic, 15)
				return giveBothSeats(t, db, f.ids[H], "ann@example.org")
			}},
		{"her move in it leaves it her turn, since hour 16",
			func() error { return submitTurn(ctx, db, f.ids[H], seatOf(less.White), 0, firstTurn, at(16)) }},
		{"a deadline comes before every game without one",
			func() error { create(T, timed(true), f.vic, 17); return nil }},
		{"the nearest deadline first",
			func() error { create(U, timed(false), f.vic, 18); return nil }},
		{"her vacation moves T's deadline, and nothing else of it, after U's",
			func() error {
				_, err := db.serviceAt(at(19)).DeclareVacation(ctx, f.ann, games.Period{Start: at(20), End: at(68)})
				return err
			}},
		{"her move in A makes it the latest of the others' running games",
			func() error { return submitTurn(ctx, db, f.ids[A], seatOf(less.White), 0, firstTurn, at(21)) }},
		{"a resignation makes D her latest finished game",
			func() error { return resignGame(ctx, db, f.ids[D], seatOf(less.White), at(22)) }},
		{"the scheduler's time-out finishes U at its deadline",
			func() error {
				acted, err := db.serviceAt(at(18+72)).TickGame(ctx, f.ids[U])
				if err == nil && !acted {
					err = errors.New("the time-out did not happen")
				}
				return err
			}},
		{"a renewed move link is a change: C moves up among the others' games",
			func() error {
				_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: f.ids[C], Now: at(91),
					Compute: func(g games.Game) (Change, error) {
						ng, notice, err := games.RotateSeat(g, games.Actor{UserID: f.ann.ID}, "black", at(91))
						return Change{Game: ng, Notices: []domain.Notice{notice}}, err
					}})
				return err
			}},
		{"a renewed link in a finished game makes it her latest finished game",
			func() error {
				_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: f.ids[F], Now: at(92),
					Compute: func(g games.Game) (Change, error) {
						ng, notice, err := games.RotateSeat(g, games.Actor{UserID: f.vic.ID}, "white", at(92))
						return Change{Game: ng, Notices: []domain.Notice{notice}}, err
					}})
				return err
			}},
	}
	for _, step := range steps {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		t.Run(step.name, func(t *testing.T) { checkListings(t, db) })
	}
	// An address invited before it had an account sees its game on signing up.
	signUp(t, db, "zed@example.org", at(92))
	checkListings(t, db)

	// Games changed at the same time go by id, running or finished.
	const I, J = "I: created by her at 93", "J: created by her at 93 too"
	create(I, twoPlayerSpec("vic@example.org", "wes@example.org"), f.ann, 93)
	create(J, twoPlayerSpec("vic@example.org", "wes@example.org"), f.ann, 93)
	checkListings(t, db)
	for _, name := range []string{I, J} {
		if err := resignGame(ctx, db, f.ids[name], seatOf(less.White), at(94)); err != nil {
			t.Fatal(err)
		}
	}
	checkListings(t, db)
}

// A database from before migration 0006 gets the listing of every game it
// has when the store opens it, and the triggers from then on.
func TestMyGamesMigrationBackfills(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	// Back to the schema without migration 6 (0006_listings.sql); the store's
	// writes do not depend on listings, so the fixture below is stored as an
	// older server would.
	var triggers []string
	rows, err := db.writeConn.QueryContext(t.Context(), `SELECT name FROM sqlite_schema WHERE type = 'trigger' AND sql LIKE '%listings%'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		triggers = append(triggers, name)
	}
	rows.Close()
	if len(triggers) == 0 {
		t.Fatal("no triggers maintain listings")
	}
	for _, name := range triggers {
		if _, err := db.writeConn.ExecContext(t.Context(), `DROP TRIGGER `+name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.writeConn.ExecContext(t.Context(), `DROP TABLE listings; DELETE FROM schema_migrations WHERE version = 6`); err != nil {
		t.Fatal(err)
	}
	f := buildMyGamesFixture(t, db)
	var applied int
	if err := db.read.QueryRowContext(t.Context(), `SELECT count(*) FROM schema_migrations WHERE version = 6`).Scan(&applied); err != nil || applied != 0 {
		t.Fatalf("migration 6 applied: %d, %v", applied, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	f.db = openTest(t, path)
	checkListings(t, f.db)
	f.checkOrder(t, f.ann, f.want)
	f.checkOrder(t, f.wes, f.wesWant)
	// The migrated file follows changes: Vic moves in D, which becomes her
	// turn, the longest waiting after A; he resigns B, which becomes her
	// latest finished game (the triggers).
	if err := submitTurn(t.Context(), f.db, f.ids["D: his turn since 6"], seatOf(less.White), 0, firstTurn, t0.Add(20*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := resignGame(t.Context(), f.db, f.ids["B: her turn since 5"], seatOf(less.White), t0.Add(21*time.Hour)); err != nil {
		t.Fatal(err)
	}
	f.checkOrder(t, f.ann, []string{"A: her turn since 1", "D: his turn since 6",
		"E: created by her at 7", "C: his turn since 4", "B: her turn since 5", "G: finished at 11", "F: finished at 9"})
	checkListings(t, f.db)
}

// A page reads the address's running games through the index, and of its
// finished games only the page: one range of the index, read in order from
// the cursor, with the limit applied to it (the subquery with LIMIT, a
// co-routine), whatever the number of the account's finished games. The two
// sorts are of the running games and of the page's few finished ones. No
// table is scanned.
func TestMyGamesPageUsesTheIndex(t *testing.T) {
	f := newMyGamesFixture(t)
	want := []string{
		"MERGE (UNION ALL)",
		"  LEFT",
		"    SEARCH l USING COVERING INDEX listings_page (email=? AND finished=?)",
		"    SEARCH g USING INDEX sqlite_autoindex_games_1 (id=?)",
		"    SEARCH s USING COVERING INDEX seats_email (email=? AND game_id=? AND color=?) LEFT-JOIN",
		"    USE TEMP B-TREE FOR ORDER BY",
		"  RIGHT",
		"    CO-ROUTINE (subquery-4)",
		"      SEARCH listings USING COVERING INDEX listings_page (email=? AND finished=? AND (sort_key,game_id)>(?,?))",
		"    SCAN (subquery-4)",
		"    USE TEMP B-TREE FOR ORDER BY",
	}
	for _, c := range []struct {
		urgency int
		key     int64
		after   string
	}{{-1, 0, ""}, {1, -5, "g_x"}, {2, -5, "g_x"}} {
		rows, err := f.db.read.QueryContext(t.Context(), `EXPLAIN QUERY PLAN `+myGamesPage, f.ann.Email, c.urgency, c.key, c.after, 21)
		if err != nil {
			t.Fatal(err)
		}
		depth := map[int]int{0: -1}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			depth[id] = depth[parent] + 1
			plan = append(plan, strings.Repeat("  ", depth[id])+detail)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(plan, want) {
			t.Errorf("plan after cursor %v:\n%s\nwant\n%s", c, strings.Join(plan, "\n"), strings.Join(want, "\n"))
		}
	}
}

// A running game's turns, reminders and renewed links, and deadlines moved
// by a vacation, write nothing to listings: only a game that starts or
// finishes does (and a finished game changed again).
func TestListingsTurnsWriteNothing(t *testing.T) {
	f := newMyGamesFixture(t)
	ctx := t.Context()
	db := f.db
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	// Every write to listings, counted by triggers of the test's own.
	if _, err := db.writeConn.ExecContext(ctx, `
		CREATE TABLE listings_writes (op TEXT NOT NULL);
		CREATE TRIGGER listings_writes_i AFTER INSERT ON listings BEGIN INSERT INTO listings_writes VALUES ('insert'); END;
		CREATE TRIGGER listings_writes_u AFTER UPDATE ON listings BEGIN INSERT INTO listings_writes VALUES ('update'); END;
		CREATE TRIGGER listings_writes_d AFTER DELETE ON listings BEGIN INSERT INTO listings_writes VALUES ('delete'); END;`); err != nil {
		t.Fatal(err)
	}
	writes := func() int {
		t.Helper()
		var n int
		if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM listings_writes`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	spec := twoPlayerSpec("ann@example.org", "vic@example.org")
	spec.Time = games.TimeControl{Kind: games.TimePerTurn, PerTurn: 72 * time.Hour, AllowVacation: true,
		Reminders: []time.Duration{24 * time.Hour}}
	g := mustCreate(t, db, spec, f.wes.ID, at(20))
	if n := writes(); n != 3 {
		t.Fatalf("a new game with a creator and two players wrote %d rows of listings, want 3", n)
	}
	// play plays n legal turns in a game, whoever is to move.
	play := func(id string, n int, now time.Time) error {
		for range n {
			g, err := db.Game(ctx, id)
			if err != nil {
				return err
			}
			turn, _ := g.Rules.Example()
			if err := submitTurn(ctx, db, id, seatNamed(g.ToMove()), g.Ply(), turn, now); err != nil {
				return err
			}
		}
		return nil
	}
	a := f.ids["A: her turn since 1"]
	for _, step := range []struct {
		name string
		do   func() error
	}{
		{"turns", func() error { return play(a, 6, at(21)) }},
		{"turns with a deadline", func() error { return play(g.ID, 3, at(23)) }},
		{"a reminder", func() error {
			acted, err := db.serviceAt(at(23+48)).TickGame(ctx, g.ID)
			if err == nil && !acted {
				err = errors.New("no reminder was sent")
			}
			return err
		}},
		{"a vacation that moves a deadline", func() error {
			_, err := db.serviceAt(at(72)).DeclareVacation(ctx, f.vic, games.Period{Start: at(80), End: at(90)})
			return err
		}},
		{"a renewed link", func() error {
			_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: a, Now: at(73),
				Compute: func(g games.Game) (Change, error) {
					ng, notice, err := games.RotateSeat(g, games.Actor{UserID: f.vic.ID}, "black", at(73))
					return Change{Game: ng, Notices: []domain.Notice{notice}}, err
				}})
			return err
		}},
	} {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if n := writes(); n != 3 {
			t.Errorf("%s wrote %d rows of listings", step.name, n-3)
		}
	}
	// The game ends: its rows, Ann's and Vic's (Wes's account created it),
	// become finished.
	if err := resignGame(ctx, db, g.ID, seatOf(less.Black), at(74)); err != nil {
		t.Fatal(err)
	}
	if n := writes(); n != 6 {
		t.Errorf("the end of a game wrote %d rows of listings, want 3", n-3)
	}
	checkListings(t, db)
}

// No code changes a seat's address, a game's creator or deletes games (the
// seed tool deletes its templates), but the triggers keep the listing right
// for any write.
func TestListingsFollowOtherWrites(t *testing.T) {
	f := newMyGamesFixture(t)
	for _, tt := range []struct {
		name, sql string
		args      []any
	}{
		{"a seat changes hands: Ann's turn in B goes to Wes", `UPDATE seats SET email = 'wes@example.org' WHERE game_id = ? AND email = 'ann@example.org'`,
			[]any{f.ids["B: her turn since 5"]}},
		{"a seat of the game's creator changes hands: she still sees it", `UPDATE seats SET email = 'zed@example.org' WHERE game_id = ? AND email = 'ann@example.org'`,
			[]any{f.ids["C: his turn since 4"]}},
		{"a game gets another creator", `UPDATE games SET creator_id = ? WHERE id = ?`, []any{f.wes.ID, f.ids["E: created by her at 7"]}},
		{"a seat goes", `DELETE FROM seats WHERE game_id = ? AND email = 'ann@example.org'`, []any{f.ids["F: finished at 9"]}},
		{"a game goes", `DELETE FROM turns WHERE game_id = ?1; DELETE FROM seats WHERE game_id = ?1; DELETE FROM games WHERE id = ?1`,
			[]any{f.ids["A: her turn since 1"]}},
	} {
		if _, err := f.db.writeConn.ExecContext(t.Context(), tt.sql, tt.args...); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		t.Run(tt.name, func(t *testing.T) { checkListings(t, f.db) })
	}
	// B and C are still hers as their creator, no longer her turn.
	f.checkOrder(t, f.ann, []string{"D: his turn since 6", "B: her turn since 5", "C: his turn since 4", "G: finished at 11"})
	f.checkOrder(t, f.wes, []string{"B: her turn since 5", "X: wes's", "E: created by her at 7"})
}

// checkOrder checks u's games, in one page: the contract (storetest) pins
// the order and the pages; these tests check what the listings make of
// SQLite-only writes.
func (f myGamesFixture) checkOrder(t *testing.T, u User, want []string) {
	t.Helper()
	page, err := f.db.MyGames(t.Context(), u.Email, "", 100)
	var names []string
	for _, g := range page.Games {
		names = append(names, f.names[g.ID])
	}
	if err != nil || !slices.Equal(names, want) {
		t.Errorf("%s's games = %q, %v\nwant %q", u.Email, names, err, want)
	}
}
