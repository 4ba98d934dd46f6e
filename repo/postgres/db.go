// Package postgres is the PostgreSQL store: the same port.Store as the
// SQLite one (repo/sqlite), for several lesspost instances on one
// database. It owns the SQL of that dialect; what both stores share lives in
// repo/internal. It applies its embedded schema (migrations/postgres) when
// it opens.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
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
//
// No wait on the database is unbounded (see Options): a database that
// stops answering (frozen, or cut off by the network) costs a request at
// most a statement's timeout, and the store answers with an error that
// domain.Unavailable marks, as it does when the database refuses
// connections or is shutting down.
type DB struct {
	pool pool
}

// DefaultMaxConns is the size of an instance's connection pool unless the
// URL sets pool_max_conns. Several instances share the database's
// max_connections (100 by default): four instances at 20 leave room for
// maintenance and psql.
const DefaultMaxConns = 20

// Options bound how long the store waits for the database; zero fields
// mean the defaults.
type Options struct {
	// ConnectTimeout bounds making a connection, unless the URL sets
	// connect_timeout.
	ConnectTimeout time.Duration
	// StatementTimeout bounds each statement, COMMIT included: the
	// database cancels one that runs longer (statement_timeout, unless the
	// URL sets it), and ends a session left idle inside a transaction as
	// long (an instance cut off while it held locks); the store stops
	// waiting for an answer a little later (statementGrace), closing the
	// connection, when the database does not answer at all.
	StatementTimeout time.Duration
}

// The default bounds: a turn's statements take milliseconds, the
// housekeeping's are limited in rows, and the migrations are not bounded.
const (
	DefaultConnectTimeout   = 5 * time.Second
	DefaultStatementTimeout = 5 * time.Second
)

// statementGrace is how much longer than StatementTimeout the store waits
// for an answer, so that a live database reports its own cancellation
// (and the connection stays usable) before the store gives up on it.
const statementGrace = time.Second

// Open connects to the database dsn names (a postgres:// URL) and applies
// any pending migrations (see Migrate), so the store it returns always has
// the current schema.
func Open(ctx context.Context, dsn string) (*DB, error) {
	return OpenWith(ctx, dsn, Options{})
}

// OpenWith is Open with options other than the defaults.
func OpenWith(ctx context.Context, dsn string, opts Options) (*DB, error) {
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.StatementTimeout <= 0 {
		opts.StatementTimeout = DefaultStatementTimeout
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		// pgx's default, the number of CPUs (at least 4), keeps a server's
		// requests queueing for a connection while the ones it has wait
		// on the network and the commit's flush, not on the CPU.
		cfg.MaxConns = DefaultMaxConns
	}
	if !strings.Contains(dsn, "connect_timeout") {
		cfg.ConnConfig.ConnectTimeout = opts.ConnectTimeout
	}
	params := cfg.ConnConfig.RuntimeParams
	timeout := strconv.FormatInt(opts.StatementTimeout.Milliseconds(), 10)
	if _, set := params["statement_timeout"]; !set {
		params["statement_timeout"] = timeout
	}
	if _, set := params["idle_in_transaction_session_timeout"]; !set {
		params["idle_in_transaction_session_timeout"] = timeout
	}
	cfg.ConnConfig.Tracer = statementDeadline(opts.StatementTimeout + statementGrace)
	if !strings.Contains(dsn, "pool_ping_timeout") {
		// The pool pings a connection that was idle for a second before
		// handing it out: bounded like a statement.
		cfg.PingTimeout = opts.StatementTimeout + statementGrace
	}
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	db := &DB{pool: pool{p}}
	if err := db.migrate(ctx); err != nil {
		p.Close()
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
		return unavailable(fmt.Errorf("ping database: %w", err))
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
//
// An error that says the database cannot serve is marked unavailable
// (see unavailable).
func (db *DB) withTx(ctx context.Context, fn func(pgx.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := db.tryTx(ctx, fn)
		if err == nil || attempt == maxAttempts || !retryable(err) {
			return unavailable(err)
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
