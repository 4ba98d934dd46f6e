package sqlite

import (
	"context"
	"fmt"
	"time"
)

// DueGames lists up to limit running games whose clock needs attention at
// now (a reminder or a deadline), most overdue first.
func (db *DB) DueGames(ctx context.Context, now time.Time, limit int) ([]string, error) {
	ids, err := queryIDs(ctx, db.read, `SELECT id FROM games WHERE due_at <= ? AND status = 'active'
		ORDER BY due_at LIMIT ?`, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("find due games: %w", err)
	}
	return ids, nil
}
