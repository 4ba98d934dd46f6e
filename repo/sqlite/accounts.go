package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
)

// LoginTTL is accounts.LoginTTL.
const LoginTTL = accounts.LoginTTL

// The account types are the domain's, under the names the store's callers knew.
type (
	User     = domain.User
	Session  = accounts.Session
	Vacation = games.Vacation
	GamePage = games.GamePage
)

// sqlSelectSession runs on every signed-in request, so it is prepared.
const sqlSelectSession = `SELECT s.expires_at, ` + sqlUserColumns + `
	FROM sessions s JOIN users u ON u.id = s.user_id
	WHERE s.id = ? AND s.revoked_at IS NULL AND s.expires_at > ?`

// sqlUserColumns are an account's columns of users u, in the order
// userFields scans them.
const sqlUserColumns = `u.id, u.email, u.name, u.locale, u.time_zone, u.vacation_days, u.calendar_version,
	u.reply_confirmations, u.created_at`

// userFields are the scan destinations of sqlUserColumns: u, and created
// for created_at in Unix milliseconds.
func userFields(u *User, created *int64) []any {
	return []any{&u.ID, &u.Email, &u.Name, &u.Locale, &u.TimeZone, &u.VacationDays, &u.CalendarVersion,
		&u.ReplyConfirmations, created}
}

// ActiveSession returns the session if it exists and is neither revoked nor expired.
func (db *DB) ActiveSession(ctx context.Context, id string, now time.Time) (Session, error) {
	return activeSession(ctx, db.read, id, now)
}

func (s storeTx) ActiveSession(ctx context.Context, id string, now time.Time) (Session, error) {
	return activeSession(ctx, s.tx, id, now)
}

func activeSession(ctx context.Context, q queryer, id string, now time.Time) (Session, error) {
	s := Session{ID: id}
	var expires, created int64
	err := q.QueryRowContext(ctx, sqlSelectSession, id, now.UnixMilli()).Scan(
		append([]any{&expires}, userFields(&s.User, &created)...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, domain.Errorf(domain.KindUnauthorized, domain.CodeUnauthorized, "the session has ended: sign in again")
	}
	if err != nil {
		return Session{}, fmt.Errorf("read session: %w", err)
	}
	s.ExpiresAt, s.User.CreatedAt = time.UnixMilli(expires).UTC(), time.UnixMilli(created).UTC()
	return s, nil
}

// UserByID reads an account.
func (db *DB) UserByID(ctx context.Context, id int64) (User, error) {
	var email string
	err := db.read.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, id).Scan(&email)
	if err == sql.ErrNoRows {
		return User{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no such account")
	}
	if err != nil {
		return User{}, fmt.Errorf("read user: %w", err)
	}
	return userByEmail(ctx, db.read, email)
}

func (s storeTx) LoginTokensExpiringAfter(ctx context.Context, mailbox string, t time.Time) (int, error) {
	var n int
	err := s.tx.QueryRowContext(ctx, `SELECT count(*) FROM login_tokens WHERE mailbox = ? AND expires_at > ?`,
		mailbox, t.UnixMilli()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count login requests: %w", err)
	}
	return n, nil
}

// AddLoginToken stores the token's hash; the token itself is stored only in
// the outbox row until the email is sent.
func (s storeTx) AddLoginToken(ctx context.Context, t accounts.LoginToken, mail domain.Mail, now time.Time) error {
	_, err := s.tx.ExecContext(ctx, `INSERT INTO login_tokens (hash, email, mailbox, expires_at, code_hash) VALUES (?, ?, ?, ?, ?)`,
		hashToken(t.Token), t.Email, domain.Mailbox(t.Email), t.ExpiresAt.UnixMilli(), t.CodeHash)
	if err != nil {
		return fmt.Errorf("store login token: %w", err)
	}
	return insertMail(ctx, s.tx, mail, t.Token, now)
}

func (s storeTx) SpendLoginToken(ctx context.Context, token string, now time.Time) (string, bool, error) {
	var email string
	err := s.tx.QueryRowContext(ctx, `UPDATE login_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ?
		RETURNING email`, now.UnixMilli(), hashToken(token), now.UnixMilli()).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("spend login token: %w", err)
	}
	return email, true, nil
}

// SpendLoginCode looks the code up by its address: a code is no secret
// among every address's (see accounts.LoginCode).
func (s storeTx) SpendLoginCode(ctx context.Context, email string, codeHash []byte, maxMisses int, now time.Time) (bool, error) {
	res, err := s.tx.ExecContext(ctx, `UPDATE login_tokens SET used_at = ?
		WHERE email = ? AND code_hash = ? AND used_at IS NULL AND expires_at > ? AND code_misses < ?`,
		now.UnixMilli(), email, codeHash, now.UnixMilli(), maxMisses)
	if err != nil {
		return false, fmt.Errorf("spend login code: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n > 0 {
		return n > 0, err
	}
	_, err = s.tx.ExecContext(ctx, `UPDATE login_tokens SET code_misses = code_misses + 1
		WHERE email = ? AND used_at IS NULL AND expires_at > ?`, email, now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("count a wrong login code: %w", err)
	}
	return false, nil
}

func (s storeTx) EnsureUser(ctx context.Context, email string, now time.Time) (User, error) {
	_, err := s.tx.ExecContext(ctx, `INSERT INTO users (email, created_at) VALUES (?, ?) ON CONFLICT (email) DO NOTHING`,
		email, now.UnixMilli())
	if err != nil {
		return User{}, fmt.Errorf("create user: %w", err)
	}
	return userByEmail(ctx, s.tx, email)
}

func (s storeTx) AddSession(ctx context.Context, sess Session, now time.Time) error {
	_, err := s.tx.ExecContext(ctx, `INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		sess.ID, sess.User.ID, now.UnixMilli(), sess.ExpiresAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// AddRefreshToken stores the token's hash only.
func (s storeTx) AddRefreshToken(ctx context.Context, sessionID, token string, expires time.Time) error {
	_, err := s.tx.ExecContext(ctx, `INSERT INTO refresh_tokens (hash, session_id, expires_at) VALUES (?, ?, ?)`,
		hashToken(token), sessionID, expires.UnixMilli())
	if err != nil {
		return fmt.Errorf("store refresh token: %w", err)
	}
	return nil
}

func (s storeTx) SpendRefreshToken(ctx context.Context, token string, now time.Time) (string, accounts.RefreshState, error) {
	var id string
	err := s.tx.QueryRowContext(ctx, `UPDATE refresh_tokens SET spent_at = ? WHERE hash = ? AND spent_at IS NULL AND expires_at > ?
		RETURNING session_id`, now.UnixMilli(), hashToken(token), now.UnixMilli()).Scan(&id)
	if err == nil {
		_, err = s.tx.ExecContext(ctx, `DELETE FROM refresh_tokens WHERE session_id = ? AND expires_at <= ?`, id, now.UnixMilli())
		if err != nil {
			return "", 0, fmt.Errorf("forget expired refresh tokens: %w", err)
		}
		return id, accounts.RefreshSpent, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", 0, fmt.Errorf("spend refresh token: %w", err)
	}
	var spent bool
	err = s.tx.QueryRowContext(ctx, `SELECT session_id, spent_at IS NOT NULL FROM refresh_tokens WHERE hash = ?`,
		hashToken(token)).Scan(&id, &spent)
	switch {
	case errors.Is(err, sql.ErrNoRows) || err == nil && !spent:
		return "", accounts.RefreshUnknown, nil
	case err != nil:
		return "", 0, fmt.Errorf("read refresh token: %w", err)
	}
	return id, accounts.RefreshReused, nil
}

func (s storeTx) RevokeSession(ctx context.Context, id string, now time.Time) error {
	_, err := s.tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, now.UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

func (s storeTx) UpdateUser(ctx context.Context, id int64, set accounts.AccountSettings) (User, error) {
	if _, err := s.tx.ExecContext(ctx, `UPDATE users SET name = ?, locale = ?, time_zone = ?, reply_confirmations = ? WHERE id = ?`,
		set.Name, set.Locale, set.TimeZone, set.ReplyConfirmations, id); err != nil {
		return User{}, fmt.Errorf("update user: %w", err)
	}
	var email string
	if err := s.tx.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, id).Scan(&email); err != nil {
		return User{}, fmt.Errorf("update user: %w", err)
	}
	return userByEmail(ctx, s.tx, email)
}

func (s storeTx) NextCalendarVersion(ctx context.Context, id int64) (User, bool, error) {
	var email string
	err := s.tx.QueryRowContext(ctx, `UPDATE users SET calendar_version = calendar_version + 1 WHERE id = ? RETURNING email`,
		id).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, false, nil
	}
	if err != nil {
		return User{}, false, fmt.Errorf("replace calendar link: %w", err)
	}
	u, err := userByEmail(ctx, s.tx, email)
	return u, err == nil, err
}

// sqlSelectUserByEmail runs for every email a turn queues, so it is
// prepared on the write pool (writeQueries).
const sqlSelectUserByEmail = `SELECT ` + sqlUserColumns + ` FROM users u WHERE u.email = ?`

func userByEmail(ctx context.Context, q queryer, email string) (User, error) {
	var u User
	var created int64
	err := q.QueryRowContext(ctx, sqlSelectUserByEmail, email).Scan(userFields(&u, &created)...)
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

// ReplyConfirmations is the account's choice of confirmations of turns
// played by email, or true for an address without an account.
func (db *DB) ReplyConfirmations(ctx context.Context, email string) (bool, error) {
	var on bool
	err := db.read.QueryRowContext(ctx, `SELECT reply_confirmations FROM users WHERE email = ?`, email).Scan(&on)
	if errors.Is(err, sql.ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("read reply confirmations: %w", err)
	}
	return on, nil
}

// userEmail is the address of an account.
func userEmail(ctx context.Context, q queryer, id int64) (string, error) {
	var email string
	if err := q.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, id).Scan(&email); err != nil {
		return "", fmt.Errorf("read user %d: %w", id, err)
	}
	return email, nil
}

// TimeZoneOf is the time zone of an address's account, "" for none.
func (db *DB) TimeZoneOf(ctx context.Context, email string) (string, error) {
	var zone string
	err := db.read.QueryRowContext(ctx, `SELECT time_zone FROM users WHERE email = ?`, email).Scan(&zone)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read account time zone: %w", err)
	}
	return zone, nil
}
