package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
	"github.com/lesspost/lesspost/repo/internal/mailrow"
)

// enqueue queues mail the policy admitted (domain.Tx), in the transaction
// of the change that causes it.
func enqueue(ctx context.Context, tx *Tx, mail []domain.Mail, now time.Time) error {
	for _, m := range mail {
		if err := insertMail(ctx, tx, m, "", now); err != nil {
			return err
		}
	}
	return nil
}

// insertMail writes the outbox row of m; secret is a login token.
func insertMail(ctx context.Context, tx *Tx, m domain.Mail, secret string, now time.Time) error {
	r, err := mailrow.New(m, secret)
	if err != nil {
		return err
	}
	return insertOutbox(ctx, tx, r, now)
}

// sqlInsertOutbox runs for every turn, so it is prepared (see prepared.go).
const sqlInsertOutbox = `INSERT INTO outbox (kind, email, mailbox, game_id, color, ply, secret, locale, message_id, created_at,
	next_attempt_at, tournament_id, budgeted, quiet, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// insertOutbox writes one outbox row, due at once.
func insertOutbox(ctx context.Context, tx *Tx, r mailrow.Row, now time.Time) error {
	_, err := tx.ExecContext(ctx, sqlInsertOutbox, r.Kind, r.Email, r.Mailbox, r.GameID, r.Color, r.Ply, r.Secret, r.Locale,
		r.MessageID, now.UnixMilli(), now.UnixMilli(), r.Tournament, r.Budgeted, r.Quiet, r.Detail)
	if err != nil {
		return fmt.Errorf("enqueue %s email: %w", r.Kind, err)
	}
	return nil
}

// mailColumns are the columns scanMail reads, in its order.
const mailColumns = `id, kind, email, game_id, color, ply, secret, locale, message_id, attempts, created_at,
	tournament_id, quiet, detail`

// scanMail reads the mailColumns of one row.
func scanMail(rows *sql.Rows) (domain.OutboxMail, error) {
	var r mailrow.Read
	var created int64
	if err := rows.Scan(&r.ID, &r.Kind, &r.Email, &r.GameID, &r.Color, &r.Ply, &r.Secret, &r.Locale, &r.MessageID,
		&r.Attempts, &created, &r.Tournament, &r.Quiet, &r.Detail); err != nil {
		return domain.OutboxMail{}, err
	}
	r.CreatedAt = time.UnixMilli(created)
	m, err := r.Mail()
	if err != nil {
		return m, gamerow.Damaged("read mail", err)
	}
	return m, nil
}

// DueMail lists up to limit undelivered mails whose next attempt is due,
// claimed or not. It only reads: workers claim mail with ClaimMail.
func (db *DB) DueMail(ctx context.Context, now time.Time, limit int) ([]domain.OutboxMail, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+mailColumns+`
		FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
		now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("read due mail: %w", err)
	}
	defer rows.Close()
	var out []domain.OutboxMail
	for rows.Next() {
		m, err := scanMail(rows)
		if err != nil {
			return nil, fmt.Errorf("read due mail: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// sqlClaimable lists the oldest claimable mails (see domain.Outbox): due,
// not under a live lease, and with no earlier undelivered mail of its
// thread that is under a live lease or waiting for a retry. Taking them
// oldest first means that when a mail is taken, so are the claimable mails
// before it in its thread. The thread is the address and the game, as
// notify groups a claim (mail of no game: the address alone).
//
// ?3 now, ?4 limit (?1 and ?2 are sqlClaimMail's).
const sqlClaimable = `SELECT o.id FROM outbox o INDEXED BY outbox_undelivered
	WHERE o.sent_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= ?3
		AND (o.claimed_until IS NULL OR o.claimed_until <= ?3)
		AND NOT EXISTS (SELECT 1 FROM outbox e INDEXED BY outbox_thread
			WHERE e.email = o.email AND e.game_id IS o.game_id AND e.id < o.id
				AND e.sent_at IS NULL AND e.failed_at IS NULL
				AND (e.next_attempt_at > ?3 OR e.claimed_until > ?3))
	ORDER BY o.id LIMIT ?4`

// sqlClaimMail claims the claimable mails for ?1 until ?2.
const sqlClaimMail = `UPDATE outbox SET claimed_by = ?1, claimed_until = ?2 WHERE id IN (` + sqlClaimable + `)
	RETURNING ` + mailColumns

// ClaimMail claims up to limit due mails for claimant until now+lease,
// oldest first (see domain.Outbox), in one write transaction: two claimants,
// in this process or another on the same file, never claim one mail while
// its lease lasts.
func (db *DB) ClaimMail(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]domain.OutboxMail, error) {
	// A worker looks for mail after every change that queued some, and
	// every second besides: most looks find nothing, and a read costs no
	// other writer (nor another process's) its turn at the write lock.
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM (`+sqlClaimable+`)`, nil, nil, now.UnixMilli(), 1).Scan(&n)
	if err != nil {
		return nil, fmt.Errorf("look for claimable mail: %w", err)
	}
	if n == 0 {
		return nil, nil
	}
	var out []domain.OutboxMail
	err = db.WithTx(ctx, func(tx *Tx) error {
		rows, err := tx.QueryContext(ctx, sqlClaimMail, claimant, now.Add(lease).UnixMilli(), now.UnixMilli(), limit)
		if err != nil {
			return fmt.Errorf("claim mail: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			m, err := scanMail(rows)
			if err != nil {
				return fmt.Errorf("claim mail: %w", err)
			}
			out = append(out, m)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("claim mail: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// RETURNING gives no order; the worker sends each thread in outbox order.
	slices.SortFunc(out, func(a, b domain.OutboxMail) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// MarkSent records a delivered mail and forgets its secret, whoever holds
// it: for tests and tools that deliver without claiming.
func (db *DB) MarkSent(ctx context.Context, id int64, now time.Time) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE outbox SET sent_at = ?, secret = NULL, attempts = attempts + 1, last_error = NULL,
			error_code = NULL, claimed_until = NULL WHERE id = ? AND sent_at IS NULL`, now.UnixMilli(), id); err != nil {
			return fmt.Errorf("mark mail %d sent: %w", id, err)
		}
		return nil
	})
}

// sqlMarkSent records a delivery by the mail's claimant (claimed_by = ?:
// mail nobody holds matches no claimant). claimed_by stays, to say which
// worker delivered it.
const sqlMarkSent = `UPDATE outbox SET sent_at = ?, secret = NULL, attempts = attempts + 1, last_error = NULL, error_code = NULL,
	claimed_until = NULL
	WHERE id = ? AND sent_at IS NULL AND claimed_by = ?`

// MarkSentBatch records delivered mails that claimant holds, and forgets
// their secrets, in one transaction: the outbox worker records what it sent
// in batches, because a transaction per mail costs more than rendering it.
// A mail another claimant took over since is left to them.
func (db *DB) MarkSentBatch(ctx context.Context, claimant string, sent []domain.SentMail) error {
	if len(sent) == 0 {
		return nil
	}
	return db.WithTx(ctx, func(tx *Tx) error {
		stmt, err := tx.PrepareContext(ctx, sqlMarkSent) // parsed once for the batch
		if err != nil {
			return fmt.Errorf("mark mail sent: %w", err)
		}
		defer stmt.Close()
		for _, m := range sent {
			if _, err := stmt.ExecContext(ctx, m.At.UnixMilli(), m.ID, claimant); err != nil {
				return fmt.Errorf("mark mail %d sent: %w", m.ID, err)
			}
		}
		return nil
	})
}

// MarkAttemptFailed records a failed delivery of a mail claimant holds: the
// mail is tried again at next, or, when next is zero, given up as failed.
func (db *DB) MarkAttemptFailed(ctx context.Context, claimant string, id int64, f domain.MailFailure, next, now time.Time) error {
	msg := mailrow.ErrorMessage(f)
	return db.WithTx(ctx, func(tx *Tx) error {
		var err error
		if next.IsZero() {
			// claimed_by stays, to say which worker gave it up.
			_, err = tx.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, error_code = ?, last_error = ?, failed_at = ?,
				secret = NULL, claimed_until = NULL WHERE id = ? AND sent_at IS NULL AND failed_at IS NULL AND claimed_by = ?`,
				f.Code, msg, now.UnixMilli(), id, claimant)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, error_code = ?, last_error = ?, next_attempt_at = ?,
				claimed_by = NULL, claimed_until = NULL WHERE id = ? AND sent_at IS NULL AND failed_at IS NULL AND claimed_by = ?`,
				f.Code, msg, next.UnixMilli(), id, claimant)
		}
		if err != nil {
			return fmt.Errorf("mark mail %d failed: %w", id, err)
		}
		return nil
	})
}

// ReleaseMail ends claimant's claim on mails it did not try, so that they
// are due again at once rather than when the lease ends.
func (db *DB) ReleaseMail(ctx context.Context, claimant string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	return db.WithTx(ctx, func(tx *Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
				WHERE id = ? AND sent_at IS NULL AND failed_at IS NULL AND claimed_by = ?`, id, claimant); err != nil {
				return fmt.Errorf("release mail %d: %w", id, err)
			}
		}
		return nil
	})
}

var _ domain.Outbox = (*DB)(nil)

// GameMail lists the emails a game caused, oldest first.
func (db *DB) GameMail(ctx context.Context, gameID string) ([]domain.NoticeDelivery, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT kind, color, ply, attempts, sent_at IS NOT NULL, failed_at IS NOT NULL,
		COALESCE(error_code, ''), COALESCE(last_error, ''), created_at FROM outbox WHERE game_id = ? ORDER BY id`, gameID)
	if err != nil {
		return nil, fmt.Errorf("read mail of %s: %w", gameID, err)
	}
	defer rows.Close()
	var out []domain.NoticeDelivery
	for rows.Next() {
		var m domain.NoticeDelivery
		var kind string
		var color sql.NullString
		var ply sql.NullInt64
		var sent, failed bool
		var created int64
		if err := rows.Scan(&kind, &color, &ply, &m.Attempts, &sent, &failed, &m.ErrorCode, &m.LastError, &created); err != nil {
			return nil, fmt.Errorf("read mail of %s: %w", gameID, err)
		}
		m.Kind, m.Color, m.Ply = domain.NoticeKind(kind), color.String, int(ply.Int64)
		m.Status = mailrow.Status(sent, failed)
		m.CreatedAt = time.UnixMilli(created).UTC()
		out = append(out, m)
	}
	return out, rows.Err()
}
