// Package port says what the server asks of its store, whichever it is:
// the use cases' ports, the outbox, the inbox of received mail, what an
// operator monitors and the housekeeping the scheduler does. The stores
// (repo/sqlite, repo/postgres) implement it, package repo opens one by
// URL, and repo/storetest checks one against the contract, so that none of
// them depends on another.
package port

import (
	"context"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/players"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// Store is everything the server asks of its store. *sqlite.DB (one
// machine) and *postgres.DB (several instances on one database) are
// Stores; both pass the contract suite in repo/storetest.
type Store interface {
	tournaments.Store
	accounts.Store
	hooks.Store
	players.Store
	domain.Outbox
	domain.Inbox
	domain.Monitor
	domain.RateLimiter
	domain.EventReader
	hooks.PushKeys
	hooks.WebhookStore
	hooks.PushDeliveryStore
	games.GameRecords
	Housekeeping
	// Ping says whether the store can serve (for /readyz).
	Ping(ctx context.Context) error
	Close() error
}

// Housekeeping deletes what the store no longer needs. Each method deletes
// (or clears) at most limit rows and says how many; the scheduler calls it
// until that is fewer than limit, so no transaction runs long.
type Housekeeping interface {
	// ExpireIdempotencyKeys deletes the responses stored before before.
	ExpireIdempotencyKeys(ctx context.Context, before time.Time, limit int) (int, error)
	// ExpireLoginMail forgets the login codes of login mail that can no
	// longer be delivered in time.
	ExpireLoginMail(ctx context.Context, now time.Time, limit int) (int, error)
	// PruneMail deletes mail created before before that was delivered or
	// given up.
	PruneMail(ctx context.Context, before time.Time, limit int) (int, error)
	// PruneSessions deletes sessions that ended by now.
	PruneSessions(ctx context.Context, now time.Time, limit int) (int, error)
	// Maintain keeps the store's query planner informed: it gathers table
	// statistics where they have gone stale, which the claim of due mail
	// and the scheduler's queries need to find their rows through partial
	// indexes. Cheap when there is nothing to do.
	Maintain(ctx context.Context) error
	// PruneLoginTokens deletes login tokens no longer needed at now.
	PruneLoginTokens(ctx context.Context, now time.Time, limit int) (int, error)
	// PruneRateLimits deletes rate-limit keys whose bucket is full at now.
	PruneRateLimits(ctx context.Context, now time.Time, limit int) (int, error)
	// PruneInbound deletes received mail processed before before.
	PruneInbound(ctx context.Context, before time.Time, limit int) (int, error)
	// PruneEvents deletes events created before before.
	PruneEvents(ctx context.Context, before time.Time, limit int) (int, error)
	// PruneWebhookDeliveries deletes the webhook deliveries of events
	// before before that were delivered or given up: the delivery log
	// keeps what is younger.
	PruneWebhookDeliveries(ctx context.Context, before time.Time, limit int) (int, error)
	// PrunePushDeliveries deletes the push deliveries of events before
	// before that were delivered or given up.
	PrunePushDeliveries(ctx context.Context, before time.Time, limit int) (int, error)
}
