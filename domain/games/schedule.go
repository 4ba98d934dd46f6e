package games

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// The use case of time for games: the scheduler's tick.

// ScheduleReader finds the games that are due.
type ScheduleReader interface {
	// DueGames lists up to limit running games whose clock needs attention
	// at now (a reminder or a deadline), most overdue first.
	DueGames(ctx context.Context, now time.Time, limit int) ([]string, error)
}

// DueGames lists up to limit games whose clock needs attention now.
func (s *Service) DueGames(ctx context.Context, limit int) ([]string, error) {
	return s.store.DueGames(ctx, s.now(), limit)
}

// TickGame applies what a game's clock asks for now (Tick), in its own
// unit of work. The update is conditional on the game's version, so running
// it twice, or on two servers at once, acts once: the second finds nothing
// due and reports false.
func (s *Service) TickGame(ctx context.Context, id string) (acted bool, err error) {
	now := s.now()
	_, _, err = s.updateGame(ctx, GameUpdate{GameID: id, Now: now, Compute: func(g Game) (GameChange, error) {
		sub, err := Tick(g, now)
		if err != nil {
			return GameChange{}, err
		}
		return GameChange{Game: sub.Game, Played: sub.Played, Notices: sub.Notices, Cause: domain.Cause{Scheduled: true}}, nil
	}})
	var de *domain.Error
	if errors.As(err, &de) && de.Code == domain.CodeNotDue {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("tick game %s: %w", id, err)
	}
	return true, nil
}
