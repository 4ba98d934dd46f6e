package accounts

import (
	"context"
	"time"
)

// An address's choices of mail, made with the links of an email: no
// reminders, or no mail at all. They belong to the address, account or not.

// MailChoices keeps what an address chose about its mail.
type MailChoices interface {
	// Unsubscribe turns off an address's non-essential mail (reminders);
	// doing it again changes nothing.
	Unsubscribe(ctx context.Context, email string, now time.Time) error
	// Resubscribe turns an address's non-essential mail back on, as its
	// owner asked on the unsubscribe page; for an address that never
	// unsubscribed it changes nothing.
	Resubscribe(ctx context.Context, email string) error
	// Suppress stops all mail to an address, also what waits in the outbox,
	// except the login mail it asks for itself; doing it again changes
	// nothing.
	Suppress(ctx context.Context, email string, now time.Time) error
}

// Unsubscribe turns off an address's non-essential mail, as its owner asked
// with the link of an email.
func (s *Service) Unsubscribe(ctx context.Context, email string) error {
	return s.store.Unsubscribe(ctx, email, s.now())
}

// Resubscribe turns an address's non-essential mail back on: its owner
// changed his mind on the unsubscribe page.
func (s *Service) Resubscribe(ctx context.Context, email string) error {
	return s.store.Resubscribe(ctx, email)
}

// Suppress stops all mail to an address, as its owner asked with the
// "never email me again" link of an email.
func (s *Service) Suppress(ctx context.Context, email string) error {
	return s.store.Suppress(ctx, email, s.now())
}
