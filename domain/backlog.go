package domain

import (
	"context"
	"time"
)

// Backlog is what waits in a store at a moment: the figures an operator
// watches to see that mail goes out and the scheduler keeps up (the server
// exports them at /metrics).
type Backlog struct {
	// MailPending counts mail neither delivered nor given up;
	// OldestPending is when the oldest of it was queued (zero if none).
	MailPending   int
	OldestPending time.Time
	// MailFailed counts mail given up and still kept (see the mail
	// retention): each is a player who was not told.
	MailFailed int
	// GamesDue and TournamentsDue count what the scheduler should have
	// handled by now; OldestDue is the earliest of their due times (zero if
	// none), so now minus it is how far the scheduler lags.
	GamesDue       int
	TournamentsDue int
	OldestDue      time.Time
}

// Monitor reads a store's backlog.
type Monitor interface {
	Backlog(ctx context.Context, now time.Time) (Backlog, error)
}
