package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
)

var _ domain.Inbox = (*DB)(nil)

// StoreInbound keeps a received message unless one with its dedupe key is
// kept already (see domain.Inbox). It returns once the commit is done.
func (db *DB) StoreInbound(ctx context.Context, m domain.InboundMail) (bool, error) {
	var n int64
	err := db.WithTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO inbound (dedupe_key, source, recipient, envelope_from, raw, received_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
			m.DedupeKey, m.Source, m.Recipient, m.EnvelopeFrom, m.Raw, m.ReceivedAt.UnixMilli())
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store inbound mail: %w", err)
	}
	return n == 1, nil
}

// inboundColumns are the columns scanInbound reads, in its order.
const inboundColumns = `id, dedupe_key, source, recipient, envelope_from, raw, received_at, attempts`

// ClaimInbound claims up to limit unprocessed mails for claimant until
// now+lease, oldest first (see domain.Inbox).
func (db *DB) ClaimInbound(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]domain.InboundMail, error) {
	// Most looks find nothing: a read costs the writer nothing.
	var any bool
	err := db.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM inbound WHERE processed_at IS NULL
		AND (claimed_until IS NULL OR claimed_until <= ?))`, now.UnixMilli()).Scan(&any)
	if err != nil {
		return nil, fmt.Errorf("look for inbound mail: %w", err)
	}
	if !any {
		return nil, nil
	}
	var out []domain.InboundMail
	err = db.WithTx(ctx, func(tx *Tx) error {
		rows, err := tx.QueryContext(ctx, `UPDATE inbound SET claimed_by = ?1, claimed_until = ?2, attempts = attempts + 1
			WHERE id IN (SELECT id FROM inbound WHERE processed_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ?3)
				ORDER BY id LIMIT ?4)
			RETURNING `+inboundColumns, claimant, now.Add(lease).UnixMilli(), now.UnixMilli(), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m domain.InboundMail
			var received int64
			if err := rows.Scan(&m.ID, &m.DedupeKey, &m.Source, &m.Recipient, &m.EnvelopeFrom, &m.Raw, &received, &m.Attempts); err != nil {
				return err
			}
			m.ReceivedAt = time.UnixMilli(received).UTC()
			out = append(out, m)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("claim inbound mail: %w", err)
	}
	// RETURNING gives no order.
	slices.SortFunc(out, func(a, b domain.InboundMail) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// MarkInbound records the outcome of a mail claimant holds (see
// domain.Inbox).
func (db *DB) MarkInbound(ctx context.Context, claimant string, id int64, outcome string, now time.Time) error {
	err := db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE inbound SET processed_at = ?, outcome = ?, claimed_until = NULL
			WHERE id = ? AND processed_at IS NULL AND claimed_by = ?`, now.UnixMilli(), outcome, id, claimant)
		return err
	})
	if err != nil {
		return fmt.Errorf("mark inbound mail %d: %w", id, err)
	}
	return nil
}

// PruneInbound deletes received mail processed before before. Mail not yet
// processed is kept, however old.
func (db *DB) PruneInbound(ctx context.Context, before time.Time, limit int) (int, error) {
	return db.deleteBatch(ctx, "prune inbound mail", `DELETE FROM inbound WHERE id IN
		(SELECT id FROM inbound WHERE processed_at < ? ORDER BY processed_at LIMIT ?)`, before.UnixMilli(), limit)
}
