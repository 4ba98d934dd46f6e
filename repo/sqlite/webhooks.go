package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/repo/internal/webhookrow"
)

var _ hooks.WebhookStore = (*DB)(nil)

// Deliveries of events are queued by the trigger events_webhooks
// (migration 0019), in the transaction that writes the event.

const endpointColumns = `id, user_id, url, description, event_types, enabled, disabled_reason, previous_until,
	created_at, updated_at`

func scanEndpoint(row interface{ Scan(...any) error }) (hooks.WebhookEndpoint, error) {
	var e hooks.WebhookEndpoint
	var types string
	var until sql.NullInt64
	var created, updated int64
	if err := row.Scan(&e.ID, &e.UserID, &e.URL, &e.Description, &types, &e.Enabled, &e.DisabledReason, &until,
		&created, &updated); err != nil {
		return e, err
	}
	e.EventTypes = webhookrow.ParseTypes(types)
	e.PreviousSecretUntil = fromMillis(until)
	e.CreatedAt, e.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return e, nil
}

// Webhooks lists an account's endpoints, oldest first.
func (db *DB) Webhooks(ctx context.Context, userID int64) ([]hooks.WebhookEndpoint, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints WHERE user_id = ? ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	defer rows.Close()
	out := []hooks.WebhookEndpoint{}
	for rows.Next() {
		e, err := scanEndpoint(rows)
		if err != nil {
			return nil, fmt.Errorf("list webhooks: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Webhook reads one of an account's endpoints.
func (db *DB) Webhook(ctx context.Context, userID, id int64) (hooks.WebhookEndpoint, error) {
	e, err := scanEndpoint(db.read.QueryRowContext(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints
		WHERE id = ? AND user_id = ?`, id, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return e, webhookrow.EndpointNotFound()
	}
	if err != nil {
		return e, fmt.Errorf("read webhook %d: %w", id, err)
	}
	return e, nil
}

// AddWebhook stores a new endpoint, unless the account has max already.
func (db *DB) AddWebhook(ctx context.Context, e hooks.WebhookEndpoint, secret string, max int) (int64, error) {
	var id int64
	err := db.WithTx(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM webhook_endpoints WHERE user_id = ?`, e.UserID).Scan(&n); err != nil {
			return fmt.Errorf("count webhooks: %w", err)
		}
		if n >= max {
			return webhookrow.TooMany(max)
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO webhook_endpoints (user_id, url, description, event_types, enabled, secret,
			created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			e.UserID, e.URL, e.Description, webhookrow.Types(e.EventTypes), e.Enabled, secret,
			e.CreatedAt.UnixMilli(), e.UpdatedAt.UnixMilli()).Scan(&id)
		if err != nil {
			return fmt.Errorf("add webhook: %w", err)
		}
		return nil
	})
	return id, err
}

// UpdateWebhook stores an endpoint's settings.
func (db *DB) UpdateWebhook(ctx context.Context, e hooks.WebhookEndpoint) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET url = ?, description = ?, event_types = ?,
			failing_since = CASE WHEN ?4 AND NOT enabled THEN NULL ELSE failing_since END,
			enabled = ?4, disabled_reason = CASE WHEN ?4 THEN '' ELSE disabled_reason END, updated_at = ?
			WHERE id = ? AND user_id = ?`,
			e.URL, e.Description, webhookrow.Types(e.EventTypes), e.Enabled, e.UpdatedAt.UnixMilli(), e.ID, e.UserID)
		if err != nil {
			return fmt.Errorf("update webhook %d: %w", e.ID, err)
		}
		return nil
	})
}

// DeleteWebhook deletes an endpoint and its deliveries.
func (db *DB) DeleteWebhook(ctx context.Context, userID, id int64) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE endpoint_id =
			(SELECT id FROM webhook_endpoints WHERE id = ? AND user_id = ?)`, id, userID); err != nil {
			return fmt.Errorf("delete webhook %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE id = ? AND user_id = ?`, id, userID); err != nil {
			return fmt.Errorf("delete webhook %d: %w", id, err)
		}
		return nil
	})
}

// RotateWebhookSecret makes secret the endpoint's secret; the current one
// signs beside it until until.
func (db *DB) RotateWebhookSecret(ctx context.Context, userID, id int64, secret string, until, now time.Time) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET previous_secret = secret, previous_until = ?, secret = ?,
			updated_at = ? WHERE id = ? AND user_id = ?`, until.UnixMilli(), secret, now.UnixMilli(), id, userID)
		if err != nil {
			return fmt.Errorf("rotate the secret of webhook %d: %w", id, err)
		}
		return nil
	})
}

const deliveryColumns = `d.id, d.endpoint_id, d.msg_id, d.kind, d.game_id, d.color, d.ply, d.data, d.event_at, d.attempts,
	d.next_attempt_at, d.delivered_at, d.failed_at IS NOT NULL, d.last_attempt_at, d.last_status, d.last_error`

func scanDelivery(row interface{ Scan(...any) error }, more ...any) (hooks.WebhookDelivery, error) {
	var d hooks.WebhookDelivery
	var data string
	var eventAt int64
	var next, delivered, last, status sql.NullInt64
	var failed bool
	var lastErr sql.NullString
	dest := append([]any{&d.ID, &d.EndpointID, &d.MsgID, &d.Type, &d.GameID, &d.Color, &d.Ply, &data, &eventAt, &d.Attempts,
		&next, &delivered, &failed, &last, &status, &lastErr}, more...)
	if err := row.Scan(dest...); err != nil {
		return d, err
	}
	d.EventAt = time.UnixMilli(eventAt).UTC()
	d.NextAttemptAt, d.DeliveredAt, d.LastAttemptAt = fromMillis(next), fromMillis(delivered), fromMillis(last)
	d.LastStatus, d.LastError = int(status.Int64), lastErr.String
	return d, webhookrow.Finish(&d, data, delivered.Valid, failed)
}

// WebhookDeliveries lists an endpoint's deliveries, newest first.
func (db *DB) WebhookDeliveries(ctx context.Context, userID, endpointID, before int64, limit int) ([]hooks.WebhookDelivery, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	rows, err := db.read.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
		JOIN webhook_endpoints w ON w.id = d.endpoint_id
		WHERE w.id = ? AND w.user_id = ? AND d.id < ? ORDER BY d.id DESC LIMIT ?`, endpointID, userID, before, limit)
	if err != nil {
		return nil, fmt.Errorf("list webhook deliveries: %w", err)
	}
	defer rows.Close()
	var out []hooks.WebhookDelivery
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, fmt.Errorf("list webhook deliveries: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// WebhookDelivery reads one delivery of an endpoint of the account.
func (db *DB) WebhookDelivery(ctx context.Context, userID, endpointID, id int64) (hooks.WebhookDelivery, error) {
	d, err := scanDelivery(db.read.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
		JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.id = ? AND w.id = ? AND w.user_id = ?`, id, endpointID, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return d, webhookrow.DeliveryNotFound()
	}
	if err != nil {
		return d, fmt.Errorf("read webhook delivery %d: %w", id, err)
	}
	return d, nil
}

// Redeliver queues a delivery again, due at now.
func (db *DB) Redeliver(ctx context.Context, userID, endpointID, id int64, now time.Time) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET next_attempt_at = ?, delivered_at = NULL, failed_at = NULL,
			claimed_by = NULL, claimed_until = NULL
			WHERE id = ? AND endpoint_id = (SELECT id FROM webhook_endpoints WHERE id = ? AND user_id = ?)`,
			now.UnixMilli(), id, endpointID, userID)
		if err != nil {
			return fmt.Errorf("redeliver webhook delivery %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return webhookrow.DeliveryNotFound()
		}
		return nil
	})
}

// QueueWebhook queues a delivery of no stored event.
func (db *DB) QueueWebhook(ctx context.Context, d hooks.WebhookDelivery, now time.Time) (int64, error) {
	data, err := webhookrow.Data(d.Data)
	if err != nil {
		return 0, err
	}
	var id int64
	err = db.WithTx(ctx, func(tx *Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO webhook_deliveries (endpoint_id, msg_id, kind, game_id, color, ply, data,
			event_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			d.EndpointID, d.MsgID, d.Type, d.GameID, d.Color, d.Ply, data, d.EventAt.UnixMilli(), now.UnixMilli()).Scan(&id)
		if err != nil {
			return fmt.Errorf("queue %s webhook: %w", d.Type, err)
		}
		return nil
	})
	return id, err
}

// ClaimWebhooks claims up to limit due deliveries of enabled endpoints for
// claimant until now+lease.
func (db *DB) ClaimWebhooks(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]hooks.WebhookJob, error) {
	var out []hooks.WebhookJob
	err := webhookQueue.claim(ctx, db, claimant, now, lease, limit, func(tx *Tx, ids []any, in string) error {
		out = out[:0]
		rows, err := tx.QueryContext(ctx, `SELECT `+deliveryColumns+`, w.url, w.secret, w.previous_secret, w.previous_until,
			w.failing_since FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
			WHERE d.id IN `+in+` ORDER BY d.next_attempt_at, d.id`, ids...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var j hooks.WebhookJob
			var prev sql.NullString
			var until, failing sql.NullInt64
			if j.WebhookDelivery, err = scanDelivery(rows, &j.URL, &j.Secrets.Current, &prev, &until, &failing); err != nil {
				return err
			}
			j.Secrets.Previous, j.Secrets.PreviousUntil, j.FailingSince = prev.String, fromMillis(until), fromMillis(failing)
			out = append(out, j)
		}
		return rows.Err()
	})
	return out, err
}

// RecordWebhookAttempt records an attempt at a delivery claimant holds.
func (db *DB) RecordWebhookAttempt(ctx context.Context, claimant string, id int64, o hooks.WebhookOutcome) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		endpoint, ok, err := webhookQueue.record(ctx, tx, claimant, id, o)
		if err != nil || !ok {
			return err
		}
		if o.Delivered {
			_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?`, endpoint)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ?`,
				o.At.UnixMilli(), endpoint)
		}
		if err != nil {
			return fmt.Errorf("record webhook attempt %d: %w", id, err)
		}
		if o.Disable == "" {
			return nil
		}
		return disableWebhook(ctx, tx, endpoint, o)
	})
}

// disableWebhook disables an endpoint that was enabled and queues the email
// that tells its owner, in the transaction of the attempt that decided it.
func disableWebhook(ctx context.Context, tx *Tx, endpoint int64, o hooks.WebhookOutcome) error {
	var url, email, locale string
	err := tx.QueryRowContext(ctx, `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ?
		WHERE id = ? AND enabled RETURNING url, (SELECT email FROM users WHERE id = user_id),
		(SELECT locale FROM users WHERE id = user_id)`, o.Disable, o.At.UnixMilli(), endpoint).Scan(&url, &email, &locale)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // disabled already: its owner knows
	}
	if err != nil {
		return fmt.Errorf("disable webhook %d: %w", endpoint, err)
	}
	n := webhookrow.DisabledNotice(email, endpoint, url, o.Disable)
	suppressed, unsubscribed, err := storeTx{tx}.MailStops(ctx, domain.Mailbox(email), email)
	if err != nil {
		return err
	}
	if m, ok := domain.OwnMail(n, email, locale, suppressed, unsubscribed); ok {
		return insertMail(ctx, tx, m, "", o.At)
	}
	return nil
}

// ReleaseWebhooks ends claimant's claim on deliveries it did not try.
func (db *DB) ReleaseWebhooks(ctx context.Context, claimant string, ids []int64) error {
	return webhookQueue.release(ctx, db, claimant, ids)
}

// WebhookBacklog counts the deliveries due at now.
func (db *DB) WebhookBacklog(ctx context.Context, now time.Time) (int, error) {
	return webhookQueue.backlog(ctx, db, now)
}

// PruneWebhookDeliveries deletes deliveries of events before before that
// were delivered or given up.
func (db *DB) PruneWebhookDeliveries(ctx context.Context, before time.Time, limit int) (int, error) {
	return webhookQueue.prune(ctx, db, before, limit)
}

func nullInt(n int) sql.NullInt64 { return sql.NullInt64{Int64: int64(n), Valid: n != 0} }
