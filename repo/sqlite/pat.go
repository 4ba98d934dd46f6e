package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain/accounts"
)

const sqlPersonalTokenColumns = `t.id, t.user_id, t.name, t.scopes, t.created_at, t.last_used_at, t.expires_at`

func scanPersonalToken(row interface{ Scan(...any) error }, extra ...any) (accounts.PersonalToken, error) {
	var t accounts.PersonalToken
	var scopes string
	var created int64
	var used, expires sql.NullInt64
	err := row.Scan(append([]any{&t.ID, &t.UserID, &t.Name, &scopes, &created, &used, &expires}, extra...)...)
	t.Scopes, t.CreatedAt = strings.Fields(scopes), time.UnixMilli(created).UTC()
	t.LastUsedAt, t.ExpiresAt = fromMillis(used), fromMillis(expires)
	return t, err
}

// PersonalTokens lists an account's tokens, newest first.
func (db *DB) PersonalTokens(ctx context.Context, userID int64) ([]accounts.PersonalToken, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+sqlPersonalTokenColumns+` FROM personal_tokens t
		WHERE t.user_id = ? ORDER BY t.id DESC`, userID)
	if err != nil {
		return nil, fmt.Errorf("list personal tokens: %w", err)
	}
	defer rows.Close()
	var out []accounts.PersonalToken
	for rows.Next() {
		t, err := scanPersonalToken(rows)
		if err != nil {
			return nil, fmt.Errorf("read personal token: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list personal tokens: %w", err)
	}
	return out, nil
}

// PersonalTokenBySecret finds a live token by the hash of its secret.
func (db *DB) PersonalTokenBySecret(ctx context.Context, secret string, now time.Time) (accounts.PersonalToken, User, bool, error) {
	// One query for the token and its account: it runs on every request
	// an app makes.
	var u User
	var created int64
	t, err := scanPersonalToken(db.read.QueryRowContext(ctx, `SELECT `+sqlPersonalTokenColumns+`, `+sqlUserColumns+`
		FROM personal_tokens t JOIN users u ON u.id = t.user_id
		WHERE t.hash = ? AND (t.expires_at IS NULL OR t.expires_at > ?)`, hashToken(secret), now.UnixMilli()),
		userFields(&u, &created)...)
	if errors.Is(err, sql.ErrNoRows) {
		return accounts.PersonalToken{}, User{}, false, nil
	}
	if err != nil {
		return accounts.PersonalToken{}, User{}, false, fmt.Errorf("read personal token: %w", err)
	}
	u.CreatedAt = time.UnixMilli(created).UTC()
	return t, u, true, nil
}

func (s storeTx) CountPersonalTokens(ctx context.Context, userID int64, now time.Time) (int, error) {
	var n int
	if err := s.tx.QueryRowContext(ctx, `SELECT count(*) FROM personal_tokens
		WHERE user_id = ? AND (expires_at IS NULL OR expires_at > ?)`, userID, now.UnixMilli()).Scan(&n); err != nil {
		return 0, fmt.Errorf("count personal tokens: %w", err)
	}
	return n, nil
}

// AddPersonalToken stores the token with its secret's hash only.
func (s storeTx) AddPersonalToken(ctx context.Context, t accounts.PersonalToken, secret string) (int64, error) {
	var id int64
	err := s.tx.QueryRowContext(ctx, `INSERT INTO personal_tokens (user_id, name, scopes, hash, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, t.UserID, t.Name, strings.Join(t.Scopes, " "), hashToken(secret),
		t.CreatedAt.UnixMilli(), millis(t.ExpiresAt)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store personal token: %w", err)
	}
	return id, nil
}

func (s storeTx) DeletePersonalToken(ctx context.Context, userID, id int64) (bool, error) {
	res, err := s.tx.ExecContext(ctx, `DELETE FROM personal_tokens WHERE id = ? AND user_id = ?`, id, userID)
	if err != nil {
		return false, fmt.Errorf("delete personal token: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (s storeTx) TouchPersonalToken(ctx context.Context, id int64, at time.Time) error {
	if _, err := s.tx.ExecContext(ctx, `UPDATE personal_tokens SET last_used_at = ? WHERE id = ?`, at.UnixMilli(), id); err != nil {
		return fmt.Errorf("record personal token use: %w", err)
	}
	return nil
}
