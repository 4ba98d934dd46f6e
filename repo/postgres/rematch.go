package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
)

// RematchOf is the id of a game's rematch, "" if it has none.
func (db *DB) RematchOf(ctx context.Context, id string) (string, error) {
	return rematchOf(ctx, db.pool, id)
}

func (s storeTx) RematchOf(ctx context.Context, id string) (string, error) {
	return rematchOf(ctx, s.tx, id)
}

func rematchOf(ctx context.Context, q querier, id string) (string, error) {
	var rematch string
	err := q.QueryRow(ctx, `SELECT rematch_id FROM rematches WHERE game_id = $1`, id).Scan(&rematch)
	if errors.Is(err, pgx.ErrNoRows) {
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
	tag, err := s.tx.Exec(ctx, `INSERT INTO rematches (game_id, rematch_id, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (game_id) DO NOTHING`, gameID, rematchID, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("link rematch of %s: %w", gameID, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("link rematch of %s: %w", gameID, domain.ErrStale)
	}
	return nil
}
