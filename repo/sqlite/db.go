// Package sqlite is the SQLite store: it keeps lesspost's state in one
// SQLite file (modernc.org/sqlite, no cgo), applies the embedded schema
// migrations and runs every write in a transaction. Package repo opens it,
// or the PostgreSQL store, by URL; what both stores share lives in
// repo/internal. The SQLite store keeps recently written and read games in
// memory (gamecache.go), exactly as the database would return them.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/migrations"
)

// DB is the SQLite store. It is safe for concurrent use.
//
// SQLite allows one writer at a time, while WAL readers never block and are
// never blocked. So DB keeps two pools on the same file: write, with a single
// connection that one goroutine owns and commits in batches (writer.go),
// where every transaction begins IMMEDIATE (writers queue in Go, not in
// SQLite's busy-sleep loop, and a read-then-write transaction can never fail
// with SQLITE_BUSY_SNAPSHOT); and read, with several read-only connections
// for plain queries.
//
// Commits never checkpoint the WAL into the database file themselves: a
// checkpoint writes and syncs the file, and on the commit path it stalled
// every writer queued behind it. A background loop checkpoints instead
// (see checkpoints), the writer has the WAL started over once it reaches
// its limit (see limitWAL), and the automatic checkpoint stays as a
// backstop far above its default.
type DB struct {
	writeConn  *sql.DB
	read       readPool
	checkpoint *sql.DB
	// writeStmts are the hot statements prepared on the write connection.
	writeStmts *statements

	stopCheckpoints context.CancelFunc
	checkpointsDone chan struct{}

	// The group-commit writer (writer.go): jobs hands it transactions;
	// closing stops it and writerDone says it has.
	jobs       chan *writeJob
	closing    chan struct{}
	writerDone chan struct{}

	// The game cache (gamecache.go): monitor is the connection whose
	// data_version reads compare; syncAsked wakes an idle writer to look
	// for other processes' commits; dataVersion is the write connection's
	// at the writer's last look, which only the writer touches.
	games         *gameCache
	monitor       *sql.DB
	monitorStmt   *sql.Stmt
	syncAsked     chan struct{}
	dataVersion   int64
	dataVersionOK bool

	// The WAL's limit (limitWAL): path is the database file's, walLimit
	// the size at which the writer has the WAL started over, and
	// walRetryAt the size at which it tries again after a try that could
	// not finish (only the writer touches it).
	path       string
	walLimit   int64
	walRetryAt int64

	// writesFailing says a write failed for want of disk (or of the file)
	// since Ping last found that writes work (see Ping).
	writesFailing atomic.Bool

	closeOnce sync.Once
	closeErr  error
}

// Options tune the SQLite store; zero fields mean the defaults.
type Options struct {
	// WALLimit is the size of the write-ahead log at which the writer has it
	// copied into the database file and started over from its beginning;
	// the file is truncated back to this size when it grew past it. Zero
	// means DefaultWALLimit.
	WALLimit int64
}

// DefaultWALLimit keeps the WAL a few MB under any load: at 150 turns a
// second it grows by about 3 MB a second, so it starts over about once a
// second, each time stalling the writer for a few milliseconds (the
// background checkpoints have copied most of it by then). A server whose
// disk filled up takes writes again once this much (at most) is free for
// the WAL, plus whatever the database file needs to grow.
const DefaultWALLimit = 4 << 20

// Open opens the database at path, creating the file (mode 0600) if needed,
// and applies any pending migrations, so the store it returns always has the
// current schema.
func Open(ctx context.Context, path string) (*DB, error) {
	return OpenWith(ctx, path, Options{})
}

// OpenWith is Open with options other than the defaults.
func OpenWith(ctx context.Context, path string, opts Options) (*DB, error) {
	if path == "" || strings.Contains(path, "?") {
		return nil, fmt.Errorf("open database: invalid path %q", path)
	}
	if opts.WALLimit <= 0 {
		opts.WALLimit = DefaultWALLimit
	}
	if err := makePrivate(path); err != nil {
		return nil, err
	}
	write, err := openWritePool(ctx, path, opts.WALLimit)
	if err != nil {
		return nil, err
	}
	db := &DB{writeConn: write, jobs: make(chan *writeJob), closing: make(chan struct{}),
		games: newGameCache(), syncAsked: make(chan struct{}, 1), path: path, walLimit: opts.WALLimit}
	// The other pools are opened after the write pool has switched the file to
	// WAL, which persists, so they need not (and readers could not) set it.
	if db.read.DB, err = openPool(ctx, path, url.Values{
		"_pragma":      {"busy_timeout(5000)", "foreign_keys(1)"},
		"_time_format": {"sqlite"},
		"_query_only":  {"1"},
	}, max(4, runtime.GOMAXPROCS(0))); err != nil {
		return nil, errors.Join(err, db.Close())
	}
	if db.checkpoint, err = openPool(ctx, path, url.Values{
		// Only the checkpoints that start the WAL over wait (see limitWAL).
		"_pragma": {fmt.Sprintf("busy_timeout(%d)", restartWait.Milliseconds()), "synchronous(NORMAL)"},
	}, 1); err != nil {
		return nil, errors.Join(err, db.Close())
	}
	if db.monitor, err = openPool(ctx, path, url.Values{
		"_pragma":     {"busy_timeout(5000)"},
		"_query_only": {"1"},
	}, 1); err != nil {
		return nil, errors.Join(err, db.Close())
	}
	if db.monitorStmt, err = db.monitor.PrepareContext(ctx, sqlDataVersion); err != nil {
		return nil, errors.Join(fmt.Errorf("open database %s: %w", path, err), db.Close())
	}
	if _, err := migrate(ctx, write, migrations.FS); err != nil {
		return nil, errors.Join(fmt.Errorf("migrate database %s: %w", path, err), db.Close())
	}
	// Prepared after the migrations, which may change the tables they use.
	if db.writeStmts, err = prepareStatements(ctx, write, writeQueries); err != nil {
		return nil, errors.Join(fmt.Errorf("open database %s: %w", path, err), db.Close())
	}
	db.read.stmts = lazyStatements(db.read.DB)
	cpCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	db.stopCheckpoints, db.checkpointsDone = stop, make(chan struct{})
	go db.checkpoints(cpCtx)
	db.writerDone = make(chan struct{})
	go db.writeLoop()
	return db, nil
}

// checkpointInterval is how often the background loop copies the WAL into
// the database file, so that little is left to copy when the writer has
// the WAL started over (limitWAL), and the file is synced that often.
const checkpointInterval = 250 * time.Millisecond

// checkpoints runs passive WAL checkpoints until ctx ends. A passive
// checkpoint never waits for and never blocks readers or the writer; what
// it cannot copy yet, the next one does. It does not keep the WAL small:
// SQLite writes the WAL from its start again only when a writer begins
// while everything is copied and no reader still reads a snapshot of the
// WAL, which under load is never (see limitWAL).
func (db *DB) checkpoints(ctx context.Context) {
	defer close(db.checkpointsDone)
	t := time.NewTicker(checkpointInterval)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var busy, logFrames, done int
		err := db.checkpoint.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logFrames, &done)
		switch {
		case ctx.Err() != nil:
		case err != nil && !failing:
			// Not fatal: the next tick tries again. Said once, not four
			// times a second while the disk is full.
			slog.WarnContext(ctx, "wal checkpoints fail", "error", err)
			failing = true
		case err == nil && failing:
			slog.InfoContext(ctx, "wal checkpoints work again")
			failing = false
		}
	}
}

// restartWait bounds how long a checkpoint that starts the WAL over
// (limitWAL) waits for the readers of the WAL to finish, holding off the
// writer meanwhile. Reads take milliseconds; a long one (a backup) makes the
// try fail instead, and the writer tries again later.
const restartWait = 100 * time.Millisecond

// limitWAL has the WAL copied into the database file and started over
// once it is larger than walLimit. The writer calls it between batches, so
// its own connection holds no lock; the checkpoint holds off other writers
// (it takes the write lock) and waits, at most restartWait, for the readers
// of older snapshots, which a passive checkpoint cannot, and so the next
// commit writes the WAL from its start (and truncates the file to
// walLimit, journal_size_limit). A try that cannot finish is repeated once
// the WAL has grown by another walLimit, so that a long read costs the
// writer restartWait now and then, not at every batch.
func (db *DB) limitWAL() {
	fi, err := os.Stat(db.path + "-wal")
	// The file keeps its size when the WAL starts over: it outgrows the
	// limit only when the WAL has.
	if err != nil || fi.Size() <= max(db.walLimit, db.walRetryAt) {
		return
	}
	var busy, logFrames, done int
	err = db.checkpoint.QueryRow("PRAGMA wal_checkpoint(RESTART)").Scan(&busy, &logFrames, &done)
	switch {
	case err != nil:
		// The database file could not take the WAL's pages (a full disk):
		// the next batch tries again, before the WAL takes what was freed.
		slog.Warn("wal checkpoint could not start the WAL over", "wal_bytes", fi.Size(), "error", err)
	case busy != 0:
		db.walRetryAt = fi.Size() + db.walLimit
		slog.Warn("wal checkpoint could not start the WAL over: a read took longer than "+restartWait.String(),
			"wal_bytes", fi.Size(), "frames", logFrames, "copied", done)
	default:
		db.walRetryAt = 0
	}
}

// openWritePool opens the one connection that writes to the file at path,
// switching it to WAL. Servers started together on a new file race to
// switch it and to migrate it, and SQLite may answer the loser's switch
// with SQLITE_BUSY at once, without waiting out busy_timeout: it tries
// again, for a while, until the winner is done.
func openWritePool(ctx context.Context, path string, walLimit int64) (*sql.DB, error) {
	var pool *sql.DB
	err := whileBusy(ctx, func() (err error) {
		pool, err = openWritePoolOnce(ctx, path, walLimit)
		return err
	})
	return pool, err
}

// whileBusy runs f again while it fails with SQLITE_BUSY, for up to
// busyRetryFor. busy_timeout alone does not cover what several processes
// opening one new file meet: SQLite answers some lock conflicts (the WAL
// switch) at once, and a process migrating the file takes the write lock
// again right after each migration's commit, so another one's wait can add
// up past busy_timeout while the first works through the list.
func whileBusy(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(busyRetryFor)
	for {
		err := f()
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqliteBusy || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// sqliteBusy is SQLITE_BUSY, the primary code of "database is locked".
const sqliteBusy = 5

// busyRetryFor bounds how long opening waits for another process that
// holds the new file.
const busyRetryFor = 30 * time.Second

// busyTimeout is how long the write connection waits for another
// process's write lock.
const busyTimeout = 5 * time.Second

func openWritePoolOnce(ctx context.Context, path string, walLimit int64) (*sql.DB, error) {
	return openPool(ctx, path, url.Values{
		"_pragma": {
			fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()),
			"journal_mode(WAL)",
			// NORMAL is durable in WAL mode except for the last commits before a
			// power loss, and several times faster than FULL.
			"synchronous(NORMAL)",
			"foreign_keys(1)",
			// The backstop if background checkpoints fall behind: 40 MB of WAL.
			"wal_autocheckpoint(10000)",
			// When the WAL starts over, its file is cut back to the limit: a
			// WAL that grew past it (during a long read) gives the disk back.
			fmt.Sprintf("journal_size_limit(%d)", walLimit),
			// Group commit gives each caller a savepoint (writer.go), whose
			// undo log SQLite keeps in a temporary file once it passes 64 KiB:
			// a write system call for every page a turn first touched, a
			// seventh of the writer's time under load. In memory it costs
			// what the pages do; it never outlives the transaction, so a
			// crash loses nothing the WAL would have kept.
			"temp_store(MEMORY)",
		},
		"_txlock":      {"immediate"},
		"_time_format": {"sqlite"}, // without it, time.Time keeps its monotonic-clock suffix
	}, 1)
}

func openPool(ctx context.Context, path string, params url.Values, conns int) (*sql.DB, error) {
	// A plain file name (not a "file:" URI) reaches SQLite verbatim, so a
	// path with '%' in it means what it says; only '?' cannot be expressed.
	dsn := path + "?" + params.Encode()
	pool, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	pool.SetMaxOpenConns(conns)
	pool.SetMaxIdleConns(conns)
	// Connections live for the whole process: each one carries its pragmas and
	// SQLite's page cache, and reopening a local file buys nothing.
	pool.SetConnMaxLifetime(0)
	pool.SetConnMaxIdleTime(0)
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return pool, nil
}

// Close closes the database. Call it after every user is done: in-flight
// queries and transactions fail once it has been called.
func (db *DB) Close() error {
	db.closeOnce.Do(func() { db.closeErr = db.close() })
	return db.closeErr
}

func (db *DB) close() error {
	close(db.closing)
	if db.writerDone != nil {
		<-db.writerDone
	}
	if db.stopCheckpoints != nil {
		db.stopCheckpoints()
		<-db.checkpointsDone
	}
	var errs []error
	// Statements first: a pool waits for its statements' connections.
	errs = append(errs, db.writeStmts.close(), db.read.stmts.close())
	if db.monitorStmt != nil {
		errs = append(errs, db.monitorStmt.Close())
	}
	for _, pool := range []*sql.DB{db.read.DB, db.checkpoint, db.monitor, db.writeConn} {
		if pool != nil {
			errs = append(errs, pool.Close())
		}
	}
	return errors.Join(errs...)
}

// Ping reports whether the database answers, for readiness checks. It uses a
// read connection so that it does not wait behind a long write transaction.
//
// Reads work on a full disk, and so do some writes (those that fit into
// what the WAL file already holds, or that only change pages in place), so
// neither says whether the server can take turns. Once a write has failed
// for want of disk (or of the file), Ping reports the store unavailable
// until the disk has at least the WAL's limit free, which lets the WAL
// grow until it starts over, and a write of its own succeeds.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	if err := db.read.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping database: %w", err)
	}
	if !db.writesFailing.Load() {
		return nil
	}
	if free, known := freeBytes(filepath.Dir(db.path)); known && free < db.walLimit {
		return domain.Unavailable(fmt.Errorf("ping database: writes failed, and the disk has %d bytes free, less than the WAL's limit of %d",
			free, db.walLimit))
	}
	err := db.write(ctx, func(tx *Tx) error {
		return setSetting(ctx, tx, writeProbeKey, strconv.FormatInt(time.Now().UnixNano(), 10))
	})
	if err != nil {
		return fmt.Errorf("ping database: writes fail: %w", err)
	}
	db.writesFailing.Store(false)
	return nil
}

// writeProbeKey is the setting Ping writes while writes fail: a new value
// each time, so that the commit writes a page.
const writeProbeKey = "write_probe"

// sqliteUnavailable says whether err is SQLite's report that the file
// cannot be written now, for a reason outside the request: a full disk
// (SQLITE_FULL), an I/O error (SQLITE_IOERR), a file it cannot open
// (SQLITE_CANTOPEN) or write (SQLITE_READONLY: a file system remounted
// read-only after errors), or another process's write lock held past
// busy_timeout (SQLITE_BUSY).
func sqliteUnavailable(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqliteBusy, sqliteReadOnly, sqliteIOErr, sqliteFull, sqliteCantOpen:
		return true
	}
	return false
}

// SQLite's primary result codes that sqliteUnavailable knows.
const (
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteFull     = 13
	sqliteCantOpen = 14
)

// WithTx runs fn in a write transaction and commits if fn returns nil; if fn
// returns an error or panics, the transaction is rolled back and nothing fn
// did is kept. The error from fn is returned as is, so callers can match it.
// WithTx returns only after the commit. The SQLite transaction may be shared
// with other callers' (see writer.go): fn's part of it stands or falls alone.
//
// There is one write connection: fn must not call WithTx or any other DB
// method that writes, or it waits for itself. It may read through DB methods,
// but those do not see its uncommitted changes; read through tx instead.
func (db *DB) WithTx(ctx context.Context, fn func(*Tx) error) error {
	return db.write(ctx, fn)
}

// withTx runs fn in a transaction of its own on pool, whose prepared
// statements are ps (nil: none): for the migrations, which run before the
// writer starts.
func withTx(ctx context.Context, pool *sql.DB, ps *statements, fn func(*Tx) error) error {
	sqlTx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	tx := &Tx{sqlTx: sqlTx, stmts: ps}
	// Undoes everything on an error or a panic in fn; after a successful
	// Commit it does nothing.
	defer func() { _ = tx.Rollback() }()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	return nil
}
