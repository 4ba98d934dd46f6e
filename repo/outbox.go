package repo

import (
	"context"
	"database/sql"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
)

// enqueue writes an outbox row for each notice, inside the caller's
// transaction: the email exists exactly when the change that causes it
// does. Mail the recipient turned off is left out, and mail to strangers is
// counted against their budget or refuses the change (see admit).
func enqueue(ctx context.Context, tx *Tx, g *domain.Game, notices []domain.Notice, c cause, now time.Time) error {
	for _, n := range notices {
		email := n.Email
		if seat, ok := g.Seat(n.Color); ok && email == "" {
			email = seat.Email
		}
		queue, budgeted, err := admit(ctx, tx, n, email, c, now)
		if err != nil {
			return err
		}
		if !queue {
			continue
		}
		if err := insertOutbox(ctx, tx, n, email, "", "", budgeted, now); err != nil {
			return err
		}
	}
	return nil
}

// sqlInsertOutbox runs for every turn, so it is prepared (see prepared.go).
const sqlInsertOutbox = `INSERT INTO outbox (kind, email, game_id, color, ply, secret, locale, message_id, created_at,
	next_attempt_at, tournament_id, budgeted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// insertOutbox writes one outbox row; locale matters only for mail that
// belongs to no seat (a seat's mail speaks the seat's locale), and budgeted
// counts it against the recipient's budget of mail caused by others.
func insertOutbox(ctx context.Context, tx *Tx, n domain.Notice, email, secret, locale string, budgeted bool, now time.Time) error {
	if locale == "" {
		locale = domain.DefaultLocale
	}
	messageID := randomToken(16)
	if n.Kind == domain.NoticeInvitation {
		// The invitation opens the seat's thread; later mail answers it.
		messageID = n.GameID + "." + n.Color.String()
	}
	var gameID, color, secretCol, tournament sql.NullString
	var ply sql.NullInt64
	if n.GameID != "" {
		gameID = sql.NullString{String: n.GameID, Valid: true}
		color = sql.NullString{String: n.Color.String(), Valid: true}
		ply = sql.NullInt64{Int64: int64(n.Ply), Valid: true}
	}
	if n.Tournament != "" {
		tournament = sql.NullString{String: n.Tournament, Valid: true}
		ply = sql.NullInt64{Int64: int64(n.Ply), Valid: true}
	}
	if secret != "" {
		secretCol = sql.NullString{String: secret, Valid: true}
	}
	_, err := tx.ExecContext(ctx, sqlInsertOutbox, string(n.Kind), email, gameID, color, ply, secretCol, locale, messageID,
		now.UnixMilli(), now.UnixMilli(), tournament, budgeted)
	if err != nil {
		return fmt.Errorf("enqueue %s email: %w", n.Kind, err)
	}
	return nil
}

// Mail is an outbox row to deliver.
type Mail struct {
	ID        int64
	Notice    domain.Notice
	Email     string
	Secret    string // the login token of a login email
	Locale    string // the language of mail that belongs to no seat
	MessageID string // unique per row, so a rare duplicate delivery is recognisable
	Attempts  int
	CreatedAt time.Time
}

// DueMail lists up to limit undelivered mails whose next attempt is due.
func (db *DB) DueMail(ctx context.Context, now time.Time, limit int) ([]Mail, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, kind, email, game_id, color, ply, secret, locale, message_id, attempts, created_at,
		COALESCE(tournament_id, '')
		FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
		now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("read due mail: %w", err)
	}
	defer rows.Close()
	var out []Mail
	for rows.Next() {
		var m Mail
		var kind string
		var gameID, color, secret sql.NullString
		var ply sql.NullInt64
		var created int64
		var tournament string
		if err := rows.Scan(&m.ID, &kind, &m.Email, &gameID, &color, &ply, &secret, &m.Locale, &m.MessageID, &m.Attempts, &created, &tournament); err != nil {
			return nil, fmt.Errorf("read due mail: %w", err)
		}
		m.Notice = domain.Notice{Kind: domain.NoticeKind(kind), GameID: gameID.String, Ply: int(ply.Int64), Email: m.Email,
			Tournament: tournament}
		if color.Valid {
			if m.Notice.Color, err = less.ParseColor(color.String); err != nil {
				return nil, damaged(fmt.Sprintf("read due mail %d", m.ID), err)
			}
		}
		m.Secret = secret.String
		m.CreatedAt = time.UnixMilli(created).UTC()
		out = append(out, m)
	}
	return out, rows.Err()
}

// MarkSent records a delivered mail and forgets its secret.
func (db *DB) MarkSent(ctx context.Context, id int64, now time.Time) error {
	return db.MarkSentBatch(ctx, []SentMail{{ID: id, At: now}})
}

// SentMail is a mail handed to the mail server, and when.
type SentMail struct {
	ID int64
	At time.Time
}

const sqlMarkSent = `UPDATE outbox SET sent_at = ?, secret = NULL, attempts = attempts + 1, last_error = NULL, error_code = NULL
	WHERE id = ? AND sent_at IS NULL`

// MarkSentBatch records delivered mails, as MarkSent does, in one
// transaction: the outbox worker records what it sent in batches, because a
// transaction per mail costs more than rendering it.
func (db *DB) MarkSentBatch(ctx context.Context, sent []SentMail) error {
	if len(sent) == 0 {
		return nil
	}
	return db.WithTx(ctx, func(tx *Tx) error {
		stmt, err := tx.Tx.PrepareContext(ctx, sqlMarkSent) // parsed once for the batch
		if err != nil {
			return fmt.Errorf("mark mail sent: %w", err)
		}
		defer stmt.Close()
		for _, m := range sent {
			if _, err := stmt.ExecContext(ctx, m.At.UnixMilli(), m.ID); err != nil {
				return fmt.Errorf("mark mail %d sent: %w", m.ID, err)
			}
		}
		return nil
	})
}

// MailFailure is why a delivery attempt failed, as the game's players may
// see it: a stable code and a message lesspost wrote. What the mail server
// said can name other people's addresses, so it is not stored here.
type MailFailure struct {
	Code    string
	Message string
}

// MarkAttemptFailed records a failed delivery: the mail is tried again at
// next, or, when next is zero, given up as failed.
func (db *DB) MarkAttemptFailed(ctx context.Context, id int64, f MailFailure, next, now time.Time) error {
	msg := f.Message
	if len(msg) > 500 {
		cut := 500
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut-- // never store half a character
		}
		msg = msg[:cut]
	}
	return db.WithTx(ctx, func(tx *Tx) error {
		var err error
		if next.IsZero() {
			_, err = tx.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, error_code = ?, last_error = ?, failed_at = ?,
				secret = NULL WHERE id = ? AND sent_at IS NULL`, f.Code, msg, now.UnixMilli(), id)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, error_code = ?, last_error = ?, next_attempt_at = ?
				WHERE id = ? AND sent_at IS NULL`, f.Code, msg, next.UnixMilli(), id)
		}
		if err != nil {
			return fmt.Errorf("mark mail %d failed: %w", id, err)
		}
		return nil
	})
}

// MailStatus is the domain's NoticeDelivery, under the name the store's
// callers knew.
type MailStatus = domain.NoticeDelivery

// GameMail lists the emails a game caused, oldest first.
func (db *DB) GameMail(ctx context.Context, gameID string) ([]MailStatus, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT kind, color, ply, attempts, sent_at IS NOT NULL, failed_at IS NOT NULL,
		COALESCE(error_code, ''), COALESCE(last_error, ''), created_at FROM outbox WHERE game_id = ? ORDER BY id`, gameID)
	if err != nil {
		return nil, fmt.Errorf("read mail of %s: %w", gameID, err)
	}
	defer rows.Close()
	var out []MailStatus
	for rows.Next() {
		var m MailStatus
		var kind string
		var color sql.NullString
		var ply sql.NullInt64
		var sent, failed bool
		var created int64
		if err := rows.Scan(&kind, &color, &ply, &m.Attempts, &sent, &failed, &m.ErrorCode, &m.LastError, &created); err != nil {
			return nil, fmt.Errorf("read mail of %s: %w", gameID, err)
		}
		m.Kind, m.Color, m.Ply = domain.NoticeKind(kind), color.String, int(ply.Int64)
		m.Status = "pending"
		if sent {
			m.Status = "sent"
		} else if failed {
			m.Status = "failed"
		}
		m.CreatedAt = time.UnixMilli(created).UTC()
		out = append(out, m)
	}
	return out, rows.Err()
}
