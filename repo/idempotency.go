package repo

import (
	"context"
	"time"
)

// IdempotencyKeyLifetime is how long a stored response answers retries with
// its Idempotency-Key. Retries come within minutes; after a week, a turn's
// ply or a resigned game refuses a repeat anyway.
const IdempotencyKeyLifetime = 7 * 24 * time.Hour

// ExpireIdempotencyKeys deletes at most limit keys stored before before
// and returns how many it deleted; the scheduler calls it until that is
// fewer than limit, so no single transaction holds the writer for long.
func (db *DB) ExpireIdempotencyKeys(ctx context.Context, before time.Time, limit int) (int, error) {
	return db.deleteBatch(ctx, "expire idempotency keys", `DELETE FROM idempotency_keys WHERE id IN
		(SELECT id FROM idempotency_keys WHERE created_at < ? ORDER BY created_at LIMIT ?)`, before.UnixMilli(), limit)
}
