package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
	"github.com/lesspost/lesspost/repo/internal/idempotency"
)

// queryer is what reads need: a pool or a transaction.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryIDs runs a query whose rows are one id each.
func queryIDs(ctx context.Context, q queryer, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Game reads a game; a missing game is a domain not-found error. It
// answers from the game cache when it can (see gameCache).
func (db *DB) Game(ctx context.Context, id string) (games.Game, error) {
	return db.cachedGame(ctx, id)
}

// Change, Response and Idempotency are the domain's, under the names the
// store's callers knew.
type (
	Change      = games.GameChange
	Response    = domain.Response
	Idempotency = domain.Idempotency
)

// The statements of the turn path, prepared once per pool (see prepared.go).
const (
	// The ids are a JSON array, so that one prepared statement serves any
	// number of them.
	sqlSelectGames = `SELECT id, creator_id, ruleset, state, version, created_at, updated_at, clock, tournament,
		watch_version FROM games
		WHERE id IN (SELECT value FROM json_each(?))`
	sqlSelectSeats = `SELECT game_id, color, name, email, locale, token_version FROM seats
		WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY game_id, seat_order`
	sqlSelectIdempotency = `SELECT fingerprint, status, body FROM idempotency_keys WHERE scope = ? AND key = ?`
	sqlUpdateGame        = `UPDATE games SET state = ?, to_move = ?, ply = ?, status = ?,
		version = ?, updated_at = ?, clock = ?, deadline_at = ?, due_at = ? WHERE id = ? AND version = ?`
	sqlSelectTurns = `SELECT ply, color, notation, used, counted, auto, timed_out, played_at
		FROM turns WHERE game_id = ? ORDER BY ply`
	// Every email reads the end of its game's record: a range of the
	// primary key (game_id, ply).
	sqlSelectTurnsFrom = `SELECT ply, color, notation, used, counted, auto, timed_out, played_at
		FROM turns WHERE game_id = ? AND ply >= ? ORDER BY ply`
	sqlInsertTurn = `INSERT INTO turns (game_id, ply, color, notation, used, counted, auto, timed_out, played_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlInsertIdempotency = `INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`
)

// writeQueries are prepared on the write pool when the store opens (see
// prepared.go); the read pool prepares every query on first use.
var writeQueries = []string{sqlSelectIdempotency, sqlUpdateGame, sqlInsertTurn, sqlInsertIdempotency, sqlInsertOutbox, sqlInsertEvent, sqlMailStops, sqlSeatPlayed, sqlBudgetSpent,
	sqlSavepoint, sqlRollbackToSavepoint, sqlReleaseSavepoint, sqlTakeRequest, sqlSelectRateLimit, sqlSelectUserByEmail}

// storeChange writes what a change did to a game: the new state (if the
// game is still at before's version), the turns it played and its emails.
func storeChange(ctx context.Context, tx *Tx, before *games.Game, c *games.GameChange, mail []domain.Mail, now time.Time) error {
	write := updateGame
	if c.Game.Version == before.Version {
		write = checkVersion // a change that only answers: the game stays as it is
	}
	if err := write(ctx, tx, &c.Game, before); err != nil {
		return err
	}
	if err := insertTurns(ctx, tx, &c.Game, before.Ply(), c.Played, now); err != nil {
		return err
	}
	if err := writeEvents(ctx, tx, games.ChangeEvents(&c.Game, before.Ply(), c.Played, c.Notices), now); err != nil {
		return err
	}
	return enqueue(ctx, tx, mail, now)
}

func storedResponse(ctx context.Context, q queryer, idem domain.Idempotency) (domain.Response, bool, error) {
	var r domain.Response
	var fingerprint []byte
	err := q.QueryRowContext(ctx, sqlSelectIdempotency, idem.Scope, idem.Key).Scan(&fingerprint, &r.Status, &r.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Response{}, false, nil
	}
	if err != nil {
		return domain.Response{}, false, fmt.Errorf("read idempotency key: %w", err)
	}
	return idempotency.Replay(idem, fingerprint, r)
}

// Turns lists a game's turns in order.
func (db *DB) Turns(ctx context.Context, id string) ([]games.StoredTurn, error) {
	return loadTurns(ctx, db.read, id, sqlSelectTurns, id)
}

// TurnsFrom lists a game's turns from ply on, in order.
func (db *DB) TurnsFrom(ctx context.Context, id string, ply int) ([]games.StoredTurn, error) {
	return loadTurns(ctx, db.read, id, sqlSelectTurnsFrom, id, ply)
}

// loadTurns reads the turns of game id that query selects with args.
func loadTurns(ctx context.Context, q queryer, id, query string, args ...any) ([]games.StoredTurn, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read turns of %s: %w", id, err)
	}
	defer rows.Close()
	var out []games.StoredTurn
	for rows.Next() {
		var t games.StoredTurn
		var played int64
		if err := rows.Scan(&t.Ply, &t.Color, &t.Notation, &t.Used, &t.Counted, &t.Auto, &t.TimedOut, &played); err != nil {
			return nil, fmt.Errorf("read turns of %s: %w", id, err)
		}
		t.PlayedAt = time.UnixMilli(played).UTC()
		out = append(out, t)
	}
	return out, rows.Err()
}

func insertGame(ctx context.Context, tx *Tx, g *games.Game) error {
	c, err := gamerow.Encode(g)
	if err != nil {
		return err
	}
	tx.storingGame(g.ID) // a new game: nothing to fill, only to evict
	_, err = tx.execGame(ctx, `INSERT INTO games (id, creator_id, ruleset, state, to_move, ply, status, version,
		created_at, updated_at, clock, deadline_at, due_at, tournament_id, tournament)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.CreatorID, c.Ruleset, c.State, c.ToMove, c.Ply, c.Status, g.Version,
		g.CreatedAt.UnixMilli(), g.UpdatedAt.UnixMilli(), c.Clock, millis(c.Deadline), millis(c.Due),
		nullString(c.TournamentID), nullString(c.Tournament))
	if err != nil {
		return fmt.Errorf("insert game: %w", err)
	}
	for i, s := range g.Seats {
		_, err := tx.execGame(ctx, `INSERT INTO seats (game_id, color, seat_order, name, email, locale, token_version)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, g.ID, s.Color, i, s.Name, s.Email, s.Locale, s.TokenVersion)
		if err != nil {
			return fmt.Errorf("insert seat: %w", err)
		}
	}
	return nil
}

// updateGame stores the new state of before; the version check makes a
// lost update impossible even if a caller bypassed the write transaction.
// Seat rows and the spectator link's version are written only when a link
// was renewed or a seat changed hands (a tournament's organiser replaced a
// player): most changes are turns, and every statement holds the one
// write connection.
func updateGame(ctx context.Context, tx *Tx, g, before *games.Game) error {
	version := before.Version
	c, err := gamerow.Encode(g)
	if err != nil {
		return err
	}
	// Whatever happens next, the cache must not keep the game as it was.
	base := tx.rowBefore(g.ID)
	stored := tx.storingGame(g.ID)
	res, err := tx.execGame(ctx, sqlUpdateGame, c.State, c.ToMove, c.Ply, c.Status, g.Version,
		g.UpdatedAt.UnixMilli(), c.Clock, millis(c.Deadline), millis(c.Due), g.ID, version)
	if err != nil {
		return fmt.Errorf("update game %s: %w", g.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		tx.cache.evict(g.ID) // the retry reads the database
		return fmt.Errorf("update game %s at version %d: %w", g.ID, version, cmp.Or(err, domain.ErrStale))
	}
	if g.Over() && g.Tournament != nil {
		// The round may be complete: let the scheduler look at once.
		if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET due_at = MIN(COALESCE(due_at, ?), ?) WHERE id = ? AND due_at IS NOT NULL`,
			g.UpdatedAt.UnixMilli(), g.UpdatedAt.UnixMilli(), g.Tournament.ID); err != nil {
			return fmt.Errorf("update tournament of %s: %w", g.ID, err)
		}
	}
	if g.WatchVersion != before.WatchVersion {
		if _, err := tx.execGame(ctx, `UPDATE games SET watch_version = ? WHERE id = ?`, g.WatchVersion, g.ID); err != nil {
			return fmt.Errorf("update game %s: spectator link: %w", g.ID, err)
		}
	}
	for i, s := range g.Seats {
		if i < len(before.Seats) && before.Seats[i] == s {
			continue // most changes leave the seats alone
		}
		if _, err := tx.execGame(ctx, `UPDATE seats SET token_version = ?, name = ?, email = ?, locale = ? WHERE game_id = ? AND color = ?`,
			s.TokenVersion, s.Name, s.Email, s.Locale, g.ID, s.Color); err != nil {
			return fmt.Errorf("update seat: %w", err)
		}
	}
	stored.row = updatedRow(base, g, before, &c)
	return nil
}

// updatedRow is the row updateGame leaves, from the row before (nil if
// unknown: then so is the result): exactly the columns its statements
// write, the others as they were.
func updatedRow(base *gameRow, g, before *games.Game, c *gamerow.Columns) *gameRow {
	if base == nil || base.version != before.Version {
		return nil
	}
	r := *base
	r.state, r.clock, r.version, r.updatedAt = c.State, c.Clock, g.Version, g.UpdatedAt.UnixMilli()
	if g.WatchVersion != before.WatchVersion {
		r.watchVersion = g.WatchVersion
	}
	r.seats = slices.Clone(base.seats)
	for i, s := range g.Seats {
		if i < len(before.Seats) && before.Seats[i] == s {
			continue
		}
		for j := range r.seats {
			if r.seats[j].Color == s.Color {
				r.seats[j].Name, r.seats[j].Email, r.seats[j].Locale, r.seats[j].TokenVersion = s.Name, s.Email, s.Locale, s.TokenVersion
			}
		}
	}
	return &r
}

// checkVersion checks that the stored game is still at before's version,
// for a change that leaves it alone.
func checkVersion(ctx context.Context, tx *Tx, g, before *games.Game) error {
	var current bool
	if err := tx.QueryRowContext(ctx, sqlGameAtVersion, before.ID, before.Version).Scan(&current); err != nil {
		return fmt.Errorf("read game %s version: %w", before.ID, err)
	}
	if !current {
		tx.cache.evict(before.ID) // the retry reads the database
		return fmt.Errorf("game %s at version %d: %w", before.ID, before.Version, domain.ErrStale)
	}
	return nil
}

const sqlGameAtVersion = `SELECT EXISTS (SELECT 1 FROM games WHERE id = ? AND version = ?)`

func insertTurns(ctx context.Context, tx *Tx, g *games.Game, plyBefore int, played []ruleset.Played, now time.Time) error {
	for i, p := range played {
		_, err := tx.ExecContext(ctx, sqlInsertTurn, g.ID, plyBefore+i+1, p.Color, p.Ply, p.Used, p.Counted,
			p.Auto, p.TimedOut, now.UnixMilli())
		if err != nil {
			return fmt.Errorf("insert turn: %w", err)
		}
	}
	return nil
}

func loadGame(ctx context.Context, q queryer, id string) (games.Game, error) {
	found, err := loadGames(ctx, q, []string{id})
	if err != nil {
		return games.Game{}, err
	}
	if len(found) == 0 {
		return games.Game{}, gameNotFound(id)
	}
	return found[0], nil
}

func gameNotFound(id string) error { return gamerow.GameNotFound(id) }

// loadGames reads the games with the given ids, in that order, skipping
// ids that do not exist: a page of "my games" costs two queries, not two
// per game.
func loadGames(ctx context.Context, q queryer, ids []string) ([]games.Game, error) {
	rows, err := loadRows(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	return completeRows(ctx, q, ids, rows)
}

// loadRows reads the rows and seats of the games with the given ids, in
// that order, skipping ids that do not exist.
func loadRows(ctx context.Context, q queryer, ids []string) ([]*gameRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, sqlSelectGames, string(list))
	if err != nil {
		return nil, fmt.Errorf("read games: %w", err)
	}
	defer rows.Close()
	byID := make(map[string]*gameRow, len(ids))
	for rows.Next() {
		r, err := scanRow(rows)
		if err != nil {
			return nil, fmt.Errorf("read game: %w", err)
		}
		byID[r.id] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read games: %w", err)
	}
	rows.Close()
	if rows, err = q.QueryContext(ctx, sqlSelectSeats, string(list)); err != nil {
		return nil, fmt.Errorf("read seats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s games.Seat
		var gameID string
		if err := rows.Scan(&gameID, &s.Color, &s.Name, &s.Email, &s.Locale, &s.TokenVersion); err != nil {
			return nil, fmt.Errorf("read seats: %w", err)
		}
		if r := byID[gameID]; r != nil {
			r.seats = append(r.seats, s)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read seats: %w", err)
	}
	rows.Close()
	out := make([]*gameRow, 0, len(byID))
	for _, id := range ids {
		if r := byID[id]; r != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// completeRows decodes rows read for ids and reads what else their games
// need (see gamerow.Complete).
func completeRows(ctx context.Context, q queryer, ids []string, rows []*gameRow) ([]games.Game, error) {
	byID := make(map[string]*games.Game, len(rows))
	for _, r := range rows {
		if _, ok := byID[r.id]; ok {
			continue
		}
		g, err := decodeRow(r)
		if err != nil {
			return nil, err
		}
		byID[r.id] = &g
	}
	return gamerow.Complete(ctx, vacationsIn(q), ids, byID)
}

// completeRow is completeRows for one row.
func completeRow(ctx context.Context, q queryer, r *gameRow) (games.Game, error) {
	found, err := completeRows(ctx, q, []string{r.id}, []*gameRow{r})
	if err != nil {
		return games.Game{}, err
	}
	return found[0], nil
}

// decodeRow is the game of a row, sharing no memory with it.
func decodeRow(r *gameRow) (games.Game, error) {
	g := games.Game{ID: r.id, CreatorID: r.creatorID, Version: r.version, WatchVersion: r.watchVersion,
		CreatedAt: time.UnixMilli(r.createdAt).UTC(), UpdatedAt: time.UnixMilli(r.updatedAt).UTC(),
		Seats: slices.Clone(r.seats)}
	if err := gamerow.Decode(&g, r.ruleset, r.state, r.clock, r.tournament); err != nil {
		return games.Game{}, err
	}
	return g, nil
}

// millis is a time as a nullable Unix-milliseconds column: the zero time
// is NULL.
func millis(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

// nullString is a nullable text column: "" is NULL.
func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }
