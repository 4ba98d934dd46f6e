package api

import (
	"context"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/players"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// Store is what the server needs of the store: the ports of the use cases
// (domain.Store), the buckets of the rate limits, and whether it can serve.
// repo/sqlite's DB is one.
type Store interface {
	tournaments.Store
	accounts.Store
	hooks.Store
	domain.RateLimiter
	// EventReader serves the event streams.
	domain.EventReader
	// WebhookStore keeps the account's webhook endpoints and their log.
	hooks.WebhookStore
	// players.Store keeps handles and profiles.
	players.Store
	// Ping says whether the store can serve (for /readyz).
	Ping(ctx context.Context) error
}
