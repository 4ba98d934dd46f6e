package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/internal/eventrow"
)

var _ domain.EventReader = (*DB)(nil)

// Event order on PostgreSQL: identity values are handed out when a
// transaction asks for them, not when it commits, so a reader that saw
// event 11 before event 10 committed would skip 10 forever. Each event
// keeps the id of its transaction (tx, pg_current_xact_id()), events are
// ordered by (tx, id), and a reader lists only events whose tx is below its
// snapshot's xmin, the oldest transaction still running: every transaction
// below it has committed or aborted, and every one still to commit has a
// tx at or above it, so nothing can appear later before a listed event.
// (The transactional-outbox technique; serialising commits with a lock
// would cost every change a wait.) Transaction ids are the server's, not
// the database's: a writing transaction that runs long, on any database of
// the server, holds events back until it ends (read-only ones have no id
// and hold nothing), but never loses them.
//
// A position is (tx, id); xid8 is 64 bits and, in practice, far below 2^63.

// writeEvents writes the events of a change in its transaction, in one
// statement.
func writeEvents(ctx context.Context, tx pgx.Tx, evs []domain.Event, now time.Time) error {
	if len(evs) == 0 {
		return nil
	}
	data, err := eventrow.Encode(evs)
	if err != nil {
		return err
	}
	kinds, games, emails, colors, plies := make([]string, len(evs)), make([]string, len(evs)), make([]string, len(evs)),
		make([]string, len(evs)), make([]int32, len(evs))
	for i, e := range evs {
		kinds[i], games[i], emails[i], colors[i], plies[i] = string(e.Kind), e.GameID, e.Email, e.Color, int32(e.Ply)
	}
	_, err = tx.Exec(ctx, `INSERT INTO events (kind, game_id, email, color, ply, data, created_at)
		SELECT k, g, e, c, p, d, $7 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[])
			WITH ORDINALITY AS u(k, g, e, c, p, d, n) ORDER BY n`,
		kinds, games, emails, colors, plies, data, ms(now))
	if err != nil {
		return fmt.Errorf("write events: %w", err)
	}
	return nil
}

// eventColumns and settled are the parts every event read shares: the
// position read as two bigints, and the events a reader may list (see the
// order above).
const (
	eventColumns = `SELECT tx::text::bigint, id, kind, game_id, email, color, ply, data, created_at FROM events`
	settled      = `tx < pg_snapshot_xmin(pg_current_snapshot()) AND (tx, id) > ($1::bigint::text::xid8, $2)`
)

// Events lists up to limit events f chooses after after, in order.
func (db *DB) Events(ctx context.Context, f domain.EventFilter, after domain.EventPos, limit int) ([]domain.Event, error) {
	var rows pgx.Rows
	var err error
	switch {
	case f.Email != "":
		rows, err = db.pool.Query(ctx, eventColumns+` WHERE email = $3 AND `+settled+` ORDER BY tx, id LIMIT $4`,
			after.Tx, after.Seq, f.Email, limit)
	case f.GameID != "":
		rows, err = db.pool.Query(ctx, eventColumns+` WHERE game_id = $3 AND email = '' AND `+settled+` ORDER BY tx, id LIMIT $4`,
			after.Tx, after.Seq, f.GameID, limit)
	default:
		rows, err = db.pool.Query(ctx, eventColumns+` WHERE `+settled+` ORDER BY tx, id LIMIT $3`, after.Tx, after.Seq, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Event, error) {
		var e domain.Event
		var data string
		if err := row.Scan(&e.Pos.Tx, &e.Pos.Seq, &e.Kind, &e.GameID, &e.Email, &e.Color, &e.Ply, &data, &e.At); err != nil {
			return e, err
		}
		e.At = e.At.UTC()
		return e, eventrow.Decode(&e, data)
	})
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	return out, nil
}

// LastEvent is the position of the last event Events would list now.
func (db *DB) LastEvent(ctx context.Context) (domain.EventPos, error) {
	var p domain.EventPos
	err := db.pool.QueryRow(ctx, `SELECT tx::text::bigint, id FROM events WHERE tx < pg_snapshot_xmin(pg_current_snapshot())
		ORDER BY tx DESC, id DESC LIMIT 1`).Scan(&p.Tx, &p.Seq)
	if err == pgx.ErrNoRows {
		return domain.EventPos{}, nil
	}
	if err != nil {
		return p, fmt.Errorf("read the last event: %w", err)
	}
	return p, nil
}

// EventCursor says what a stream can do with a position. No event has a tx
// at or past the snapshot's xmax (no transaction had that id yet), nor an
// id past the identity's last value; neither goes back when events are
// pruned. Pruning goes by created_at, which instances with clocks apart may
// write out of position order: an id pruned among kept ones is then judged
// unknown, not pruned, and its client, told 422, reads the games again all
// the same.
func (db *DB) EventCursor(ctx context.Context, p domain.EventPos) (domain.EventCursorState, error) {
	var kept, beyond, beforeAll bool
	err := db.pool.QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM events WHERE id = $2 AND tx = $1::bigint::text::xid8),
		$1::bigint::text::xid8 >= pg_snapshot_xmax(pg_current_snapshot())
			OR $2 > COALESCE(pg_sequence_last_value(pg_get_serial_sequence('events', 'id')::regclass), 0),
		COALESCE((SELECT ($1::bigint::text::xid8, $2::bigint) < (tx, id) FROM events ORDER BY tx, id LIMIT 1), true)`,
		p.Tx, p.Seq).Scan(&kept, &beyond, &beforeAll)
	if err != nil {
		return 0, fmt.Errorf("read the event cursor %v: %w", p, err)
	}
	return domain.EventCursorOf(kept, beyond, beforeAll), nil
}

// PruneEvents deletes events created before before.
func (db *DB) PruneEvents(ctx context.Context, before time.Time, limit int) (int, error) {
	return db.exec(ctx, "prune events", `DELETE FROM events WHERE id IN
		(SELECT id FROM events WHERE created_at < $1 ORDER BY created_at LIMIT $2)`, ms(before), limit)
}
