package hooks

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"github.com/lesspost/lesspost/domain"
	"slices"
	"strings"
	"time"
)

// Webhooks: an account registers HTTPS endpoints and the event kinds it
// wants; each event that concerns the account's address (see Event) is
// queued for each such endpoint in the unit of work that writes the event,
// and delivered, signed the Standard Webhooks way, by a worker (package
// notify/webhook) that retries with backoff and disables an endpoint that
// keeps failing.
//
// What is promised: every event is queued once per matching endpoint, and
// delivered at least once, with one webhook-id on every attempt, so a
// receiver that remembers ids sees it once. No order is promised, not even
// per endpoint: a retried delivery is overtaken by later ones (as Standard
// Webhooks allows); the payload's timestamp and ply order them.

// WebhookPing is the type of the test event an owner asks for; it is sent
// to one endpoint whatever kinds it wants, and is not subscribable.
const WebhookPing = "ping"

// WebhookEventTypes are the event kinds an endpoint may want: the live
// events that concern an address.
var WebhookEventTypes = []string{string(domain.EventTurnPlayed), string(domain.EventYourTurn), string(domain.EventGameOver),
	string(domain.EventInvitation), string(domain.EventRoundStart), string(domain.EventDeadlineNear)}

// Limits of webhooks.
const (
	MaxWebhooks           = 10   // endpoints per account
	MaxWebhookURLLength   = 2000 // bytes
	MaxWebhookDescription = 200  // characters
	// WebhookSecretGrace is how long a rotated-out secret keeps signing
	// beside the new one, so that receivers can switch without losing a
	// delivery.
	WebhookSecretGrace = 24 * time.Hour
	// WebhookSecretPrefix starts every signing secret (the Standard
	// Webhooks format: whsec_ and the key in base64).
	WebhookSecretPrefix = "whsec_"
	// WebhookLogRetention is how long the delivery log keeps deliveries
	// that were delivered or given up.
	WebhookLogRetention = 30 * 24 * time.Hour
)

// Codes of webhook problems.
const (
	CodeWebhookURLRefused = "webhook_url_refused" // not https, or an address lesspost will not call
	CodeTooManyWebhooks   = "too_many_webhooks"
	// CodeWebhookDisabled refuses a ping or redelivery for a disabled
	// endpoint: it would wait, unsent, until the endpoint is enabled.
	CodeWebhookDisabled = "webhook_disabled"
)

// WebhookEndpoint is an account's endpoint, without its secrets.
type WebhookEndpoint struct {
	ID          int64
	UserID      int64
	URL         string
	Description string
	EventTypes  []string // in WebhookEventTypes order
	Enabled     bool
	// DisabledReason says why lesspost disabled it ("" if enabled, or
	// disabled by its owner).
	DisabledReason string
	// PreviousSecretUntil is when the secret rotated out stops signing;
	// zero when there is none.
	PreviousSecretUntil time.Time
	CreatedAt           time.Time
	UpdatedAt           time.Time
}

// WebhookSecrets are what signs an endpoint's deliveries.
type WebhookSecrets struct {
	Current       string
	Previous      string // "" for none
	PreviousUntil time.Time
}

// Signing are the secrets that sign at now: the current one, and the
// previous one during its grace.
func (s WebhookSecrets) Signing(now time.Time) []string {
	out := []string{s.Current}
	if s.Previous != "" && now.Before(s.PreviousUntil) {
		out = append(out, s.Previous)
	}
	return out
}

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// WebhookDelivery is one event queued for one endpoint, and how its
// delivery fares: the delivery log.
type WebhookDelivery struct {
	ID         int64
	EndpointID int64
	MsgID      string // the webhook-id header: the same on every attempt
	Type       string // an event kind or WebhookPing
	GameID     string
	Color      string
	Ply        int
	Data       domain.EventData
	EventAt    time.Time // when the event happened: the payload's timestamp
	Attempts   int
	Status     string // DeliveryPending, …
	// NextAttemptAt is when a pending delivery is tried next.
	NextAttemptAt time.Time
	DeliveredAt   time.Time
	LastAttemptAt time.Time
	LastStatus    int    // the HTTP status of the last attempt; 0 if none answered
	LastError     string // short, lesspost's words
}

// WebhookJob is a claimed delivery with what sending it needs.
type WebhookJob struct {
	WebhookDelivery
	URL     string
	Secrets WebhookSecrets
	// FailingSince is the endpoint's first failed attempt since it last
	// took a delivery; zero if it is not failing.
	FailingSince time.Time
}

// WebhookOutcome is the outcome of one delivery attempt, of a webhook or
// a push message (PushDeliveryStore).
type WebhookOutcome struct {
	At        time.Time
	Delivered bool   // a 2xx answer
	Status    int    // the HTTP status; 0 if none came
	Error     string // why it failed, short
	// Next is when a failed delivery is tried again; zero gives it up.
	Next time.Time
	// Disable, if not empty, disables the endpoint for this reason and
	// emails its owner (once: only if it was enabled). Webhooks only.
	Disable string
}

// WebhookStore keeps endpoints and their deliveries. Deliveries of events
// are queued by the store itself, in the unit of work that writes the
// event; it is also the webhook outbox, safe for several workers (in one
// process or several on one store): a claim is a lease, as for mail
// (Outbox).
type WebhookStore interface {
	// Webhooks lists an account's endpoints, oldest first.
	Webhooks(ctx context.Context, userID int64) ([]WebhookEndpoint, error)
	// Webhook reads one of an account's endpoints; a missing one is a
	// not-found *Error.
	Webhook(ctx context.Context, userID, id int64) (WebhookEndpoint, error)
	// AddWebhook stores a new endpoint with its secret, unless the account
	// has max already (a conflict *Error), and returns its id.
	AddWebhook(ctx context.Context, e WebhookEndpoint, secret string, max int) (int64, error)
	// UpdateWebhook stores an endpoint's URL, description, event types and
	// whether it is enabled; enabling it forgets why it was disabled and
	// that it was failing.
	UpdateWebhook(ctx context.Context, e WebhookEndpoint) error
	// DeleteWebhook deletes an endpoint and its deliveries.
	DeleteWebhook(ctx context.Context, userID, id int64) error
	// RotateWebhookSecret makes secret the endpoint's secret; the current
	// one keeps signing until until.
	RotateWebhookSecret(ctx context.Context, userID, id int64, secret string, until, now time.Time) error
	// WebhookDeliveries lists up to limit deliveries of an endpoint, newest
	// first, with ids below before (0: from the newest).
	WebhookDeliveries(ctx context.Context, userID, endpointID, before int64, limit int) ([]WebhookDelivery, error)
	// WebhookDelivery reads one delivery of an endpoint of the account.
	WebhookDelivery(ctx context.Context, userID, endpointID, id int64) (WebhookDelivery, error)
	// Redeliver queues a delivery again, due at now, with its webhook-id.
	Redeliver(ctx context.Context, userID, endpointID, id int64, now time.Time) error
	// QueueWebhook queues a delivery that is no stored event (a ping) and
	// returns its id.
	QueueWebhook(ctx context.Context, d WebhookDelivery, now time.Time) (int64, error)

	// ClaimWebhooks claims up to limit due deliveries of enabled endpoints
	// for claimant until now+lease, the longest due first.
	ClaimWebhooks(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]WebhookJob, error)
	// RecordWebhookAttempt records the outcome of an attempt at a delivery
	// claimant holds, and ends the claim; an outcome for a delivery someone
	// else claimed since is ignored.
	RecordWebhookAttempt(ctx context.Context, claimant string, id int64, o WebhookOutcome) error
	// ReleaseWebhooks ends the claim on deliveries that were not tried.
	ReleaseWebhooks(ctx context.Context, claimant string, ids []int64) error
	// WebhookBacklog counts the deliveries due at now, for monitoring.
	WebhookBacklog(ctx context.Context, now time.Time) (int, error)
}

// URLCheck decides whether lesspost may call a webhook URL; it answers a
// *Error (CodeWebhookURLRefused) when not.
type URLCheck func(ctx context.Context, rawURL string) error

// Webhooks are the use cases of an account's webhooks.
type Webhooks struct {
	store    WebhookStore
	now      func() time.Time
	checkURL URLCheck
}

// WebhookConfig is what Webhooks need from outside.
type WebhookConfig struct {
	Store WebhookStore
	// Now is the clock; nil means domain.Now.
	Now func() time.Time
	// URLCheck decides which URLs may be registered; nil allows every one.
	URLCheck URLCheck
}

// NewWebhooks returns the webhook use cases on a store.
func NewWebhooks(cfg WebhookConfig) *Webhooks {
	w := &Webhooks{store: cfg.Store, now: cfg.Now, checkURL: cfg.URLCheck}
	if w.now == nil {
		w.now = domain.Now
	}
	return w
}

// WebhookChange is what an owner asks of an endpoint; nil fields stay.
type WebhookChange struct {
	URL         *string
	Description *string
	EventTypes  []string // nil: unchanged
	Enabled     *bool
}

// Create registers an endpoint for u and returns it with its secret, shown
// this once.
func (w *Webhooks) Create(ctx context.Context, u domain.User, c WebhookChange) (WebhookEndpoint, string, error) {
	now := w.now()
	e := WebhookEndpoint{UserID: u.ID, Enabled: true, CreatedAt: now, UpdatedAt: now}
	if c.URL == nil {
		return e, "", domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "an endpoint needs a url")
	}
	if c.EventTypes == nil {
		return e, "", domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "an endpoint needs event_types")
	}
	if err := w.apply(ctx, &e, c); err != nil {
		return e, "", err
	}
	secret := NewWebhookSecret()
	id, err := w.store.AddWebhook(ctx, e, secret, MaxWebhooks)
	if err != nil {
		return e, "", err
	}
	e.ID = id
	return e, secret, nil
}

// Update changes one of u's endpoints.
func (w *Webhooks) Update(ctx context.Context, u domain.User, id int64, c WebhookChange) (WebhookEndpoint, error) {
	e, err := w.store.Webhook(ctx, u.ID, id)
	if err != nil {
		return e, err
	}
	if err := w.apply(ctx, &e, c); err != nil {
		return e, err
	}
	e.UpdatedAt = w.now()
	if e.Enabled {
		e.DisabledReason = ""
	}
	if err := w.store.UpdateWebhook(ctx, e); err != nil {
		return e, err
	}
	return w.store.Webhook(ctx, u.ID, id)
}

// apply checks a change and makes it to e.
func (w *Webhooks) apply(ctx context.Context, e *WebhookEndpoint, c WebhookChange) error {
	if c.URL != nil {
		if len(*c.URL) > MaxWebhookURLLength {
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a url has at most %d bytes", MaxWebhookURLLength)
		}
		if w.checkURL != nil {
			if err := w.checkURL(ctx, *c.URL); err != nil {
				return err
			}
		}
		e.URL = *c.URL
	}
	if c.Description != nil {
		e.Description = ""
		if strings.TrimSpace(*c.Description) != "" {
			d, err := domain.CheckText(*c.Description, MaxWebhookDescription, "description")
			if err != nil {
				return err
			}
			e.Description = d
		}
	}
	if c.EventTypes != nil {
		types, err := webhookTypes(c.EventTypes)
		if err != nil {
			return err
		}
		e.EventTypes = types
	}
	if c.Enabled != nil {
		e.Enabled = *c.Enabled
	}
	return nil
}

// webhookTypes checks the event types asked for and sorts them as
// WebhookEventTypes.
func webhookTypes(asked []string) ([]string, error) {
	if len(asked) == 0 {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "an endpoint wants at least one event type")
	}
	for _, t := range asked {
		if !slices.Contains(WebhookEventTypes, t) {
			return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "unknown event type %q; the types are %s",
				t, strings.Join(WebhookEventTypes, ", "))
		}
	}
	var out []string
	for _, t := range WebhookEventTypes {
		if slices.Contains(asked, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// List lists u's endpoints.
func (w *Webhooks) List(ctx context.Context, u domain.User) ([]WebhookEndpoint, error) {
	return w.store.Webhooks(ctx, u.ID)
}

// Get reads one of u's endpoints.
func (w *Webhooks) Get(ctx context.Context, u domain.User, id int64) (WebhookEndpoint, error) {
	return w.store.Webhook(ctx, u.ID, id)
}

// Delete deletes one of u's endpoints and its delivery log; what was not
// delivered yet is not.
func (w *Webhooks) Delete(ctx context.Context, u domain.User, id int64) error {
	if _, err := w.store.Webhook(ctx, u.ID, id); err != nil {
		return err
	}
	return w.store.DeleteWebhook(ctx, u.ID, id)
}

// RotateSecret gives one of u's endpoints a new secret, returned this once;
// the old one signs beside it for WebhookSecretGrace. Two secrets are
// kept: rotating again within the grace retires the current one the same
// way and stops the one before it at once. (Svix keeps each retired
// secret its full grace; that needs a third secret in the store.)
func (w *Webhooks) RotateSecret(ctx context.Context, u domain.User, id int64) (WebhookEndpoint, string, error) {
	now := w.now()
	if _, err := w.store.Webhook(ctx, u.ID, id); err != nil {
		return WebhookEndpoint{}, "", err
	}
	secret := NewWebhookSecret()
	if err := w.store.RotateWebhookSecret(ctx, u.ID, id, secret, now.Add(WebhookSecretGrace), now); err != nil {
		return WebhookEndpoint{}, "", err
	}
	e, err := w.store.Webhook(ctx, u.ID, id)
	return e, secret, err
}

// MaxDeliveriesPage bounds a page of the delivery log.
const MaxDeliveriesPage = 100

// Deliveries lists a page of an endpoint's delivery log, newest first,
// before the delivery id before (0: the newest), and the cursor of the
// next page (0: none).
func (w *Webhooks) Deliveries(ctx context.Context, u domain.User, id, before int64, limit int) ([]WebhookDelivery, int64, error) {
	if _, err := w.store.Webhook(ctx, u.ID, id); err != nil {
		return nil, 0, err
	}
	if limit <= 0 || limit > MaxDeliveriesPage {
		return nil, 0, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a page has 1 to %d deliveries", MaxDeliveriesPage)
	}
	ds, err := w.store.WebhookDeliveries(ctx, u.ID, id, before, limit+1)
	if err != nil {
		return nil, 0, err
	}
	var next int64
	if len(ds) > limit {
		ds = ds[:limit]
		next = ds[limit-1].ID
	}
	return ds, next, nil
}

// enabled reads one of u's endpoints and refuses it if it is disabled:
// nothing is sent to a disabled endpoint, so a ping or redelivery asked
// for it would wait unsent (and unpruned) until it is enabled.
func (w *Webhooks) enabled(ctx context.Context, u domain.User, id int64) error {
	e, err := w.store.Webhook(ctx, u.ID, id)
	if err != nil {
		return err
	}
	if !e.Enabled {
		return domain.Errorf(domain.KindConflict, CodeWebhookDisabled, "the endpoint is disabled; enable it first")
	}
	return nil
}

// Redeliver sends one delivery of u's enabled endpoint again, at once,
// with the same webhook-id, whatever became of it.
func (w *Webhooks) Redeliver(ctx context.Context, u domain.User, id, deliveryID int64) (WebhookDelivery, error) {
	if err := w.enabled(ctx, u, id); err != nil {
		return WebhookDelivery{}, err
	}
	if err := w.store.Redeliver(ctx, u.ID, id, deliveryID, w.now()); err != nil {
		return WebhookDelivery{}, err
	}
	return w.store.WebhookDelivery(ctx, u.ID, id, deliveryID)
}

// Ping queues a test event (type WebhookPing) for one of u's enabled
// endpoints.
func (w *Webhooks) Ping(ctx context.Context, u domain.User, id int64) (WebhookDelivery, error) {
	now := w.now()
	if err := w.enabled(ctx, u, id); err != nil {
		return WebhookDelivery{}, err
	}
	d := WebhookDelivery{EndpointID: id, MsgID: NewWebhookMsgID(), Type: WebhookPing, EventAt: now}
	did, err := w.store.QueueWebhook(ctx, d, now)
	if err != nil {
		return WebhookDelivery{}, err
	}
	return w.store.WebhookDelivery(ctx, u.ID, id, did)
}

// NewWebhookSecret makes a signing secret: whsec_ and 24 random bytes in
// base64, as Standard Webhooks writes them.
func NewWebhookSecret() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err)) // never fails on supported platforms
	}
	return WebhookSecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// NewWebhookMsgID makes a webhook-id for a delivery of no stored event;
// the stores make those of events the same way (msg_ and 32 hex digits).
func NewWebhookMsgID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err))
	}
	return fmt.Sprintf("msg_%x", b)
}
