package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
)

// vacationsIn reads vacations through q.
func vacationsIn(q querier) gamerow.Vacations {
	return func(ctx context.Context, email string, since time.Time) ([]games.Period, error) {
		return vacationsOf(ctx, q, email, since)
	}
}

func vacationsOf(ctx context.Context, q querier, email string, since time.Time) ([]games.Period, error) {
	rows, err := q.Query(ctx, `SELECT v.starts_at, v.ends_at FROM vacations v JOIN users u ON u.id = v.user_id
		WHERE u.email = $1 AND v.ends_at > $2 ORDER BY v.starts_at`, email, ms(since))
	if err != nil {
		return nil, fmt.Errorf("read vacations: %w", err)
	}
	defer rows.Close()
	var out []games.Period
	for rows.Next() {
		var p games.Period
		if err := rows.Scan(&p.Start, &p.End); err != nil {
			return nil, fmt.Errorf("read vacations: %w", err)
		}
		p.Start, p.End = p.Start.UTC(), p.End.UTC()
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read vacations: %w", err)
	}
	return out, nil
}

// UserVacations lists all of an account's vacations, by start.
func (db *DB) UserVacations(ctx context.Context, userID int64) ([]games.Vacation, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, starts_at, ends_at FROM vacations WHERE user_id = $1 ORDER BY starts_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("read vacations: %w", err)
	}
	defer rows.Close()
	var out []games.Vacation
	for rows.Next() {
		var v games.Vacation
		if err := rows.Scan(&v.ID, &v.Start, &v.End); err != nil {
			return nil, fmt.Errorf("read vacations: %w", err)
		}
		v.Start, v.End = v.Start.UTC(), v.End.UTC()
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
	var id int64
	err := s.tx.QueryRow(ctx, `INSERT INTO vacations (user_id, starts_at, ends_at, created_at) VALUES ($1, $2, $3, $4)
		RETURNING id`, userID, ms(p.Start), ms(p.End), ms(now)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store vacation: %w", err)
	}
	return id, nil
}

func (s storeTx) EndVacation(ctx context.Context, userID, id int64, now time.Time) (bool, error) {
	tag, err := s.tx.Exec(ctx, `DELETE FROM vacations WHERE id = $1 AND user_id = $2 AND starts_at > $3`, id, userID, ms(now))
	if err != nil {
		return false, fmt.Errorf("cancel vacation: %w", err)
	}
	if tag.RowsAffected() > 0 {
		return true, nil
	}
	tag, err = s.tx.Exec(ctx, `UPDATE vacations SET ends_at = $1 WHERE id = $2 AND user_id = $3 AND ends_at > $1`,
		ms(now), id, userID)
	if err != nil {
		return false, fmt.Errorf("end vacation: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}

func (s storeTx) GamesPlaying(ctx context.Context, email string) ([]games.Game, error) {
	ids, err := queryIDs(ctx, s.tx, `SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id
		WHERE s.email = $1 AND g.status = 'active' ORDER BY g.id`, email)
	if err != nil {
		return nil, fmt.Errorf("find games playing: %w", err)
	}
	return loadGames(ctx, s.tx, ids, true)
}

// GamesToMove lists the running games with a deadline in which the address
// holds the seat to move, nearest deadline first.
func (db *DB) GamesToMove(ctx context.Context, email string) ([]games.Game, error) {
	ids, err := gamesToMove(ctx, db.pool, email)
	if err != nil {
		return nil, err
	}
	return loadGames(ctx, db.pool, ids, false)
}

func gamesToMove(ctx context.Context, q querier, email string) ([]string, error) {
	ids, err := queryIDs(ctx, q, `SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.color = g.to_move
		WHERE s.email = $1 AND g.status = 'active' AND g.deadline_at IS NOT NULL ORDER BY g.deadline_at`, email)
	if err != nil {
		return nil, fmt.Errorf("find games to move: %w", err)
	}
	return ids, nil
}
