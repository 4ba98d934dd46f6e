package notify

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo"
)

// Store is what the worker needs from the database.
type Store interface {
	DueMail(ctx context.Context, now time.Time, limit int) ([]repo.Mail, error)
	MarkSent(ctx context.Context, id int64, now time.Time) error
	MarkAttemptFailed(ctx context.Context, id int64, cause error, next, now time.Time) error
	Game(ctx context.Context, id string) (domain.Game, error)
	Turns(ctx context.Context, id string) ([]repo.TurnRow, error)
	Tournament(ctx context.Context, id string) (domain.Tournament, error)
}

// Sender hands a message to its transport.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Worker delivers due outbox rows. Every row is tried until it is sent or
// MaxAttempts is reached, with exponential backoff and jitter between
// attempts; state lives in the database, so a restart resumes where the
// last process stopped.
type Worker struct {
	Store    Store
	Sender   Sender
	Renderer *Renderer
	Log      *slog.Logger
	Now      func() time.Time

	// MaxAttempts is how many times a mail is tried before it is marked failed.
	MaxAttempts int
	// BaseDelay is the delay after the first failure; it doubles each time up to MaxDelay.
	BaseDelay, MaxDelay time.Duration
	// Poll is how often the worker looks for due mail when nobody wakes it.
	Poll time.Duration

	wake chan struct{}
}

// NewWorker returns a worker with the default retry policy: 8 attempts,
// 30 s doubling to at most 1 h (about 2 hours in all), polling every second.
func NewWorker(store Store, sender Sender, r *Renderer, log *slog.Logger, now func() time.Time) *Worker {
	return &Worker{Store: store, Sender: sender, Renderer: r, Log: log, Now: now,
		MaxAttempts: 8, BaseDelay: 30 * time.Second, MaxDelay: time.Hour, Poll: time.Second,
		wake: make(chan struct{}, 1)}
}

// Wake tells the worker new mail may be due, so it need not wait for the next poll.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run delivers mail until ctx ends.
func (w *Worker) Run(ctx context.Context) error {
	t := time.NewTicker(w.Poll)
	defer t.Stop()
	for {
		if _, err := w.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			w.Log.ErrorContext(ctx, "outbox pass failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-w.wake:
		}
	}
}

// DeliverDue makes one pass over the due mail and returns how many were sent.
func (w *Worker) DeliverDue(ctx context.Context) (int, error) {
	sent := 0
	for {
		due, err := w.Store.DueMail(ctx, w.Now(), 50)
		if err != nil {
			return sent, err
		}
		if len(due) == 0 {
			return sent, nil
		}
		for _, m := range due {
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
			if w.deliver(ctx, m) {
				sent++
			}
		}
		if len(due) < 50 {
			return sent, nil
		}
	}
}

// deliver renders and sends one mail and records the outcome.
func (w *Worker) deliver(ctx context.Context, m repo.Mail) bool {
	msg, err := w.Renderer.Render(ctx, m)
	if errors.Is(err, ErrObsolete) {
		w.Log.InfoContext(ctx, "mail dropped: no longer relevant", "mail", m.ID, "kind", m.Notice.Kind)
		if err := w.Store.MarkSent(ctx, m.ID, w.Now()); err != nil {
			w.Log.ErrorContext(ctx, "record dropped mail", "mail", m.ID, "error", err)
		}
		return false
	}
	if err == nil {
		err = w.Sender.Send(ctx, msg)
	}
	now := w.Now()
	if err == nil {
		if err := w.Store.MarkSent(ctx, m.ID, now); err != nil {
			// Sent but not recorded: it will go out again; the Message-ID
			// lets the recipient's client recognise the duplicate.
			w.Log.ErrorContext(ctx, "mail sent but not recorded", "mail", m.ID, "error", err)
		}
		return true
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return false // shutting down: the attempt does not count
	}
	attempt := m.Attempts + 1
	var next time.Time
	if attempt < w.MaxAttempts {
		next = now.Add(w.backoff(attempt))
		w.Log.WarnContext(ctx, "mail delivery failed, will retry", "mail", m.ID, "kind", m.Notice.Kind,
			"attempt", attempt, "retry_at", next, "error", err)
	} else {
		w.Log.ErrorContext(ctx, "mail delivery failed for good", "mail", m.ID, "kind", m.Notice.Kind,
			"attempts", attempt, "error", err)
	}
	if err := w.Store.MarkAttemptFailed(ctx, m.ID, err, next, now); err != nil {
		w.Log.ErrorContext(ctx, "record failed delivery", "mail", m.ID, "error", err)
	}
	return false
}

// backoff is the delay before attempt n+1: BaseDelay·2^(n-1), capped, with
// full jitter on its upper half so that many mails failing together do not
// retry together.
func (w *Worker) backoff(n int) time.Duration {
	d := w.BaseDelay
	for i := 1; i < n && d < w.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, w.MaxDelay)
	half := d / 2
	return half + rand.N(half+1)
}
