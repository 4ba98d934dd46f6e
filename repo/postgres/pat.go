package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

const sqlPersonalTokenColumns = `t.id, t.user_id, t.name, t.scopes, t.created_at, t.last_used_at, t.expires_at`

func scanPersonalToken(row pgx.Row, extra ...any) (accounts.PersonalToken, error) {
	var t accounts.PersonalToken
	var scopes string
	var used, expires *time.Time
	err := row.Scan(append([]any{&t.ID, &t.UserID, &t.Name, &scopes, &t.CreatedAt, &used, &expires}, extra...)...)
	t.Scopes, t.CreatedAt = strings.Fields(scopes), t.CreatedAt.UTC()
	if used != nil {
		t.LastUsedAt = used.UTC()
	}
	if expires != nil {
		t.ExpiresAt = expires.UTC()
	}
	return t, err
}

// PersonalTokens lists an account's tokens, newest first.
func (db *DB) PersonalTokens(ctx context.Context, userID int64) ([]accounts.PersonalToken, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+sqlPersonalTokenColumns+` FROM personal_tokens t
		WHERE t.user_id = $1 ORDER BY t.id DESC`, userID)
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
func (db *DB) PersonalTokenBySecret(ctx context.Context, secret string, now time.Time) (accounts.PersonalToken, domain.User, bool, error) {
	var email string
	t, err := scanPersonalToken(db.pool.QueryRow(ctx, `SELECT `+sqlPersonalTokenColumns+`, u.email
		FROM personal_tokens t JOIN users u ON u.id = t.user_id
		WHERE t.hash = $1 AND (t.expires_at IS NULL OR t.expires_at > $2)`, hashToken(secret), ms(now)), &email)
	if errors.Is(err, pgx.ErrNoRows) {
		return accounts.PersonalToken{}, domain.User{}, false, nil
	}
	if err != nil {
		return accounts.PersonalToken{}, domain.User{}, false, fmt.Errorf("read personal token: %w", err)
	}
	u, err := userByEmail(ctx, db.pool, email)
	return t, u, err == nil, err
}

func (s storeTx) CountPersonalTokens(ctx context.Context, userID int64, now time.Time) (int, error) {
	var n int
	if err := s.tx.QueryRow(ctx, `SELECT count(*) FROM personal_tokens
		WHERE user_id = $1 AND (expires_at IS NULL OR expires_at > $2)`, userID, ms(now)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count personal tokens: %w", err)
	}
	return n, nil
}

// AddPersonalToken stores the token with its secret's hash only.
func (s storeTx) AddPersonalToken(ctx context.Context, t accounts.PersonalToken, secret string) (int64, error) {
	var id int64
	err := s.tx.QueryRow(ctx, `INSERT INTO personal_tokens (user_id, name, scopes, hash, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, t.UserID, t.Name, strings.Join(t.Scopes, " "), hashToken(secret),
		ms(t.CreatedAt), nullTime(t.ExpiresAt)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store personal token: %w", err)
	}
	return id, nil
}

func (s storeTx) DeletePersonalToken(ctx context.Context, userID, id int64) (bool, error) {
	tag, err := s.tx.Exec(ctx, `DELETE FROM personal_tokens WHERE id = $1 AND user_id = $2`, id, userID)
	if err != nil {
		return false, fmt.Errorf("delete personal token: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}

func (s storeTx) TouchPersonalToken(ctx context.Context, id int64, at time.Time) error {
	if _, err := s.tx.Exec(ctx, `UPDATE personal_tokens SET last_used_at = $1 WHERE id = $2`, ms(at), id); err != nil {
		return fmt.Errorf("record personal token use: %w", err)
	}
	return nil
}
