package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
)

var _ domain.RateLimiter = (*DB)(nil)

// sqlTakeRequest takes a request from a bucket in one statement: a new key
// starts full (f = now); a known key is updated only where the take is
// allowed, so a refused take writes nothing and returns no row. ?1 key,
// ?2 now, ?3 interval, ?4 tolerance, all times in nanoseconds.
const sqlTakeRequest = `INSERT INTO rate_limits (key, full_at) VALUES (?1, ?2 + ?3)
	ON CONFLICT (key) DO UPDATE SET full_at = max(full_at, ?2) + ?3
	WHERE max(full_at, ?2) - ?2 <= ?4
	RETURNING full_at`

// sqlSelectRateLimit reads a bucket's full time, to say how long a refused
// take must wait.
const sqlSelectRateLimit = `SELECT full_at FROM rate_limits WHERE key = ?`

// TakeRequest takes one request from key's bucket (see domain.RateLimiter).
//
// An empty bucket refuses on the read pool, so that a client hammering its
// limit costs the one writer nothing. The read sees committed state, so its
// refusal holds as of that moment; a take it lets by is decided again, in
// one statement, by the writer.
func (db *DB) TakeRequest(ctx context.Context, key string, interval, tolerance time.Duration, now time.Time) (bool, time.Duration, error) {
	at := now.UnixNano()
	refusal := func(full int64) time.Duration { return time.Duration(max(full, at) - at - int64(tolerance)) }
	var full int64
	switch err := db.read.QueryRowContext(ctx, sqlSelectRateLimit, key).Scan(&full); {
	case err == nil && refusal(full) > 0:
		return false, refusal(full), nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return false, 0, fmt.Errorf("take request %s: %w", key, err)
	}
	var ok bool
	var wait time.Duration
	err := db.WithTx(ctx, func(tx *Tx) (err error) {
		ok, wait, err = storeTx{tx}.TakeRequest(ctx, key, interval, tolerance, now)
		return err
	})
	return ok, wait, err
}

// ReturnRequest gives back a request TakeRequest took.
func (db *DB) ReturnRequest(ctx context.Context, key string, interval time.Duration) error {
	err := db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE rate_limits SET full_at = full_at - ? WHERE key = ?`, int64(interval), key)
		return err
	})
	if err != nil {
		return fmt.Errorf("return request %s: %w", key, err)
	}
	return nil
}

// PruneRateLimits deletes keys whose bucket is full at now: a missing key
// is a full bucket, so nothing is lost.
func (db *DB) PruneRateLimits(ctx context.Context, now time.Time, limit int) (int, error) {
	return db.deleteBatch(ctx, "prune rate limits", `DELETE FROM rate_limits WHERE key IN
		(SELECT key FROM rate_limits WHERE full_at <= ? ORDER BY full_at LIMIT ?)`, now.UnixNano(), limit)
}
