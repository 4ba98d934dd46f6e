package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// RematchOf is the id of a game's rematch, "" if it has none.
func (db *DB) RematchOf(ctx context.Context, id string) (string, error) {
	return rematchOf(ctx, db.read, id)
}

func (s storeTx) RematchOf(ctx context.Context, id string) (string, error) {
	return rematchOf(ctx, s.tx, id)
}

func rematchOf(ctx context.Context, q queryer, id string) (string, error) {
	var rematch string
	err := q.QueryRowContext(ctx, `SELECT rematch_id FROM rematches WHERE game_id = ?`, id).Scan(&rematch)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read rematch of %s: %w", id, err)
	}
	return rematch, nil
}

// LinkRematch records a game's rematch; a game that has one is
// domain.ErrStale (a concurrent request made it first).
func (s storeTx) LinkRematch(ctx context.Context, gameID, rematchID string, now time.Time) error {
	res, err := s.tx.ExecContext(ctx, `INSERT INTO rematches (game_id, rematch_id, created_at) VALUES (?, ?, ?)
		ON CONFLICT (game_id) DO NOTHING`, gameID, rematchID, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("link rematch of %s: %w", gameID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("link rematch of %s: %w", gameID, cmp.Or(err, domain.ErrStale))
	}
	return nil
}
