package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
)

// InsertTournament stores a new tournament.
func (s storeTx) InsertTournament(ctx context.Context, t *tournaments.Tournament) error {
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
func (s storeTx) writeTournamentPlayers(ctx context.Context, t *tournaments.Tournament) error {
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
func (db *DB) Tournament(ctx context.Context, id string) (tournaments.Tournament, error) {
	return loadTournament(ctx, db.read, id)
}

func (s storeTx) Tournament(ctx context.Context, id string) (tournaments.Tournament, error) {
	return loadTournament(ctx, s.tx, id)
}

func loadTournament(ctx context.Context, q queryer, id string) (tournaments.Tournament, error) {
	var data string
	err := q.QueryRowContext(ctx, `SELECT data FROM tournaments WHERE id = ?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return tournaments.Tournament{}, gamerow.TournamentNotFound(id)
	}
	if err != nil {
		return tournaments.Tournament{}, fmt.Errorf("read tournament %s: %w", id, err)
	}
	return gamerow.DecodeTournament(id, data)
}

// SaveTournament writes the new state if nobody else changed it since version.
func (s storeTx) SaveTournament(ctx context.Context, t *tournaments.Tournament, version int) error {
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

func (s storeTx) RescheduleTournament(ctx context.Context, t *tournaments.Tournament) error {
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

// AddNotice writes the event of a notice of no game (a bye) and queues its
// mail, as the policy admitted it.
func (s storeTx) AddNotice(ctx context.Context, n domain.Notice, mail []domain.Mail, now time.Time) error {
	if e, ok := games.NoticeEvent(n); ok {
		if err := writeEvents(ctx, s.tx, []domain.Event{e}, now); err != nil {
			return err
		}
	}
	return enqueue(ctx, s.tx, mail, now)
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

// AccountTournaments lists a page of one category of an account's
// tournaments, newest first (see tournaments.Lister).
func (db *DB) AccountTournaments(ctx context.Context, userID int64, email string, now time.Time, cat tournaments.TournamentCategory,
	cursor string, limit int) (tournaments.TournamentPage, error) {
	limit = max(limit, 1)
	created, after, err := gamerow.TournamentAfter(cursor)
	if err != nil {
		return tournaments.TournamentPage{}, err
	}
	var where string
	var args []any
	switch cat {
	case tournaments.Organising:
		where, args = `organizer_id = ?`, []any{userID}
	case tournaments.PlayingIn:
		where, args = `id IN (SELECT tournament_id FROM tournament_players WHERE email = ?)`, []any{email}
	case tournaments.CanJoin:
		where, args = `public_until > ? AND id NOT IN (SELECT tournament_id FROM tournament_players WHERE email = ?)`,
			[]any{now.UnixMilli(), email}
	default:
		return tournaments.TournamentPage{}, fmt.Errorf("list tournaments: no category %q", cat)
	}
	rows, err := db.read.QueryContext(ctx, `SELECT id, data FROM tournaments WHERE `+where+`
		AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`, append(args, created, after, limit+1)...)
	if err != nil {
		return tournaments.TournamentPage{}, fmt.Errorf("list tournaments: %w", err)
	}
	defer rows.Close()
	return gamerow.TournamentPage(rows, limit)
}

// Games reads many games at once (see games.BatchReader).
func (db *DB) Games(ctx context.Context, ids []string) ([]games.Game, error) {
	return loadGames(ctx, db.read, ids)
}

// TurnsOf lists the turns of each of the games, by game id, in one query.
func (db *DB) TurnsOf(ctx context.Context, ids []string) (map[string][]games.StoredTurn, error) {
	out := make(map[string][]games.StoredTurn, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT game_id, ply, color, notation, used, counted, auto, timed_out, played_at
		FROM turns WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY game_id, ply`, string(list))
	if err != nil {
		return nil, fmt.Errorf("read turns: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t games.StoredTurn
		var id string
		var played int64
		if err := rows.Scan(&id, &t.Ply, &t.Color, &t.Notation, &t.Used, &t.Counted, &t.Auto, &t.TimedOut, &played); err != nil {
			return nil, fmt.Errorf("read turns: %w", err)
		}
		t.PlayedAt = time.UnixMilli(played).UTC()
		out[id] = append(out[id], t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read turns: %w", err)
	}
	return out, nil
}

// TournamentGamesStamp sums up the games of a tournament (see
// tournaments.GamesStamp).
func (db *DB) TournamentGamesStamp(ctx context.Context, id string) (tournaments.GamesStamp, error) {
	var st tournaments.GamesStamp
	var updated int64
	err := db.read.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(version), 0), COALESCE(MAX(updated_at), 0)
		FROM games WHERE tournament_id = ?`, id).Scan(&st.Count, &st.Versions, &updated)
	if err != nil {
		return tournaments.GamesStamp{}, fmt.Errorf("tournament %s: games: %w", id, err)
	}
	if updated != 0 {
		st.Updated = time.UnixMilli(updated).UTC()
	}
	return st, nil
}
