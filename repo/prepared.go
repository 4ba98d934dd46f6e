package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// The driver keeps no statement cache: every query is parsed anew, which
// was a sixth of the time a turn held the one write connection. So the
// statements of the hot paths (playing a turn, reading a game) are
// prepared once per pool when the store opens, and the pool and transaction
// types below run a query as its prepared statement whenever its text is
// one of them. Callers write plain SQL either way.

// prepared maps the text of a query to its statement prepared on one pool.
type prepared map[string]*sql.Stmt

// prepare prepares queries on pool.
func prepare(ctx context.Context, pool *sql.DB, queries []string) (prepared, error) {
	ps := make(prepared, len(queries))
	for _, q := range queries {
		s, err := pool.PrepareContext(ctx, q)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("prepare %q: %w", strings.Join(strings.Fields(q), " "), err), ps.close())
		}
		ps[q] = s
	}
	return ps, nil
}

func (ps prepared) close() error {
	var errs []error
	for _, s := range ps {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// readPool is the read-only pool. Its prepared statements may be used by
// any number of goroutines: database/sql prepares each on a connection the
// first time it runs there.
type readPool struct {
	*sql.DB
	prepared prepared
}

func (p readPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := p.prepared[query]; s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return p.DB.QueryRowContext(ctx, query, args...)
}

func (p readPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := p.prepared[query]; s != nil {
		return s.QueryContext(ctx, args...)
	}
	return p.DB.QueryContext(ctx, query, args...)
}

// Tx is a write transaction. Statements prepared on the write pool run as
// such for Exec and QueryRow; Query always parses, because a statement
// prepared on the transaction's connection has one cursor, and a query
// nested in the loop over its own rows would reset it.
//
// A statement is never cut short by its caller's context: the driver would
// interrupt SQLite, and an interrupted write rolls back the whole
// transaction, which group commit shares with other callers (writer.go).
// Callers that gave up before their turn are skipped instead.
type Tx struct {
	*sql.Tx
	prepared prepared
}

func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = context.WithoutCancel(ctx)
	if s := tx.prepared[query]; s != nil {
		return tx.StmtContext(ctx, s).ExecContext(ctx, args...)
	}
	return tx.Tx.ExecContext(ctx, query, args...)
}

func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = context.WithoutCancel(ctx)
	if s := tx.prepared[query]; s != nil {
		return tx.StmtContext(ctx, s).QueryRowContext(ctx, args...)
	}
	return tx.Tx.QueryRowContext(ctx, query, args...)
}

func (tx *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return tx.Tx.QueryContext(context.WithoutCancel(ctx), query, args...)
}
