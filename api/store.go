package api

import (
	"context"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// Store is what the server needs of the store: the ports of the use cases
// (domain.Store), and the reads and writes that are not yet use cases of
// their own. repo.DB is one.
type Store interface {
	domain.Store
	// Ping says whether the store can serve (for /readyz).
	Ping(ctx context.Context) error
	// GameMail lists how the emails a game caused fared, oldest first.
	GameMail(ctx context.Context, gameID string) ([]domain.NoticeDelivery, error)
	// Unsubscribe turns off an address's non-essential mail; Suppress all
	// mail to it.
	Unsubscribe(ctx context.Context, email string, now time.Time) error
	Suppress(ctx context.Context, email string, now time.Time) error
}
