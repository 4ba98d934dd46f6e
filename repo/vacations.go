package repo

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
)

// awayOfSeats loads the vacations of the seats' players that end after since.
func awayOfSeats(ctx context.Context, q queryer, seats []domain.Seat, since time.Time) (domain.Away, error) {
	away := domain.Away{}
	for _, s := range seats {
		periods, err := vacationsOf(ctx, q, s.Email, since)
		if err != nil {
			return nil, err
		}
		if len(periods) > 0 {
			away[s.Color] = periods
		}
	}
	return away, nil
}

// awayOfPlayers is awayOfSeats for the players of a game being created, in
// turn order.
func awayOfPlayers(ctx context.Context, q queryer, players []domain.Player, since time.Time) (domain.Away, error) {
	size := 6
	if len(players) == 4 {
		size = 8
	}
	if len(players) != 2 && len(players) != 4 {
		return nil, nil // CreateGame refuses the spec
	}
	var seats []domain.Seat
	for i, c := range less.Colors(size) {
		email, err := domain.NormalizeEmail(players[i].Email)
		if err != nil {
			return nil, nil // CreateGame refuses the spec
		}
		seats = append(seats, domain.Seat{Color: c, Player: domain.Player{Email: email}})
	}
	return awayOfSeats(ctx, q, seats, since)
}

func vacationsOf(ctx context.Context, q queryer, email string, since time.Time) ([]domain.Period, error) {
	rows, err := q.QueryContext(ctx, `SELECT v.starts_at, v.ends_at FROM vacations v JOIN users u ON u.id = v.user_id
		WHERE u.email = ? AND v.ends_at > ? ORDER BY v.starts_at`, email, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("read vacations: %w", err)
	}
	defer rows.Close()
	var out []domain.Period
	for rows.Next() {
		var start, end int64
		if err := rows.Scan(&start, &end); err != nil {
			return nil, fmt.Errorf("read vacations: %w", err)
		}
		out = append(out, domain.Period{Start: time.UnixMilli(start).UTC(), End: time.UnixMilli(end).UTC()})
	}
	return out, rows.Err()
}

// Vacation is a declared period away.
type Vacation struct {
	ID int64
	domain.Period
}

// Vacations lists a user's vacations that have not ended, and the days left
// this year.
func (db *DB) Vacations(ctx context.Context, u User, now time.Time) ([]Vacation, int, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, starts_at, ends_at FROM vacations WHERE user_id = ? ORDER BY starts_at`, u.ID)
	if err != nil {
		return nil, 0, fmt.Errorf("read vacations: %w", err)
	}
	defer rows.Close()
	var all []domain.Period
	var current []Vacation
	for rows.Next() {
		var v Vacation
		var start, end int64
		if err := rows.Scan(&v.ID, &start, &end); err != nil {
			return nil, 0, fmt.Errorf("read vacations: %w", err)
		}
		v.Start, v.End = time.UnixMilli(start).UTC(), time.UnixMilli(end).UTC()
		all = append(all, v.Period)
		if v.End.After(now) {
			current = append(current, v)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read vacations: %w", err)
	}
	return current, domain.VacationDaysLeft(all, u.VacationDays, now), nil
}

// DeclareVacation records a vacation and moves the deadlines of the user's
// games where he is to move, in one transaction.
func (db *DB) DeclareVacation(ctx context.Context, u User, p domain.Period, now time.Time) (Vacation, error) {
	v := Vacation{Period: p}
	err := db.WithTx(ctx, func(tx *Tx) error {
		existing, err := vacationsOf(ctx, tx, u.Email, time.Time{})
		if err != nil {
			return err
		}
		if err := domain.CheckVacation(p, existing, u.VacationDays, now); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO vacations (user_id, starts_at, ends_at, created_at) VALUES (?, ?, ?, ?)`,
			u.ID, p.Start.UnixMilli(), p.End.UnixMilli(), now.UnixMilli())
		if err != nil {
			return fmt.Errorf("store vacation: %w", err)
		}
		if v.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		return refreshDeadlines(ctx, tx, u.Email)
	})
	return v, err
}

// CancelVacation ends a vacation: one that has not begun is removed, one
// under way ends now. Deadlines move back accordingly.
func (db *DB) CancelVacation(ctx context.Context, u User, id int64, now time.Time) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM vacations WHERE id = ? AND user_id = ? AND starts_at > ?`, id, u.ID, now.UnixMilli())
		if err != nil {
			return fmt.Errorf("cancel vacation: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			res, err = tx.ExecContext(ctx, `UPDATE vacations SET ends_at = ? WHERE id = ? AND user_id = ? AND ends_at > ?`,
				now.UnixMilli(), id, u.ID, now.UnixMilli())
			if err != nil {
				return fmt.Errorf("end vacation: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no current vacation %d", id)
			}
		}
		return refreshDeadlines(ctx, tx, u.Email)
	})
}

// refreshDeadlines recomputes the deadline of every running game in which
// the address holds the seat to move.
func refreshDeadlines(ctx context.Context, tx *Tx, email string) error {
	ids, err := gamesToMove(ctx, tx, email)
	if err != nil {
		return err
	}
	for _, id := range ids {
		g, err := loadGame(ctx, tx, id)
		if err != nil {
			return err
		}
		away, err := awayOfSeats(ctx, tx, g.Seats, g.Clock.TurnStart)
		if err != nil {
			return err
		}
		moved, changed := domain.RefreshDeadline(g, away)
		if !changed {
			continue
		}
		if err := updateGame(ctx, tx, &moved, &g); err != nil {
			return err
		}
	}
	return nil
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

// GamesToMove lists the running games with a deadline in which the address
// holds the seat to move, nearest deadline first.
func (db *DB) GamesToMove(ctx context.Context, email string) ([]domain.Game, error) {
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
