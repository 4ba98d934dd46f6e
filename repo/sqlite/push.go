package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain/hooks"
)

var _ hooks.PushKeys = (*DB)(nil)

const sqlPushColumns = `id, owner, endpoint, p256dh, auth, expires_at, created_at, game_id, color, COALESCE(link_version, 0)`

// pushSubscriptions lists an address's live subscriptions through q.
func pushSubscriptions(ctx context.Context, q queryer, owner string, now time.Time) ([]hooks.PushSubscription, error) {
	return scanPushSubscriptions(q.QueryContext(ctx, `SELECT `+sqlPushColumns+` FROM push_subscriptions
		WHERE owner = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at, id`, owner, now.UnixMilli()))
}

// scanPushSubscriptions reads the rows of a query of sqlPushColumns.
func scanPushSubscriptions(rows *sql.Rows, err error) ([]hooks.PushSubscription, error) {
	if err != nil {
		return nil, fmt.Errorf("list push subscriptions: %w", err)
	}
	defer rows.Close()
	var out []hooks.PushSubscription
	for rows.Next() {
		var p hooks.PushSubscription
		var expires sql.NullInt64
		var created int64
		if err := rows.Scan(&p.ID, &p.Owner, &p.Endpoint, &p.P256DH, &p.Auth, &expires, &created, &p.Game, &p.Color, &p.LinkVersion); err != nil {
			return nil, fmt.Errorf("read push subscription: %w", err)
		}
		p.ExpiresAt, p.CreatedAt = fromMillis(expires), time.UnixMilli(created).UTC()
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list push subscriptions: %w", err)
	}
	return out, nil
}

// PushSubscriptions lists an address's live subscriptions, oldest first.
func (db *DB) PushSubscriptions(ctx context.Context, owner string, now time.Time) ([]hooks.PushSubscription, error) {
	return pushSubscriptions(ctx, db.read, owner, now)
}

func (s storeTx) PushSubscriptions(ctx context.Context, owner string, now time.Time) ([]hooks.PushSubscription, error) {
	return pushSubscriptions(ctx, s.tx, owner, now)
}

// SavePushSubscription inserts or updates in place. SQLite has one writer,
// so the look before the upsert cannot race another.
func (s storeTx) SavePushSubscription(ctx context.Context, p hooks.PushSubscription) (int64, bool, error) {
	var existing int64
	if err := s.tx.QueryRowContext(ctx, `SELECT count(*) FROM push_subscriptions
		WHERE owner = ? AND endpoint = ? AND game_id = ? AND color = ?`,
		p.Owner, p.Endpoint, p.Game, p.Color).Scan(&existing); err != nil {
		return 0, false, fmt.Errorf("store push subscription: %w", err)
	}
	var id int64
	err := s.tx.QueryRowContext(ctx, `INSERT INTO push_subscriptions (owner, endpoint, p256dh, auth, expires_at, created_at,
			game_id, color, link_version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (owner, endpoint, game_id, color) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
			expires_at = excluded.expires_at, created_at = excluded.created_at, link_version = excluded.link_version
		RETURNING id`, p.Owner, p.Endpoint, p.P256DH, p.Auth, millis(p.ExpiresAt), p.CreatedAt.UnixMilli(),
		p.Game, p.Color, linkVersion(p)).Scan(&id)
	if err != nil {
		return 0, false, fmt.Errorf("store push subscription: %w", err)
	}
	return id, existing == 0, nil
}

// LockPushOwner does nothing: SQLite has one writer, whose transaction
// holds the database from its start (_txlock=immediate).
func (s storeTx) LockPushOwner(context.Context, string) error { return nil }

// linkVersion is the link_version column of p: NULL for an address-wide
// subscription.
func linkVersion(p hooks.PushSubscription) any {
	if p.Game == "" {
		return nil
	}
	return p.LinkVersion
}

func (s storeTx) DeletePushSubscription(ctx context.Context, owner string, id int64) (bool, error) {
	res, err := s.tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE id = ? AND owner = ?`, id, owner)
	if err != nil {
		return false, fmt.Errorf("delete push subscription: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (s storeTx) DeletePushEndpoint(ctx context.Context, endpoint string, now time.Time) (int, error) {
	res, err := s.tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE endpoint = ? OR expires_at <= ?`,
		endpoint, now.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("delete push endpoint: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// PushKey returns the stored VAPID key pair, storing candidate first if
// there is none.
func (db *DB) PushKey(ctx context.Context, candidate hooks.PushKey, now time.Time) (hooks.PushKey, error) {
	var k hooks.PushKey
	err := db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO push_keys (id, private_key, public_key, created_at)
			VALUES (1, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, candidate.Private, candidate.Public, now.UnixMilli()); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT private_key, public_key FROM push_keys WHERE id = 1`).Scan(&k.Private, &k.Public)
	})
	if err != nil {
		return hooks.PushKey{}, fmt.Errorf("read the VAPID key: %w", err)
	}
	return k, nil
}

func (s storeTx) PushSubscriptionsAt(ctx context.Context, endpoint string) ([]hooks.PushSubscription, error) {
	return scanPushSubscriptions(s.tx.QueryContext(ctx, `SELECT `+sqlPushColumns+` FROM push_subscriptions
		WHERE endpoint = ? ORDER BY id`, endpoint))
}
