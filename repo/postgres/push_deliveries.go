package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/repo/internal/webhookrow"
)

var _ hooks.PushDeliveryStore = (*DB)(nil)

// Deliveries of events are queued by the trigger events_push (migration
// 0009, scoped by 0010), in the transaction that writes the event.

const pushDeliveryColumns = `d.id, d.subscription_id, p.owner, d.kind, d.game_id, d.color, d.ply, d.data, d.event_at, d.attempts,
	d.next_attempt_at, d.delivered_at, d.failed_at IS NOT NULL, d.last_attempt_at, COALESCE(d.last_status, 0),
	COALESCE(d.last_error, '')`

func scanPushDelivery(row pgx.Row, more ...any) (hooks.PushDelivery, error) {
	var d hooks.PushDelivery
	var data string
	var next, delivered, last *time.Time
	var failed bool
	dest := append([]any{&d.ID, &d.SubscriptionID, &d.Event.Email, &d.Event.Kind, &d.Event.GameID, &d.Event.Color, &d.Event.Ply,
		&data, &d.Event.At, &d.Attempts, &next, &delivered, &failed, &last, &d.LastStatus, &d.LastError}, more...)
	if err := row.Scan(dest...); err != nil {
		return d, err
	}
	d.Event.At = d.Event.At.UTC()
	d.NextAttemptAt, d.DeliveredAt, d.LastAttemptAt = utc(next), utc(delivered), utc(last)
	return d, webhookrow.FinishPush(&d, data, delivered != nil, failed)
}

// PushDeliveries lists the deliveries to an address's subscriptions,
// newest first.
func (db *DB) PushDeliveries(ctx context.Context, owner string, limit int) ([]hooks.PushDelivery, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+pushDeliveryColumns+` FROM push_deliveries d
		JOIN push_subscriptions p ON p.id = d.subscription_id WHERE p.owner = $1 ORDER BY d.id DESC LIMIT $2`, owner, limit)
	if err != nil {
		return nil, fmt.Errorf("list push deliveries: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (hooks.PushDelivery, error) { return scanPushDelivery(row) })
	if err != nil {
		return nil, fmt.Errorf("list push deliveries: %w", err)
	}
	return out, nil
}

// ClaimPushes claims up to limit due deliveries for claimant until
// now+lease, with their subscriptions as they are now.
func (db *DB) ClaimPushes(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]hooks.PushJob, error) {
	var out []hooks.PushJob
	err := pushQueue.claim(ctx, db, claimant, now, lease, limit, func(tx pgx.Tx, ids []int64) error {
		rows, err := tx.Query(ctx, `SELECT `+pushDeliveryColumns+`, p.endpoint, p.p256dh, p.auth, p.expires_at, p.created_at,
			p.game_id, p.color, COALESCE(p.link_version, 0), COALESCE(u.locale, '')
			FROM push_deliveries d JOIN push_subscriptions p ON p.id = d.subscription_id LEFT JOIN users u ON u.email = p.owner
			WHERE d.id = ANY($1) ORDER BY d.next_attempt_at, d.id`, ids)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (hooks.PushJob, error) {
			var j hooks.PushJob
			var expires *time.Time
			s := &j.Subscription
			var err error
			j.PushDelivery, err = scanPushDelivery(row, &s.Endpoint, &s.P256DH, &s.Auth, &expires, &s.CreatedAt,
				&s.Game, &s.Color, &s.LinkVersion, &j.Locale)
			s.ID, s.Owner, s.ExpiresAt, s.CreatedAt = j.SubscriptionID, j.Event.Email, utc(expires), s.CreatedAt.UTC()
			return j, err
		})
		return err
	})
	return out, err
}

// RecordPushAttempt records an attempt at a delivery claimant holds.
func (db *DB) RecordPushAttempt(ctx context.Context, claimant string, id int64, o hooks.WebhookOutcome) error {
	return db.withTx(ctx, func(tx pgx.Tx) error {
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
