package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// Suppress puts an address's mailbox (domain.Mailbox) on the suppression
// list, as its owner asked with the "never email me again" link of any
// email: from now on none of its addresses gets more than the login mail
// it asks for itself, and their mail still waiting in the outbox is not sent
// (it is marked failed, so a game's mail list says why). Doing it again
// changes nothing.
func (db *DB) Suppress(ctx context.Context, email string, now time.Time) error {
	mailbox := domain.Mailbox(email)
	return db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO suppressions (mailbox, created_at) VALUES (?, ?) ON CONFLICT (mailbox) DO NOTHING`,
			mailbox, now.UnixMilli())
		if err != nil {
			return fmt.Errorf("suppress: %w", err)
		}
		_, err = tx.ExecContext(ctx, `UPDATE outbox SET failed_at = ?, error_code = 'suppressed', last_error = ?
			WHERE mailbox = ? AND kind <> 'login' AND sent_at IS NULL AND failed_at IS NULL`,
			now.UnixMilli(), "not sent: the address asked for no more email", mailbox)
		if err != nil {
			return fmt.Errorf("suppress: drop queued mail: %w", err)
		}
		return nil
	})
}
