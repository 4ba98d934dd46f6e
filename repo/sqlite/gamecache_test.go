package sqlite

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// waitTrusted waits until reads may use the cache (the writer looked for
// other processes' commits since the last commit), so that a test's read
// is a cached one.
func waitTrusted(t testing.TB, db *DB) {
	t.Helper()
	for range 2000 {
		if db.cacheTrusted(t.Context()) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the cache is never trusted")
}

// checkFresh reads the game through the cache and from the database, and
// wants them the same.
func checkFresh(t *testing.T, db *DB, id string) games.Game {
	t.Helper()
	waitTrusted(t, db)
	got, err := db.Game(t.Context(), id)
	if err != nil {
		t.Fatalf("Game %s: %v", id, err)
	}
	want, err := loadGame(t.Context(), db.read, id)
	if err != nil {
		t.Fatalf("loadGame %s: %v", id, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cached game %s differs from the database's:\n got %s\nwant %s", id, describeGame(got), describeGame(want))
	}
	return got
}

func describeGame(g games.Game) string {
	return fmt.Sprintf("version %d watch %d updated %v seats %+v clock %+v away %+v tournament %+v rules %+v",
		g.Version, g.WatchVersion, g.UpdatedAt, g.Seats, g.Clock, g.Away, g.Tournament, g.Rules)
}

// wantCached checks that the writer (or a read) left the game in the cache.
func wantCached(t *testing.T, db *DB, id string, cached bool) {
	t.Helper()
	if got := db.games.peekRow(id) != nil; got != cached {
		t.Fatalf("game %s cached: %t, want %t", id, got, cached)
	}
}

// cacheFixture is a game with a clock that counts vacations, between two
// accounts, and a service at a settable time.
type cacheFixture struct {
	db           *DB
	path         string
	svc          *games.Service
	tours        *tournaments.Service
	now          time.Time
	white, black User
	game         games.Game
}

func newCacheFixture(t *testing.T) *cacheFixture {
	f := &cacheFixture{path: freshPath(t), now: t0.Truncate(time.Millisecond)}
	db, err := Open(t.Context(), f.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	f.svc = games.NewService(games.Config{Store: f.db, Now: func() time.Time { return f.now }})
	f.tours = tournaments.NewService(tournaments.Config{Store: f.db, Now: func() time.Time { return f.now }})
	f.white = signUp(t, f.db, "white@example.org", f.now)
	f.black = signUp(t, f.db, "black@example.org", f.now)
	spec := twoPlayerSpec(f.white.Email, f.black.Email)
	spec.Time = games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour, AllowVacation: true,
		Reminders: []time.Duration{24 * time.Hour}}
	f.game = mustCreate(t, f.db, spec, f.white.ID, f.now)
	return f
}

func (f *cacheFixture) turn(t *testing.T, turn string) {
	t.Helper()
	g := checkFresh(t, f.db, f.game.ID)
	f.now = f.now.Add(time.Hour)
	if err := submitTurn(t.Context(), f.db, g.ID, seatOf(lessColor(t, g.ToMove())), g.Ply(), turn, f.now); err != nil {
		t.Fatalf("turn %s: %v", turn, err)
	}
}

func lessColor(t *testing.T, c string) less.Color {
	t.Helper()
	for _, col := range []less.Color{less.White, less.Black} {
		if col.String() == c {
			return col
		}
	}
	t.Fatalf("colour %s", c)
	return 0
}

func TestGameCacheTurnsAndResign(t *testing.T) {
	f := newCacheFixture(t)
	id := f.game.ID
	checkFresh(t, f.db, id) // a miss, which fills
	wantCached(t, f.db, id, true)
	f.turn(t, firstTurn)
	wantCached(t, f.db, id, true) // the writer's
	checkFresh(t, f.db, id)
	// A turn with an Idempotency-Key, as the API plays them: its stored
	// answer leaves the cache alone.
	g := checkFresh(t, f.db, id)
	f.now = f.now.Add(time.Hour)
	idem := &Idempotency{Scope: "test", Key: "turn-2", Fingerprint: []byte("fp")}
	if _, _, err := games.UpdateGame(t.Context(), f.db, nil, games.GameUpdate{GameID: id, Idem: idem, Now: f.now,
		Compute: func(g games.Game) (Change, error) {
			sub, err := games.SubmitTurn(g, seatOf(less.Black), g.Ply(), "b2b3:b3c3:c3d3", f.now)
			if err != nil {
				return Change{}, err
			}
			return changeOf(sub), nil
		}}); err != nil {
		t.Fatal(err)
	}
	wantCached(t, f.db, id, true)
	g = checkFresh(t, f.db, id)
	if g.Ply() != 2 {
		t.Fatalf("ply %d after two turns", g.Ply())
	}
	// Another game's creation evicts only that game.
	mustCreate(t, f.db, twoPlayerSpec(f.white.Email, f.black.Email), f.white.ID, f.now)
	wantCached(t, f.db, id, true)
	f.now = f.now.Add(time.Hour)
	if err := resignGame(t.Context(), f.db, id, seatOf(less.White), f.now); err != nil {
		t.Fatal(err)
	}
	wantCached(t, f.db, id, true)
	if g := checkFresh(t, f.db, id); !g.Over() {
		t.Fatal("not over after resigning")
	}
}

// TestGameCacheTimeOutAndReminder: the scheduler's changes go through
// storeChange too.
func TestGameCacheTimeOutAndReminder(t *testing.T) {
	f := newCacheFixture(t)
	id := f.game.ID
	g := checkFresh(t, f.db, id)
	if acted, err := f.db.serviceAt(g.Clock.Deadline.Add(-time.Hour)).TickGame(t.Context(), id); err != nil || !acted {
		t.Fatalf("reminder: %t, %v", acted, err)
	}
	g = checkFresh(t, f.db, id)
	if g.Clock.Reminded != 1 {
		t.Fatalf("reminded %d", g.Clock.Reminded)
	}
	if acted, err := f.db.serviceAt(g.Clock.Deadline.Add(time.Minute)).TickGame(t.Context(), id); err != nil || !acted {
		t.Fatalf("time-out: %t, %v", acted, err)
	}
	wantCached(t, f.db, id, true)
	if g := checkFresh(t, f.db, id); !g.Over() && g.Ply() == 0 {
		t.Fatalf("the time-out did nothing: %s", describeGame(g))
	}
}

// TestGameCacheVacation: a vacation changes what a game read returns
// without the game's version (its players' vacations), or moves the
// deadline of the games its player is to move in; either way the next read
// sees it.
func TestGameCacheVacation(t *testing.T) {
	f := newCacheFixture(t)
	id := f.game.ID
	before := checkFresh(t, f.db, id)
	// Black is away while White is to move: the deadline stays, the
	// version moves (see games.WithVacations).
	p := games.Period{Start: f.now.Add(24 * time.Hour), End: f.now.Add(48 * time.Hour)}
	if _, err := f.svc.DeclareVacation(t.Context(), f.black, p); err != nil {
		t.Fatal(err)
	}
	g := checkFresh(t, f.db, id)
	if g.Version != before.Version+1 || !g.Clock.Deadline.Equal(before.Clock.Deadline) || len(g.Away[1]) != 1 {
		t.Fatalf("after Black's vacation: version %d (was %d), away %+v", g.Version, before.Version, g.Away)
	}
	// White plays: Black's deadline counts the vacation.
	f.turn(t, firstTurn)
	g = checkFresh(t, f.db, id)
	// Black, to move, declares another: his deadline moves at once.
	p = games.Period{Start: f.now.Add(60 * time.Hour), End: f.now.Add(80 * time.Hour)}
	if _, err := f.svc.DeclareVacation(t.Context(), f.black, p); err != nil {
		t.Fatal(err)
	}
	moved := checkFresh(t, f.db, id)
	if !moved.Clock.Deadline.After(g.Clock.Deadline) {
		t.Fatalf("deadline %v, was %v: the vacation did not move it", moved.Clock.Deadline, g.Clock.Deadline)
	}
	vs, err := f.db.UserVacations(t.Context(), f.black.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(time.Minute)
	if err := f.svc.CancelVacation(t.Context(), f.black, vs[len(vs)-1].ID); err != nil {
		t.Fatal(err)
	}
	if back := checkFresh(t, f.db, id); !back.Clock.Deadline.Equal(g.Clock.Deadline) {
		t.Fatalf("deadline %v after the cancellation, want %v", back.Clock.Deadline, g.Clock.Deadline)
	}
}

// TestGameCacheLinks: renewing a seat's or the spectators' link writes
// seats and watch_version.
func TestGameCacheLinks(t *testing.T) {
	f := newCacheFixture(t)
	id := f.game.ID
	checkFresh(t, f.db, id)
	by := games.Credentials{UserID: f.white.ID, UserEmail: f.white.Email}
	if err := f.svc.RotateSeat(t.Context(), id, by, "black"); err != nil {
		t.Fatal(err)
	}
	wantCached(t, f.db, id, true)
	if g := checkFresh(t, f.db, id); g.Seats[1].TokenVersion == f.game.Seats[1].TokenVersion {
		t.Fatalf("seat not renewed: %+v", g.Seats)
	}
	if _, _, err := f.svc.RotateSpectatorLink(t.Context(), id, by); err != nil {
		t.Fatal(err)
	}
	if g := checkFresh(t, f.db, id); g.WatchVersion == f.game.WatchVersion {
		t.Fatalf("spectator link not renewed: %d", g.WatchVersion)
	}
	f.turn(t, firstTurn)
	checkFresh(t, f.db, id)
}

// TestGameCacheTournament: a round's start creates games, a pause and a
// resumption change them inside the unit of work.
func TestGameCacheTournament(t *testing.T) {
	f := newCacheFixture(t)
	ctx := t.Context()
	start := f.now.Add(time.Hour)
	tour, err := f.db.tournamentsAt(f.now).CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players: []games.Player{{Name: "W", Email: f.white.Email}, {Name: "B", Email: f.black.Email}},
		Time:    games.TimeControl{Kind: games.TimePerTurn, PerTurn: 24 * time.Hour},
		Starts:  []time.Time{start}, RoundLength: 72 * time.Hour}, f.white.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.now = start
	if acted, err := f.db.tournamentsAt(f.now).TickTournament(ctx, tour.ID); err != nil || !acted {
		t.Fatalf("start the round: %t, %v", acted, err)
	}
	tour, err = f.tours.Tournament(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	ids := tour.RunningGames()
	if len(ids) == 0 {
		t.Fatal("no game started")
	}
	for _, id := range ids {
		checkFresh(t, f.db, id)
	}
	for _, step := range []struct {
		name string
		do   func(context.Context, tournaments.TournamentRequest, string) (tournaments.TournamentDone, error)
	}{{"pause", f.tours.PauseTournament}, {"resume", f.tours.ResumeTournament}} {
		f.now = f.now.Add(time.Hour)
		if _, err := step.do(ctx, tournaments.TournamentRequest{ID: tour.ID}, "test"); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		for _, id := range ids {
			g := checkFresh(t, f.db, id)
			if halted := !g.Clock.HaltedAt.IsZero(); halted != (step.name == "pause") {
				t.Fatalf("after %s: halted %t", step.name, halted)
			}
		}
	}
}

// TestGameCacheConflict: a change computed from a game that changed since
// is refused, evicts the game, and the retry reads the database.
func TestGameCacheConflict(t *testing.T) {
	f := newCacheFixture(t)
	ctx := t.Context()
	id := f.game.ID
	stale := checkFresh(t, f.db, id)
	f.turn(t, firstTurn)
	wantCached(t, f.db, id, true)
	sub, err := games.Resign(stale, seatOf(less.White), f.now)
	if err != nil {
		t.Fatal(err)
	}
	change := changeOf(sub)
	err = f.db.Transact(ctx, func(st domain.StoreTx) error {
		tx, err := games.NewTx(st, nil)
		if err != nil {
			return err
		}
		return tx.UpdateGame(ctx, &stale, &change, f.now)
	})
	if !errors.Is(err, domain.ErrStale) {
		t.Fatalf("a change to a stale game: %v, want ErrStale", err)
	}
	wantCached(t, f.db, id, false)
	if g := checkFresh(t, f.db, id); g.Ply() != 1 || g.Over() {
		t.Fatalf("after the refused change: %s", describeGame(g))
	}
	// Through UpdateGame, which reads again: the resignation lands.
	if err := resignGame(ctx, f.db, id, seatOf(less.Black), f.now); err != nil {
		t.Fatal(err)
	}
	if g := checkFresh(t, f.db, id); !g.Over() {
		t.Fatal("not over")
	}
}

// TestGameCacheOtherProcess: another store on the same file is another
// process as SQLite sees it. What it commits is read at once, the game's
// version changed or not.
func TestGameCacheOtherProcess(t *testing.T) {
	f := newCacheFixture(t)
	ctx := t.Context()
	id := f.game.ID
	other, err := Open(ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	otherSvc := games.NewService(games.Config{Store: other, Now: func() time.Time { return f.now }})

	checkFresh(t, f.db, id)
	f.now = f.now.Add(time.Hour)
	if err := submitTurn(ctx, other, id, seatOf(less.White), 0, firstTurn, f.now); err != nil {
		t.Fatal(err)
	}
	// No waiting: the very next read must see the turn.
	if g, err := f.db.Game(ctx, id); err != nil || g.Ply() != 1 {
		t.Fatalf("read after the other's turn: ply %d, %v", g.Ply(), err)
	}
	g := checkFresh(t, f.db, id)
	wantCached(t, f.db, id, true)
	p := games.Period{Start: f.now.Add(24 * time.Hour), End: f.now.Add(48 * time.Hour)}
	if _, err := otherSvc.DeclareVacation(ctx, f.white, p); err != nil {
		t.Fatal(err)
	}
	if got, err := f.db.Game(ctx, id); err != nil || len(got.Away[0]) != 1 || got.Version != g.Version+1 {
		t.Fatalf("read after the other's vacation: away %+v version %d, %v", got.Away, got.Version, err)
	}
	checkFresh(t, f.db, id)
	// And this store's turn is the other's next read.
	f.turn(t, "b2b3:b3c3:c3d3")
	if g, err := other.Game(ctx, id); err != nil || g.Ply() != 2 {
		t.Fatalf("the other's read: ply %d, %v", g.Ply(), err)
	}
}

// TestGameCacheCopies: what a read returns is the caller's to change.
func TestGameCacheCopies(t *testing.T) {
	f := newCacheFixture(t)
	ctx := t.Context()
	id := f.game.ID
	if _, err := f.svc.DeclareVacation(ctx, f.black, games.Period{Start: f.now.Add(time.Hour), End: f.now.Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	want := checkFresh(t, f.db, id)
	g, err := f.db.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	g.Seats[0].Email = "changed@example.org"
	g.Away[1][0].Start = time.Time{}
	g.Away[0] = []games.Period{{}}
	g.Clock.Control.Reminders[0] = time.Second
	if _, err := g.Rules.Play(firstTurn); err != nil {
		t.Fatal(err)
	}
	if again := checkFresh(t, f.db, id); !reflect.DeepEqual(again, want) {
		t.Fatalf("a caller's changes reached the cache:\n got %s\nwant %s", describeGame(again), describeGame(want))
	}
}

// TestGameCacheHandWrittenSQL: a statement the cache does not know empties
// it, and a job that writes only neutral tables leaves it.
func TestGameCacheHandWrittenSQL(t *testing.T) {
	f := newCacheFixture(t)
	ctx := t.Context()
	id := f.game.ID
	checkFresh(t, f.db, id)
	if _, _, err := f.db.TakeRequest(ctx, "test", time.Minute, time.Hour, f.now); err != nil {
		t.Fatal(err)
	}
	wantCached(t, f.db, id, true)
	if err := f.db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE seats SET name = 'Renamed' WHERE game_id = ? AND color = 'white'`, id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	wantCached(t, f.db, id, false)
	if g := checkFresh(t, f.db, id); g.Seats[0].Name != "Renamed" {
		t.Fatalf("seats %+v", g.Seats)
	}
}

func TestGameNeutral(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{"SELECT 1", true},
		{"  select * from games", true},
		{sqlInsertOutbox, true},
		{sqlInsertTurn, true},
		{sqlInsertEvent, true},
		{sqlInsertIdempotency, true},
		{sqlTakeRequest, true},
		{sqlMarkSent, true},
		{"INSERT OR IGNORE INTO turns (x) VALUES (1)", true},
		{"DELETE FROM outbox WHERE id = 1", true},
		{"UPDATE outbox SET x = 1; UPDATE games SET version = 0", false},
		{"SELECT 1; DELETE FROM seats", false},
		{sqlUpdateGame, false},
		{"UPDATE seats SET name = ''", false},
		{"INSERT INTO vacations (user_id) VALUES (1)", false},
		{"UPDATE users SET email = ''", false},
		{"DELETE FROM games", false},
		{"INSERT INTO games(id) VALUES ('x')", false},
		{"REPLACE INTO seats (x) VALUES (1)", false},
		{"WITH x AS (SELECT 1) UPDATE outbox SET x = 1", false},
		{"PRAGMA foreign_keys = OFF", false},
		{"SAVEPOINT job", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := gameNeutral(tt.query); got != tt.want {
			t.Errorf("gameNeutral(%q) = %t, want %t", strings.Join(strings.Fields(tt.query), " "), got, tt.want)
		}
	}
}

// TestNeutralTablesLeaveGamesAlone checks what makes a write to a neutral
// table harmless to the cache: no game read reads one, no trigger on one
// writes a table a game read reads, and no foreign key of those tables
// acts on a change to one.
func TestNeutralTablesLeaveGamesAlone(t *testing.T) {
	db := newStore(t)
	ctx := t.Context()
	reads := strings.ToLower(sqlSelectGames + sqlSelectSeats + `SELECT v.starts_at, v.ends_at FROM vacations v JOIN users u`)
	for table := range neutralTables {
		if strings.Contains(reads, " "+table+" ") {
			t.Errorf("a game read reads the neutral table %s", table)
		}
		var n int
		if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, table).Scan(&n); err != nil || n != 1 {
			t.Errorf("neutral table %s: %d tables, %v", table, n, err)
		}
	}
	rows, err := db.read.QueryContext(ctx, `SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'trigger'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, table, body string
		if err := rows.Scan(&name, &table, &body); err != nil {
			t.Fatal(err)
		}
		// Neither a write to a neutral table nor storeChange's and
		// insertGame's writes to games and seats may set off a write to a
		// table a game read reads.
		if !neutralTables[table] && !slices.Contains(gameReadTables, table) {
			continue
		}
		loc := triggerBegin.FindStringIndex(body)
		if loc == nil {
			t.Fatalf("trigger %s: no BEGIN in %q", name, body)
		}
		for _, stmt := range strings.Split(strings.ToLower(body[loc[1]:]), ";") {
			target, write := writeTarget(strings.TrimSpace(stmt))
			if write && slices.Contains(gameReadTables, target) {
				t.Errorf("trigger %s on %s writes %s", name, table, target)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, read := range gameReadTables {
		rows, err := db.read.QueryContext(ctx, `SELECT "table", on_update, on_delete FROM pragma_foreign_key_list(?)`, read)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var parent, onUpdate, onDelete string
			if err := rows.Scan(&parent, &onUpdate, &onDelete); err != nil {
				t.Fatal(err)
			}
			if neutralTables[parent] && (onUpdate != "NO ACTION" || onDelete != "NO ACTION") {
				t.Errorf("%s refers to the neutral table %s ON UPDATE %s ON DELETE %s", read, parent, onUpdate, onDelete)
			}
		}
		rows.Close()
	}
}

// randomTurn is a legal turn of g's mover, drawn with rng.
func randomTurn(t testing.TB, g ruleset.Game, rng *rand.Rand) string {
	t.Helper()
	partial := ""
	for {
		l, err := g.Legal(partial)
		if err != nil {
			t.Fatalf("Legal(%q): %v", partial, err)
		}
		if l.CanEnd && (len(l.Choices) == 0 || rng.IntN(3) == 0) {
			return l.Partial
		}
		if len(l.Choices) == 0 {
			t.Fatalf("no choice after %q", partial)
		}
		c := l.Choices[rng.IntN(len(l.Choices))]
		move := c.From + c.To
		if l.Partial == "" {
			partial = move
		} else {
			partial = l.Partial + ":" + move
		}
	}
}

// TestGameCacheConcurrent plays games while others read them, vacations
// come and go and links are renewed: every read sees at least what was
// acknowledged before it began, and at the end the cache agrees with the
// database. Run it with -race.
func TestGameCacheConcurrent(t *testing.T) {
	f := newCacheFixture(t)
	ctx := t.Context()
	const nGames, turns = 4, 12
	ids := []string{f.game.ID}
	spec := twoPlayerSpec(f.white.Email, f.black.Email)
	spec.Time = games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour, AllowVacation: true}
	for range nGames - 1 {
		ids = append(ids, mustCreate(t, f.db, spec, f.white.ID, f.now).ID)
	}
	now := f.now
	var (
		mu      sync.Mutex
		acked   = map[string]int{} // version acknowledged, by game
		players sync.WaitGroup
		readers sync.WaitGroup
		done    = make(chan struct{})
	)
	for i, id := range ids {
		players.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			for range turns {
				g, err := f.db.Game(ctx, id)
				if err != nil {
					t.Error(err)
					return
				}
				if g.Over() {
					return
				}
				turn := randomTurn(t, g.Rules.Clone(), rng)
				color := g.ToMove()
				_, _, err = games.UpdateGame(ctx, f.db, nil, games.GameUpdate{GameID: id, Now: now,
					Compute: func(g games.Game) (Change, error) {
						sub, err := games.SubmitTurn(g, games.Actor{SeatColor: &color}, g.Ply(), turn, now)
						if err != nil {
							return Change{}, err
						}
						return changeOf(sub), nil
					}})
				if err != nil {
					t.Errorf("turn %s in %s: %v", turn, id, err)
					return
				}
				// The version now stored, read from the database.
				stored, err := loadGame(ctx, f.db.read, id)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				acked[id] = max(acked[id], stored.Version)
				mu.Unlock()
			}
		})
	}
	for r := range 3 {
		readers.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				id := ids[(i+r)%len(ids)]
				mu.Lock()
				floor := acked[id]
				mu.Unlock()
				g, err := f.db.Game(ctx, id)
				if err != nil {
					t.Error(err)
					return
				}
				if g.Version < floor {
					t.Errorf("read %s at version %d after version %d was acknowledged", id, g.Version, floor)
					return
				}
			}
		})
	}
	players.Go(func() {
		for i := range 6 {
			u := []User{f.white, f.black}[i%2]
			start := now.Add(time.Duration(24*(i+1)) * time.Hour)
			v, err := f.svc.DeclareVacation(ctx, u, games.Period{Start: start, End: start.Add(time.Hour)})
			if err != nil {
				t.Error(err)
				return
			}
			if i%3 == 0 {
				if err := f.svc.CancelVacation(ctx, u, v.ID); err != nil {
					t.Error(err)
					return
				}
			}
			by := games.Credentials{UserID: f.white.ID, UserEmail: f.white.Email}
			if err := f.svc.RotateSeat(ctx, ids[i%len(ids)], by, "black"); err != nil {
				t.Error(err)
				return
			}
		}
	})
	players.Wait()
	close(done)
	readers.Wait()
	for _, id := range ids {
		checkFresh(t, f.db, id)
	}
}

// BenchmarkGameRead reads a game right after a commit, which empties the
// read connections' page caches: from the database, as every read did
// before the cache; from the cache after another game's change; and the
// first read after the game's own change, which decodes the row the writer
// left.
func BenchmarkGameRead(b *testing.B) {
	fromDB := func(db *DB, ctx context.Context, id string) (games.Game, error) { return loadGame(ctx, db.read, id) }
	for _, tc := range []struct {
		name string
		read func(*DB, context.Context, string) (games.Game, error)
		own  bool // the commit changes the game read
	}{
		{"database", fromDB, false},
		{"cached", (*DB).Game, false},
		{"cached-after-own-change", (*DB).Game, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			db := newStore(b)
			ctx := b.Context()
			spec := twoPlayerSpec("a@example.org", "b@example.org")
			creator := signUp(b, db, "a@example.org", t0).ID
			read, err := db.serviceAt(t0).CreateGame(ctx, spec, creator)
			if err != nil {
				b.Fatal(err)
			}
			played, err := db.serviceAt(t0).CreateGame(ctx, spec, creator)
			if err != nil {
				b.Fatal(err)
			}
			if err := submitTurn(ctx, db, read.ID, seatOf(less.White), 0, firstTurn, t0); err != nil {
				b.Fatal(err)
			}
			if _, err := db.Game(ctx, read.ID); err != nil { // cached from now on
				b.Fatal(err)
			}
			// The timer would cost more than a cached read (it reads the
			// runtime's memory statistics): the reads are timed alone.
			var reading time.Duration
			for range b.N {
				// A change to a game: a new version, nothing else.
				changed := played.ID
				if tc.own {
					changed = read.ID
				}
				_, _, err = games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: changed, Now: t0,
					Compute: func(g games.Game) (Change, error) {
						g.Version++
						return Change{Game: g}, nil
					}})
				if err != nil {
					b.Fatal(err)
				}
				waitTrusted(b, db)
				began := time.Now()
				if _, err := tc.read(db, ctx, read.ID); err != nil {
					b.Fatal(err)
				}
				reading += time.Since(began)
			}
			b.ReportMetric(float64(reading.Nanoseconds())/float64(b.N), "ns/read")
		})
	}
}

// Between batches, the writer looks for other processes' commits without
// SQLite's write lock: it does not wait for another process that holds
// it, and what that process committed before still empties the cache.
func TestSyncCacheBetweenBatchesWaitsForNobody(t *testing.T) {
	f := newCacheFixture(t)
	ctx := t.Context()
	id := f.game.ID
	checkFresh(t, f.db, id)
	wantCached(t, f.db, id, true)
	other, err := openWritePool(ctx, f.path, DefaultWALLimit)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.ExecContext(ctx, "UPDATE games SET due_at = due_at WHERE id = ?", id); err != nil {
		t.Fatal(err)
	}
	holder, err := other.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback()
	began := time.Now()
	f.db.syncCache(f.db.writeConn)
	if waited := time.Since(began); waited > time.Second {
		t.Fatalf("waited %v for the other's lock", waited)
	}
	if !f.db.games.syncedOK.Load() {
		t.Error("the cache is not trusted after looking")
	}
	wantCached(t, f.db, id, false)
}

// triggerBegin finds the BEGIN that starts a trigger's statements, on its
// own line or not.
var triggerBegin = regexp.MustCompile(`(?i)\bbegin\b`)

// A read whose caller gave up still asks the monitor: the driver would
// interrupt the connection for a cancelled context, and database/sql would
// then replace it, whose data_version the cache could not compare with the
// one noted (see monitorVersion).
func TestMonitorIgnoresCancelledContexts(t *testing.T) {
	f := newCacheFixture(t)
	id := f.game.ID
	checkFresh(t, f.db, id)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := f.db.monitorVersion(ctx); err != nil {
		t.Fatalf("the monitor with a cancelled context: %v", err)
	}
	if !f.db.cacheTrusted(ctx) {
		t.Error("a read with a cancelled context does not trust the cache")
	}
}
