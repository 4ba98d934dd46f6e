package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/repo/internal/webhookrow"
)

// deliveryQueue is an outbox of deliveries (webhookrow.Queue) in this
// dialect.
type deliveryQueue struct{ webhookrow.Queue }

var (
	webhookQueue = deliveryQueue{webhookrow.WebhookQueue}
	pushQueue    = deliveryQueue{webhookrow.PushQueue}
)

// claim claims for claimant until now+lease the longest-due deliveries at
// now that are not under a live lease, at most limit, and has load read
// what sending them needs in the same transaction. Claimants on several
// instances skip each other's locked candidates (SKIP LOCKED) instead of
// waiting, and the row lock re-reads a candidate another claimant claimed
// meanwhile, so none is claimed twice.
func (q deliveryQueue) claim(ctx context.Context, db *DB, claimant string, now time.Time, lease time.Duration, limit int,
	load func(tx pgx.Tx, ids []int64) error) error {
	err := db.withTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `
			WITH claimable AS (
				SELECT d.id FROM `+q.Source+`
				WHERE d.next_attempt_at <= $3 AND (d.claimed_until IS NULL OR d.claimed_until <= $3)
				ORDER BY d.next_attempt_at, d.id LIMIT $4
				FOR UPDATE OF d SKIP LOCKED
			)
			UPDATE `+q.Table+` SET claimed_by = $1, claimed_until = $2 WHERE id IN (SELECT id FROM claimable)
			RETURNING id`, claimant, ms(now.Add(lease)), ms(now), limit)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil || len(ids) == 0 {
			return err
		}
		return load(tx, ids)
	})
	if err != nil {
		return fmt.Errorf("claim %s: %w", q.What, err)
	}
	return nil
}

// record records an attempt at a delivery claimant holds and ends the
// claim; ok is false (and nothing changed) when claimant no longer holds
// it. parent is where the delivery goes.
func (q deliveryQueue) record(ctx context.Context, tx pgx.Tx, claimant string, id int64, o hooks.WebhookOutcome) (parent int64, ok bool, err error) {
	err = tx.QueryRow(ctx, `UPDATE `+q.Table+` SET attempts = attempts + 1, last_attempt_at = $1,
		last_status = $2, last_error = $3, claimed_until = NULL,
		delivered_at = CASE WHEN $4::boolean THEN $1::timestamptz END,
		failed_at = CASE WHEN NOT $4::boolean AND $5::timestamptz IS NULL THEN $1::timestamptz END,
		next_attempt_at = CASE WHEN NOT $4::boolean THEN $5::timestamptz END
		WHERE id = $6 AND claimed_by = $7 AND claimed_until IS NOT NULL AND next_attempt_at IS NOT NULL
		RETURNING `+q.Parent,
		ms(o.At), nullInt(o.Status), nullString(webhookrow.ErrorMessage(o.Error)), o.Delivered, nullTime(o.Next),
		id, claimant).Scan(&parent)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil // someone else holds it now, or it is gone
	}
	if err != nil {
		return 0, false, fmt.Errorf("record an attempt at %s delivery %d: %w", q.What, id, err)
	}
	return parent, true, nil
}

// release ends claimant's claim on deliveries it did not try.
func (q deliveryQueue) release(ctx context.Context, db *DB, claimant string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := db.exec(ctx, "release "+q.What, `UPDATE `+q.Table+` SET claimed_by = NULL, claimed_until = NULL
		WHERE id = ANY($1) AND claimed_by = $2`, ids, claimant)
	return err
}

// backlog counts the deliveries due at now, leased or not.
func (q deliveryQueue) backlog(ctx context.Context, db *DB, now time.Time) (int, error) {
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM `+q.Source+` WHERE d.next_attempt_at <= $1`, ms(now)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count due %s: %w", q.What, err)
	}
	return n, nil
}

// prune deletes deliveries of events before before that were delivered or
// given up.
func (q deliveryQueue) prune(ctx context.Context, db *DB, before time.Time, limit int) (int, error) {
	return db.exec(ctx, "prune "+q.What+" deliveries", `DELETE FROM `+q.Table+` WHERE id IN
		(SELECT id FROM `+q.Table+` WHERE event_at < $1 AND next_attempt_at IS NULL ORDER BY event_at LIMIT $2)`,
		ms(before), limit)
}
