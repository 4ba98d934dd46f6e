package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// The driver keeps no statement cache: every query is parsed anew, and
// parsing was a sixth of the time a turn held the one write connection and
// two thirds of a signed-in request's token lookup. So each pool keeps its
// own, and a query whose text is in it runs as that prepared statement.
// Callers write plain SQL either way.
//
// The read pool prepares each query the first time its text is seen. The
// write pool cannot: its one connection is inside a transaction whenever a
// query runs there, and preparing on the pool would wait for that very
// connection. So its hot statements (writeQueries) are prepared when the
// store opens, and any other write query is parsed each time.

// maxStatements bounds a pool's cache. The store's queries are constant
// texts, a few hundred at most; a query built with a varying number of
// placeholders would add one statement per length, and past the bound such
// texts are parsed every time instead of filling memory.
const maxStatements = 1024

// statements is one pool's cache of prepared statements by query text. It
// is safe for concurrent use; database/sql prepares a statement on each
// connection the first time it runs there.
type statements struct {
	pool *sql.DB
	// lazy says that a query not yet in stmts is prepared on pool.
	lazy bool

	mu    sync.RWMutex
	stmts map[string]*sql.Stmt
}

// lazyStatements is the cache of a pool whose queries are prepared on
// first use.
func lazyStatements(pool *sql.DB) *statements {
	return &statements{pool: pool, lazy: true, stmts: make(map[string]*sql.Stmt)}
}

// prepareStatements prepares queries on pool, and only those.
func prepareStatements(ctx context.Context, pool *sql.DB, queries []string) (*statements, error) {
	s := &statements{pool: pool, stmts: make(map[string]*sql.Stmt, len(queries))}
	for _, q := range queries {
		st, err := pool.PrepareContext(ctx, q)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("prepare %q: %w", strings.Join(strings.Fields(q), " "), err), s.close())
		}
		s.stmts[q] = st
	}
	return s, nil
}

// get is query's prepared statement, or nil if it has none: the cache is
// not lazy or full, or the text did not prepare (the caller then runs it
// unprepared, and reports its error as usual).
func (s *statements) get(ctx context.Context, query string) *sql.Stmt {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	st, ok := s.stmts[query]
	s.mu.RUnlock()
	if ok || !s.lazy {
		return st
	}
	// Prepared without the lock, which would keep every other query
	// waiting while this one waits for a connection. A text that does not
	// prepare is remembered as nil: it runs unprepared from then on.
	st, err := s.pool.PrepareContext(context.WithoutCancel(ctx), query)
	if err != nil {
		st = nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if had, ok := s.stmts[query]; ok || len(s.stmts) >= maxStatements {
		if st != nil {
			st.Close() // another goroutine's came first, or no room
		}
		return had
	}
	s.stmts[query] = st
	return st
}

func (s *statements) close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, st := range s.stmts {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	clear(s.stmts)
	return errors.Join(errs...)
}

// readPool is the read-only pool, whose queries run prepared.
type readPool struct {
	*sql.DB
	stmts *statements
}

func (p readPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := p.stmts.get(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return p.DB.QueryRowContext(ctx, query, args...)
}

func (p readPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := p.stmts.get(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return p.DB.QueryContext(ctx, query, args...)
}

// Tx is a write transaction. Exec and QueryRow run as statements prepared
// on the write pool; Query always parses, because a statement prepared on
// the transaction's connection has one cursor, and a query nested in the
// loop over its own rows would reset it.
//
// A statement is never cut short by its caller's context: the driver would
// interrupt SQLite, and an interrupted write rolls back the whole
// transaction, which group commit shares with other callers (writer.go).
// Callers that gave up before their turn are skipped instead.
//
// Every statement goes through these methods, which tell the game cache
// what the job may have changed (see gameCache): Tx does not expose the
// *sql.Tx, so no statement can pass unseen.
type Tx struct {
	sqlTx *sql.Tx
	stmts *statements

	// For the game cache, in the writer (nil elsewhere): the running
	// job's changes to games, the batch's before it, and the cache.
	games *jobGames
	batch *batchGames
	cache *gameCache
}

func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	tx.note(query)
	return tx.execGame(ctx, query, args...)
}

// execGame runs a statement of storeChange or insertGame, which tell the
// cache themselves what they change.
func (tx *Tx) execGame(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = context.WithoutCancel(ctx)
	if s := tx.stmts.get(ctx, query); s != nil {
		return tx.sqlTx.StmtContext(ctx, s).ExecContext(ctx, args...)
	}
	return tx.sqlTx.ExecContext(ctx, query, args...)
}

func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	tx.note(query)
	ctx = context.WithoutCancel(ctx)
	if s := tx.stmts.get(ctx, query); s != nil {
		return tx.sqlTx.StmtContext(ctx, s).QueryRowContext(ctx, args...)
	}
	return tx.sqlTx.QueryRowContext(ctx, query, args...)
}

func (tx *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	tx.note(query)
	return tx.sqlTx.QueryContext(context.WithoutCancel(ctx), query, args...)
}

// PrepareContext prepares a statement for this transaction only, for a
// job that runs it many times.
func (tx *Tx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	tx.note(query)
	return tx.sqlTx.PrepareContext(context.WithoutCancel(ctx), query)
}

func (tx *Tx) Commit() error   { return tx.sqlTx.Commit() }
func (tx *Tx) Rollback() error { return tx.sqlTx.Rollback() }
