package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

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
	err := db.pool.QueryRow(ctx, `SELECT user_id FROM handles
		WHERE folded = $1 AND (retired_until IS NULL OR retired_until > $2)`, folded, ms(now)).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("read handle: %w", err)
	}
	return id, true, nil
}

// Profile is the account's profile with its current handle.
func (db *DB) Profile(ctx context.Context, userID int64) (players.Profile, error) {
	return readProfile(ctx, db.pool, userID)
}

func (s storeTx) Profile(ctx context.Context, userID int64) (players.Profile, error) {
	return readProfile(ctx, s.tx, userID)
}

func readProfile(ctx context.Context, q querier, userID int64) (players.Profile, error) {
	var p players.Profile
	var langs string
	err := q.QueryRow(ctx, `SELECT coalesce(h.shown, ''), coalesce(p.country, ''), coalesce(p.languages, ''),
			coalesce(p.bio, ''), coalesce(p.hide_finished, false), coalesce(p.unlisted, false)
		FROM users u
		LEFT JOIN handles h ON h.user_id = u.id AND h.retired_until IS NULL
		LEFT JOIN profiles p ON p.user_id = u.id
		WHERE u.id = $1`, userID).Scan(&p.Handle, &p.Country, &langs, &p.Bio, &p.HideFinished, &p.Unlisted)
	if errors.Is(err, pgx.ErrNoRows) {
		return players.Profile{}, nil
	}
	if err != nil {
		return players.Profile{}, fmt.Errorf("read profile: %w", err)
	}
	p.Languages = strings.Fields(langs)
	return p, nil
}

// ClaimHandle makes the handle the account's current one. The folded
// handle's primary key decides a race between two accounts: the later
// insert waits for the earlier's transaction and then does nothing.
func (s storeTx) ClaimHandle(ctx context.Context, userID int64, shown, folded string, now, retireUntil time.Time) (bool, error) {
	// What nobody holds any longer, or the account itself held, is free.
	if _, err := s.tx.Exec(ctx, `DELETE FROM handles
		WHERE folded = $1 AND (user_id = $2 OR retired_until <= $3)`, folded, userID, ms(now)); err != nil {
		return false, fmt.Errorf("free handle: %w", err)
	}
	if _, err := s.tx.Exec(ctx, `UPDATE handles SET retired_until = $1 WHERE user_id = $2 AND retired_until IS NULL`,
		ms(retireUntil), userID); err != nil {
		return false, fmt.Errorf("retire handle: %w", err)
	}
	tag, err := s.tx.Exec(ctx, `INSERT INTO handles (folded, shown, user_id) VALUES ($1, $2, $3)
		ON CONFLICT (folded) DO NOTHING`, folded, shown, userID)
	if err != nil {
		return false, fmt.Errorf("claim handle: %w", err)
	}
	// Taken: the caller refuses, and the unit of work rolls the retirement
	// back.
	return tag.RowsAffected() == 1, nil
}

// RetiredHandles counts the account's retired handles still held.
func (s storeTx) RetiredHandles(ctx context.Context, userID int64, now time.Time) (int, time.Time, error) {
	var n int
	var first *time.Time
	if err := s.tx.QueryRow(ctx, `SELECT count(*), min(retired_until) FROM handles
		WHERE user_id = $1 AND retired_until > $2`, userID, ms(now)).Scan(&n, &first); err != nil {
		return 0, time.Time{}, fmt.Errorf("count retired handles: %w", err)
	}
	if first == nil {
		return n, time.Time{}, nil
	}
	return n, first.UTC(), nil
}

// SaveProfile stores the account's profile.
func (s storeTx) SaveProfile(ctx context.Context, userID int64, p players.Profile, now time.Time) error {
	_, err := s.tx.Exec(ctx, `INSERT INTO profiles (user_id, country, languages, bio, hide_finished, unlisted, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (user_id) DO UPDATE SET country = excluded.country, languages = excluded.languages, bio = excluded.bio,
			hide_finished = excluded.hide_finished, unlisted = excluded.unlisted, updated_at = excluded.updated_at`,
		userID, p.Country, strings.Join(p.Languages, " "), p.Bio, p.HideFinished, p.Unlisted, ms(now))
	if err != nil {
		return fmt.Errorf("save profile: %w", err)
	}
	return nil
}
