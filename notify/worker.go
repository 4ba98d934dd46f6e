package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo"
)

// Store is what the worker needs from the database.
type Store interface {
	DueMail(ctx context.Context, now time.Time, limit int) ([]repo.Mail, error)
	MarkSentBatch(ctx context.Context, sent []repo.SentMail) error
	MarkAttemptFailed(ctx context.Context, id int64, f repo.MailFailure, next, now time.Time) error
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
	// Parallel is how many mails are rendered and sent at the same time,
	// which is also how many connections the Sender may open.
	Parallel int

	wake chan struct{}
}

// NewWorker returns a worker with the default retry policy: 8 attempts,
// 30 s doubling to at most 1 h (about 2 hours in all), polling every second,
// with 8 mails at a time (or one per CPU, if more).
func NewWorker(store Store, sender Sender, r *Renderer, log *slog.Logger, now func() time.Time) *Worker {
	return &Worker{Store: store, Sender: sender, Renderer: r, Log: log, Now: now,
		MaxAttempts: 8, BaseDelay: 30 * time.Second, MaxDelay: time.Hour, Poll: time.Second,
		Parallel: max(8, runtime.GOMAXPROCS(0)), wake: make(chan struct{}, 1)}
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
			w.closeIdle()
			return nil
		case <-t.C:
		case <-w.wake:
		}
	}
}

// batchSize is how many due mails a pass takes from the outbox at a time.
// The deliveries of a batch are recorded in one transaction when the batch
// is done, so it also bounds the mail a crash could send twice.
const batchSize = 50

// DeliverDue makes one pass over the due mail and returns how many were sent.
func (w *Worker) DeliverDue(ctx context.Context) (int, error) {
	sent := 0
	for {
		due, err := w.Store.DueMail(ctx, w.Now(), batchSize)
		if err != nil {
			return sent, err
		}
		if len(due) == 0 {
			w.closeIdle() // nothing to send: no connection to keep open
			return sent, nil
		}
		n, err := w.deliverBatch(ctx, due)
		sent += n
		if err != nil {
			// Unrecorded mail is due again at once: end the pass rather
			// than send it again and again.
			return sent, err
		}
		if err := ctx.Err(); err != nil {
			return sent, err
		}
		if len(due) < batchSize {
			return sent, nil
		}
	}
}

// outcome is what became of one mail of a batch.
type outcome struct {
	tried bool // false: not tried before shutdown
	err   error
	at    time.Time
}

// deliverBatch renders and sends a batch of mail, Parallel at a time, and
// records the outcomes: rendering takes CPU and sending waits on the mail
// server, so mails in parallel keep both busy. It returns how many were
// sent, and an error if an outcome could not be recorded.
func (w *Worker) deliverBatch(ctx context.Context, due []repo.Mail) (int, error) {
	outcomes := make([]outcome, len(due))
	threads := threadsOf(due)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(w.Parallel, 1), len(threads)) {
		wg.Go(func() {
			for {
				t := int(next.Add(1)) - 1
				if t >= len(threads) {
					return
				}
				for _, i := range threads[t] {
					if ctx.Err() != nil {
						return
					}
					outcomes[i] = w.attempt(ctx, due[i])
				}
			}
		})
	}
	wg.Wait()

	sent := 0
	var done []repo.SentMail
	var errs []error
	for i, o := range outcomes {
		m := due[i]
		switch {
		case !o.tried:
		case o.err == nil || errors.Is(o.err, ErrObsolete):
			done = append(done, repo.SentMail{ID: m.ID, At: o.at})
			if o.err == nil {
				sent++
			}
		case ctx.Err() != nil && errors.Is(o.err, ctx.Err()):
			// shutting down: the attempt does not count
		default:
			errs = append(errs, w.failed(ctx, m, o.err, o.at))
		}
	}
	// Recorded even when shutting down: mail that went out and is not
	// recorded goes out again after the restart.
	if err := w.Store.MarkSentBatch(context.WithoutCancel(ctx), done); err != nil {
		// The Message-IDs let the recipients' clients recognise the
		// duplicates.
		w.Log.ErrorContext(ctx, "mail sent but not recorded", "mails", len(done), "error", err)
		errs = append(errs, err)
	}
	return sent, errors.Join(errs...)
}

// threadsOf groups a batch by address and game, each group in the order of
// the outbox. A group's mails go out one after the other, so that a player
// gets the invitation before the first "your turn" and the last "your turn"
// before "game over"; groups go out in parallel.
func threadsOf(due []repo.Mail) [][]int {
	type thread struct{ email, game string }
	at := map[thread]int{}
	var threads [][]int
	for i, m := range due {
		key := thread{m.Email, m.Notice.GameID}
		t, ok := at[key]
		if !ok {
			t = len(threads)
			at[key] = t
			threads = append(threads, nil)
		}
		threads[t] = append(threads[t], i)
	}
	return threads
}

// attempt renders and sends one mail.
func (w *Worker) attempt(ctx context.Context, m repo.Mail) outcome {
	msg, err := w.Renderer.Render(ctx, m)
	if errors.Is(err, ErrObsolete) {
		w.Log.InfoContext(ctx, "mail dropped: no longer relevant", "mail", m.ID, "kind", m.Notice.Kind)
		return outcome{tried: true, err: err, at: w.Now()}
	}
	if err != nil {
		err = fmt.Errorf("%w: %w", errRender, err)
	} else {
		err = w.Sender.Send(ctx, msg)
	}
	return outcome{tried: true, err: err, at: w.Now()}
}

// failed records a failed attempt: the mail is retried after a backoff, or
// given up after MaxAttempts.
func (w *Worker) failed(ctx context.Context, m repo.Mail, err error, now time.Time) error {
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
	// The log has the whole error; the outbox, which players can read, a
	// description without what the mail server said.
	if err := w.Store.MarkAttemptFailed(ctx, m.ID, failure(err), next, now); err != nil {
		w.Log.ErrorContext(ctx, "record failed delivery", "mail", m.ID, "error", err)
		return err
	}
	return nil
}

// closeIdle closes the connections a Sender keeps for the next mail, if it
// keeps any (SMTPSender does).
func (w *Worker) closeIdle() {
	if c, ok := w.Sender.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
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
