package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/internal/eventrow"
)

var _ domain.EventReader = (*DB)(nil)

// sqlInsertEvent runs for every turn, so it is prepared (see prepared.go).
const sqlInsertEvent = `INSERT INTO events (kind, game_id, email, color, ply, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`

// writeEvents writes the events of a change in its transaction. One writer
// at a time: the rowid order is the commit order, so positions are the
// rowid alone (Tx 0).
func writeEvents(ctx context.Context, tx *Tx, evs []domain.Event, now time.Time) error {
	data, err := eventrow.Encode(evs)
	if err != nil {
		return err
	}
	for i, e := range evs {
		if _, err := tx.ExecContext(ctx, sqlInsertEvent, e.Kind, e.GameID, e.Email, e.Color, e.Ply, data[i], now.UnixMilli()); err != nil {
			return fmt.Errorf("write %s event: %w", e.Kind, err)
		}
	}
	return nil
}

// Events lists up to limit events f chooses after after, in order.
func (db *DB) Events(ctx context.Context, f domain.EventFilter, after domain.EventPos, limit int) ([]domain.Event, error) {
	const columns = `SELECT id, kind, game_id, email, color, ply, data, created_at FROM events`
	var rows *sql.Rows
	var err error
	switch {
	case f.Email != "":
		rows, err = db.read.QueryContext(ctx, columns+` WHERE email = ? AND id > ? ORDER BY id LIMIT ?`, f.Email, after.Seq, limit)
	case f.GameID != "":
		rows, err = db.read.QueryContext(ctx, columns+` WHERE game_id = ? AND email = '' AND id > ? ORDER BY id LIMIT ?`,
			f.GameID, after.Seq, limit)
	default:
		rows, err = db.read.QueryContext(ctx, columns+` WHERE id > ? ORDER BY id LIMIT ?`, after.Seq, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	defer rows.Close()
	var out []domain.Event
	for rows.Next() {
		var e domain.Event
		var data string
		var at int64
		if err := rows.Scan(&e.Pos.Seq, &e.Kind, &e.GameID, &e.Email, &e.Color, &e.Ply, &data, &at); err != nil {
			return nil, fmt.Errorf("read events: %w", err)
		}
		if err := eventrow.Decode(&e, data); err != nil {
			return nil, err
		}
		e.At = time.UnixMilli(at).UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	return out, nil
}

// LastEvent is the position of the last event.
func (db *DB) LastEvent(ctx context.Context) (domain.EventPos, error) {
	var p domain.EventPos
	if err := db.read.QueryRowContext(ctx, `SELECT COALESCE(max(id), 0) FROM events`).Scan(&p.Seq); err != nil {
		return p, fmt.Errorf("read the last event: %w", err)
	}
	return p, nil
}

// EventCursor says what a stream can do with a position. Positions are the
// rowid alone (Tx 0), and AUTOINCREMENT never hands one out twice:
// sqlite_sequence holds the last one given out, even once its event is
// pruned.
func (db *DB) EventCursor(ctx context.Context, p domain.EventPos) (domain.EventCursorState, error) {
	if p.Tx != 0 {
		return domain.EventCursorUnknown, nil
	}
	var kept, beyond, beforeAll bool
	err := db.read.QueryRowContext(ctx, `SELECT
		EXISTS (SELECT 1 FROM events WHERE id = ?1),
		?1 > COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0),
		COALESCE((SELECT min(id) FROM events) > ?1, 1)`, p.Seq).Scan(&kept, &beyond, &beforeAll)
	if err != nil {
		return 0, fmt.Errorf("read the event cursor %v: %w", p, err)
	}
	return domain.EventCursorOf(kept, beyond, beforeAll), nil
}

// PruneEvents deletes events created before before.
func (db *DB) PruneEvents(ctx context.Context, before time.Time, limit int) (int, error) {
	return db.deleteBatch(ctx, "prune events", `DELETE FROM events WHERE id IN
		(SELECT id FROM events WHERE created_at < ? ORDER BY created_at LIMIT ?)`, before.UnixMilli(), limit)
}
