package api

import (
	"context"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/app"
)

// Store is what the server needs of the store: the ports of the use cases
// (app.Store), the buckets of the rate limits, the event streams, and
// whether it can serve. repo/sqlite's DB is one.
type Store interface {
	app.Store
	domain.RateLimiter
	// EventReader serves the event streams.
	domain.EventReader
	// Ping says whether the store can serve (for /readyz).
	Ping(ctx context.Context) error
}
