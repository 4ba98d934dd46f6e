package repo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
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

// Tick applies what a game's clock asks for at now (domain.Tick), in its
// own transaction. The game is re-read inside it and the update is
// conditional on its version, so running Tick twice, or on two servers at
// once, acts once: the second finds nothing due and reports false.
func (db *DB) Tick(ctx context.Context, id string, now time.Time) (acted bool, err error) {
	_, _, err = db.UpdateGame(ctx, id, nil, now, func(domain.Game) error { return nil },
		func(g domain.Game) (Change, error) {
			sub, err := domain.Tick(g, now)
			if err != nil {
				return Change{}, err
			}
			return Change{Game: sub.Game, Played: sub.Played, Notices: sub.Notices, Cause: domain.Cause{Scheduled: true}}, nil
		})
	var de *domain.Error
	if errors.As(err, &de) && de.Code == domain.CodeNotDue {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("tick game %s: %w", id, err)
	}
	return true, nil
}
