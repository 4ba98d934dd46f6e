package postgres

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

// ActiveSession returns the session if it exists and is neither revoked nor expired.
func (db *DB) ActiveSession(ctx context.Context, id string, now time.Time) (accounts.Session, error) {
	return activeSession(ctx, db.pool, id, now)
}

func (s storeTx) ActiveSession(ctx context.Context, id string, now time.Time) (accounts.Session, error) {
	return activeSession(ctx, s.tx, id, now)
}

func activeSession(ctx context.Context, q querier, id string, now time.Time) (accounts.Session, error) {
	s := accounts.Session{ID: id}
	err := q.QueryRow(ctx, `SELECT s.expires_at, u.id, u.email, u.name, u.locale, u.time_zone, u.vacation_days,
		u.calendar_version, u.reply_confirmations, u.created_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`, id, ms(now)).Scan(
		&s.ExpiresAt, &s.User.ID, &s.User.Email, &s.User.Name, &s.User.Locale, &s.User.TimeZone, &s.User.VacationDays,
		&s.User.CalendarVersion, &s.User.ReplyConfirmations, &s.User.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return accounts.Session{}, domain.Errorf(domain.KindUnauthorized, domain.CodeUnauthorized, "the session has ended: sign in again")
	}
	if err != nil {
		return accounts.Session{}, fmt.Errorf("read session: %w", err)
	}
	s.ExpiresAt, s.User.CreatedAt = s.ExpiresAt.UTC(), s.User.CreatedAt.UTC()
	return s, nil
}

// UserByID reads an account.
func (db *DB) UserByID(ctx context.Context, id int64) (domain.User, error) {
	var email string
	err := db.pool.QueryRow(ctx, `SELECT email FROM users WHERE id = $1`, id).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.User{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no such account")
	}
	if err != nil {
		return domain.User{}, fmt.Errorf("read user: %w", err)
	}
	return userByEmail(ctx, db.pool, email)
}

func (s storeTx) LoginTokensExpiringAfter(ctx context.Context, mailbox string, t time.Time) (int, error) {
	var n int
	err := s.tx.QueryRow(ctx, `SELECT count(*) FROM login_tokens WHERE mailbox = $1 AND expires_at > $2`,
		mailbox, ms(t)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count login requests: %w", err)
	}
	return n, nil
}

// AddLoginToken stores the token's hash; the token itself is stored only in
// the outbox row until the email is sent.
func (s storeTx) AddLoginToken(ctx context.Context, t accounts.LoginToken, mail domain.Mail, now time.Time) error {
	_, err := s.tx.Exec(ctx, `INSERT INTO login_tokens (hash, email, mailbox, expires_at, code_hash) VALUES ($1, $2, $3, $4, $5)`,
		hashToken(t.Token), t.Email, domain.Mailbox(t.Email), ms(t.ExpiresAt), t.CodeHash)
	if err != nil {
		return fmt.Errorf("store login token: %w", err)
	}
	return insertMail(ctx, s.tx, mail, t.Token, now)
}

func (s storeTx) SpendLoginToken(ctx context.Context, token string, now time.Time) (string, bool, error) {
	var email string
	err := s.tx.QueryRow(ctx, `UPDATE login_tokens SET used_at = $1 WHERE hash = $2 AND used_at IS NULL AND expires_at > $1
		RETURNING email`, ms(now), hashToken(token)).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
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
	tag, err := s.tx.Exec(ctx, `UPDATE login_tokens SET used_at = $1
		WHERE email = $2 AND code_hash = $3 AND used_at IS NULL AND expires_at > $1 AND code_misses < $4`,
		ms(now), email, codeHash, maxMisses)
	if err != nil {
		return false, fmt.Errorf("spend login code: %w", err)
	}
	if tag.RowsAffected() > 0 {
		return true, nil
	}
	_, err = s.tx.Exec(ctx, `UPDATE login_tokens SET code_misses = code_misses + 1
		WHERE email = $1 AND used_at IS NULL AND expires_at > $2`, email, ms(now))
	if err != nil {
		return false, fmt.Errorf("count a wrong login code: %w", err)
	}
	return false, nil
}

func (s storeTx) EnsureUser(ctx context.Context, email string, now time.Time) (domain.User, error) {
	_, err := s.tx.Exec(ctx, `INSERT INTO users (email, created_at) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING`,
		email, ms(now))
	if err != nil {
		return domain.User{}, fmt.Errorf("create user: %w", err)
	}
	return userByEmail(ctx, s.tx, email)
}

func (s storeTx) AddSession(ctx context.Context, sess accounts.Session, now time.Time) error {
	_, err := s.tx.Exec(ctx, `INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		sess.ID, sess.User.ID, ms(now), ms(sess.ExpiresAt))
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// AddRefreshToken stores the token's hash only.
func (s storeTx) AddRefreshToken(ctx context.Context, sessionID, token string, expires time.Time) error {
	_, err := s.tx.Exec(ctx, `INSERT INTO refresh_tokens (hash, session_id, expires_at) VALUES ($1, $2, $3)`,
		hashToken(token), sessionID, ms(expires))
	if err != nil {
		return fmt.Errorf("store refresh token: %w", err)
	}
	return nil
}

// SpendRefreshToken spends with one UPDATE: of two transactions spending
// the same token, the second waits for the first and then finds it spent.
func (s storeTx) SpendRefreshToken(ctx context.Context, token string, now time.Time) (string, accounts.RefreshState, error) {
	var id string
	err := s.tx.QueryRow(ctx, `UPDATE refresh_tokens SET spent_at = $1 WHERE hash = $2 AND spent_at IS NULL AND expires_at > $1
		RETURNING session_id`, ms(now), hashToken(token)).Scan(&id)
	if err == nil {
		_, err = s.tx.Exec(ctx, `DELETE FROM refresh_tokens WHERE session_id = $1 AND expires_at <= $2`, id, ms(now))
		if err != nil {
			return "", 0, fmt.Errorf("forget expired refresh tokens: %w", err)
		}
		return id, accounts.RefreshSpent, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", 0, fmt.Errorf("spend refresh token: %w", err)
	}
	var spent bool
	err = s.tx.QueryRow(ctx, `SELECT session_id, spent_at IS NOT NULL FROM refresh_tokens WHERE hash = $1`,
		hashToken(token)).Scan(&id, &spent)
	switch {
	case errors.Is(err, pgx.ErrNoRows) || err == nil && !spent:
		return "", accounts.RefreshUnknown, nil
	case err != nil:
		return "", 0, fmt.Errorf("read refresh token: %w", err)
	}
	return id, accounts.RefreshReused, nil
}

func (s storeTx) RevokeSession(ctx context.Context, id string, now time.Time) error {
	_, err := s.tx.Exec(ctx, `UPDATE sessions SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, ms(now), id)
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

func (s storeTx) UpdateUser(ctx context.Context, id int64, set accounts.AccountSettings) (domain.User, error) {
	var email string
	err := s.tx.QueryRow(ctx, `UPDATE users SET name = $1, locale = $2, time_zone = $3, reply_confirmations = $4 WHERE id = $5
		RETURNING email`, set.Name, set.Locale, set.TimeZone, set.ReplyConfirmations, id).Scan(&email)
	if err != nil {
		return domain.User{}, fmt.Errorf("update user: %w", err)
	}
	return userByEmail(ctx, s.tx, email)
}

func (s storeTx) NextCalendarVersion(ctx context.Context, id int64) (domain.User, bool, error) {
	var email string
	err := s.tx.QueryRow(ctx, `UPDATE users SET calendar_version = calendar_version + 1 WHERE id = $1 RETURNING email`,
		id).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.User{}, false, nil
	}
	if err != nil {
		return domain.User{}, false, fmt.Errorf("replace calendar link: %w", err)
	}
	u, err := userByEmail(ctx, s.tx, email)
	return u, err == nil, err
}

func userByEmail(ctx context.Context, q querier, email string) (domain.User, error) {
	u := domain.User{Email: email}
	err := q.QueryRow(ctx, `SELECT id, name, locale, time_zone, vacation_days, calendar_version, reply_confirmations, created_at
		FROM users WHERE email = $1`,
		email).Scan(&u.ID, &u.Name, &u.Locale, &u.TimeZone, &u.VacationDays, &u.CalendarVersion, &u.ReplyConfirmations, &u.CreatedAt)
	if err != nil {
		return domain.User{}, fmt.Errorf("read user: %w", err)
	}
	u.CreatedAt = u.CreatedAt.UTC()
	return u, nil
}

// ReplyConfirmations is the account's choice of confirmations of turns
// played by email, or true for an address without an account.
func (db *DB) ReplyConfirmations(ctx context.Context, email string) (bool, error) {
	on := true
	err := db.pool.QueryRow(ctx, `SELECT reply_confirmations FROM users WHERE email = $1`, email).Scan(&on)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("read reply confirmations: %w", err)
	}
	return on, nil
}

// accountLocale is the language an address chose for its account, or the
// default when it has no account.
func accountLocale(ctx context.Context, q querier, email string) (string, error) {
	var locale string
	err := q.QueryRow(ctx, `SELECT locale FROM users WHERE email = $1`, email).Scan(&locale)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.DefaultLocale, nil
	}
	if err != nil {
		return "", fmt.Errorf("read account locale: %w", err)
	}
	return locale, nil
}

// userEmail is the address of an account.
func userEmail(ctx context.Context, q querier, id int64) (string, error) {
	var email string
	if err := q.QueryRow(ctx, `SELECT email FROM users WHERE id = $1`, id).Scan(&email); err != nil {
		return "", fmt.Errorf("read user %d: %w", id, err)
	}
	return email, nil
}

// hashToken is what the store keeps of a login token.
func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// TimeZoneOf is the time zone of an address's account, "" for none.
func (db *DB) TimeZoneOf(ctx context.Context, email string) (string, error) {
	var zone string
	err := db.pool.QueryRow(ctx, `SELECT time_zone FROM users WHERE email = $1`, email).Scan(&zone)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read account time zone: %w", err)
	}
	return zone, nil
}
