package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Rate limits shared by every instance on the database: per key, the time
// its bucket is full again (generic cell rate algorithm), in Unix
// nanoseconds. Each method is one statement, atomic under concurrency: the
// upsert locks the key's row.

// sqlTakeRequest takes one request from bucket $1 at $2 (interval $3,
// tolerance $4): with f = max(full, now), it stores f + interval if
// f - now <= tolerance. A missing key is a full bucket. The second column
// is the bucket's full time as the statement's snapshot saw it, for the
// wait of a refusal.
const sqlTakeRequest = `
	WITH taken AS (
		INSERT INTO rate_limits AS r (key, full_ns) VALUES ($1, $2::bigint + $3::bigint)
		ON CONFLICT (key) DO UPDATE SET full_ns = GREATEST(r.full_ns, $2::bigint) + $3::bigint
		WHERE GREATEST(r.full_ns, $2::bigint) - $2::bigint <= $4::bigint
		RETURNING full_ns
	)
	SELECT EXISTS (SELECT 1 FROM taken), COALESCE((SELECT full_ns FROM rate_limits WHERE key = $1), 0)`

// TakeRequest takes one request from the bucket named key, under the generic
// cell rate algorithm: the store keeps, per key, the time the bucket is full
// again (full). With f = max(full, now): if f-now > tolerance it takes
// nothing and returns ok=false and wait = f-now-tolerance; else it stores
// full = f+interval and returns ok=true.
func (db *DB) TakeRequest(ctx context.Context, key string, interval, tolerance time.Duration, now time.Time) (ok bool, wait time.Duration, err error) {
	return takeRequest(ctx, db.pool, key, interval, tolerance, now)
}

// takeRequest runs sqlTakeRequest on q (the pool, or a unit of work).
func takeRequest(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, key string, interval, tolerance time.Duration, now time.Time) (ok bool, wait time.Duration, err error) {
	var full int64
	err = q.QueryRow(ctx, sqlTakeRequest, key, now.UnixNano(), int64(interval), int64(tolerance)).Scan(&ok, &full)
	if err != nil {
		return false, 0, fmt.Errorf("take request %s: %w", key, err)
	}
	if ok {
		return true, 0, nil
	}
	wait = time.Duration(max(full, now.UnixNano()) - now.UnixNano() - int64(tolerance))
	if wait <= 0 {
		// The snapshot predates the take that filled the bucket: at least
		// one interval must pass.
		wait = interval
	}
	return false, wait, nil
}

// ReturnRequest gives back a request taken (full -= interval), when a later
// limit refused the request after all. A missing key is no error.
func (db *DB) ReturnRequest(ctx context.Context, key string, interval time.Duration) error {
	if _, err := db.pool.Exec(ctx, `UPDATE rate_limits SET full_ns = full_ns - $2 WHERE key = $1`, key, int64(interval)); err != nil {
		return fmt.Errorf("return request %s: %w", key, err)
	}
	return nil
}

// PruneRateLimits deletes at most limit keys whose bucket is full at now.
func (db *DB) PruneRateLimits(ctx context.Context, now time.Time, limit int) (int, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM rate_limits WHERE key IN
		(SELECT key FROM rate_limits WHERE full_ns <= $1 LIMIT $2)`, now.UnixNano(), limit)
	if err != nil {
		return 0, fmt.Errorf("prune rate limits: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
