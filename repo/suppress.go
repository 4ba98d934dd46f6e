package repo

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/repo/internal/mailpolicy"
)

// Suppress puts an address on the suppression list, as its owner asked with
// the "never email me again" link of any email: from now on it gets only
// the login mail it asks for itself, and its mail still waiting in the
// outbox is not sent (it is marked failed, so a game's mail list says why).
// Doing it again changes nothing.
func (db *DB) Suppress(ctx context.Context, email string, now time.Time) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO suppressions (email, created_at) VALUES (?, ?) ON CONFLICT (email) DO NOTHING`,
			email, now.UnixMilli())
		if err != nil {
			return fmt.Errorf("suppress: %w", err)
		}
		_, err = tx.ExecContext(ctx, `UPDATE outbox SET failed_at = ?, error_code = 'suppressed', last_error = ?
			WHERE email = ? AND kind <> 'login' AND sent_at IS NULL AND failed_at IS NULL`,
			now.UnixMilli(), "not sent: the address asked for no more email", email)
		if err != nil {
			return fmt.Errorf("suppress: drop queued mail: %w", err)
		}
		return nil
	})
}

// refuseSuppressed refuses a list of addresses of which one is suppressed.
func refuseSuppressed(ctx context.Context, tx *Tx, emails []string) error {
	for _, email := range emails {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM suppressions WHERE email = ?`, email).Scan(&n); err != nil {
			return fmt.Errorf("read suppressions: %w", err)
		}
		if n > 0 {
			return mailpolicy.SuppressedError(email)
		}
	}
	return nil
}
