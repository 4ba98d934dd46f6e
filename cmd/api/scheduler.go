package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/repo/port"
)

// How long the scheduler keeps what the store no longer needs; events and
// webhook deliveries keep the domain's periods.
const (
	// idempotencyKeyLifetime is how long a stored response answers retries
	// with its Idempotency-Key. Retries come within minutes; after a week,
	// a turn's ply or a resigned game refuses a repeat anyway.
	idempotencyKeyLifetime = 7 * 24 * time.Hour
	// inboundRetention is how long received mail is kept once processed:
	// long enough to look into a complaint, short because it holds what
	// people wrote.
	inboundRetention = 7 * 24 * time.Hour
	// defaultMailRetention is how long delivered and given-up mail stays in
	// the outbox, where GET /v1/games/{id}/mail shows it (--mail-retention).
	defaultMailRetention = 30 * 24 * time.Hour
)

// scheduler is the one loop that applies the due work of the clock and
// of tournaments — reminders, time-outs, rounds that close and start —
// through the use cases. Each game is handled in its own guarded unit of
// work (games.Service.TickGame), so a restart, a second pass or a second
// server never acts twice.
type scheduler struct {
	app         *games.Service
	tournaments *tournaments.Service
	db          port.Housekeeping
	log         *slog.Logger
	now         func() time.Time
	interval    time.Duration
	queued      func() // mail was queued: wake the outbox
	// mailRetention is how long delivered and given-up mail is kept.
	mailRetention time.Duration
	// observe, if set, counts the passes and what they acted on (metrics).
	observe interface {
		SchedulerPass()
		SchedulerActed(kind string, n int)
	}
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

// pass handles every game and tournament due now, then deletes what the
// store no longer needs.
func (s *scheduler) pass(ctx context.Context) {
	if s.observe != nil {
		s.observe.SchedulerPass()
	}
	s.drain(ctx, "game", s.app.DueGames, s.app.TickGame)                                   // reminders and time-outs
	s.drain(ctx, "tournament", s.tournaments.DueTournaments, s.tournaments.TickTournament) // rounds that close and start
	now := s.now()
	s.prune(ctx, "expire idempotency keys", func(ctx context.Context, limit int) (int, error) {
		return s.db.ExpireIdempotencyKeys(ctx, now.Add(-idempotencyKeyLifetime), limit)
	})
	s.prune(ctx, "expire login mail", func(ctx context.Context, limit int) (int, error) {
		return s.db.ExpireLoginMail(ctx, now, limit)
	})
	s.prune(ctx, "prune mail", func(ctx context.Context, limit int) (int, error) {
		return s.db.PruneMail(ctx, now.Add(-s.mailRetention), limit)
	})
	s.prune(ctx, "prune sessions", func(ctx context.Context, limit int) (int, error) {
		return s.db.PruneSessions(ctx, now, limit)
	})
	s.prune(ctx, "prune login tokens", func(ctx context.Context, limit int) (int, error) {
		return s.db.PruneLoginTokens(ctx, now, limit)
	})
	s.prune(ctx, "prune rate limits", func(ctx context.Context, limit int) (int, error) {
		return s.db.PruneRateLimits(ctx, now, limit)
	})
	s.prune(ctx, "prune inbound mail", func(ctx context.Context, limit int) (int, error) {
		return s.db.PruneInbound(ctx, now.Add(-inboundRetention), limit)
	})
	s.prune(ctx, "prune events", func(ctx context.Context, limit int) (int, error) {
		return s.db.PruneEvents(ctx, now.Add(-domain.EventRetention), limit)
	})
	s.prune(ctx, "prune webhook deliveries", func(ctx context.Context, limit int) (int, error) {
		return s.db.PruneWebhookDeliveries(ctx, now.Add(-hooks.WebhookLogRetention), limit)
	})
	s.prune(ctx, "prune push deliveries", func(ctx context.Context, limit int) (int, error) {
		return s.db.PrunePushDeliveries(ctx, now.Add(-hooks.WebhookLogRetention), limit)
	})
	if err := s.db.Maintain(ctx); err != nil {
		s.log.ErrorContext(ctx, "scheduler: maintain the store", "error", err)
	}
}

// prune calls fn, which deletes at most a batch of rows and says how many,
// until a batch is not full, so that no transaction holds the writer long.
func (s *scheduler) prune(ctx context.Context, what string, fn func(context.Context, int) (int, error)) {
	for ctx.Err() == nil {
		n, err := fn(ctx, batch)
		if err != nil {
			s.log.ErrorContext(ctx, "scheduler: "+what, "error", err)
			return
		}
		if n < batch {
			return
		}
	}
}

// batch is how many due items one query fetches.
const batch = 100

// drain ticks every item that due lists, a batch at a time, while full
// batches keep making progress, and wakes the outbox if any acted.
func (s *scheduler) drain(ctx context.Context, kind string,
	due func(context.Context, int) ([]string, error),
	tick func(context.Context, string) (bool, error)) {
	for ctx.Err() == nil {
		ids, err := due(ctx, batch)
		if err != nil {
			s.log.ErrorContext(ctx, "scheduler: find due "+kind+"s", "error", err)
			return
		}
		acted := 0
		for _, id := range ids {
			ok, err := tick(ctx, id)
			if err != nil {
				s.log.ErrorContext(ctx, "scheduler: "+kind, kind, id, "error", err)
				continue
			}
			if ok {
				acted++
			}
		}
		if acted > 0 {
			s.queued()
			if s.observe != nil {
				s.observe.SchedulerActed(kind, acted)
			}
		}
		if len(ids) < batch || acted == 0 {
			return
		}
	}
}
