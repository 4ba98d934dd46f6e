package api

import (
	"context"

	"github.com/lesspost/lesspost/domain"
)

// Store is what the server needs of the store: the ports of the use cases
// (domain.Store), and whether it can serve. repo.DB is one.
type Store interface {
	domain.Store
	// Ping says whether the store can serve (for /readyz).
	Ping(ctx context.Context) error
}
