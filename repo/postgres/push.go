package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain/hooks"
)

var _ hooks.PushKeys = (*DB)(nil)

const sqlPushColumns = `id, owner, endpoint, p256dh, auth, expires_at, created_at, game_id, color, COALESCE(link_version, 0)`

// pushSubscriptions lists an address's live subscriptions through q.
func pushSubscriptions(ctx context.Context, q querier, owner string, now time.Time) ([]hooks.PushSubscription, error) {
	return scanPushSubscriptions(q.Query(ctx, `SELECT `+sqlPushColumns+` FROM push_subscriptions
		WHERE owner = $1 AND (expires_at IS NULL OR expires_at > $2) ORDER BY created_at, id`, owner, ms(now)))
}

// scanPushSubscriptions reads the rows of a query of sqlPushColumns.
func scanPushSubscriptions(rows pgx.Rows, err error) ([]hooks.PushSubscription, error) {
	if err != nil {
		return nil, fmt.Errorf("list push subscriptions: %w", err)
	}
	defer rows.Close()
	var out []hooks.PushSubscription
	for rows.Next() {
		var p hooks.PushSubscription
		var expires *time.Time
		if err := rows.Scan(&p.ID, &p.Owner, &p.Endpoint, &p.P256DH, &p.Auth, &expires, &p.CreatedAt, &p.Game, &p.Color, &p.LinkVersion); err != nil {
			return nil, fmt.Errorf("read push subscription: %w", err)
		}
		p.CreatedAt = p.CreatedAt.UTC()
		if expires != nil {
			p.ExpiresAt = expires.UTC()
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list push subscriptions: %w", err)
	}
	return out, nil
}

// PushSubscriptions lists an address's live subscriptions, oldest first.
func (db *DB) PushSubscriptions(ctx context.Context, owner string, now time.Time) ([]hooks.PushSubscription, error) {
	return pushSubscriptions(ctx, db.pool, owner, now)
}

func (s storeTx) PushSubscriptions(ctx context.Context, owner string, now time.Time) ([]hooks.PushSubscription, error) {
	return pushSubscriptions(ctx, s.tx, owner, now)
}

// SavePushSubscription inserts or updates in place; xmax is 0 only in a
// row version this statement inserted, so two instances saving the same
// subscription at once both succeed and exactly one says it created it.
func (s storeTx) SavePushSubscription(ctx context.Context, p hooks.PushSubscription) (int64, bool, error) {
	var id int64
	var created bool
	var version *int
	if p.Game != "" {
		version = &p.LinkVersion
	}
	err := s.tx.QueryRow(ctx, `INSERT INTO push_subscriptions (owner, endpoint, p256dh, auth, expires_at, created_at,
			game_id, color, link_version)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (owner, endpoint, game_id, color) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
			expires_at = excluded.expires_at, created_at = excluded.created_at, link_version = excluded.link_version
		RETURNING id, xmax = 0`, p.Owner, p.Endpoint, p.P256DH, p.Auth, nullTime(p.ExpiresAt), ms(p.CreatedAt),
		p.Game, p.Color, version).Scan(&id, &created)
	if err != nil {
		return 0, false, fmt.Errorf("store push subscription: %w", err)
	}
	return id, created, nil
}

// LockPushOwner takes a transaction-scoped advisory lock on the address
// (an address need not have an account row to lock FOR UPDATE): two
// instances subscribing for one address at once take turns, so the count
// the second sees includes the first's subscription.
func (s storeTx) LockPushOwner(ctx context.Context, owner string) error {
	if _, err := s.tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('push_subscriptions:' || $1, 0))`, owner); err != nil {
		return fmt.Errorf("lock the push subscriptions of an address: %w", err)
	}
	return nil
}

func (s storeTx) DeletePushSubscription(ctx context.Context, owner string, id int64) (bool, error) {
	tag, err := s.tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE id = $1 AND owner = $2`, id, owner)
	if err != nil {
		return false, fmt.Errorf("delete push subscription: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}

func (s storeTx) DeletePushEndpoint(ctx context.Context, endpoint string, now time.Time) (int, error) {
	tag, err := s.tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE endpoint = $1 OR expires_at <= $2`, endpoint, ms(now))
	if err != nil {
		return 0, fmt.Errorf("delete push endpoint: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// PushKey returns the stored VAPID key pair, storing candidate first if
// there is none: of instances starting together, the first insert wins and
// the others read it.
func (db *DB) PushKey(ctx context.Context, candidate hooks.PushKey, now time.Time) (hooks.PushKey, error) {
	var k hooks.PushKey
	err := db.withTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO push_keys (id, private_key, public_key, created_at)
			VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING`, candidate.Private, candidate.Public, ms(now)); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT private_key, public_key FROM push_keys WHERE id = 1`).Scan(&k.Private, &k.Public)
	})
	if err != nil {
		return hooks.PushKey{}, fmt.Errorf("read the VAPID key: %w", err)
	}
	return k, nil
}

func (s storeTx) PushSubscriptionsAt(ctx context.Context, endpoint string) ([]hooks.PushSubscription, error) {
	return scanPushSubscriptions(s.tx.Query(ctx, `SELECT `+sqlPushColumns+` FROM push_subscriptions
		WHERE endpoint = $1 ORDER BY id`, endpoint))
}
