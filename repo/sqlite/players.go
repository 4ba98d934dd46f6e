package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain/players"
)

var (
	_ players.Store   = (*DB)(nil)
	_ players.StoreTx = storeTx{}
)

// HandleHolder is the account holding the folded handle at now, current
// or retired.
func (db *DB) HandleHolder(ctx context.Context, folded string, now time.Time) (int64, bool, error) {
	var id int64
	err := db.read.QueryRowContext(ctx, `SELECT user_id FROM handles
		WHERE folded = ? AND (retired_until IS NULL OR retired_until > ?)`, folded, now.UnixMilli()).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("read handle: %w", err)
	}
	return id, true, nil
}

// Profile is the account's profile with its current handle.
func (db *DB) Profile(ctx context.Context, userID int64) (players.Profile, error) {
	return readProfile(ctx, db.read, userID)
}

func (s storeTx) Profile(ctx context.Context, userID int64) (players.Profile, error) {
	return readProfile(ctx, s.tx, userID)
}

func readProfile(ctx context.Context, q queryer, userID int64) (players.Profile, error) {
	var p players.Profile
	var langs string
	err := q.QueryRowContext(ctx, `SELECT coalesce(h.shown, ''), coalesce(p.country, ''), coalesce(p.languages, ''),
			coalesce(p.bio, ''), coalesce(p.hide_finished, 0), coalesce(p.unlisted, 0)
		FROM users u
		LEFT JOIN handles h ON h.user_id = u.id AND h.retired_until IS NULL
		LEFT JOIN profiles p ON p.user_id = u.id
		WHERE u.id = ?`, userID).Scan(&p.Handle, &p.Country, &langs, &p.Bio, &p.HideFinished, &p.Unlisted)
	if errors.Is(err, sql.ErrNoRows) {
		return players.Profile{}, nil
	}
	if err != nil {
		return players.Profile{}, fmt.Errorf("read profile: %w", err)
	}
	p.Languages = strings.Fields(langs)
	return p, nil
}

// ClaimHandle makes the handle the account's current one. The folded
// handle's primary key decides a race between two accounts.
func (s storeTx) ClaimHandle(ctx context.Context, userID int64, shown, folded string, now, retireUntil time.Time) (bool, error) {
	// What nobody holds any longer, or the account itself held, is free.
	if _, err := s.tx.ExecContext(ctx, `DELETE FROM handles
		WHERE folded = ? AND (user_id = ? OR retired_until <= ?)`, folded, userID, now.UnixMilli()); err != nil {
		return false, fmt.Errorf("free handle: %w", err)
	}
	var taken bool
	if err := s.tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM handles WHERE folded = ?)`, folded).Scan(&taken); err != nil {
		return false, fmt.Errorf("read handle: %w", err)
	}
	if taken {
		return false, nil
	}
	if _, err := s.tx.ExecContext(ctx, `UPDATE handles SET retired_until = ? WHERE user_id = ? AND retired_until IS NULL`,
		retireUntil.UnixMilli(), userID); err != nil {
		return false, fmt.Errorf("retire handle: %w", err)
	}
	if _, err := s.tx.ExecContext(ctx, `INSERT INTO handles (folded, shown, user_id) VALUES (?, ?, ?)`,
		folded, shown, userID); err != nil {
		return false, fmt.Errorf("claim handle: %w", err)
	}
	return true, nil
}

// RetiredHandles counts the account's retired handles still held.
func (s storeTx) RetiredHandles(ctx context.Context, userID int64, now time.Time) (int, time.Time, error) {
	var n int
	var first sql.NullInt64
	if err := s.tx.QueryRowContext(ctx, `SELECT count(*), min(retired_until) FROM handles
		WHERE user_id = ? AND retired_until > ?`, userID, now.UnixMilli()).Scan(&n, &first); err != nil {
		return 0, time.Time{}, fmt.Errorf("count retired handles: %w", err)
	}
	return n, fromMillis(first), nil
}

// SaveProfile stores the account's profile.
func (s storeTx) SaveProfile(ctx context.Context, userID int64, p players.Profile, now time.Time) error {
	_, err := s.tx.ExecContext(ctx, `INSERT INTO profiles (user_id, country, languages, bio, hide_finished, unlisted, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET country = excluded.country, languages = excluded.languages, bio = excluded.bio,
			hide_finished = excluded.hide_finished, unlisted = excluded.unlisted, updated_at = excluded.updated_at`,
		userID, p.Country, strings.Join(p.Languages, " "), p.Bio, p.HideFinished, p.Unlisted, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("save profile: %w", err)
	}
	return nil
}
