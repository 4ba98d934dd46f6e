package accounts

import "context"

// An address's choices of mail, made with the links of an email: no
// reminders, or no mail at all. They belong to the address, account or not.

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
