package webhook

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lesspost/lesspost/domain/hooks"
)

// Loop is the claim, attempt, record cycle of an outbox of deliveries with
// leases, shared by the webhook Worker and the push worker
// (notify/webpush): J is a claimed job.
type Loop[J any] struct {
	// Claim claims for claimant up to limit jobs due at now, until
	// now+lease.
	Claim func(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]J, error)
	// ID names a job in Record and Release.
	ID func(j *J) int64
	// Attempt tries a job and says what follows; ErrShutdown if shutdown
	// cut it short (it is released, not recorded).
	Attempt func(ctx context.Context, j *J) (hooks.WebhookOutcome, error)
	// Record stores an attempt's outcome and ends claimant's claim.
	Record func(ctx context.Context, claimant string, id int64, o hooks.WebhookOutcome) error
	// Release ends claimant's claim on jobs not tried.
	Release func(ctx context.Context, claimant string, ids []int64) error
	// Claimant names this loop in its claims, unique per worker.
	Claimant string
	Now      func() time.Time
	// Parallel is how many attempts are in flight at once.
	Parallel int
	// Lease is how long a claim lasts; no attempt starts after half of it.
	Lease time.Duration
}

// ErrShutdown is an attempt cut short by shutdown: it does not count.
var ErrShutdown = errors.New("shutting down")

// Pass makes one pass over the due jobs and says how many attempts it made.
func (l *Loop[J]) Pass(ctx context.Context) (int, error) {
	tried := 0
	for {
		now := l.Now()
		jobs, err := l.Claim(ctx, l.Claimant, now, l.Lease, batchSize)
		if err != nil || len(jobs) == 0 {
			return tried, err
		}
		n, err := l.batch(ctx, jobs, now.Add(l.Lease/2))
		tried += n
		if err != nil || ctx.Err() != nil || len(jobs) < batchSize {
			return tried, err
		}
	}
}

// batch attempts claimed jobs, Parallel at a time, recording each outcome
// as it comes; what was not started by last (or before shutdown) is
// released.
func (l *Loop[J]) batch(ctx context.Context, jobs []J, last time.Time) (int, error) {
	var next, tried atomic.Int64
	var mu sync.Mutex
	var errs []error
	var untried []int64
	var wg sync.WaitGroup
	for range min(max(l.Parallel, 1), len(jobs)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) {
					return
				}
				id := l.ID(&jobs[i])
				if ctx.Err() != nil || l.Now().After(last) {
					mu.Lock()
					untried = append(untried, id)
					mu.Unlock()
					continue
				}
				o, err := l.Attempt(ctx, &jobs[i])
				if err == nil {
					tried.Add(1)
					err = l.Record(context.WithoutCancel(ctx), l.Claimant, id, o)
				}
				mu.Lock()
				if errors.Is(err, ErrShutdown) {
					untried = append(untried, id)
				} else if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := l.Release(context.WithoutCancel(ctx), l.Claimant, untried); err != nil {
		errs = append(errs, err)
	}
	return int(tried.Load()), errors.Join(errs...)
}

// Poll runs pass every interval, and when woken, until ctx ends. Passes
// woken one after another start at least wakeGap apart.
func Poll(ctx context.Context, interval time.Duration, wake <-chan struct{}, log *slog.Logger, what string,
	pass func(context.Context) (int, error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		started := time.Now()
		if _, err := pass(ctx); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, what+" pass failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Until(started.Add(wakeGap))):
			}
		}
	}
}

// wakeGap spaces the passes that wakes start. The server wakes the workers
// after every commit that may have queued a delivery, which under load is
// hundreds of times a second, while few accounts have webhooks or push: a
// pass per wake was 4% of the server's CPU at 400 turns/s, looking for
// deliveries that were not there. A delivery waits at most this much more.
const wakeGap = 50 * time.Millisecond
