package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/lesspost/lesspost/repo"
)

// scheduler is the one loop that applies the due work of the clock and
// of tournaments — reminders, time-outs, rounds that close and start —
// from the database. Each game is handled in its own
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

// pass handles every game and tournament due now.
func (s *scheduler) pass(ctx context.Context) {
	s.games(ctx)
	s.tournaments(ctx)
}

// tournaments closes and starts the rounds that are due.
func (s *scheduler) tournaments(ctx context.Context) {
	now := s.now()
	ids, err := s.db.DueTournaments(ctx, now, 100)
	if err != nil {
		s.log.ErrorContext(ctx, "scheduler: find due tournaments", "error", err)
		return
	}
	acted := 0
	for _, id := range ids {
		ok, err := s.db.TickTournament(ctx, id, now)
		if err != nil {
			s.log.ErrorContext(ctx, "scheduler: tournament", "tournament", id, "error", err)
			continue
		}
		if ok {
			acted++
		}
	}
	if acted > 0 {
		s.queued()
	}
}

// games applies reminders and time-outs, in batches.
func (s *scheduler) games(ctx context.Context) {
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
