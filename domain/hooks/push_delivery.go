package hooks

import (
	"context"
	"github.com/lesspost/lesspost/domain"
	"time"
)

// Push deliveries: each event of a kind in PushEventKinds that concerns an
// address is queued, in the unit of work that writes the event, once for
// each live push subscription of that address whose scope it is in (an
// address-wide one, or one of the event's game made with the seat's
// current link: see PushSubscription.Game), and sent by a worker
// (notify/webpush.Worker) that claims it with a lease, retries with the
// webhooks' backoff and logs each attempt, as webhook deliveries are.
//
// What is promised: at least once per subscription, no order. The message
// is rendered when it is sent (in the address's language of that moment,
// with a fresh move link), never stored. A subscription deleted meanwhile
// (unsubscribed, or gone at the push service) takes its deliveries with it.

// PushEventKinds are the kinds of events that are pushed: those that ask
// something of the player or tell him a game's news. The stores' fan-out
// triggers list them too (migrations 0023, postgres 0010); a turn played is
// not pushed (the your_turn that follows is).
var PushEventKinds = []domain.EventKind{domain.EventYourTurn, domain.EventDeadlineNear, domain.EventInvitation, domain.EventRoundStart, domain.EventGameOver}

// PushDelivery is one event queued for one push subscription, and how its
// delivery fares.
type PushDelivery struct {
	ID             int64
	SubscriptionID int64
	// Event is the event as it was written; Email is the subscription's
	// owner and Pos is not kept.
	Event    domain.Event
	Attempts int
	Status   string // DeliveryPending, …
	// NextAttemptAt is when a pending delivery is tried next.
	NextAttemptAt time.Time
	DeliveredAt   time.Time
	LastAttemptAt time.Time
	LastStatus    int    // the push service's HTTP status at the last attempt; 0 if none answered
	LastError     string // short, lesspost's words
}

// PushJob is a claimed push delivery with what sending it needs: the
// subscription as it is now, and its owner's account language ("" without
// an account).
type PushJob struct {
	PushDelivery
	Subscription PushSubscription
	Locale       string
}

// PushDeliveryStore is the push outbox, safe for several workers in one
// process or several on one store: a claim is a lease, as for webhooks.
// An outcome is a WebhookOutcome whose Disable is unused: a subscription
// is not disabled but deleted (Service.ForgetPushEndpoint).
type PushDeliveryStore interface {
	// PushDeliveries lists up to limit deliveries to an address's
	// subscriptions, newest first: the delivery log.
	PushDeliveries(ctx context.Context, owner string, limit int) ([]PushDelivery, error)
	// ClaimPushes claims up to limit due deliveries for claimant until
	// now+lease, the longest due first.
	ClaimPushes(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]PushJob, error)
	// RecordPushAttempt records the outcome of an attempt at a delivery
	// claimant holds, and ends the claim; an outcome for a delivery someone
	// else claimed since, or that is gone with its subscription, is ignored.
	RecordPushAttempt(ctx context.Context, claimant string, id int64, o WebhookOutcome) error
	// ReleasePushes ends the claim on deliveries that were not tried.
	ReleasePushes(ctx context.Context, claimant string, ids []int64) error
	// PushBacklog counts the deliveries due at now, for monitoring.
	PushBacklog(ctx context.Context, now time.Time) (int, error)
}
