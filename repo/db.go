// Package repo owns persistence: it keeps lesspost's state in one SQLite file
// (modernc.org/sqlite, no cgo), applies the embedded schema migrations and
// runs every write in a transaction. Nothing outside this package writes SQL.
package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/lesspost/lesspost/migrations"
)

// DB is the SQLite store. It is safe for concurrent use.
//
// SQLite allows one writer at a time, while WAL readers never block and are
// never blocked. So DB keeps two pools on the same file: write, with a single
// connection, where every transaction begins IMMEDIATE (writers queue in Go,
// not in SQLite's busy-sleep loop, and a read-then-write transaction can never
// fail with SQLITE_BUSY_SNAPSHOT); and read, with several read-only
// connections for plain queries.
type DB struct {
	write *sql.DB
	read  *sql.DB
}

// Open opens the database at path, creating the file if needed, and applies
// any pending migrations, so the store it returns always has the current
// schema.
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" || strings.Contains(path, "?") {
		return nil, fmt.Errorf("open database: invalid path %q", path)
	}
	write, err := openPool(ctx, path, url.Values{
		"_pragma": {
			"busy_timeout(5000)",
			"journal_mode(WAL)",
			// NORMAL is durable in WAL mode except for the last commits before a
			// power loss, and several times faster than FULL.
			"synchronous(NORMAL)",
			"foreign_keys(1)",
		},
		"_txlock":      {"immediate"},
		"_time_format": {"sqlite"}, // without it, time.Time keeps its monotonic-clock suffix
	}, 1)
	if err != nil {
		return nil, err
	}
	// Opened after the write pool has switched the file to WAL, which persists,
	// so readers need not (and, being read-only, could not) set it.
	read, err := openPool(ctx, path, url.Values{
		"_pragma":      {"busy_timeout(5000)", "foreign_keys(1)"},
		"_time_format": {"sqlite"},
		"_query_only":  {"1"},
	}, max(4, runtime.GOMAXPROCS(0)))
	if err != nil {
		write.Close()
		return nil, err
	}
	db := &DB{write: write, read: read}
	if err := migrate(ctx, write, migrations.FS); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate database %s: %w", path, err)
	}
	return db, nil
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
	return errors.Join(db.read.Close(), db.write.Close())
}

// Ping reports whether the database answers, for readiness checks. It uses a
// read connection so that it does not wait behind a long write transaction.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	if err := db.read.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping database: %w", err)
	}
	return nil
}

// WithTx runs fn in a write transaction and commits if fn returns nil; if fn
// returns an error or panics, the transaction is rolled back and nothing fn
// did is kept. The error from fn is returned as is, so callers can match it.
//
// There is one write connection: fn must not call WithTx or any other DB
// method that writes, or it waits for itself. It may read through DB methods,
// but those do not see its uncommitted changes; read through tx instead.
func (db *DB) WithTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return withTx(ctx, db.write, fn)
}

func withTx(ctx context.Context, pool *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
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
