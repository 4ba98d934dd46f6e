// Package postgres is the PostgreSQL store: the same repo.Store as the
// SQLite one (package repo), for several lesspost instances on one
// database. It owns the SQL of that dialect; what both stores share lives in
// repo/internal. It applies its embedded schema (migrations/postgres) when
// it opens.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is the PostgreSQL store. It is safe for concurrent use, and so are
// several DBs, in one process or several, on one database.
//
// Every unit of work is one READ COMMITTED transaction. Where SQLite's one
// writer makes a read-then-write safe, this store locks what it read:
// reads of a game or a tournament inside a transaction take FOR UPDATE, and
// writes check the version they were computed from.
type DB struct {
	pool *pgxpool.Pool
}

// Open connects to the database dsn names (a postgres:// URL) and applies
// any pending migrations (see Migrate), so the store it returns always has
// the current schema.
func Open(ctx context.Context, dsn string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	db := &DB{pool: pool}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// Close closes the pool's connections, waiting for those in use.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// Ping reports whether the database answers, for readiness checks.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.pool.Ping(ctx); err != nil {
		return fmt.Errorf("ping database: %w", err)
	}
	return nil
}

// querier is what reads and writes need: the pool or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// maxAttempts bounds how often a unit of work runs when PostgreSQL aborts
// it for a deadlock or a serialization failure: the work is sound, it only
// met another in the wrong order.
const maxAttempts = 4

// withTx runs fn in a READ COMMITTED transaction and commits if fn returns
// nil; if fn returns an error or panics, nothing fn did is kept, and the
// error is returned as is. It returns only after the commit, which is
// durable (synchronous_commit stays on). The commit does not heed ctx: once
// fn succeeded, the outcome is never left unknown because its caller gave
// up.
func (db *DB) withTx(ctx context.Context, fn func(pgx.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := db.tryTx(ctx, fn)
		if err == nil || attempt == maxAttempts || !retryable(err) {
			return err
		}
	}
}

func (db *DB) tryTx(ctx context.Context, fn func(pgx.Tx) error) error {
	tx, err := db.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	// Undoes everything on an error or a panic in fn; after a successful
	// Commit it does nothing.
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	return nil
}

// retryable reports a deadlock or a serialization failure.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// exec runs one statement in a transaction of its own and says how many
// rows it changed.
func (db *DB) exec(ctx context.Context, what, query string, args ...any) (int, error) {
	var n int64
	err := db.withTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, query, args...)
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return int(n), nil
}

// ms is a time as the store keeps it: to the millisecond, as SQLite does.
func ms(t time.Time) time.Time { return t.Truncate(time.Millisecond) }

// nullTime is a nullable time column: the zero time is NULL.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return ms(t)
}

// nullString is a nullable text column: "" is NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// utc reads a nullable time column; NULL is the zero time.
func utc(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}
