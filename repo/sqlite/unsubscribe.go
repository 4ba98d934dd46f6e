package sqlite

import (
	"context"
	"fmt"
	"time"
)

// Unsubscribe turns off non-essential mail for an address. Doing it again
// changes nothing.
func (db *DB) Unsubscribe(ctx context.Context, email string, now time.Time) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO unsubscribes (email, created_at) VALUES (?, ?) ON CONFLICT (email) DO NOTHING`,
			email, now.UnixMilli())
		if err != nil {
			return fmt.Errorf("unsubscribe: %w", err)
		}
		return nil
	})
}

// Resubscribe turns an address's non-essential mail back on.
func (db *DB) Resubscribe(ctx context.Context, email string) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM unsubscribes WHERE email = ?`, email); err != nil {
			return fmt.Errorf("resubscribe: %w", err)
		}
		return nil
	})
}

// Unsubscribed reports whether an address turned off non-essential mail.
func (db *DB) Unsubscribed(ctx context.Context, email string) (bool, error) {
	var n int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM unsubscribes WHERE email = ?`, email).Scan(&n); err != nil {
		return false, fmt.Errorf("read unsubscribes: %w", err)
	}
	return n > 0, nil
}
