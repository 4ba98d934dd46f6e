package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
)

// vacationsIn reads vacations through q.
func vacationsIn(q queryer) gamerow.Vacations {
	return func(ctx context.Context, email string, since time.Time) ([]games.Period, error) {
		return vacationsOf(ctx, q, email, since)
	}
}

func vacationsOf(ctx context.Context, q queryer, email string, since time.Time) ([]games.Period, error) {
	rows, err := q.QueryContext(ctx, `SELECT v.starts_at, v.ends_at FROM vacations v JOIN users u ON u.id = v.user_id
		WHERE u.email = ? AND v.ends_at > ? ORDER BY v.starts_at`, email, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("read vacations: %w", err)
	}
	defer rows.Close()
	var out []games.Period
	for rows.Next() {
		var start, end int64
		if err := rows.Scan(&start, &end); err != nil {
			return nil, fmt.Errorf("read vacations: %w", err)
		}
		out = append(out, games.Period{Start: time.UnixMilli(start).UTC(), End: time.UnixMilli(end).UTC()})
	}
	return out, rows.Err()
}

// UserVacations lists all of an account's vacations, by start.
func (db *DB) UserVacations(ctx context.Context, userID int64) ([]Vacation, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, starts_at, ends_at FROM vacations WHERE user_id = ? ORDER BY starts_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("read vacations: %w", err)
	}
	defer rows.Close()
	var out []Vacation
	for rows.Next() {
		var v Vacation
		var start, end int64
		if err := rows.Scan(&v.ID, &start, &end); err != nil {
			return nil, fmt.Errorf("read vacations: %w", err)
		}
		v.Start, v.End = time.UnixMilli(start).UTC(), time.UnixMilli(end).UTC()
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read vacations: %w", err)
	}
	return out, nil
}

func (s storeTx) Vacations(ctx context.Context, email string, since time.Time) ([]games.Period, error) {
	return vacationsOf(ctx, s.tx, email, since)
}

func (s storeTx) SeatsAway(ctx context.Context, seats []games.Seat, since time.Time) (games.Away, error) {
	return gamerow.Away(ctx, vacationsIn(s.tx), seats, since)
}

func (s storeTx) AddVacation(ctx context.Context, userID int64, p games.Period, now time.Time) (int64, error) {
	res, err := s.tx.ExecContext(ctx, `INSERT INTO vacations (user_id, starts_at, ends_at, created_at) VALUES (?, ?, ?, ?)`,
		userID, p.Start.UnixMilli(), p.End.UnixMilli(), now.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("store vacation: %w", err)
	}
	return res.LastInsertId()
}

func (s storeTx) EndVacation(ctx context.Context, userID, id int64, now time.Time) (bool, error) {
	res, err := s.tx.ExecContext(ctx, `DELETE FROM vacations WHERE id = ? AND user_id = ? AND starts_at > ?`, id, userID, now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("cancel vacation: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return true, nil
	}
	res, err = s.tx.ExecContext(ctx, `UPDATE vacations SET ends_at = ? WHERE id = ? AND user_id = ? AND ends_at > ?`,
		now.UnixMilli(), id, userID, now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("end vacation: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

func (s storeTx) GamesPlaying(ctx context.Context, email string) ([]games.Game, error) {
	ids, err := queryIDs(ctx, s.tx, `SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id
		WHERE s.email = ? AND g.status = 'active' ORDER BY g.id`, email)
	if err != nil {
		return nil, fmt.Errorf("find games playing: %w", err)
	}
	return loadGames(ctx, s.tx, ids)
}

// GamesToMove lists the running games with a deadline in which the address
// holds the seat to move, nearest deadline first.
func (db *DB) GamesToMove(ctx context.Context, email string) ([]games.Game, error) {
	ids, err := gamesToMove(ctx, db.read, email)
	if err != nil {
		return nil, err
	}
	return loadGames(ctx, db.read, ids)
}

// gamesToMove lists the running games with a deadline in which the address
// holds the seat to move, nearest deadline first.
func gamesToMove(ctx context.Context, q queryer, email string) ([]string, error) {
	ids, err := queryIDs(ctx, q, `SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.color = g.to_move
		WHERE s.email = ? AND g.status = 'active' AND g.deadline_at IS NOT NULL ORDER BY g.deadline_at`, email)
	if err != nil {
		return nil, fmt.Errorf("find games to move: %w", err)
	}
	return ids, nil
}
