package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
)

var _ domain.Inbox = (*DB)(nil)

// StoreInbound keeps a received message unless one with its dedupe key is
// kept already (see domain.Inbox). It returns once the commit is durable.
func (db *DB) StoreInbound(ctx context.Context, m domain.InboundMail) (bool, error) {
	n, err := db.exec(ctx, "store inbound mail", `INSERT INTO inbound (dedupe_key, source, recipient, envelope_from, raw, received_at)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (dedupe_key) DO NOTHING`,
		m.DedupeKey, m.Source, m.Recipient, m.EnvelopeFrom, m.Raw, ms(m.ReceivedAt))
	return n == 1, err
}

// ClaimInbound claims up to limit unprocessed mails for claimant until
// now+lease, oldest first (see domain.Inbox). Claimants run at once: each
// skips the rows another is claiming, so none waits for another.
func (db *DB) ClaimInbound(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]domain.InboundMail, error) {
	var out []domain.InboundMail
	err := db.withTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE inbound SET claimed_by = $1, claimed_until = $2, attempts = attempts + 1
			WHERE id IN (SELECT id FROM inbound WHERE processed_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $3)
				ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED)
			RETURNING id, dedupe_key, source, recipient, envelope_from, raw, received_at, attempts`,
			claimant, ms(now.Add(lease)), ms(now), limit)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.InboundMail, error) {
			var m domain.InboundMail
			err := row.Scan(&m.ID, &m.DedupeKey, &m.Source, &m.Recipient, &m.EnvelopeFrom, &m.Raw, &m.ReceivedAt, &m.Attempts)
			m.ReceivedAt = m.ReceivedAt.UTC()
			return m, err
		})
		return err
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
	_, err := db.exec(ctx, fmt.Sprintf("mark inbound mail %d", id), `UPDATE inbound
		SET processed_at = $1, outcome = $2, claimed_until = NULL
		WHERE id = $3 AND processed_at IS NULL AND claimed_by = $4`, ms(now), outcome, id, claimant)
	return err
}

// PruneInbound deletes received mail processed before before. Mail not yet
// processed is kept, however old.
func (db *DB) PruneInbound(ctx context.Context, before time.Time, limit int) (int, error) {
	return db.exec(ctx, "prune inbound mail", `DELETE FROM inbound WHERE id IN
		(SELECT id FROM inbound WHERE processed_at < $1 ORDER BY processed_at LIMIT $2)`, ms(before), limit)
}
