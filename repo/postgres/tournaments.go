package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

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
	_, err = s.tx.Exec(ctx, `INSERT INTO tournaments (id, organizer_id, name, status, data, version, due_at, created_at, updated_at, public_until)
		VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7, $8, $9, $10)`, t.ID, t.OrganizerID, t.Name, string(t.Status), data, t.Version,
		nullTime(due), ms(t.CreatedAt), ms(t.UpdatedAt), nullTime(gamerow.PublicUntil(t)))
	if err != nil {
		return fmt.Errorf("insert tournament: %w", err)
	}
	return s.writeTournamentPlayers(ctx, t)
}

// writeTournamentPlayers brings the tournament's rows of players in line
// with its entrants (who joined, left, or had his address corrected).
func (s storeTx) writeTournamentPlayers(ctx context.Context, t *tournaments.Tournament) error {
	emails := gamerow.TournamentPlayers(t)
	if _, err := s.tx.Exec(ctx, `DELETE FROM tournament_players WHERE tournament_id = $1 AND email <> ALL($2::text[])`,
		t.ID, emails); err != nil {
		return fmt.Errorf("tournament %s: players: %w", t.ID, err)
	}
	if _, err := s.tx.Exec(ctx, `INSERT INTO tournament_players (tournament_id, email)
		SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, t.ID, emails); err != nil {
		return fmt.Errorf("tournament %s: players: %w", t.ID, err)
	}
	return nil
}

// Tournament reads a tournament.
func (db *DB) Tournament(ctx context.Context, id string) (tournaments.Tournament, error) {
	return loadTournament(ctx, db.pool, id, false)
}

// Tournament reads a tournament and locks it for the unit of work, like a
// game (see DB).
func (s storeTx) Tournament(ctx context.Context, id string) (tournaments.Tournament, error) {
	return loadTournament(ctx, s.tx, id, true)
}

func loadTournament(ctx context.Context, q querier, id string, lock bool) (tournaments.Tournament, error) {
	query := `SELECT data::text FROM tournaments WHERE id = $1`
	if lock {
		query += ` FOR UPDATE`
	}
	var data string
	err := q.QueryRow(ctx, query, id).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
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
	tag, err := s.tx.Exec(ctx, `UPDATE tournaments SET status = $1, data = $2::text::jsonb, version = $3, due_at = $4,
		updated_at = $5, public_until = $8 WHERE id = $6 AND version = $7`,
		string(t.Status), data, t.Version, nullTime(due), ms(t.UpdatedAt), t.ID, version, nullTime(gamerow.PublicUntil(t)))
	if err != nil {
		return fmt.Errorf("update tournament %s: %w", t.ID, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("update tournament %s: version %d is gone: %w", t.ID, version, domain.ErrStale)
	}
	return s.writeTournamentPlayers(ctx, t)
}

func (s storeTx) RescheduleTournament(ctx context.Context, t *tournaments.Tournament) error {
	_, due, err := gamerow.EncodeTournament(t)
	if err != nil {
		return err
	}
	_, err = s.tx.Exec(ctx, `UPDATE tournaments SET due_at = $1 WHERE id = $2 AND version = $3`, nullTime(due), t.ID, t.Version)
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
	ids, err := queryIDs(ctx, db.pool, `SELECT id FROM tournaments WHERE due_at <= $1 ORDER BY due_at LIMIT $2`, ms(now), limit)
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
		where, args = `organizer_id = $1`, []any{userID}
	case tournaments.PlayingIn:
		where, args = `id IN (SELECT tournament_id FROM tournament_players WHERE email = $1)`, []any{email}
	case tournaments.CanJoin:
		where, args = `public_until > $1 AND id NOT IN (SELECT tournament_id FROM tournament_players WHERE email = $2)`,
			[]any{ms(now), email}
	default:
		return tournaments.TournamentPage{}, fmt.Errorf("list tournaments: no category %q", cat)
	}
	n := len(args)
	rows, err := db.pool.Query(ctx, fmt.Sprintf(`SELECT id, data::text FROM tournaments WHERE %s
		AND (created_at, id) < ($%d, $%d) ORDER BY created_at DESC, id DESC LIMIT $%d`, where, n+1, n+2, n+3),
		append(args, time.UnixMilli(created).UTC(), after, limit+1)...)
	if err != nil {
		return tournaments.TournamentPage{}, fmt.Errorf("list tournaments: %w", err)
	}
	defer rows.Close()
	return gamerow.TournamentPage(rows, limit)
}

// Games reads many games at once (see games.BatchReader).
func (db *DB) Games(ctx context.Context, ids []string) ([]games.Game, error) {
	return loadGames(ctx, db.pool, ids, false)
}

// TurnsOf lists the turns of each of the games, by game id, in one query.
func (db *DB) TurnsOf(ctx context.Context, ids []string) (map[string][]games.StoredTurn, error) {
	out := make(map[string][]games.StoredTurn, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT game_id, ply, color, notation, used, counted, auto, timed_out, played_at
		FROM turns WHERE game_id = ANY($1) ORDER BY game_id, ply`, ids)
	if err != nil {
		return nil, fmt.Errorf("read turns: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t games.StoredTurn
		var id string
		if err := rows.Scan(&id, &t.Ply, &t.Color, &t.Notation, &t.Used, &t.Counted, &t.Auto, &t.TimedOut, &t.PlayedAt); err != nil {
			return nil, fmt.Errorf("read turns: %w", err)
		}
		t.PlayedAt = t.PlayedAt.UTC()
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
	var updated *time.Time
	err := db.pool.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(version), 0)::bigint, MAX(updated_at)
		FROM games WHERE tournament_id = $1`, id).Scan(&st.Count, &st.Versions, &updated)
	if err != nil {
		return tournaments.GamesStamp{}, fmt.Errorf("tournament %s: games: %w", id, err)
	}
	if updated != nil {
		st.Updated = updated.UTC()
	}
	return st, nil
}
