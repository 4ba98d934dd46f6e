package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
	"github.com/lesspost/lesspost/repo/internal/mailrow"
)

var _ domain.Outbox = (*DB)(nil)

// enqueue queues mail the policy admitted (domain.Tx), in the transaction
// of the change that causes it.
func enqueue(ctx context.Context, tx pgx.Tx, mail []domain.Mail, now time.Time) error {
	for _, m := range mail {
		if err := insertMail(ctx, tx, m, "", now); err != nil {
			return err
		}
	}
	return nil
}

// insertMail writes the outbox row of m, due at once; secret is a login
// token.
func insertMail(ctx context.Context, tx pgx.Tx, m domain.Mail, secret string, now time.Time) error {
	r, err := mailrow.New(m, secret)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO outbox (kind, email, mailbox, game_id, color, ply, secret, locale, message_id, created_at,
		next_attempt_at, tournament_id, budgeted, quiet, detail)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13, $14)`,
		r.Kind, r.Email, r.Mailbox, r.GameID, r.Color, r.Ply, r.Secret, r.Locale, r.MessageID, ms(now), r.Tournament,
		r.Budgeted, r.Quiet, r.Detail)
	if err != nil {
		return fmt.Errorf("enqueue %s email: %w", r.Kind, err)
	}
	return nil
}

// The facts the mail policy reads in a unit of work (domain.MailFacts).

func (s storeTx) MailStops(ctx context.Context, mailbox, email string) (suppressed, unsubscribed bool, err error) {
	err = s.tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM suppressions WHERE mailbox = $1),
		EXISTS (SELECT 1 FROM unsubscribes WHERE email = $2)`, mailbox, email).Scan(&suppressed, &unsubscribed)
	if err != nil {
		return false, false, fmt.Errorf("read mail stops: %w", err)
	}
	return suppressed, unsubscribed, nil
}

func (s storeTx) SeatPlayed(ctx context.Context, gameID, color string) (bool, error) {
	var played bool
	err := s.tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM turns WHERE game_id = $1 AND color = $2 AND NOT auto)`,
		gameID, color).Scan(&played)
	if err != nil {
		return false, fmt.Errorf("read the seat's turns: %w", err)
	}
	return played, nil
}

func (s storeTx) PlayedIn(ctx context.Context, email string, gameIDs []string) (bool, error) {
	var played bool
	err := s.tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM seats s JOIN turns t ON t.game_id = s.game_id AND t.color = s.color
		WHERE s.email = $1 AND s.game_id = ANY($2) AND NOT t.auto)`, email, gameIDs).Scan(&played)
	if err != nil {
		return false, fmt.Errorf("read the address's turns: %w", err)
	}
	return played, nil
}

func (s storeTx) BudgetSpent(ctx context.Context, mailbox string, since time.Time) (int, time.Time, error) {
	var spent int
	var oldest *time.Time
	err := s.tx.QueryRow(ctx, `SELECT count(*), min(created_at) FROM outbox WHERE mailbox = $1 AND budgeted AND created_at > $2`,
		mailbox, ms(since)).Scan(&spent, &oldest)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("read mail budget: %w", err)
	}
	return spent, utc(oldest), nil
}

// TakeRequest takes one request from key's bucket in the unit of work (see
// DB.TakeRequest).
func (s storeTx) TakeRequest(ctx context.Context, key string, interval, tolerance time.Duration, now time.Time) (bool, time.Duration, error) {
	return takeRequest(ctx, s.tx, key, interval, tolerance, now)
}

var _ domain.MailFacts = storeTx{}

// mailColumns are the columns scanMail reads, in its order.
const mailColumns = `id, kind, email, game_id, color, ply, secret, locale, message_id, attempts, created_at,
	tournament_id, quiet, detail`

func scanMail(row pgx.CollectableRow) (domain.OutboxMail, error) {
	var r mailrow.Read
	if err := row.Scan(&r.ID, &r.Kind, &r.Email, &r.GameID, &r.Color, &r.Ply, &r.Secret, &r.Locale, &r.MessageID,
		&r.Attempts, &r.CreatedAt, &r.Tournament, &r.Quiet, &r.Detail); err != nil {
		return domain.OutboxMail{}, err
	}
	m, err := r.Mail()
	if err != nil {
		return m, gamerow.Damaged("read mail", err)
	}
	return m, nil
}

// sqlClaimMail claims for $1 until $2 the oldest claimable mails at $3, at
// most $4 (see domain.Outbox): due, not under a live lease, and with no
// earlier undelivered mail of its thread (address and game) that is under
// a live lease or waiting for a retry.
//
// Claimants run at once: each locks its candidates FOR UPDATE SKIP LOCKED,
// so none waits for another's. But a claimant that skips a mail another is
// claiming could take a later mail of the same thread, which must wait for
// it. So of its candidates a claimant takes only those whose thread has no
// earlier undelivered mail outside its candidates: whatever it skipped
// blocks the rest of its thread, as it would once the other's claim is
// committed. (A mail another claimant committed after this statement began
// is re-checked by the row lock, which reads its latest version.)
const sqlClaimMail = `
	WITH candidates AS (
		SELECT o.id, o.email, COALESCE(o.game_id, '') AS thread FROM outbox o
		WHERE o.sent_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= $3
			AND (o.claimed_until IS NULL OR o.claimed_until <= $3)
			AND NOT EXISTS (SELECT 1 FROM outbox e
				WHERE e.email = o.email AND COALESCE(e.game_id, '') = COALESCE(o.game_id, '') AND e.id < o.id
					AND e.sent_at IS NULL AND e.failed_at IS NULL
					AND (e.next_attempt_at > $3 OR e.claimed_until > $3))
		ORDER BY o.id LIMIT $4
		FOR UPDATE OF o SKIP LOCKED
	), claimable AS (
		SELECT c.id FROM candidates c
		WHERE NOT EXISTS (SELECT 1 FROM outbox e
			WHERE e.email = c.email AND COALESCE(e.game_id, '') = c.thread AND e.id < c.id
				AND e.sent_at IS NULL AND e.failed_at IS NULL
				AND e.id NOT IN (SELECT id FROM candidates))
	)
	UPDATE outbox SET claimed_by = $1, claimed_until = $2 WHERE id IN (SELECT id FROM claimable)
	RETURNING ` + mailColumns

// ClaimMail claims up to limit due mails for claimant until now+lease,
// oldest first (see domain.Outbox and sqlClaimMail).
func (db *DB) ClaimMail(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]domain.OutboxMail, error) {
	var out []domain.OutboxMail
	err := db.withTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, sqlClaimMail, claimant, ms(now.Add(lease)), ms(now), limit)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, scanMail)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claim mail: %w", err)
	}
	// RETURNING gives no order; the worker sends each thread in outbox order.
	slices.SortFunc(out, func(a, b domain.OutboxMail) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// DueMail lists up to limit undelivered mails whose next attempt is due,
// claimed or not. It only reads: workers claim mail with ClaimMail.
func (db *DB) DueMail(ctx context.Context, now time.Time, limit int) ([]domain.OutboxMail, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+mailColumns+` FROM outbox
		WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $2`,
		ms(now), limit)
	if err != nil {
		return nil, fmt.Errorf("read due mail: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanMail)
	if err != nil {
		return nil, fmt.Errorf("read due mail: %w", err)
	}
	return out, nil
}

// MarkSent records a delivered mail and forgets its secret, whoever holds
// it: for tests and tools that deliver without claiming.
func (db *DB) MarkSent(ctx context.Context, id int64, now time.Time) error {
	_, err := db.exec(ctx, fmt.Sprintf("mark mail %d sent", id), `UPDATE outbox SET sent_at = $1, secret = NULL,
		attempts = attempts + 1, last_error = NULL, error_code = NULL, claimed_until = NULL
		WHERE id = $2 AND sent_at IS NULL`, ms(now), id)
	return err
}

// MarkSentBatch records delivered mails that claimant holds, and forgets
// their secrets, in one statement. A mail another claimant took over since
// is left to them; claimed_by stays, to say which worker delivered it.
func (db *DB) MarkSentBatch(ctx context.Context, claimant string, sent []domain.SentMail) error {
	if len(sent) == 0 {
		return nil
	}
	ids := make([]int64, len(sent))
	at := make([]time.Time, len(sent))
	for i, m := range sent {
		ids[i], at[i] = m.ID, ms(m.At)
	}
	_, err := db.exec(ctx, "mark mail sent", `UPDATE outbox o SET sent_at = s.at, secret = NULL, attempts = attempts + 1,
		last_error = NULL, error_code = NULL, claimed_until = NULL
		FROM unnest($1::bigint[], $2::timestamptz[]) AS s (id, at)
		WHERE o.id = s.id AND o.sent_at IS NULL AND o.claimed_by = $3`, ids, at, claimant)
	return err
}

// MarkAttemptFailed records a failed delivery of a mail claimant holds: the
// mail is tried again at next, or, when next is zero, given up as failed.
func (db *DB) MarkAttemptFailed(ctx context.Context, claimant string, id int64, f domain.MailFailure, next, now time.Time) error {
	what := fmt.Sprintf("mark mail %d failed", id)
	msg := mailrow.ErrorMessage(f)
	var err error
	if next.IsZero() {
		// claimed_by stays, to say which worker gave it up.
		_, err = db.exec(ctx, what, `UPDATE outbox SET attempts = attempts + 1, error_code = $1, last_error = $2,
			failed_at = $3, secret = NULL, claimed_until = NULL
			WHERE id = $4 AND sent_at IS NULL AND failed_at IS NULL AND claimed_by = $5`, f.Code, msg, ms(now), id, claimant)
	} else {
		_, err = db.exec(ctx, what, `UPDATE outbox SET attempts = attempts + 1, error_code = $1, last_error = $2,
			next_attempt_at = $3, claimed_by = NULL, claimed_until = NULL
			WHERE id = $4 AND sent_at IS NULL AND failed_at IS NULL AND claimed_by = $5`, f.Code, msg, ms(next), id, claimant)
	}
	return err
}

// ReleaseMail ends claimant's claim on mails it did not try, so that they
// are due again at once rather than when the lease ends.
func (db *DB) ReleaseMail(ctx context.Context, claimant string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := db.exec(ctx, "release mail", `UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
		WHERE id = ANY($1) AND sent_at IS NULL AND failed_at IS NULL AND claimed_by = $2`, ids, claimant)
	return err
}

// GameMail lists the emails a game caused, oldest first.
func (db *DB) GameMail(ctx context.Context, gameID string) ([]domain.NoticeDelivery, error) {
	rows, err := db.pool.Query(ctx, `SELECT kind, COALESCE(color, ''), COALESCE(ply, 0), attempts, sent_at IS NOT NULL,
		failed_at IS NOT NULL, COALESCE(error_code, ''), COALESCE(last_error, ''), created_at
		FROM outbox WHERE game_id = $1 ORDER BY id`, gameID)
	if err != nil {
		return nil, fmt.Errorf("read mail of %s: %w", gameID, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.NoticeDelivery, error) {
		var m domain.NoticeDelivery
		var sent, failed bool
		if err := row.Scan(&m.Kind, &m.Color, &m.Ply, &m.Attempts, &sent, &failed, &m.ErrorCode, &m.LastError,
			&m.CreatedAt); err != nil {
			return m, err
		}
		m.Status, m.CreatedAt = mailrow.Status(sent, failed), m.CreatedAt.UTC()
		return m, nil
	})
	if err != nil {
		return nil, fmt.Errorf("read mail of %s: %w", gameID, err)
	}
	return out, nil
}

// Suppress puts an address's mailbox (domain.Mailbox) on the suppression
// list: from now on none of its addresses gets more than the login mail it
// asks for itself, and their mail still waiting in the outbox is marked
// failed. Doing it again changes nothing.
func (db *DB) Suppress(ctx context.Context, email string, now time.Time) error {
	mailbox := domain.Mailbox(email)
	return db.withTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO suppressions (mailbox, created_at) VALUES ($1, $2) ON CONFLICT (mailbox) DO NOTHING`,
			mailbox, ms(now))
		if err != nil {
			return fmt.Errorf("suppress: %w", err)
		}
		_, err = tx.Exec(ctx, `UPDATE outbox SET failed_at = $1, error_code = 'suppressed', last_error = $2
			WHERE mailbox = $3 AND kind <> 'login' AND sent_at IS NULL AND failed_at IS NULL`,
			ms(now), "not sent: the address asked for no more email", mailbox)
		if err != nil {
			return fmt.Errorf("suppress: drop queued mail: %w", err)
		}
		return nil
	})
}

// Unsubscribe turns off non-essential mail for an address. Doing it again
// changes nothing.
func (db *DB) Unsubscribe(ctx context.Context, email string, now time.Time) error {
	_, err := db.exec(ctx, "unsubscribe", `INSERT INTO unsubscribes (email, created_at) VALUES ($1, $2)
		ON CONFLICT (email) DO NOTHING`, email, ms(now))
	return err
}

// Resubscribe turns an address's non-essential mail back on.
func (db *DB) Resubscribe(ctx context.Context, email string) error {
	_, err := db.exec(ctx, "resubscribe", `DELETE FROM unsubscribes WHERE email = $1`, email)
	return err
}

// Unsubscribed reports whether an address turned off non-essential mail.
func (db *DB) Unsubscribed(ctx context.Context, email string) (bool, error) {
	var found bool
	if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM unsubscribes WHERE email = $1)`, email).Scan(&found); err != nil {
		return false, fmt.Errorf("read unsubscribes: %w", err)
	}
	return found, nil
}
