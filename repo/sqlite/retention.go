package sqlite

import (
	"context"
	"fmt"
	"time"
)

// Retention: what the store no longer needs is deleted by the scheduler, a
// batch at a time. Each function here deletes (or clears) at most limit rows
// and returns how many; the scheduler calls it until that is fewer than
// limit, so no single transaction holds the writer for long.

// loginTokenRetention is how long a login token is kept once expired: an
// hour, the window of accounts.MaxLoginsPerHour, which counts the tokens of the last
// hour. The token is only a hash; nothing else needs it.
const loginTokenRetention = time.Hour

// PruneMail deletes outbox rows created before before that were delivered
// or given up. Mail still being tried is kept, however old.
func (db *DB) PruneMail(ctx context.Context, before time.Time, limit int) (int, error) {
	return db.deleteBatch(ctx, "prune mail", `DELETE FROM outbox WHERE id IN
		(SELECT id FROM outbox WHERE created_at < ? AND (sent_at IS NOT NULL OR failed_at IS NOT NULL)
		ORDER BY created_at LIMIT ?)`, before.UnixMilli(), limit)
}

// PruneSessions deletes sessions that have ended, by expiry or logout: an
// access token of a session that is gone is refused like one of an ended
// session.
func (db *DB) PruneSessions(ctx context.Context, now time.Time, limit int) (int, error) {
	n, err := db.deleteBatch(ctx, "prune sessions", `DELETE FROM sessions WHERE id IN
		(SELECT id FROM sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)`, now.UnixMilli(), limit)
	if err != nil || n == limit {
		return n, err
	}
	m, err := db.deleteBatch(ctx, "prune sessions", `DELETE FROM sessions WHERE id IN
		(SELECT id FROM sessions WHERE revoked_at IS NOT NULL AND revoked_at <= ? ORDER BY revoked_at LIMIT ?)`,
		now.UnixMilli(), limit-n)
	return n + m, err
}

// PruneLoginTokens deletes the hashes of login tokens that expired more than
// loginTokenRetention ago.
func (db *DB) PruneLoginTokens(ctx context.Context, now time.Time, limit int) (int, error) {
	return db.deleteBatch(ctx, "prune login tokens", `DELETE FROM login_tokens WHERE hash IN
		(SELECT hash FROM login_tokens WHERE expires_at < ? ORDER BY expires_at LIMIT ?)`,
		now.Add(-loginTokenRetention).UnixMilli(), limit)
}

// ExpireLoginMail gives up login mail not yet delivered when its login code
// expires, and clears the code: it can no longer sign anyone in, and the
// outbox keeps no plain code longer than the code lives. (Delivered and
// given-up mail lost its code already: see MarkSentBatch and
// MarkAttemptFailed.)
func (db *DB) ExpireLoginMail(ctx context.Context, now time.Time, limit int) (int, error) {
	return db.deleteBatch(ctx, "expire login mail", `UPDATE outbox
		SET secret = NULL, failed_at = ?1, error_code = 'expired', last_error = 'the login code expired before the mail could be delivered'
		WHERE id IN (SELECT id FROM outbox WHERE secret IS NOT NULL AND created_at <= ?2 ORDER BY created_at LIMIT ?3)
		AND sent_at IS NULL`,
		now.UnixMilli(), now.Add(-LoginTTL).UnixMilli(), limit)
}

// deleteBatch runs one statement that changes at most a batch of rows and
// returns how many it changed.
func (db *DB) deleteBatch(ctx context.Context, what, query string, args ...any) (int, error) {
	var n int64
	err := db.WithTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return int(n), nil
}

// Maintain does nothing on SQLite: without statistics its planner picks the
// indexes these queries were written for, and an ANALYZE of a large file
// would hold the one writer for seconds.
func (db *DB) Maintain(context.Context) error { return nil }
