package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/repo/internal/webhookrow"
)

var _ hooks.PushDeliveryStore = (*DB)(nil)

// Deliveries of events are queued by the trigger events_push (migration
// 0022, scoped by 0023), in the transaction that writes the event.

const pushDeliveryColumns = `d.id, d.subscription_id, p.owner, d.kind, d.game_id, d.color, d.ply, d.data, d.event_at, d.attempts,
	d.next_attempt_at, d.delivered_at, d.failed_at IS NOT NULL, d.last_attempt_at, d.last_status, d.last_error`

func scanPushDelivery(row interface{ Scan(...any) error }, more ...any) (hooks.PushDelivery, error) {
	var d hooks.PushDelivery
	var data string
	var eventAt int64
	var next, delivered, last, status sql.NullInt64
	var failed bool
	var lastErr sql.NullString
	dest := append([]any{&d.ID, &d.SubscriptionID, &d.Event.Email, &d.Event.Kind, &d.Event.GameID, &d.Event.Color, &d.Event.Ply,
		&data, &eventAt, &d.Attempts, &next, &delivered, &failed, &last, &status, &lastErr}, more...)
	if err := row.Scan(dest...); err != nil {
		return d, err
	}
	d.Event.At = time.UnixMilli(eventAt).UTC()
	d.NextAttemptAt, d.DeliveredAt, d.LastAttemptAt = fromMillis(next), fromMillis(delivered), fromMillis(last)
	d.LastStatus, d.LastError = int(status.Int64), lastErr.String
	return d, webhookrow.FinishPush(&d, data, delivered.Valid, failed)
}

// PushDeliveries lists the deliveries to an address's subscriptions,
// newest first.
func (db *DB) PushDeliveries(ctx context.Context, owner string, limit int) ([]hooks.PushDelivery, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+pushDeliveryColumns+` FROM push_deliveries d
		JOIN push_subscriptions p ON p.id = d.subscription_id WHERE p.owner = ? ORDER BY d.id DESC LIMIT ?`, owner, limit)
	if err != nil {
		return nil, fmt.Errorf("list push deliveries: %w", err)
	}
	defer rows.Close()
	var out []hooks.PushDelivery
	for rows.Next() {
		d, err := scanPushDelivery(rows)
		if err != nil {
			return nil, fmt.Errorf("list push deliveries: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// ClaimPushes claims up to limit due deliveries for claimant until
// now+lease, with their subscriptions as they are now.
func (db *DB) ClaimPushes(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]hooks.PushJob, error) {
	var out []hooks.PushJob
	err := pushQueue.claim(ctx, db, claimant, now, lease, limit, func(tx *Tx, ids []any, in string) error {
		out = out[:0]
		rows, err := tx.QueryContext(ctx, `SELECT `+pushDeliveryColumns+`, p.endpoint, p.p256dh, p.auth, p.expires_at, p.created_at,
			p.game_id, p.color, COALESCE(p.link_version, 0), COALESCE((SELECT locale FROM users WHERE email = p.owner), '')
			FROM push_deliveries d JOIN push_subscriptions p ON p.id = d.subscription_id
			WHERE d.id IN `+in+` ORDER BY d.next_attempt_at, d.id`, ids...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var j hooks.PushJob
			var expires sql.NullInt64
			var created int64
			s := &j.Subscription
			if j.PushDelivery, err = scanPushDelivery(rows, &s.Endpoint, &s.P256DH, &s.Auth, &expires, &created,
				&s.Game, &s.Color, &s.LinkVersion, &j.Locale); err != nil {
				return err
			}
			s.ID, s.Owner, s.ExpiresAt, s.CreatedAt = j.SubscriptionID, j.Event.Email, fromMillis(expires), time.UnixMilli(created).UTC()
			out = append(out, j)
		}
		return rows.Err()
	})
	return out, err
}

// RecordPushAttempt records an attempt at a delivery claimant holds.
func (db *DB) RecordPushAttempt(ctx context.Context, claimant string, id int64, o hooks.WebhookOutcome) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		_, _, err := pushQueue.record(ctx, tx, claimant, id, o)
		return err
	})
}

// ReleasePushes ends claimant's claim on deliveries it did not try.
func (db *DB) ReleasePushes(ctx context.Context, claimant string, ids []int64) error {
	return pushQueue.release(ctx, db, claimant, ids)
}

// PushBacklog counts the deliveries due at now.
func (db *DB) PushBacklog(ctx context.Context, now time.Time) (int, error) {
	return pushQueue.backlog(ctx, db, now)
}

// PrunePushDeliveries deletes deliveries of events before before that were
// delivered or given up.
func (db *DB) PrunePushDeliveries(ctx context.Context, before time.Time, limit int) (int, error) {
	return pushQueue.prune(ctx, db, before, limit)
}
