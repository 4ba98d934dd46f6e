package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

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

// claimable lists the due deliveries not under a live lease: ?3 now, ?4
// limit.
func (q deliveryQueue) claimable() string {
	return `SELECT d.id FROM ` + q.Source + ` WHERE d.next_attempt_at <= ?3
		AND (d.claimed_until IS NULL OR d.claimed_until <= ?3) ORDER BY d.next_attempt_at, d.id LIMIT ?4`
}

// claim claims up to limit due deliveries for claimant until now+lease, in
// one write transaction (one writer at a time, so two claimants never claim
// one delivery while its lease lasts), and has load read what sending the
// claimed ones needs in that transaction.
func (q deliveryQueue) claim(ctx context.Context, db *DB, claimant string, now time.Time, lease time.Duration, limit int,
	load func(tx *Tx, ids []any, in string) error) error {
	// Most looks find nothing: a read costs no writer its turn.
	var n int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM (`+q.claimable()+`)`, nil, nil, now.UnixMilli(), 1).Scan(&n); err != nil {
		return fmt.Errorf("look for due %s: %w", q.What, err)
	}
	if n == 0 {
		return nil
	}
	return db.WithTx(ctx, func(tx *Tx) error {
		rows, err := tx.QueryContext(ctx, `UPDATE `+q.Table+` SET claimed_by = ?1, claimed_until = ?2
			WHERE id IN (`+q.claimable()+`) RETURNING id`, claimant, now.Add(lease).UnixMilli(), now.UnixMilli(), limit)
		if err != nil {
			return fmt.Errorf("claim %s: %w", q.What, err)
		}
		var ids []any
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fmt.Errorf("claim %s: %w", q.What, err)
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("claim %s: %w", q.What, err)
		}
		if len(ids) == 0 {
			return nil
		}
		if err := load(tx, ids, `(?`+strings.Repeat(", ?", len(ids)-1)+`)`); err != nil {
			return fmt.Errorf("claim %s: %w", q.What, err)
		}
		return nil
	})
}

// record records an attempt at a delivery claimant holds and ends the
// claim; ok is false (and nothing changed) when claimant no longer holds
// it. parent is where the delivery goes.
func (q deliveryQueue) record(ctx context.Context, tx *Tx, claimant string, id int64, o hooks.WebhookOutcome) (parent int64, ok bool, err error) {
	err = tx.QueryRowContext(ctx, `UPDATE `+q.Table+` SET attempts = attempts + 1, last_attempt_at = ?1,
		last_status = ?2, last_error = ?3, claimed_until = NULL,
		delivered_at = CASE WHEN ?4 THEN ?1 END,
		failed_at = CASE WHEN NOT ?4 AND ?5 IS NULL THEN ?1 END,
		next_attempt_at = CASE WHEN NOT ?4 THEN ?5 END
		WHERE id = ?6 AND claimed_by = ?7 AND claimed_until IS NOT NULL AND next_attempt_at IS NOT NULL
		RETURNING `+q.Parent,
		o.At.UnixMilli(), nullInt(o.Status), nullString(webhookrow.ErrorMessage(o.Error)), o.Delivered, millis(o.Next),
		id, claimant).Scan(&parent)
	if errors.Is(err, sql.ErrNoRows) {
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
	args := []any{claimant}
	for _, id := range ids {
		args = append(args, id)
	}
	return db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE `+q.Table+` SET claimed_by = NULL, claimed_until = NULL
			WHERE claimed_by = ? AND id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...)
		if err != nil {
			return fmt.Errorf("release %s: %w", q.What, err)
		}
		return nil
	})
}

// backlog counts the deliveries due at now, leased or not.
func (q deliveryQueue) backlog(ctx context.Context, db *DB, now time.Time) (int, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM `+q.Source+` WHERE d.next_attempt_at <= ?`, now.UnixMilli()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count due %s: %w", q.What, err)
	}
	return n, nil
}

// prune deletes deliveries of events before before that were delivered or
// given up.
func (q deliveryQueue) prune(ctx context.Context, db *DB, before time.Time, limit int) (int, error) {
	return db.deleteBatch(ctx, "prune "+q.What+" deliveries", `DELETE FROM `+q.Table+` WHERE id IN
		(SELECT id FROM `+q.Table+` WHERE event_at < ? AND next_attempt_at IS NULL ORDER BY event_at LIMIT ?)`,
		before.UnixMilli(), limit)
}
