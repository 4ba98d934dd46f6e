package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// Login links are valid this long and only once.
const LoginTTL = 15 * time.Minute

// maxLoginsPerHour bounds the login emails one address receives, so the
// server cannot be used to flood anyone's inbox.
const maxLoginsPerHour = 5

// User is an account, known by its email address.
type User struct {
	ID           int64
	Email        string
	Name         string
	Locale       string
	VacationDays int // per calendar year
	// CalendarVersion is the version of the calendar link: replacing the
	// link bumps it, and calendar tokens of older versions are refused.
	CalendarVersion int
	CreatedAt       time.Time
}

// RequestLogin creates a single-use login token for the address and queues
// the email that carries it, in one transaction. The token itself is stored
// only in the outbox row until the email is sent; the table of tokens keeps
// its hash.
func (db *DB) RequestLogin(ctx context.Context, email, locale string, now time.Time) error {
	token := randomToken(20)
	return db.WithTx(ctx, func(tx *Tx) error {
		var recent int
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM login_tokens WHERE email = ? AND expires_at > ?`,
			email, now.Add(-time.Hour+LoginTTL).UnixMilli()).Scan(&recent)
		if err != nil {
			return fmt.Errorf("count login requests: %w", err)
		}
		if recent >= maxLoginsPerHour {
			return domain.Errorf(domain.KindRateLimited, domain.CodeTooManyLogins,
				"too many login links for this address in the last hour; use one already sent or try later")
		}
		if locale == "" {
			if locale, err = accountLocale(ctx, tx, email); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO login_tokens (hash, email, expires_at) VALUES (?, ?, ?)`,
			hashToken(token), email, now.Add(LoginTTL).UnixMilli())
		if err != nil {
			return fmt.Errorf("store login token: %w", err)
		}
		// Login mail is what the owner of the address asks for himself: it
		// goes even to a suppressed address and is not counted against its
		// budget (maxLoginsPerHour caps it).
		return insertOutbox(ctx, tx, domain.Notice{Kind: domain.NoticeLogin, Email: email}, email, token, locale, false, now)
	})
}

// Session is a signed-in user's session.
type Session struct {
	ID        string
	User      User
	ExpiresAt time.Time
}

// ExchangeLogin spends a login token: it must exist, be unused and not
// expired. The account is created on first login. It returns a new session.
func (db *DB) ExchangeLogin(ctx context.Context, token string, ttl time.Duration, now time.Time) (Session, error) {
	var s Session
	err := db.WithTx(ctx, func(tx *Tx) error {
		var email string
		err := tx.QueryRowContext(ctx, `UPDATE login_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ?
			RETURNING email`, now.UnixMilli(), hashToken(token), now.UnixMilli()).Scan(&email)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Errorf(domain.KindUnauthorized, domain.CodeLoginInvalid,
				"this login link is unknown, used or expired: ask for a new one")
		}
		if err != nil {
			return fmt.Errorf("spend login token: %w", err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO users (email, created_at) VALUES (?, ?) ON CONFLICT (email) DO NOTHING`,
			email, now.UnixMilli())
		if err != nil {
			return fmt.Errorf("create user: %w", err)
		}
		if s.User, err = userByEmail(ctx, tx, email); err != nil {
			return err
		}
		s.ID, s.ExpiresAt = randomToken(16), now.Add(ttl)
		_, err = tx.ExecContext(ctx, `INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			s.ID, s.User.ID, now.UnixMilli(), s.ExpiresAt.UnixMilli())
		if err != nil {
			return fmt.Errorf("create session: %w", err)
		}
		return nil
	})
	return s, err
}

// sqlSelectSession runs on every signed-in request, so it is prepared.
const sqlSelectSession = `SELECT s.expires_at, u.id, u.email, u.name, u.locale, u.vacation_days, u.calendar_version, u.created_at
	FROM sessions s JOIN users u ON u.id = s.user_id
	WHERE s.id = ? AND s.revoked_at IS NULL AND s.expires_at > ?`

// ActiveSession returns the session if it exists and is neither revoked nor expired.
func (db *DB) ActiveSession(ctx context.Context, id string, now time.Time) (Session, error) {
	s := Session{ID: id}
	var expires, created int64
	err := db.read.QueryRowContext(ctx, sqlSelectSession, id, now.UnixMilli()).Scan(
		&expires, &s.User.ID, &s.User.Email, &s.User.Name, &s.User.Locale, &s.User.VacationDays, &s.User.CalendarVersion, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, domain.Errorf(domain.KindUnauthorized, domain.CodeUnauthorized, "the session has ended: sign in again")
	}
	if err != nil {
		return Session{}, fmt.Errorf("read session: %w", err)
	}
	s.ExpiresAt, s.User.CreatedAt = time.UnixMilli(expires).UTC(), time.UnixMilli(created).UTC()
	return s, nil
}

// RevokeSession ends a session (logout).
func (db *DB) RevokeSession(ctx context.Context, id string, now time.Time) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, now.UnixMilli(), id)
		if err != nil {
			return fmt.Errorf("revoke session: %w", err)
		}
		return nil
	})
}

// UpdateUser changes an account's name and locale.
func (db *DB) UpdateUser(ctx context.Context, id int64, name, locale string) (User, error) {
	var u User
	err := db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET name = ?, locale = ? WHERE id = ?`, name, locale, id); err != nil {
			return fmt.Errorf("update user: %w", err)
		}
		var email string
		if err := tx.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, id).Scan(&email); err != nil {
			return fmt.Errorf("update user: %w", err)
		}
		var err error
		u, err = userByEmail(ctx, tx, email)
		return err
	})
	return u, err
}

// RotateCalendarLink replaces an account's calendar link: links of the
// previous versions stop working. It returns the account.
func (db *DB) RotateCalendarLink(ctx context.Context, id int64) (User, error) {
	var u User
	err := db.WithTx(ctx, func(tx *Tx) error {
		var email string
		err := tx.QueryRowContext(ctx, `UPDATE users SET calendar_version = calendar_version + 1 WHERE id = ? RETURNING email`,
			id).Scan(&email)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no such account")
		}
		if err != nil {
			return fmt.Errorf("replace calendar link: %w", err)
		}
		u, err = userByEmail(ctx, tx, email)
		return err
	})
	return u, err
}

func userByEmail(ctx context.Context, q queryer, email string) (User, error) {
	u := User{Email: email}
	var created int64
	err := q.QueryRowContext(ctx, `SELECT id, name, locale, vacation_days, calendar_version, created_at FROM users WHERE email = ?`,
		email).Scan(&u.ID, &u.Name, &u.Locale, &u.VacationDays, &u.CalendarVersion, &created)
	if err != nil {
		return User{}, fmt.Errorf("read user: %w", err)
	}
	u.CreatedAt = time.UnixMilli(created).UTC()
	return u, nil
}

// accountLocale is the language an address chose for its account, or the
// default when it has no account.
func accountLocale(ctx context.Context, q queryer, email string) (string, error) {
	var locale string
	err := q.QueryRowContext(ctx, `SELECT locale FROM users WHERE email = ?`, email).Scan(&locale)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.DefaultLocale, nil
	}
	if err != nil {
		return "", fmt.Errorf("read account locale: %w", err)
	}
	return locale, nil
}

// userEmail is the address of an account.
func userEmail(ctx context.Context, q queryer, id int64) (string, error) {
	var email string
	if err := q.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, id).Scan(&email); err != nil {
		return "", fmt.Errorf("read user %d: %w", id, err)
	}
	return email, nil
}
