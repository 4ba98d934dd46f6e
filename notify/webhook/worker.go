package webhook

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/egress"
)

// Observer counts delivery attempts; its methods must be quick and safe
// for concurrent use.
type Observer interface {
	// WebhookDelivered: an endpoint answered 2xx.
	WebhookDelivered()
	// WebhookFailed: an attempt failed; givenUp if it was the last.
	WebhookFailed(givenUp bool)
}

// Worker delivers due webhook deliveries. State lives in the store, so a
// restart resumes where the last process stopped, and any number of
// workers on one store deliver each delivery once per attempt (claims with
// a lease; see hooks.WebhookStore). A delivery is at least once: a worker
// that crashes after the receiver answered and before recording it leaves
// it to be sent again with the same webhook-id.
type Worker struct {
	Store  hooks.WebhookStore
	Client *http.Client // an egress.Guard's client
	Log    *slog.Logger
	Now    func() time.Time

	// Schedule is the wait before each retry (see the package's Schedule).
	Schedule []time.Duration
	// DisableAfter: when a delivery is given up and its endpoint has been
	// failing (no delivery taken) for at least this long, the endpoint is
	// disabled and its owner emailed.
	DisableAfter time.Duration
	// Poll is how often the worker looks for due deliveries unless woken.
	Poll time.Duration
	// Parallel is how many deliveries are in flight at once.
	Parallel int
	// Lease is how long a claim keeps deliveries from other workers; no
	// attempt starts after half of it, which must exceed Timeout.
	Lease time.Duration
	// Claimant names this worker in its claims, unique per worker.
	Claimant string
	// Observer, if set, counts the attempts.
	Observer Observer
	// UserAgent is sent with every delivery.
	UserAgent string

	wake chan struct{}
}

// Defaults of NewWorker.
const (
	// Timeout bounds one attempt: connecting, sending and the answer.
	Timeout = 10 * time.Second
	// DefaultLease leaves an attempt that starts at its middle time to end.
	DefaultLease = 2 * time.Minute
	// DefaultDisableAfter is how long an endpoint may fail before a given-up
	// delivery disables it: about as long as a delivery's whole schedule.
	DefaultDisableAfter = 24 * time.Hour
	// maxAnswer is how much of an answer is read: only its status counts,
	// but reading a little lets the connection be reused.
	maxAnswer = 64 << 10
	batchSize = 50
)

// NewWorker returns a worker with the default schedule, delivering through
// guard's client.
func NewWorker(store hooks.WebhookStore, guard *egress.Guard, log *slog.Logger, now func() time.Time) *Worker {
	host, _ := os.Hostname()
	return &Worker{Store: store, Client: guard.Client(Timeout), Log: log, Now: now,
		Schedule: Schedule, DisableAfter: DefaultDisableAfter, Poll: time.Second, Parallel: 16, Lease: DefaultLease,
		Claimant:  fmt.Sprintf("%s/%d/%s", host, os.Getpid(), crand.Text()[:10]),
		UserAgent: "lesspost-webhooks/1", wake: make(chan struct{}, 1)}
}

// Wake tells the worker deliveries may be due.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run delivers until ctx ends.
func (w *Worker) Run(ctx context.Context) error {
	Poll(ctx, w.Poll, w.wake, w.Log, "webhook", w.DeliverDue)
	w.Client.CloseIdleConnections()
	return nil
}

// DeliverDue makes one pass over the due deliveries and says how many
// attempts it made.
func (w *Worker) DeliverDue(ctx context.Context) (int, error) {
	l := Loop[hooks.WebhookJob]{Claim: w.Store.ClaimWebhooks, Attempt: w.attempt, Record: w.Store.RecordWebhookAttempt,
		Release: w.Store.ReleaseWebhooks, ID: func(j *hooks.WebhookJob) int64 { return j.ID },
		Claimant: w.Claimant, Now: w.Now, Parallel: w.Parallel, Lease: w.Lease}
	return l.Pass(ctx)
}

// attempt POSTs one delivery and decides what follows.
func (w *Worker) attempt(ctx context.Context, j *hooks.WebhookJob) (hooks.WebhookOutcome, error) {
	status, err := w.post(ctx, j)
	now := w.Now()
	if ctx.Err() != nil {
		return hooks.WebhookOutcome{}, ErrShutdown
	}
	o := hooks.WebhookOutcome{At: now, Status: status}
	if err == nil {
		o.Delivered = true
		if w.Observer != nil {
			w.Observer.WebhookDelivered()
		}
		return o, nil
	}
	o.Error = err.Error()
	o.Next = RetryAt(w.Schedule, j.Attempts+1, now)
	failingSince := j.FailingSince
	if failingSince.IsZero() {
		failingSince = now
	}
	switch {
	case status == http.StatusGone:
		// The receiver says the endpoint is gone for good: stop at once.
		o.Next = time.Time{}
		o.Disable = "the endpoint answered 410 Gone"
	case o.Next.IsZero() && now.Sub(failingSince) >= w.DisableAfter:
		o.Disable = fmt.Sprintf("every delivery failed since %s", failingSince.UTC().Format(time.RFC3339))
	}
	if w.Observer != nil {
		w.Observer.WebhookFailed(o.Next.IsZero())
	}
	log := w.Log.With("delivery", j.ID, "endpoint", j.EndpointID, "type", j.Type, "attempt", j.Attempts+1, "error", o.Error)
	switch {
	case o.Disable != "":
		log.WarnContext(ctx, "webhook endpoint disabled", "reason", o.Disable)
	case o.Next.IsZero():
		log.WarnContext(ctx, "webhook delivery given up")
	default:
		log.InfoContext(ctx, "webhook delivery failed, will retry", "retry_at", o.Next)
	}
	return o, nil
}

// post sends one delivery and returns the answer's status; an error if it
// was no 2xx, in words for the delivery log.
func (w *Worker) post(ctx context.Context, j *hooks.WebhookJob) (int, error) {
	body, err := Body(j.WebhookDelivery)
	if err != nil {
		return 0, fmt.Errorf("could not encode the event: %w", err)
	}
	ts := w.Now()
	sig, err := Sign(j.Secrets.Signing(ts), j.MsgID, ts, body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.URL, bytes.NewReader(body))
	if err != nil {
		return 0, errors.New("the URL is not valid")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", w.UserAgent)
	req.Header.Set("webhook-id", j.MsgID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	resp, err := w.Client.Do(req)
	if err != nil {
		return 0, describe(err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
	_ = resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("the endpoint answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// describe says in a few words why a request got no answer.
func describe(err error) error {
	var netErr net.Error
	var tlsErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	switch {
	case errors.Is(err, egress.ErrRefused):
		return fmt.Errorf("not sent: %w", innermost(err))
	case errors.As(err, &tlsErr), errors.As(err, &recErr):
		return errors.New("TLS failed: the certificate or the protocol was not accepted")
	case errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Errorf("no answer within %s", Timeout)
	}
	return errors.New("could not connect")
}

// innermost is the egress refusal inside err ("refused: 127.0.0.1 is not
// a public address"), without what the HTTP client and the dialer wrapped
// around it.
func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil || next == egress.ErrRefused || !errors.Is(next, egress.ErrRefused) {
			return err
		}
		err = next
	}
}
