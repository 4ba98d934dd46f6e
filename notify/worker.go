package notify

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// Sender hands a message to its transport.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Worker delivers due outbox rows. Every row is tried until it is sent or
// MaxAttempts is reached, with exponential backoff and jitter between
// attempts; state lives in the database, so a restart resumes where the
// last process stopped. Any number of workers, in one process or in
// several on one database, can deliver from one outbox: each claims the
// mail it sends (see domain.Outbox).
type Worker struct {
	Store    domain.Outbox
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
	// Lease is how long a claim keeps mail from other workers. The worker
	// starts no attempt after half of it, so that a slow batch does not
	// send what another worker may have claimed since; the lease must be
	// long enough to render and send a mail in the other half.
	Lease time.Duration
	// Claimant names this worker in its claims: unique per worker, so that
	// a restarted process does not take its crashed predecessor's claims
	// for its own.
	Claimant string
	// Observer, if set, learns what became of each attempt (the server's
	// metrics count them).
	Observer Observer

	wake chan struct{}
	// unrecorded is what the store could not record (see recordPending).
	unrecorded pending
	// lag and lagAt are what Lag reports: how late the outbox was at the
	// last claim, and when that was (Unix nanoseconds; 0: never).
	lag, lagAt atomic.Int64
	// slowBatch says the last batch did not go out whole and quickly (a mail
	// failed or was left untried, or it took lagFresh or more): the mail
	// server, not the CPU, was what held mail up.
	slowBatch atomic.Bool
}

// Lag is how late the outbox is: how long the oldest new mail of the last
// claim had waited, if that claim was a full batch (more mail was waiting
// behind it); zero when the outbox was caught up. A slow or failing mail
// server says nothing about the CPU, so Lag is also zero when the last
// claim is older than lagFresh (a worker stuck on a slow server) or the
// batch before it did not go out whole and quickly. Retries do not count:
// their wait is the backoff's. The server slows changes down while the
// outbox is late (api.Config.MailLag).
func (w *Worker) Lag() time.Duration {
	at := w.lagAt.Load()
	if at == 0 || w.Now().Sub(time.Unix(0, at)) > lagFresh {
		return 0
	}
	return time.Duration(w.lag.Load())
}

// lagFresh is how long Lag trusts the last claim.
const lagFresh = 5 * time.Second

// noteLag records how late the mail claimed at now was (see Lag).
func (w *Worker) noteLag(now time.Time, due []domain.OutboxMail) {
	var lag time.Duration
	if len(due) == batchSize && !w.slowBatch.Load() {
		for _, m := range due {
			if m.Attempts == 0 {
				lag = max(lag, now.Sub(m.CreatedAt))
			}
		}
	}
	w.lag.Store(int64(lag))
	w.lagAt.Store(now.UnixNano())
}

// Observer counts delivery attempts. Its methods are called from the
// worker's goroutines and must be quick and safe for concurrent use.
type Observer interface {
	// MailSent: a mail was handed to the mail server.
	MailSent()
	// MailFailed: an attempt failed; givenUp if it was the last one.
	MailFailed(givenUp bool)
}

// DefaultLease is how long a worker's claim lasts unless told otherwise.
// Attempts start in its first half, and an SMTP send takes at most 90 s
// (30 s each for a message on an idle connection that fails, a new
// connection, and the message again), so a mail is never sent after its
// lease ended. It is also how long the mail a crashed process had claimed
// waits before another process (or its restart) sends it.
const DefaultLease = 3 * time.Minute

// NewWorker returns a worker with the default retry policy: 8 attempts,
// 30 s doubling to at most 1 h (about 2 hours in all), polling every second,
// with 8 mails at a time (or one per CPU, if more), under DefaultLease.
func NewWorker(store domain.Outbox, sender Sender, r *Renderer, log *slog.Logger, now func() time.Time) *Worker {
	return &Worker{Store: store, Sender: sender, Renderer: r, Log: log, Now: now,
		MaxAttempts: 8, BaseDelay: 30 * time.Second, MaxDelay: time.Hour, Poll: time.Second,
		Parallel: max(8, runtime.GOMAXPROCS(0)), Lease: DefaultLease, Claimant: newClaimant(),
		wake: make(chan struct{}, 1)}
}

// newClaimant returns a claimant name an operator can trace to its
// process (host and pid) and that no other worker uses.
func newClaimant() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), crand.Text()[:10])
}

// Wake tells the worker new mail may be due, so it need not wait for the next poll.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// pending is what a worker could not record because the store failed (a
// database restarting, a commit whose answer was lost): mail it sent, failed
// attempts, and claims on mail it did not try. Until it is recorded, the
// mail stays claimed, and with it the later mail of its thread, so the
// worker records it again before it claims anything else.
type pending struct {
	mu       sync.Mutex
	sent     []domain.SentMail
	failed   []failedAttempt
	released []int64
}

// failedAttempt is a MarkAttemptFailed to make.
type failedAttempt struct {
	id        int64
	f         domain.MailFailure
	next, now time.Time
}

// recordPending records what the store could not record before, and
// reports an error while any of it is left.
func (w *Worker) recordPending(ctx context.Context) error {
	p := &w.unrecorded
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.sent)+len(p.failed)+len(p.released) == 0 {
		return nil
	}
	var errs []error
	if len(p.sent) > 0 {
		// Recording it twice (the first answer was lost) changes nothing.
		if err := w.Store.MarkSentBatch(ctx, w.Claimant, p.sent); err != nil {
			errs = append(errs, err)
		} else {
			w.Log.InfoContext(ctx, "mail sent earlier now recorded", "mails", len(p.sent))
			p.sent = nil
		}
	}
	left := p.failed[:0]
	for _, a := range p.failed {
		if err := w.Store.MarkAttemptFailed(ctx, w.Claimant, a.id, a.f, a.next, a.now); err != nil {
			errs = append(errs, err)
			left = append(left, a)
		}
	}
	p.failed = left
	if len(p.released) > 0 {
		if err := w.Store.ReleaseMail(ctx, w.Claimant, p.released); err != nil {
			errs = append(errs, err)
		} else {
			p.released = nil
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("record what the store failed to record before: %w", errors.Join(errs...))
	}
	return nil
}

// Run delivers mail until ctx ends.
func (w *Worker) Run(ctx context.Context) error {
	t := time.NewTicker(w.Poll)
	defer t.Stop()
	// What is left unrecorded at the end stays claimed until the lease
	// ends, and mail sent goes out again: one more try.
	defer func() { _ = w.recordPending(context.WithoutCancel(ctx)) }()
	lastSent := w.Now()
	for {
		n, err := w.DeliverDue(ctx)
		if err != nil && ctx.Err() == nil {
			w.Log.ErrorContext(ctx, "outbox pass failed", "error", err)
		}
		// Connections stay open while mail flows: under load the outbox is
		// often empty for a moment between turns, and a new connection (TCP,
		// greeting, EHLO, maybe TLS) for the next mail costs more than the
		// mail. They close once a poll interval has gone by without any.
		if n > 0 {
			lastSent = w.Now()
		} else if w.Now().Sub(lastSent) >= w.Poll {
			w.closeIdle()
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

// batchSize is how many due mails a pass claims from the outbox at a time.
// The deliveries of a batch are recorded in one transaction when the batch
// is done, so it also bounds the mail a crash could send twice.
const batchSize = 50

// DeliverDue makes one pass over the due mail and returns how many were
// sent. It first records what the store failed to record before: until
// then it claims nothing.
func (w *Worker) DeliverDue(ctx context.Context) (int, error) {
	if err := w.recordPending(ctx); err != nil {
		return 0, err
	}
	sent := 0
	for {
		now := w.Now()
		due, err := w.Store.ClaimMail(ctx, w.Claimant, now, w.Lease, batchSize)
		if err != nil {
			return sent, err
		}
		w.noteLag(now, due)
		if len(due) == 0 {
			return sent, nil
		}
		n, released, err := w.deliverBatch(ctx, due, now.Add(w.Lease/2))
		w.slowBatch.Store(err != nil || released > 0 || n < len(due) || w.Now().Sub(now) >= lagFresh)
		sent += n
		if err != nil {
			// Unrecorded mail is due again at once: end the pass rather
			// than send it again and again.
			return sent, err
		}
		if err := ctx.Err(); err != nil {
			return sent, err
		}
		if len(due) < batchSize && released == 0 {
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

// deliverBatch renders and sends a batch of claimed mail, Parallel at a
// time, and records the outcomes: rendering takes CPU and sending waits on
// the mail server, so mails in parallel keep both busy. No attempt starts
// after last. It returns how many were sent and how many released untried,
// and an error if an outcome could not be recorded.
func (w *Worker) deliverBatch(ctx context.Context, due []domain.OutboxMail, last time.Time) (sent, released int, err error) {
	outcomes := make([]outcome, len(due))
	threads := threadsOf(due)
	// Sent mail is recorded as it goes, not once the batch is done: a crash
	// sends again only what went out since the last record.
	sentMail := make(chan domain.SentMail, len(due))
	recorded := make(chan error, 1)
	go func() { recorded <- w.recordSent(ctx, sentMail) }()
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
					if ctx.Err() != nil || w.Now().After(last) {
						break
					}
					outcomes[i] = w.attempt(ctx, due[i])
					if o := outcomes[i]; o.err == nil || errors.Is(o.err, ErrObsolete) {
						sentMail <- domain.SentMail{ID: due[i].ID, At: o.at}
					} else {
						// The rest of the thread waits for this one's
						// retry: later mail never overtakes it.
						break
					}
				}
			}
		})
	}
	wg.Wait()
	close(sentMail)

	var untried []int64
	errs := []error{<-recorded}
	for i, o := range outcomes {
		m := due[i]
		switch {
		case !o.tried:
			untried = append(untried, m.ID)
		case o.err == nil || errors.Is(o.err, ErrObsolete):
			if o.err == nil {
				sent++
				if w.Observer != nil {
					w.Observer.MailSent()
				}
			}
		case ctx.Err() != nil && errors.Is(o.err, ctx.Err()):
			// shutting down: the attempt does not count
			untried = append(untried, m.ID)
		case domain.IsUnavailable(o.err):
			// The store failed while the mail was rendered: not the mail's
			// fault, and not an attempt. It is due again at once, and the
			// pass ends.
			untried = append(untried, m.ID)
			errs = append(errs, o.err)
		default:
			errs = append(errs, w.failed(ctx, m, o.err, o.at))
		}
	}
	// Released, so that another worker need not wait for the lease to end.
	if err := w.Store.ReleaseMail(context.WithoutCancel(ctx), w.Claimant, untried); err != nil {
		w.Log.ErrorContext(ctx, "release claimed mail", "mails", len(untried), "error", err)
		w.unrecorded.mu.Lock()
		w.unrecorded.released = append(w.unrecorded.released, untried...)
		w.unrecorded.mu.Unlock()
		errs = append(errs, err)
	}
	return sent, len(untried), errors.Join(errs...)
}

// recordSent records the mail sent, as it arrives, until in is closed:
// each record takes all that was sent while the one before was written, so
// there are few records under load and little unrecorded at any moment.
// Recorded even when shutting down: mail that went out and is not recorded
// goes out again after the restart.
func (w *Worker) recordSent(ctx context.Context, in <-chan domain.SentMail) error {
	var errs []error
	for m := range in {
		batch := []domain.SentMail{m}
	drain:
		for {
			select {
			case m, ok := <-in:
				if !ok {
					break drain
				}
				batch = append(batch, m)
			default:
				break drain
			}
		}
		if err := w.Store.MarkSentBatch(context.WithoutCancel(ctx), w.Claimant, batch); err != nil {
			// Recorded again before the next claim (recordPending): the
			// mail stays claimed meanwhile, so nobody sends it again unless
			// the store fails for longer than the lease.
			w.Log.ErrorContext(ctx, "mail sent but not recorded yet", "mails", len(batch), "error", err)
			w.unrecorded.mu.Lock()
			w.unrecorded.sent = append(w.unrecorded.sent, batch...)
			w.unrecorded.mu.Unlock()
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// threadsOf groups a batch by address and game, each group in the order of
// the outbox (the threads of domain.Outbox). A group's mails go out one
// after the other, so that a player gets the invitation before the first
// "your turn" and the last "your turn" before "game over"; groups go out in
// parallel.
func threadsOf(due []domain.OutboxMail) [][]int {
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
func (w *Worker) attempt(ctx context.Context, m domain.OutboxMail) outcome {
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
func (w *Worker) failed(ctx context.Context, m domain.OutboxMail, err error, now time.Time) error {
	attempt := m.Attempts + 1
	if w.Observer != nil {
		w.Observer.MailFailed(attempt >= w.MaxAttempts)
	}
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
	if err := w.Store.MarkAttemptFailed(ctx, w.Claimant, m.ID, failure(err), next, now); err != nil {
		w.Log.ErrorContext(ctx, "record failed delivery", "mail", m.ID, "error", err)
		w.unrecorded.mu.Lock()
		w.unrecorded.failed = append(w.unrecorded.failed, failedAttempt{id: m.ID, f: failure(err), next: next, now: now})
		w.unrecorded.mu.Unlock()
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
