package sqlite

import (
	"context"
	"database/sql"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lesspost/lesspost/domain/games"
)

// The game cache: recently written and read games, so that the read before
// a turn (games.UpdateGame's optimistic read) and each email's read of its
// game usually cost no query. Every commit empties the read connections'
// page caches, and under load that read was about as costly as the turn's
// write.
//
// What it guarantees: DB.Game answers from it exactly what a fresh read of
// the database (loadGame) would answer at some moment during the call, and
// a change acknowledged to its caller is seen by every read that starts
// afterwards, in this process and in any other on the same file. Why:
//
//   - An entry holds a game's stored columns (gameRow), never what a caller
//     computed: the writer builds it from exactly what its UPDATE wrote and
//     what the row held before (the previous entry), and decoding it is the
//     same code a database read runs. A caller gets a copy of the decoded
//     game (Rules cloned, slices and maps copied): nobody shares memory
//     with the cache.
//   - The writer evicts every game a batch changes before the batch
//     commits, so that no read meets an entry older than a committed
//     change; and again after the commit, so that no read that began before
//     it fills one; then it fills the cache with the new rows.
//   - A job that ran any statement not known to leave game reads alone (see
//     gameNeutral: anything but a SELECT or a write to a listed table, and
//     storeChange's own statements) empties the whole cache before the
//     commit, and no game of that batch is filled. That covers every change
//     made without a game's version: vacations, seats, links, tournaments,
//     deletions, admin, migrations, hand-written SQL. Forgetting to list a
//     table costs misses, never a stale read. It is emptied again after
//     the commit, for the reads under way.
//   - A read that missed fills the cache only if nothing was evicted for its
//     game, and nothing emptied, since it began (seq, slots): a slow read
//     never puts back an older game.
//   - Several processes may share the file (README: one machine, several
//     servers; cmd/api's TestThreeInstancesOneDatabase). The writer holds
//     SQLite's write lock from its BEGIN IMMEDIATE to its commit, so as
//     each batch begins it sees exactly whether another process committed
//     since its last batch (the write connection's PRAGMA data_version) and
//     empties the cache if so; and, still under the lock, it notes the
//     data_version of a monitor connection. A read trusts the cache only
//     while the monitor's data_version is still the one noted: any commit
//     since, ours or another's, sends reads to the database until the
//     writer has looked again. It looks right after each commit, before
//     its callers learn their outcome (writeLoop), and when a read that
//     found a foreign commit asks; between batches without the lock, which
//     the order of its two reads makes unneeded (syncCache), so
//     that it never waits for, nor holds up, another process. Checking
//     costs a read one PRAGMA on the monitor (a few µs, no page read), far
//     less than reading the game.
//   - A version conflict evicts the game, so the retry reads the database.
//
// The cache is the SQLite store's alone: PostgreSQL instances share a
// database whose commits no instance sees.
type gameCache struct {
	mu sync.Mutex
	// seq counts evictions and emptyings; a read remembers it when it starts.
	seq uint64
	// cleared is the seq of the last emptying.
	cleared uint64
	// slots are the seq of the last eviction of the games hashed to each:
	// a read that missed may fill only if its game's slot is older than the
	// read. Sharing a slot costs a fill, never correctness.
	slots   [cacheSlots]uint64
	entries map[string]*cacheEntry

	// synced is the monitor's data_version the writer noted under the write
	// lock, valid while syncedOK.
	synced   atomic.Int64
	syncedOK atomic.Bool
}

const (
	// maxCachedGames bounds the cache: a few MB of decoded games.
	maxCachedGames = 4096
	cacheSlots     = 4096
)

// cacheEntry is one game: its row and, once a read decoded it, the game.
type cacheEntry struct {
	row  *gameRow
	game *games.Game // nil until decoded; never handed out, only copies
}

// gameRow is what a database read of a game returns: the columns of
// sqlSelectGames and the seats, before decoding.
type gameRow struct {
	id                    string
	creatorID             int64
	ruleset, state, clock string
	tournament            string // "" for NULL
	version, watchVersion int
	createdAt, updatedAt  int64 // Unix milliseconds
	seats                 []games.Seat
}

func newGameCache() *gameCache {
	return &gameCache{entries: make(map[string]*cacheEntry)}
}

func slotOf(id string) int {
	// FNV-1a: cheap, and ids are random anyway.
	h := uint32(2166136261)
	for i := 0; i < len(id); i++ {
		h ^= uint32(id[i])
		h *= 16777619
	}
	return int(h % cacheSlots)
}

// lookup is the entry of id, if any, and the seq a read that misses fills
// with.
func (c *gameCache) lookup(id string) (*cacheEntry, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[id], c.seq
}

// peekRow is the cached row of id, for the writer (nil if none).
func (c *gameCache) peekRow(id string) *gameRow {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[id]; e != nil {
		return e.row
	}
	return nil
}

// fill keeps a game read from the database since seq, unless it may be
// older than what the cache was told since.
func (c *gameCache) fill(row *gameRow, g *games.Game, since uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cleared > since || c.slots[slotOf(row.id)] > since {
		return
	}
	c.put(&cacheEntry{row: row, game: g})
}

// decoded records the decoding of e, if e is still the entry and nothing
// was emptied since seq (the decoding read vacations).
func (c *gameCache) decoded(e *cacheEntry, g *games.Game, since uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cleared > since || c.entries[e.row.id] != e {
		return
	}
	c.entries[e.row.id] = &cacheEntry{row: e.row, game: g}
}

// put stores e; the caller holds mu.
func (c *gameCache) put(e *cacheEntry) {
	if _, ok := c.entries[e.row.id]; !ok && len(c.entries) >= maxCachedGames {
		for id := range c.entries { // map order: a random victim
			delete(c.entries, id)
			break
		}
	}
	c.entries[e.row.id] = e
}

// evict forgets the games of ids, and stops reads under way from filling
// them.
func (c *gameCache) evict(ids ...string) {
	if c != nil {
		c.committed(ids, nil)
	}
}

// clear forgets every game, and stops reads under way from filling.
func (c *gameCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	c.cleared = c.seq
	clear(c.entries)
}

// committed is the writer's word after a commit that changed the games of
// ids, whose new rows are rows (those known): reads that began before it
// may have read the database before the commit, so their fills are
// refused; then the new rows are kept.
func (c *gameCache) committed(ids []string, rows []*gameRow) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	for _, id := range ids {
		delete(c.entries, id)
		c.slots[slotOf(id)] = c.seq
	}
	for _, r := range rows {
		c.put(&cacheEntry{row: r})
	}
}

// copyGame is g with nothing shared that a caller could change: games are
// values, but Rules, the seats, the vacations, the tournament and the
// clock's slices are references.
func copyGame(g *games.Game) games.Game {
	out := *g
	if g.Rules != nil {
		out.Rules = g.Rules.Clone()
	}
	out.Seats = slices.Clone(g.Seats)
	if g.Away != nil {
		out.Away = maps.Clone(g.Away)
		for i, ps := range out.Away {
			out.Away[i] = slices.Clone(ps)
		}
	}
	if g.Tournament != nil {
		ref := *g.Tournament
		out.Tournament = &ref
	}
	out.Clock.Halts = slices.Clone(g.Clock.Halts)
	out.Clock.Control.Reminders = slices.Clone(g.Clock.Control.Reminders)
	return out
}

// cachedGame reads a game through the cache (see gameCache).
func (db *DB) cachedGame(ctx context.Context, id string) (games.Game, error) {
	c := db.games
	if !db.cacheTrusted(ctx) {
		return loadGame(ctx, db.read, id)
	}
	e, seq := c.lookup(id)
	if e != nil && e.game != nil {
		return copyGame(e.game), nil
	}
	if e != nil {
		g, err := completeRow(ctx, db.read, e.row)
		if err != nil {
			return games.Game{}, err
		}
		c.decoded(e, &g, seq)
		return copyGame(&g), nil
	}
	rows, err := loadRows(ctx, db.read, []string{id})
	if err != nil {
		return games.Game{}, err
	}
	found, err := completeRows(ctx, db.read, []string{id}, rows)
	if err != nil {
		return games.Game{}, err
	}
	if len(found) == 0 {
		return games.Game{}, gameNotFound(id)
	}
	kept := copyGame(&found[0])
	c.fill(rows[0], &kept, seq)
	return found[0], nil
}

// cacheTrusted reports whether no commit happened since the writer last
// looked (see gameCache): else it asks the writer to look again.
func (db *DB) cacheTrusted(ctx context.Context) bool {
	if !db.games.syncedOK.Load() {
		db.askSync()
		return false
	}
	v, err := db.monitorVersion(ctx)
	if err != nil || v != db.games.synced.Load() {
		db.askSync()
		return false
	}
	return true
}

// askSync wakes an idle writer to look for other processes' commits.
func (db *DB) askSync() {
	select {
	case db.syncAsked <- struct{}{}:
	default:
	}
}

const sqlDataVersion = "PRAGMA data_version"

// monitorVersion is the monitor connection's data_version: it moves with
// every commit of any other connection, the writer's included.
//
// A data_version means something only against the same connection's
// earlier ones, so neither the monitor nor the write connection may be
// replaced behind the cache's back. database/sql replaces a connection only
// when the driver finds it unusable, which the SQLite driver does after a
// cancelled context interrupted it; so no caller's context reaches either:
// here, and in Tx's statements, for the same reason and one more (writer.go).
// The PRAGMA takes microseconds and reads no page: nothing to cut short.
func (db *DB) monitorVersion(ctx context.Context) (int64, error) {
	var v int64
	err := db.monitorStmt.QueryRowContext(context.WithoutCancel(ctx)).Scan(&v)
	return v, err
}

// syncCache looks for other processes' commits: if another connection
// committed since the writer last looked, the cache is emptied; then the
// monitor's data_version is noted, which is what reads compare with. The
// writer calls it with q its write connection: in each batch's
// transaction, which holds SQLite's write lock, and between batches,
// after each commit and when a read asks, without it. That needs no lock
// because of the order of the two reads: a commit after the monitor's
// moves the monitor past what reads are told to trust, and one before the
// write connection's is seen by it.
func (db *DB) syncCache(q queryer) {
	c := db.games
	c.syncedOK.Store(false)
	m, err := db.monitorVersion(context.Background())
	if err != nil {
		return
	}
	var v int64
	if err := q.QueryRowContext(context.Background(), sqlDataVersion).Scan(&v); err != nil {
		c.clear()
		db.dataVersionOK = false
		return
	}
	if !db.dataVersionOK || v != db.dataVersion {
		c.clear()
	}
	db.dataVersion, db.dataVersionOK = v, true
	c.synced.Store(m)
	c.syncedOK.Store(true)
}

// jobGames is what one writer job did to games, for the cache.
type jobGames struct {
	// touched: the job ran a statement that may change what a game read
	// returns, and is not storeChange's.
	touched bool
	// stored are the games storeChange wrote, in order; a nil row is a game
	// whose new row is unknown (it was not cached), to evict only.
	stored []*storedGame
}

type storedGame struct {
	id  string
	row *gameRow
}

// batchGames gathers the jobs of a batch that succeeded.
type batchGames struct {
	touched bool
	rows    map[string]*gameRow // nil: evict only
}

func (b *batchGames) add(j *jobGames) {
	b.touched = b.touched || j.touched
	for _, s := range j.stored {
		if b.rows == nil {
			b.rows = make(map[string]*gameRow)
		}
		b.rows[s.id] = s.row
	}
}

// storingGame records that the job writes the game id: its new row is to
// be set on what it returns once known.
func (tx *Tx) storingGame(id string) *storedGame {
	s := &storedGame{id: id}
	if tx.games != nil {
		tx.games.stored = append(tx.games.stored, s)
	}
	return s
}

// filled are the rows to store after the commit, if it succeeded.
func (b *batchGames) filled(ok bool) []*gameRow {
	if !ok {
		return nil
	}
	out := make([]*gameRow, 0, len(b.rows))
	for _, r := range b.rows {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// rowBefore is the row of id as the batch so far left it: the job's own
// earlier change, the batch's, or the cache's (which the batch's start made
// current). Nil if unknown.
func (tx *Tx) rowBefore(id string) *gameRow {
	j := tx.games
	if j == nil || j.touched || tx.batch.touched {
		return nil // whatever it ran may have changed the row
	}
	for i := len(j.stored) - 1; i >= 0; i-- {
		if j.stored[i].id == id {
			return j.stored[i].row
		}
	}
	if r, ok := tx.batch.rows[id]; ok {
		return r
	}
	return tx.cache.peekRow(id)
}

// neutralTables are tables that no game read reads (see loadGames) and no
// trigger or foreign key connects to the tables it reads
// (TestNeutralTablesLeaveGamesAlone checks both): a job that writes only
// these leaves the cache alone. The frequent jobs: a turn's turns, events,
// mail and idempotent answer; the outbox worker's claims; rate limits;
// deliveries of webhooks and pushes; sessions and tokens.
var neutralTables = map[string]bool{
	"turns": true, "events": true, "outbox": true, "idempotency_keys": true, "rate_limits": true,
	"tournaments": true, "webhook_deliveries": true, "webhook_endpoints": true, "push_deliveries": true,
	"push_subscriptions": true, "inbound": true, "login_tokens": true, "sessions": true,
	"refresh_tokens": true, "personal_tokens": true, "suppressions": true, "unsubscribes": true,
}

// gameReadTables are the tables a game read reads.
var gameReadTables = []string{"games", "seats", "vacations", "users"}

// neutralQueries remembers gameNeutral's answers by query text, up to
// maxStatements texts.
var neutralQueries struct {
	sync.RWMutex
	m map[string]bool
}

// gameNeutral reports whether query certainly leaves every game read
// alone: one SELECT, or one INSERT, UPDATE or DELETE of a neutral table.
// Anything else, or anything it cannot tell, may change games.
func gameNeutral(query string) bool {
	neutralQueries.RLock()
	v, ok := neutralQueries.m[query]
	neutralQueries.RUnlock()
	if ok {
		return v
	}
	v = classifyNeutral(query)
	neutralQueries.Lock()
	if neutralQueries.m == nil {
		neutralQueries.m = make(map[string]bool)
	}
	if len(neutralQueries.m) < maxStatements {
		neutralQueries.m[query] = v
	}
	neutralQueries.Unlock()
	return v
}

func classifyNeutral(query string) bool {
	q := strings.TrimSpace(query)
	q = strings.TrimSuffix(q, ";")
	if strings.Contains(q, ";") {
		return false // several statements
	}
	table, write := writeTarget(q)
	if !write {
		return table == "select"
	}
	return neutralTables[table]
}

// writeTarget is the table an INSERT, REPLACE, UPDATE or DELETE statement
// writes (write true), or "select" for a SELECT, or "" for anything else.
func writeTarget(q string) (string, bool) {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return "", false
	}
	next := func(i int) string {
		if i < len(words) {
			return words[i]
		}
		return ""
	}
	i := 0
	switch words[0] {
	case "select":
		return "select", false
	case "insert", "replace":
		i = 1
		if next(i) == "or" {
			i += 2
		}
		if next(i) != "into" {
			return "", false
		}
		i++
	case "update":
		i = 1
		if next(i) == "or" {
			i += 2
		}
	case "delete":
		if next(1) != "from" {
			return "", false
		}
		i = 2
	default:
		return "", false
	}
	name, _, _ := strings.Cut(next(i), "(")
	return strings.Trim(name, "\"`[]"), true
}

// note records that tx ran query, for the cache.
func (tx *Tx) note(query string) {
	if tx.games != nil && !tx.games.touched && !gameNeutral(query) {
		tx.games.touched = true
	}
}

// gameRowsScanner is what loadRows scans.
type gameRowsScanner interface {
	Scan(dest ...any) error
}

// scanRow reads a row of sqlSelectGames.
func scanRow(row gameRowsScanner) (*gameRow, error) {
	var r gameRow
	var tournament sql.NullString
	if err := row.Scan(&r.id, &r.creatorID, &r.ruleset, &r.state, &r.version, &r.createdAt, &r.updatedAt, &r.clock,
		&tournament, &r.watchVersion); err != nil {
		return nil, err
	}
	r.tournament = tournament.String
	return &r, nil
}
