package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lesspost/lesspost/domain"
)

// unavailable marks err with domain.Unavailable when it says the database
// cannot serve now, whatever the request: it does not answer in time, it
// refuses or drops connections (a restart, a partition), it is shutting
// down, or it is out of disk, memory or connections. Other errors (nil
// too) are returned as they are.
func unavailable(err error) error {
	if err == nil || !cannotServe(err) {
		return err
	}
	return domain.Unavailable(err)
}

func cannotServe(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "57P01", "57P02", "57P03", // admin_shutdown, crash_shutdown, cannot_connect_now
			"53100", "53200", "53300", // disk_full, out_of_memory, too_many_connections
			"57014", // query_canceled: statement_timeout
			"25P03": // idle_in_transaction_session_timeout
			return true
		}
		return strings.HasPrefix(pgErr.Code, "08") // connection_exception
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) || pgconn.Timeout(err) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		pgconn.SafeToRetry(err)
}

// pool is the connection pool, whose statements outside a transaction
// come back with their errors marked (see unavailable); statements inside
// one are marked when the transaction ends (withTx).
type pool struct{ *pgxpool.Pool }

func (p pool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := p.Pool.Exec(ctx, sql, args...)
	return tag, unavailable(err)
}

func (p pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := p.Pool.Query(ctx, sql, args...)
	return markedRows{rows}, unavailable(err)
}

func (p pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return markedRow{p.Pool.QueryRow(ctx, sql, args...)}
}

type markedRows struct{ pgx.Rows }

func (r markedRows) Err() error             { return unavailable(r.Rows.Err()) }
func (r markedRows) Scan(dest ...any) error { return unavailable(r.Rows.Scan(dest...)) }

type markedRow struct{ pgx.Row }

func (r markedRow) Scan(dest ...any) error { return unavailable(r.Row.Scan(dest...)) }

// statementDeadline bounds every statement of the pool's connections
// (pgx's tracer hook; the context it returns is the statement's): pgx
// gives up on a statement whose context ends, and closes its connection,
// which is what ends the wait for a database that stopped answering. A
// context that noDeadline marks keeps the statements unbounded.
type statementDeadline time.Duration

// noDeadline marks a context whose statements may run as long as they
// need: the migrations.
type noDeadline struct{}

// statementCancel carries the cancel function of a statement's deadline
// from TraceQueryStart to TraceQueryEnd.
type statementCancel struct{}

func (d statementDeadline) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	if ctx.Value(noDeadline{}) != nil {
		return ctx
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(d))
	return context.WithValue(ctx, statementCancel{}, cancel)
}

func (statementDeadline) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryEndData) {
	if cancel, ok := ctx.Value(statementCancel{}).(context.CancelFunc); ok {
		cancel()
	}
}
