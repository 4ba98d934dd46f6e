package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/repo/internal/webhookrow"
)

var _ hooks.WebhookStore = (*DB)(nil)

// Deliveries of events are queued by the trigger events_webhooks
// (migration 0006), in the transaction that writes the event.

const endpointColumns = `id, user_id, url, description, event_types, enabled, disabled_reason, previous_until,
	created_at, updated_at`

func scanEndpoint(row pgx.Row) (hooks.WebhookEndpoint, error) {
	var e hooks.WebhookEndpoint
	var types string
	var until *time.Time
	if err := row.Scan(&e.ID, &e.UserID, &e.URL, &e.Description, &types, &e.Enabled, &e.DisabledReason, &until,
		&e.CreatedAt, &e.UpdatedAt); err != nil {
		return e, err
	}
	e.EventTypes = webhookrow.ParseTypes(types)
	e.PreviousSecretUntil = utc(until)
	e.CreatedAt, e.UpdatedAt = e.CreatedAt.UTC(), e.UpdatedAt.UTC()
	return e, nil
}

// Webhooks lists an account's endpoints, oldest first.
func (db *DB) Webhooks(ctx context.Context, userID int64) ([]hooks.WebhookEndpoint, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints WHERE user_id = $1 ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (hooks.WebhookEndpoint, error) { return scanEndpoint(row) })
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	if out == nil {
		out = []hooks.WebhookEndpoint{}
	}
	return out, nil
}

// Webhook reads one of an account's endpoints.
func (db *DB) Webhook(ctx context.Context, userID, id int64) (hooks.WebhookEndpoint, error) {
	e, err := scanEndpoint(db.pool.QueryRow(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints
		WHERE id = $1 AND user_id = $2`, id, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return e, webhookrow.EndpointNotFound()
	}
	if err != nil {
		return e, fmt.Errorf("read webhook %d: %w", id, err)
	}
	return e, nil
}

// AddWebhook stores a new endpoint, unless the account has max already.
// The account's row is locked, so that two concurrent additions count each
// other.
func (db *DB) AddWebhook(ctx context.Context, e hooks.WebhookEndpoint, secret string, max int) (int64, error) {
	var id int64
	err := db.withTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, e.UserID); err != nil {
			return fmt.Errorf("lock the account: %w", err)
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM webhook_endpoints WHERE user_id = $1`, e.UserID).Scan(&n); err != nil {
			return fmt.Errorf("count webhooks: %w", err)
		}
		if n >= max {
			return webhookrow.TooMany(max)
		}
		err := tx.QueryRow(ctx, `INSERT INTO webhook_endpoints (user_id, url, description, event_types, enabled, secret,
			created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
			e.UserID, e.URL, e.Description, webhookrow.Types(e.EventTypes), e.Enabled, secret,
			ms(e.CreatedAt), ms(e.UpdatedAt)).Scan(&id)
		if err != nil {
			return fmt.Errorf("add webhook: %w", err)
		}
		return nil
	})
	return id, err
}

// UpdateWebhook stores an endpoint's settings.
func (db *DB) UpdateWebhook(ctx context.Context, e hooks.WebhookEndpoint) error {
	_, err := db.exec(ctx, fmt.Sprintf("update webhook %d", e.ID), `UPDATE webhook_endpoints SET url = $1, description = $2,
		event_types = $3, failing_since = CASE WHEN $4::boolean AND NOT enabled THEN NULL ELSE failing_since END,
		enabled = $4::boolean, disabled_reason = CASE WHEN $4::boolean THEN '' ELSE disabled_reason END, updated_at = $5
		WHERE id = $6 AND user_id = $7`,
		e.URL, e.Description, webhookrow.Types(e.EventTypes), e.Enabled, ms(e.UpdatedAt), e.ID, e.UserID)
	return err
}

// DeleteWebhook deletes an endpoint and its deliveries (ON DELETE CASCADE).
func (db *DB) DeleteWebhook(ctx context.Context, userID, id int64) error {
	_, err := db.exec(ctx, fmt.Sprintf("delete webhook %d", id), `DELETE FROM webhook_endpoints WHERE id = $1 AND user_id = $2`,
		id, userID)
	return err
}

// RotateWebhookSecret makes secret the endpoint's secret; the current one
// signs beside it until until.
func (db *DB) RotateWebhookSecret(ctx context.Context, userID, id int64, secret string, until, now time.Time) error {
	_, err := db.exec(ctx, fmt.Sprintf("rotate the secret of webhook %d", id), `UPDATE webhook_endpoints
		SET previous_secret = secret, previous_until = $1, secret = $2, updated_at = $3 WHERE id = $4 AND user_id = $5`,
		ms(until), secret, ms(now), id, userID)
	return err
}

const deliveryColumns = `d.id, d.endpoint_id, d.msg_id, d.kind, d.game_id, d.color, d.ply, d.data, d.event_at, d.attempts,
	d.next_attempt_at, d.delivered_at, d.failed_at IS NOT NULL, d.last_attempt_at, COALESCE(d.last_status, 0),
	COALESCE(d.last_error, '')`

func scanDelivery(row pgx.Row, more ...any) (hooks.WebhookDelivery, error) {
	var d hooks.WebhookDelivery
	var data string
	var next, delivered, last *time.Time
	var failed bool
	dest := append([]any{&d.ID, &d.EndpointID, &d.MsgID, &d.Type, &d.GameID, &d.Color, &d.Ply, &data, &d.EventAt, &d.Attempts,
		&next, &delivered, &failed, &last, &d.LastStatus, &d.LastError}, more...)
	if err := row.Scan(dest...); err != nil {
		return d, err
	}
	d.EventAt = d.EventAt.UTC()
	d.NextAttemptAt, d.DeliveredAt, d.LastAttemptAt = utc(next), utc(delivered), utc(last)
	return d, webhookrow.Finish(&d, data, delivered != nil, failed)
}

// WebhookDeliveries lists an endpoint's deliveries, newest first.
func (db *DB) WebhookDeliveries(ctx context.Context, userID, endpointID, before int64, limit int) ([]hooks.WebhookDelivery, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	rows, err := db.pool.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
		JOIN webhook_endpoints w ON w.id = d.endpoint_id
		WHERE w.id = $1 AND w.user_id = $2 AND d.id < $3 ORDER BY d.id DESC LIMIT $4`, endpointID, userID, before, limit)
	if err != nil {
		return nil, fmt.Errorf("list webhook deliveries: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (hooks.WebhookDelivery, error) { return scanDelivery(row) })
	if err != nil {
		return nil, fmt.Errorf("list webhook deliveries: %w", err)
	}
	return out, nil
}

// WebhookDelivery reads one delivery of an endpoint of the account.
func (db *DB) WebhookDelivery(ctx context.Context, userID, endpointID, id int64) (hooks.WebhookDelivery, error) {
	d, err := scanDelivery(db.pool.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
		JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.id = $1 AND w.id = $2 AND w.user_id = $3`, id, endpointID, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return d, webhookrow.DeliveryNotFound()
	}
	if err != nil {
		return d, fmt.Errorf("read webhook delivery %d: %w", id, err)
	}
	return d, nil
}

// Redeliver queues a delivery again, due at now.
func (db *DB) Redeliver(ctx context.Context, userID, endpointID, id int64, now time.Time) error {
	n, err := db.exec(ctx, fmt.Sprintf("redeliver webhook delivery %d", id), `UPDATE webhook_deliveries
		SET next_attempt_at = $1, delivered_at = NULL, failed_at = NULL, claimed_by = NULL, claimed_until = NULL
		WHERE id = $2 AND endpoint_id = (SELECT id FROM webhook_endpoints WHERE id = $3 AND user_id = $4)`,
		ms(now), id, endpointID, userID)
	if err == nil && n == 0 {
		return webhookrow.DeliveryNotFound()
	}
	return err
}

// QueueWebhook queues a delivery of no stored event.
func (db *DB) QueueWebhook(ctx context.Context, d hooks.WebhookDelivery, now time.Time) (int64, error) {
	data, err := webhookrow.Data(d.Data)
	if err != nil {
		return 0, err
	}
	var id int64
	err = db.pool.QueryRow(ctx, `INSERT INTO webhook_deliveries (endpoint_id, msg_id, kind, game_id, color, ply, data,
		event_at, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
		d.EndpointID, d.MsgID, d.Type, d.GameID, d.Color, d.Ply, data, ms(d.EventAt), ms(now)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("queue %s webhook: %w", d.Type, err)
	}
	return id, nil
}

// ClaimWebhooks claims up to limit due deliveries of enabled endpoints for
// claimant until now+lease.
func (db *DB) ClaimWebhooks(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]hooks.WebhookJob, error) {
	var out []hooks.WebhookJob
	err := webhookQueue.claim(ctx, db, claimant, now, lease, limit, func(tx pgx.Tx, ids []int64) error {
		rows, err := tx.Query(ctx, `SELECT `+deliveryColumns+`, w.url, w.secret, COALESCE(w.previous_secret, ''),
			w.previous_until, w.failing_since FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
			WHERE d.id = ANY($1) ORDER BY d.next_attempt_at, d.id`, ids)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (hooks.WebhookJob, error) {
			var j hooks.WebhookJob
			var until, failing *time.Time
			var err error
			j.WebhookDelivery, err = scanDelivery(row, &j.URL, &j.Secrets.Current, &j.Secrets.Previous, &until, &failing)
			j.Secrets.PreviousUntil, j.FailingSince = utc(until), utc(failing)
			return j, err
		})
		return err
	})
	return out, err
}

// RecordWebhookAttempt records an attempt at a delivery claimant holds.
func (db *DB) RecordWebhookAttempt(ctx context.Context, claimant string, id int64, o hooks.WebhookOutcome) error {
	return db.withTx(ctx, func(tx pgx.Tx) error {
		endpoint, ok, err := webhookQueue.record(ctx, tx, claimant, id, o)
		if err != nil || !ok {
			return err
		}
		if o.Delivered {
			_, err = tx.Exec(ctx, `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL`,
				endpoint)
		} else {
			_, err = tx.Exec(ctx, `UPDATE webhook_endpoints SET failing_since = $1 WHERE id = $2 AND failing_since IS NULL`,
				ms(o.At), endpoint)
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
// that tells its owner, in the transaction of the attempt that decided it:
// the conditional update lets only one of several workers do it.
func disableWebhook(ctx context.Context, tx pgx.Tx, endpoint int64, o hooks.WebhookOutcome) error {
	var url, email, locale string
	err := tx.QueryRow(ctx, `UPDATE webhook_endpoints w SET enabled = false, disabled_reason = $1, updated_at = $2
		FROM users u WHERE w.id = $3 AND w.enabled AND u.id = w.user_id RETURNING w.url, u.email, u.locale`,
		o.Disable, ms(o.At), endpoint).Scan(&url, &email, &locale)
	if errors.Is(err, pgx.ErrNoRows) {
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

// nullInt is a nullable integer column: 0 is NULL.
func nullInt(n int) any {
	if n == 0 {
		return nil
	}
	return n
}
