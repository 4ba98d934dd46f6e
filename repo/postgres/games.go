package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
	"github.com/lesspost/lesspost/repo/internal/idempotency"
)

// Game reads a game; a missing game is a domain not-found error.
func (db *DB) Game(ctx context.Context, id string) (games.Game, error) {
	return loadGame(ctx, db.pool, id, false)
}

// Turns lists a game's turns in order.
func (db *DB) Turns(ctx context.Context, id string) ([]games.StoredTurn, error) {
	return loadTurns(ctx, db.pool, id, sqlSelectTurns, id)
}

// TurnsFrom lists a game's turns from ply on, in order.
func (db *DB) TurnsFrom(ctx context.Context, id string, ply int) ([]games.StoredTurn, error) {
	return loadTurns(ctx, db.pool, id, sqlSelectTurnsFrom, id, ply)
}

// StoredResponse is the response stored for an idempotent request.
func (db *DB) StoredResponse(ctx context.Context, idem domain.Idempotency) (domain.Response, bool, error) {
	return storedResponse(ctx, db.pool, idem)
}

const (
	sqlSelectGames = `SELECT id, creator_id, ruleset, state, version, created_at, updated_at, clock::text,
		COALESCE(tournament::text, ''), watch_version FROM games WHERE id = ANY($1)`
	// In a unit of work the games read are locked, so that a change
	// computed from them cannot be overtaken (see DB); in id order, so that
	// two units locking the same games cannot deadlock.
	sqlSelectGamesForUpdate = sqlSelectGames + ` ORDER BY id FOR UPDATE`
	sqlSelectSeats          = `SELECT game_id, color, name, email, locale, token_version FROM seats
		WHERE game_id = ANY($1) ORDER BY game_id, seat_order`
	sqlSelectTurns = `SELECT ply, color, notation, used, counted, auto, timed_out, played_at
		FROM turns WHERE game_id = $1 ORDER BY ply`
	// Every email reads the end of its game's record: a range of the
	// primary key (game_id, ply).
	sqlSelectTurnsFrom = `SELECT ply, color, notation, used, counted, auto, timed_out, played_at
		FROM turns WHERE game_id = $1 AND ply >= $2 ORDER BY ply`
)

// loadTurns reads the turns of game id that query selects with args.
func loadTurns(ctx context.Context, q querier, id, query string, args ...any) ([]games.StoredTurn, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read turns of %s: %w", id, err)
	}
	defer rows.Close()
	var out []games.StoredTurn
	for rows.Next() {
		var t games.StoredTurn
		if err := rows.Scan(&t.Ply, &t.Color, &t.Notation, &t.Used, &t.Counted, &t.Auto, &t.TimedOut, &t.PlayedAt); err != nil {
			return nil, fmt.Errorf("read turns of %s: %w", id, err)
		}
		t.PlayedAt = t.PlayedAt.UTC()
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read turns of %s: %w", id, err)
	}
	return out, nil
}

func loadGame(ctx context.Context, q querier, id string, lock bool) (games.Game, error) {
	found, err := loadGames(ctx, q, []string{id}, lock)
	if err != nil {
		return games.Game{}, err
	}
	if len(found) == 0 {
		return games.Game{}, gamerow.GameNotFound(id)
	}
	return found[0], nil
}

// loadGames reads the games with the given ids, in that order, skipping
// ids that do not exist, with two queries however many there are. lock
// locks them for the transaction q is.
func loadGames(ctx context.Context, q querier, ids []string, lock bool) ([]games.Game, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	query := sqlSelectGames
	if lock {
		query = sqlSelectGamesForUpdate
	}
	rows, err := q.Query(ctx, query, ids)
	if err != nil {
		return nil, fmt.Errorf("read games: %w", err)
	}
	byID := make(map[string]*games.Game, len(ids))
	for rows.Next() {
		var (
			g                                 games.Game
			ruleset, state, clock, tournament string
		)
		if err := rows.Scan(&g.ID, &g.CreatorID, &ruleset, &state, &g.Version, &g.CreatedAt, &g.UpdatedAt, &clock,
			&tournament, &g.WatchVersion); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read game: %w", err)
		}
		g.CreatedAt, g.UpdatedAt = g.CreatedAt.UTC(), g.UpdatedAt.UTC()
		if err := gamerow.Decode(&g, ruleset, state, clock, tournament); err != nil {
			rows.Close()
			return nil, err
		}
		byID[g.ID] = &g
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read games: %w", err)
	}
	if rows, err = q.Query(ctx, sqlSelectSeats, ids); err != nil {
		return nil, fmt.Errorf("read seats: %w", err)
	}
	for rows.Next() {
		var s games.Seat
		var gameID string
		if err := rows.Scan(&gameID, &s.Color, &s.Name, &s.Email, &s.Locale, &s.TokenVersion); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read seats: %w", err)
		}
		if g := byID[gameID]; g != nil {
			g.Seats = append(g.Seats, s)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read seats: %w", err)
	}
	return gamerow.Complete(ctx, vacationsIn(q), ids, byID)
}

func insertGame(ctx context.Context, tx pgx.Tx, g *games.Game) error {
	c, err := gamerow.Encode(g)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO games (id, creator_id, ruleset, state, to_move, ply, status, version,
		created_at, updated_at, clock, deadline_at, due_at, tournament_id, tournament, watch_version)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text::jsonb, $12, $13, $14, $15::text::jsonb, $16)`,
		g.ID, g.CreatorID, c.Ruleset, c.State, c.ToMove, c.Ply, c.Status, g.Version,
		ms(g.CreatedAt), ms(g.UpdatedAt), c.Clock, nullTime(c.Deadline), nullTime(c.Due),
		nullString(c.TournamentID), nullString(c.Tournament), g.WatchVersion)
	if err != nil {
		return fmt.Errorf("insert game: %w", err)
	}
	for i, s := range g.Seats {
		_, err := tx.Exec(ctx, `INSERT INTO seats (game_id, color, seat_order, name, email, locale, token_version)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, g.ID, s.Color, i, s.Name, s.Email, s.Locale, s.TokenVersion)
		if err != nil {
			return fmt.Errorf("insert seat: %w", err)
		}
	}
	return nil
}

const sqlUpdateGame = `UPDATE games SET state = $1, to_move = $2, ply = $3, status = $4, version = $5, updated_at = $6,
	clock = $7::text::jsonb, deadline_at = $8, due_at = $9 WHERE id = $10 AND version = $11`

// checkVersion checks that the stored game is still at before's version,
// for a change that leaves it alone, and keeps it there until the
// transaction ends (FOR SHARE): what the change answers stays true.
func checkVersion(ctx context.Context, tx pgx.Tx, _, before *games.Game) error {
	var version int
	err := tx.QueryRow(ctx, `SELECT version FROM games WHERE id = $1 FOR SHARE`, before.ID).Scan(&version)
	if err != nil {
		return fmt.Errorf("read game %s version: %w", before.ID, err)
	}
	if version != before.Version {
		return fmt.Errorf("game %s at version %d: %w", before.ID, before.Version, domain.ErrStale)
	}
	return nil
}

// updateGame stores the new state of before, if the stored game is still
// at before's version. Seat rows and the spectator link's version are
// written only when a link was renewed or a seat changed hands.
func updateGame(ctx context.Context, tx pgx.Tx, g, before *games.Game) error {
	version := before.Version
	c, err := gamerow.Encode(g)
	if err != nil {
		return err
	}
	tag, err := tx.Exec(ctx, sqlUpdateGame, c.State, c.ToMove, c.Ply, c.Status, g.Version,
		ms(g.UpdatedAt), c.Clock, nullTime(c.Deadline), nullTime(c.Due), g.ID, version)
	if err != nil {
		return fmt.Errorf("update game %s: %w", g.ID, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("update game %s at version %d: %w", g.ID, version, domain.ErrStale)
	}
	if g.Over() && g.Tournament != nil {
		// The round may be complete: let the scheduler look at once.
		if _, err := tx.Exec(ctx, `UPDATE tournaments SET due_at = LEAST(due_at, $1) WHERE id = $2 AND due_at IS NOT NULL`,
			ms(g.UpdatedAt), g.Tournament.ID); err != nil {
			return fmt.Errorf("update tournament of %s: %w", g.ID, err)
		}
	}
	if g.WatchVersion != before.WatchVersion {
		if _, err := tx.Exec(ctx, `UPDATE games SET watch_version = $1 WHERE id = $2`, g.WatchVersion, g.ID); err != nil {
			return fmt.Errorf("update game %s: spectator link: %w", g.ID, err)
		}
	}
	for i, s := range g.Seats {
		if i < len(before.Seats) && before.Seats[i] == s {
			continue // most changes leave the seats alone
		}
		if _, err := tx.Exec(ctx, `UPDATE seats SET token_version = $1, name = $2, email = $3, locale = $4 WHERE game_id = $5 AND color = $6`,
			s.TokenVersion, s.Name, s.Email, s.Locale, g.ID, s.Color); err != nil {
			return fmt.Errorf("update seat: %w", err)
		}
	}
	return nil
}

func insertTurns(ctx context.Context, tx pgx.Tx, g *games.Game, plyBefore int, played []ruleset.Played, now time.Time) error {
	for i, p := range played {
		_, err := tx.Exec(ctx, `INSERT INTO turns (game_id, ply, color, notation, used, counted, auto, timed_out, played_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			g.ID, plyBefore+i+1, p.Color, p.Ply, p.Used, p.Counted, p.Auto, p.TimedOut, ms(now))
		if err != nil {
			return fmt.Errorf("insert turn: %w", err)
		}
	}
	return nil
}

func storedResponse(ctx context.Context, q querier, idem domain.Idempotency) (domain.Response, bool, error) {
	var r domain.Response
	var fingerprint []byte
	err := q.QueryRow(ctx, `SELECT fingerprint, status, body FROM idempotency_keys WHERE scope = $1 AND key = $2`,
		idem.Scope, idem.Key).Scan(&fingerprint, &r.Status, &r.Body)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Response{}, false, nil
	}
	if err != nil {
		return domain.Response{}, false, fmt.Errorf("read idempotency key: %w", err)
	}
	return idempotency.Replay(idem, fingerprint, r)
}

// DueGames lists up to limit running games whose clock needs attention at
// now (a reminder or a deadline), most overdue first.
func (db *DB) DueGames(ctx context.Context, now time.Time, limit int) ([]string, error) {
	ids, err := queryIDs(ctx, db.pool, `SELECT id FROM games WHERE due_at <= $1 AND status = 'active'
		ORDER BY due_at LIMIT $2`, ms(now), limit)
	if err != nil {
		return nil, fmt.Errorf("find due games: %w", err)
	}
	return ids, nil
}

// queryIDs runs a query whose rows are one id each.
func queryIDs(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
