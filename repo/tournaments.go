package repo

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
	"github.com/lesspost/lesspost/repo/internal/mailpolicy"
	"github.com/lesspost/lesspost/repo/internal/mailrow"
)

// InsertTournament stores a new tournament, unless an entrant asked for no
// mail from lesspost (the budget is counted as each round starts).
func (s storeTx) InsertTournament(ctx context.Context, t *domain.Tournament) error {
	if err := refuseSuppressed(ctx, s.tx, gamerow.TournamentPlayers(t)); err != nil {
		return err
	}
	data, due, err := gamerow.EncodeTournament(t)
	if err != nil {
		return err
	}
	_, err = s.tx.ExecContext(ctx, `INSERT INTO tournaments (id, organizer_id, name, status, data, version, due_at, created_at, updated_at, public_until)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.OrganizerID, t.Name, string(t.Status), data, t.Version, millis(due),
		t.CreatedAt.UnixMilli(), t.UpdatedAt.UnixMilli(), millis(gamerow.PublicUntil(t)))
	if err != nil {
		return fmt.Errorf("insert tournament: %w", err)
	}
	return s.writeTournamentPlayers(ctx, t)
}

// writeTournamentPlayers brings the tournament's rows of players in line
// with its entrants (who joined, left, or had his address corrected).
func (s storeTx) writeTournamentPlayers(ctx context.Context, t *domain.Tournament) error {
	list, err := json.Marshal(gamerow.TournamentPlayers(t))
	if err != nil {
		return err
	}
	if _, err := s.tx.ExecContext(ctx, `DELETE FROM tournament_players WHERE tournament_id = ?
		AND email NOT IN (SELECT value FROM json_each(?))`, t.ID, string(list)); err != nil {
		return fmt.Errorf("tournament %s: players: %w", t.ID, err)
	}
	if _, err := s.tx.ExecContext(ctx, `INSERT INTO tournament_players (tournament_id, email)
		SELECT ?, value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`, t.ID, string(list)); err != nil {
		return fmt.Errorf("tournament %s: players: %w", t.ID, err)
	}
	return nil
}

// Tournament reads a tournament.
func (db *DB) Tournament(ctx context.Context, id string) (domain.Tournament, error) {
	return loadTournament(ctx, db.read, id)
}

func (s storeTx) Tournament(ctx context.Context, id string) (domain.Tournament, error) {
	return loadTournament(ctx, s.tx, id)
}

func loadTournament(ctx context.Context, q queryer, id string) (domain.Tournament, error) {
	var data string
	err := q.QueryRowContext(ctx, `SELECT data FROM tournaments WHERE id = ?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Tournament{}, gamerow.TournamentNotFound(id)
	}
	if err != nil {
		return domain.Tournament{}, fmt.Errorf("read tournament %s: %w", id, err)
	}
	return gamerow.DecodeTournament(id, data)
}

// SaveTournament writes the new state if nobody else changed it since version.
func (s storeTx) SaveTournament(ctx context.Context, t *domain.Tournament, version int) error {
	data, due, err := gamerow.EncodeTournament(t)
	if err != nil {
		return err
	}
	res, err := s.tx.ExecContext(ctx, `UPDATE tournaments SET status = ?, data = ?, version = ?, due_at = ?, updated_at = ?,
		public_until = ? WHERE id = ? AND version = ?`, string(t.Status), data, t.Version, millis(due), t.UpdatedAt.UnixMilli(),
		millis(gamerow.PublicUntil(t)), t.ID, version)
	if err != nil {
		return fmt.Errorf("update tournament %s: %w", t.ID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("update tournament %s: version %d is gone: %w", t.ID, version, domain.ErrStale)
	}
	return s.writeTournamentPlayers(ctx, t)
}

func (s storeTx) RescheduleTournament(ctx context.Context, t *domain.Tournament) error {
	_, due, err := gamerow.EncodeTournament(t)
	if err != nil {
		return err
	}
	_, err = s.tx.ExecContext(ctx, `UPDATE tournaments SET due_at = ? WHERE id = ? AND version = ?`, millis(due), t.ID, t.Version)
	if err != nil {
		return fmt.Errorf("reschedule tournament %s: %w", t.ID, err)
	}
	return nil
}

// AddNotice queues a notice of no game (a bye): what admit refuses is left out.
func (s storeTx) AddNotice(ctx context.Context, n domain.Notice, locale string, c domain.Cause, now time.Time) error {
	if e, ok := domain.NoticeEvent(n); ok {
		if err := writeEvents(ctx, s.tx, []domain.Event{e}, now); err != nil {
			return err
		}
	}
	return mailpolicy.Queue(ctx, mailFacts{s.tx}, n, n.Email, locale, c, now, func(r mailrow.Row) error {
		return insertOutbox(ctx, s.tx, r, now)
	})
}

// DueTournaments lists tournaments whose schedule needs attention at now.
func (db *DB) DueTournaments(ctx context.Context, now time.Time, limit int) ([]string, error) {
	ids, err := queryIDs(ctx, db.read, `SELECT id FROM tournaments WHERE due_at <= ? ORDER BY due_at LIMIT ?`, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("find due tournaments: %w", err)
	}
	return ids, nil
}

// AddEvents writes events that come with no notice to the live streams.
func (s storeTx) AddEvents(ctx context.Context, evs []domain.Event, now time.Time) error {
	return writeEvents(ctx, s.tx, evs, now)
}

// AccountTournaments lists what an account organises, plays in, or can
// join (an open public registration), newest first.
func (db *DB) AccountTournaments(ctx context.Context, userID int64, email string, now time.Time, limit int) ([]domain.Tournament, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, data FROM tournaments WHERE organizer_id = ?
		OR id IN (SELECT tournament_id FROM tournament_players WHERE email = ?)
		OR public_until > ?
		ORDER BY created_at DESC, id DESC LIMIT ?`, userID, email, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("list tournaments: %w", err)
	}
	defer rows.Close()
	return gamerow.DecodeTournaments(rows)
}
