package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/lesspost/lesspost/repo"
)

// scheduler is the one loop that applies the clock's due work — reminders
// and time-outs — from the database. Each game is handled in its own
// guarded transaction (repo.Tick), so a restart, a second pass or a second
// server never acts twice.
type scheduler struct {
	db       *repo.DB
	log      *slog.Logger
	now      func() time.Time
	interval time.Duration
	queued   func() // mail was queued: wake the outbox
}

// run works until ctx ends.
func (s *scheduler) run(ctx context.Context) error {
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		s.pass(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// pass handles every game due now, in batches.
func (s *scheduler) pass(ctx context.Context) {
	for ctx.Err() == nil {
		now := s.now()
		ids, err := s.db.DueGames(ctx, now, 100)
		if err != nil {
			s.log.ErrorContext(ctx, "scheduler: find due games", "error", err)
			return
		}
		acted := 0
		for _, id := range ids {
			ok, err := s.db.Tick(ctx, id, now)
			if err != nil {
				s.log.ErrorContext(ctx, "scheduler: tick", "game", id, "error", err)
				continue
			}
			if ok {
				acted++
			}
		}
		if acted > 0 {
			s.queued()
		}
		if len(ids) < 100 || acted == 0 {
			return
		}
	}
}
