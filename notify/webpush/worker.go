package webpush

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/webhook"
)

// Pusher sends one message; *Sender is one.
type Pusher interface {
	Send(ctx context.Context, sub hooks.PushSubscription, payload []byte, ttl time.Duration) (Result, error)
}

// MoveLinks mints a seat's move link (api.Links does).
type MoveLinks interface {
	MoveURL(gameID, color string, version int) (string, error)
}

// Observer counts push attempts; its methods must be quick and safe for
// concurrent use.
type Observer interface {
	// PushDelivered: a push service took a message.
	PushDelivered()
	// PushFailed: an attempt failed; givenUp if it was the last.
	PushFailed(givenUp bool)
}

// Worker sends the queued push deliveries (hooks.PushDeliveryStore) with
// the webhooks' loop: claims with a lease, so any number of workers on one
// store send each message once per attempt, retries on the webhooks'
// schedule, and each attempt logged. Each message is rendered when it is
// sent: in the language the address has then, with a fresh move link.
type Worker struct {
	Store  hooks.PushDeliveryStore
	Sender Pusher
	Games  interface {
		Game(ctx context.Context, id string) (games.Game, error)
	}
	Links   MoveLinks
	BaseURL string // the server's public URL, for the pages of events without a seat
	// Forget deletes the subscriptions of an endpoint the push service
	// says is gone (hooks.Push.ForgetPushEndpoint), and with them their
	// deliveries.
	Forget func(ctx context.Context, endpoint string) (int, error)
	Log    *slog.Logger
	Now    func() time.Time

	// Schedule is the wait before each retry (webhook.Schedule); a push
	// service's Retry-After makes it longer, never shorter.
	Schedule []time.Duration
	Poll     time.Duration
	Parallel int
	// Lease is how long a claim lasts; no attempt starts after half of
	// it, which must exceed the Sender's client timeout.
	Lease    time.Duration
	Claimant string
	Observer Observer

	wake chan struct{}
}

// TTL is how long a push service keeps a message for a browser that is
// offline; a deadline_near message is kept until the deadline at most.
const TTL = 24 * time.Hour

// NewWorker returns a worker with the webhooks' schedule and lease.
func NewWorker(store hooks.PushDeliveryStore, sender Pusher, log *slog.Logger, now func() time.Time) *Worker {
	host, _ := os.Hostname()
	return &Worker{Store: store, Sender: sender, Log: log, Now: now,
		Schedule: webhook.Schedule, Poll: time.Second, Parallel: 16, Lease: webhook.DefaultLease,
		Claimant: fmt.Sprintf("%s/%d/%s", host, os.Getpid(), crand.Text()[:10]), wake: make(chan struct{}, 1)}
}

// Wake tells the worker deliveries may be due.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run sends until ctx ends.
func (w *Worker) Run(ctx context.Context) error {
	webhook.Poll(ctx, w.Poll, w.wake, w.Log, "push", w.SendDue)
	return nil
}

// SendDue makes one pass over the due deliveries and says how many
// attempts it made.
func (w *Worker) SendDue(ctx context.Context) (int, error) {
	l := webhook.Loop[hooks.PushJob]{Claim: w.Store.ClaimPushes, Attempt: w.attempt, Record: w.Store.RecordPushAttempt,
		Release: w.Store.ReleasePushes, ID: func(j *hooks.PushJob) int64 { return j.ID },
		Claimant: w.Claimant, Now: w.Now, Parallel: w.Parallel, Lease: w.Lease}
	return l.Pass(ctx)
}

// attempt sends one delivery and decides what follows.
func (w *Worker) attempt(ctx context.Context, j *hooks.PushJob) (hooks.WebhookOutcome, error) {
	log := w.Log.With("delivery", j.ID, "subscription", j.SubscriptionID, "kind", j.Event.Kind, "attempt", j.Attempts+1,
		"push_service", host(j.Subscription.Endpoint))
	res, err := w.send(ctx, j)
	now := w.Now()
	if ctx.Err() != nil {
		return hooks.WebhookOutcome{}, webhook.ErrShutdown
	}
	o := hooks.WebhookOutcome{At: now, Status: res.Status}
	if err == nil {
		o.Delivered = true
		if w.Observer != nil {
			w.Observer.PushDelivered()
		}
		return o, nil
	}
	o.Error = err.Error()
	switch res.Outcome {
	case Gone:
		// The browser unsubscribed or the service ended the subscription:
		// forget it, and this delivery with it (the record finds none).
		if _, ferr := w.Forget(ctx, j.Subscription.Endpoint); ferr != nil {
			log.ErrorContext(ctx, "forget a gone push subscription", "error", ferr)
			o.Next = webhook.RetryAt(w.Schedule, j.Attempts+1, now)
		} else {
			log.InfoContext(ctx, "push subscription gone: deleted")
		}
	case RetryLater:
		o.Next = webhook.RetryAt(w.Schedule, j.Attempts+1, now)
		if after := now.Add(res.RetryAfter); !o.Next.IsZero() && after.After(o.Next) {
			o.Next = after
		}
	case Rejected:
		if res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden {
			log.ErrorContext(ctx, "the push service refused the VAPID key or subject: check --vapid-subject and the push_keys row",
				"status", res.Status, "error", o.Error)
		}
	}
	if w.Observer != nil {
		w.Observer.PushFailed(o.Next.IsZero())
	}
	switch {
	case res.Outcome == Gone:
	case o.Next.IsZero():
		log.WarnContext(ctx, "push delivery given up", "error", o.Error)
	default:
		log.InfoContext(ctx, "push delivery failed, will retry", "error", o.Error, "retry_at", o.Next)
	}
	return o, nil
}

// send renders a delivery's message and sends it.
func (w *Worker) send(ctx context.Context, j *hooks.PushJob) (Result, error) {
	e := j.Event
	locale, openURL, ttl := j.Locale, w.BaseURL+"/login", TTL
	if e.GameID != "" {
		openURL = w.BaseURL + "/play/" + url.PathEscape(e.GameID)
		g, err := w.Games.Game(ctx, e.GameID)
		var de *domain.Error
		switch {
		case errors.As(err, &de) && de.Kind == domain.KindNotFound:
			// Gone from the store: its page says so.
		case err != nil:
			return Result{Outcome: RetryLater}, fmt.Errorf("could not read the game: %w", err)
		default:
			if sub := j.Subscription; sub.Game != "" {
				// Made with a move link: only while that link is the seat's.
				// The stores delete it when the link is renewed; this catches
				// a renewal that committed after the claim, so that the new
				// link never reaches the old link's browser.
				if seat, ok := g.Seat(sub.Color); !ok || seat.TokenVersion != sub.LinkVersion || seat.Email != sub.Owner {
					return Result{Outcome: Rejected}, errors.New("the move link the subscription was made with was replaced")
				}
			}
			if seat, ok := g.Seat(e.Color); ok && seat.Email == e.Email {
				if openURL, err = w.Links.MoveURL(g.ID, seat.Color, seat.TokenVersion); err != nil {
					return Result{Outcome: Rejected}, fmt.Errorf("could not make the move link: %w", err)
				}
				if locale == "" {
					locale = seat.Locale
				}
			}
			if e.Kind == domain.EventDeadlineNear && !g.Clock.Deadline.IsZero() {
				ttl = min(ttl, max(g.Clock.Deadline.Sub(w.Now()), 0))
			}
		}
	}
	payload, ok, err := Payload(e, locale, openURL)
	if err != nil {
		return Result{Outcome: Rejected}, err
	}
	if !ok {
		return Result{Outcome: Rejected}, fmt.Errorf("a %s event has no push message", e.Kind)
	}
	return w.Sender.Send(ctx, j.Subscription, payload, ttl)
}
