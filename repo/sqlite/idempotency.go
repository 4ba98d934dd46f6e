package sqlite

import (
	"context"
	"time"
)

// ExpireIdempotencyKeys deletes at most limit keys stored before before
// and returns how many it deleted; the scheduler calls it until that is
// fewer than limit, so no single transaction holds the writer for long.
func (db *DB) ExpireIdempotencyKeys(ctx context.Context, before time.Time, limit int) (int, error) {
	return db.deleteBatch(ctx, "expire idempotency keys", `DELETE FROM idempotency_keys WHERE id IN
		(SELECT id FROM idempotency_keys WHERE created_at < ? ORDER BY created_at LIMIT ?)`, before.UnixMilli(), limit)
}
