package repo

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
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

// CreateGame builds a game from spec (domain.CreateGame) and stores it with
// its invitations in one transaction.
func (db *DB) CreateGame(ctx context.Context, spec domain.NewGameSpec, creatorID int64, now time.Time) (domain.Game, error) {
	var created domain.Created
	err := db.WithTx(ctx, func(tx *Tx) error {
		away, err := awayOfPlayers(ctx, tx, spec.Players, now)
		if err != nil {
			return err
		}
		creator, err := userEmail(ctx, tx, creatorID)
		if err != nil {
			return err
		}
		spec.Creator = creator
		if created, err = domain.CreateGame(spec, newID("g"), creatorID, now, randomUint64(), away); err != nil {
			return err
		}
		if err := fillLocales(ctx, tx, &created.Game); err != nil {
			return err
		}
		if err := insertGame(ctx, tx, &created.Game); err != nil {
			return err
		}
		if err := insertTurns(ctx, tx, &created.Game, 0, created.History, now); err != nil {
			return err
		}
		return enqueue(ctx, tx, &created.Game, created.Notices, cause{by: creator}, now)
	})
	if err != nil {
		if _, ok := domain.ErrorOf(err); ok {
			return domain.Game{}, err
		}
		return domain.Game{}, fmt.Errorf("create game: %w", err)
	}
	return created.Game, nil
}

// Game reads a game; a missing game is a domain not-found error.
func (db *DB) Game(ctx context.Context, id string) (domain.Game, error) {
	return loadGame(ctx, db.read, id)
}

// Change is what a change to a game produced: the game as it now is, the
// turns it played, the emails it causes, and the response to store for an
// idempotent request.
type Change struct {
	Game     domain.Game
	Played   []less.Played
	Notices  []domain.Notice
	Response Response
	// By is the address of who asked for the change, if a person did: the
	// mail it causes to others counts against their budget (see admit).
	By string
	// Scheduled marks a change the server makes on schedule, which mail
	// cannot refuse (see cause).
	Scheduled bool
}

// Response is a stored HTTP response, opaque to the store.
type Response struct {
	Status int
	Body   []byte
}

// The statements of the turn path, prepared once per pool (see prepared.go).
const (
	// The ids are a JSON array, so that one prepared statement serves any
	// number of them.
	sqlSelectGames = `SELECT id, creator_id, size, walls, seed, preset, early_stop, max_turns, start,
		position, counts, ply, result, version, created_at, updated_at, clock, tournament, watch_version FROM games
		WHERE id IN (SELECT value FROM json_each(?))`
	sqlSelectSeats = `SELECT game_id, color, name, email, locale, token_version FROM seats
		WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY game_id, seat_order`
	sqlSelectIdempotency = `SELECT fingerprint, status, body FROM idempotency_keys WHERE scope = ? AND key = ?`
	sqlUpdateGame        = `UPDATE games SET position = ?, to_move = ?, counts = ?, ply = ?, status = ?,
		result = ?, version = ?, updated_at = ?, clock = ?, deadline_at = ?, due_at = ? WHERE id = ? AND version = ?`
	// Every email replays its game's turns.
	sqlSelectTurns = `SELECT ply, color, notation, used, counted, auto, timed_out, played_at
		FROM turns WHERE game_id = ? ORDER BY ply`
	sqlInsertTurn = `INSERT INTO turns (game_id, ply, color, notation, used, counted, auto, timed_out, played_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlInsertIdempotency = `INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`
)

// writeQueries and readQueries are prepared on the write and read pools.
var (
	writeQueries = []string{sqlSelectIdempotency, sqlUpdateGame, sqlInsertTurn, sqlInsertIdempotency, sqlInsertOutbox, sqlMailStops, sqlSeatPlayed,
		sqlSavepoint, sqlRollbackToSavepoint, sqlReleaseSavepoint}
	readQueries = []string{sqlSelectGames, sqlSelectSeats, sqlSelectIdempotency, sqlSelectSession, myGamesPage,
		sqlSelectTurns}
)

// Idempotency names a request sent with an Idempotency-Key.
type Idempotency struct {
	Scope       string // who sent it
	Key         string
	Fingerprint []byte // what was sent
}

// UpdateGame applies a change to a game: it reads the game, asks authorize
// whether the caller may act on it, calls change, and stores the new state,
// the turns, the outbox rows and (for an idempotent request) the response in
// one write transaction, or nothing if anything fails. If the
// Idempotency-Key was used before for the same request, the stored response
// is returned with replayed true and change is not called; authorize is, so
// a retry with credentials that no longer hold is refused like any request.
//
// The game is read and the change computed outside the write transaction,
// so that the one write connection does only the writing; the write then
// checks that the game's version is still the one read. If another change
// came first, UpdateGame reads again and calls authorize and change again
// (they must be free of side effects), and after optimisticAttempts such
// races it computes the change inside the write transaction, where nothing
// can overtake it.
func (db *DB) UpdateGame(ctx context.Context, id string, idem *Idempotency, now time.Time,
	authorize func(domain.Game) error, change func(domain.Game) (Change, error)) (resp Response, replayed bool, err error) {
	for range optimisticAttempts {
		before, err := loadGame(ctx, db.read, id)
		if err != nil {
			return Response{}, false, err
		}
		c, stored, err := planChange(ctx, db.read, before, idem, authorize, change)
		if err != nil {
			return Response{}, false, err
		}
		if stored != nil {
			return *stored, true, nil
		}
		err = db.WithTx(ctx, func(tx *Tx) error { return applyChange(ctx, tx, &before, &c, idem, now) })
		if err == nil {
			return c.Response, false, nil
		}
		if !errors.Is(err, errStale) {
			return Response{}, false, err
		}
	}
	err = db.WithTx(ctx, func(tx *Tx) error {
		before, err := loadGame(ctx, tx, id)
		if err != nil {
			return err
		}
		c, stored, err := planChange(ctx, tx, before, idem, authorize, change)
		if err != nil {
			return err
		}
		if stored != nil {
			resp, replayed = *stored, true
			return nil
		}
		resp = c.Response
		return applyChange(ctx, tx, &before, &c, idem, now)
	})
	if err != nil {
		return Response{}, false, err
	}
	return resp, replayed, nil
}

// optimisticAttempts bounds how often UpdateGame computes a change outside
// the write transaction. Races are rare: only the seat to move plays, and
// the scheduler acts on a game only at its deadline.
const optimisticAttempts = 3

// errStale means that a game, or an Idempotency-Key, changed between
// reading it and writing: the write is rolled back and tried again.
var errStale = errors.New("changed since it was read")

// planChange decides what a change does to before, reading through q: the
// stored response if the Idempotency-Key was used before, else the change.
func planChange(ctx context.Context, q queryer, before domain.Game, idem *Idempotency,
	authorize func(domain.Game) error, change func(domain.Game) (Change, error)) (Change, *Response, error) {
	if err := authorize(before); err != nil {
		return Change{}, nil, err
	}
	if idem != nil {
		stored, found, err := storedResponse(ctx, q, idem)
		if err != nil {
			return Change{}, nil, err
		}
		if found {
			return Change{}, &stored, nil
		}
	}
	c, err := change(before)
	return c, nil, err
}

// applyChange writes a planned change and, for an idempotent request, its
// response. A key stored meanwhile by a concurrent retry is errStale: the
// caller reads it and replays it.
func applyChange(ctx context.Context, tx *Tx, before *domain.Game, c *Change, idem *Idempotency, now time.Time) error {
	if err := storeChange(ctx, tx, before, c, now); err != nil {
		return err
	}
	if idem == nil {
		return nil
	}
	res, err := tx.ExecContext(ctx, sqlInsertIdempotency,
		idem.Scope, idem.Key, idem.Fingerprint, c.Response.Status, c.Response.Body, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("store idempotent response: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("store idempotent response: %w", cmp.Or(err, errStale))
	}
	return nil
}

// storeChange writes what a change did to a game: the new state (if the
// game is still at before's version), the turns it played and its emails.
func storeChange(ctx context.Context, tx *Tx, before *domain.Game, c *Change, now time.Time) error {
	if err := updateGame(ctx, tx, &c.Game, before); err != nil {
		return err
	}
	if err := insertTurns(ctx, tx, &c.Game, before.State.Ply, c.Played, now); err != nil {
		return err
	}
	return enqueue(ctx, tx, &c.Game, c.Notices, cause{by: c.By, scheduled: c.Scheduled}, now)
}

func storedResponse(ctx context.Context, q queryer, idem *Idempotency) (Response, bool, error) {
	var r Response
	var fingerprint []byte
	err := q.QueryRowContext(ctx, sqlSelectIdempotency, idem.Scope, idem.Key).Scan(&fingerprint, &r.Status, &r.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return Response{}, false, nil
	}
	if err != nil {
		return Response{}, false, fmt.Errorf("read idempotency key: %w", err)
	}
	if string(fingerprint) != string(idem.Fingerprint) {
		return Response{}, false, domain.Errorf(domain.KindConflict, domain.CodeIdempotencyReused,
			"this Idempotency-Key was already used for a different request")
	}
	return r, true, nil
}

// Turns lists a game's turns in order.
func (db *DB) Turns(ctx context.Context, id string) ([]domain.TurnRecord, error) {
	rows, err := db.read.QueryContext(ctx, sqlSelectTurns, id)
	if err != nil {
		return nil, fmt.Errorf("read turns of %s: %w", id, err)
	}
	defer rows.Close()
	var out []domain.TurnRecord
	for rows.Next() {
		var t domain.TurnRecord
		var color string
		var played int64
		if err := rows.Scan(&t.Ply, &color, &t.Notation, &t.Used, &t.Counted, &t.Auto, &t.TimedOut, &played); err != nil {
			return nil, fmt.Errorf("read turns of %s: %w", id, err)
		}
		if t.Color, err = less.ParseColor(color); err != nil {
			return nil, damaged("read turns of "+id, err)
		}
		t.PlayedAt = time.UnixMilli(played).UTC()
		out = append(out, t)
	}
	return out, rows.Err()
}

func insertGame(ctx context.Context, tx *Tx, g *domain.Game) error {
	st := &g.State
	var seed sql.NullString
	if g.Seed != nil {
		seed = sql.NullString{String: strconv.FormatUint(*g.Seed, 10), Valid: true}
	}
	counts, result, err := encodeState(st)
	if err != nil {
		return err
	}
	clock, deadline, due, err := encodeClock(&g.Clock)
	if err != nil {
		return err
	}
	var tournamentID, tournament sql.NullString
	if ref := g.Tournament; ref != nil {
		b, err := json.Marshal(ref)
		if err != nil {
			return fmt.Errorf("encode tournament: %w", err)
		}
		tournamentID = sql.NullString{String: ref.ID, Valid: true}
		tournament = sql.NullString{String: string(b), Valid: true}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO games (id, creator_id, size, walls, seed, preset, early_stop, max_turns,
		start, position, to_move, counts, ply, status, result, version, created_at, updated_at, clock, deadline_at, due_at,
		tournament_id, tournament)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.CreatorID, st.Start.Size(), st.Start.Board().Walls(), seed, string(g.Preset), st.Options.EarlyStop,
		st.Options.MaxTurns, st.Start.String(), st.Position.String(), st.Position.ToMove().String(), counts, st.Ply,
		status(g), result, g.Version, g.CreatedAt.UnixMilli(), g.UpdatedAt.UnixMilli(), clock, deadline, due,
		tournamentID, tournament)
	if err != nil {
		return fmt.Errorf("insert game: %w", err)
	}
	for i, s := range g.Seats {
		_, err := tx.ExecContext(ctx, `INSERT INTO seats (game_id, color, seat_order, name, email, locale, token_version)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, g.ID, s.Color.String(), i, s.Name, s.Email, s.Locale, s.TokenVersion)
		if err != nil {
			return fmt.Errorf("insert seat: %w", err)
		}
	}
	return nil
}

// updateGame stores the new state of before; the version check makes a
// lost update impossible even if a caller bypassed the write transaction.
// Seat rows and the spectator link's version are written only when a link
// was renewed: most changes are turns, and every statement holds the one
// write connection.
func updateGame(ctx context.Context, tx *Tx, g, before *domain.Game) error {
	version := before.Version
	st := &g.State
	counts, result, err := encodeState(st)
	if err != nil {
		return err
	}
	clock, deadline, due, err := encodeClock(&g.Clock)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, sqlUpdateGame, st.Position.String(), st.Position.ToMove().String(), counts, st.Ply, status(g), result, g.Version,
		g.UpdatedAt.UnixMilli(), clock, deadline, due, g.ID, version)
	if err != nil {
		return fmt.Errorf("update game %s: %w", g.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("update game %s at version %d: %w", g.ID, version, cmp.Or(err, errStale))
	}
	if g.Over() && g.Tournament != nil {
		// The round may be complete: let the scheduler look at once.
		if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET due_at = MIN(COALESCE(due_at, ?), ?) WHERE id = ? AND due_at IS NOT NULL`,
			g.UpdatedAt.UnixMilli(), g.UpdatedAt.UnixMilli(), g.Tournament.ID); err != nil {
			return fmt.Errorf("update tournament of %s: %w", g.ID, err)
		}
	}
	if g.WatchVersion != before.WatchVersion {
		if _, err := tx.ExecContext(ctx, `UPDATE games SET watch_version = ? WHERE id = ?`, g.WatchVersion, g.ID); err != nil {
			return fmt.Errorf("update game %s: spectator link: %w", g.ID, err)
		}
	}
	for i, s := range g.Seats {
		if i < len(before.Seats) && before.Seats[i].TokenVersion == s.TokenVersion {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE seats SET token_version = ? WHERE game_id = ? AND color = ?`,
			s.TokenVersion, g.ID, s.Color.String()); err != nil {
			return fmt.Errorf("update seat: %w", err)
		}
	}
	return nil
}

func insertTurns(ctx context.Context, tx *Tx, g *domain.Game, plyBefore int, played []less.Played, now time.Time) error {
	for i, p := range played {
		_, err := tx.ExecContext(ctx, sqlInsertTurn, g.ID, plyBefore+i+1, p.Color.String(), p.Turn.String(), p.Used, p.Counted,
			p.Auto, p.TimedOut, now.UnixMilli())
		if err != nil {
			return fmt.Errorf("insert turn: %w", err)
		}
	}
	return nil
}

func status(g *domain.Game) string {
	if g.Over() {
		return "finished"
	}
	return "active"
}

func loadGame(ctx context.Context, q queryer, id string) (domain.Game, error) {
	games, err := loadGames(ctx, q, []string{id})
	if err != nil {
		return domain.Game{}, err
	}
	if len(games) == 0 {
		return domain.Game{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no game %s", domain.Clip(id))
	}
	return games[0], nil
}

// loadGames reads the games with the given ids, in that order, skipping
// ids that do not exist: a page of "my games" costs two queries, not two
// per game.
func loadGames(ctx context.Context, q queryer, ids []string) ([]domain.Game, error) {
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
	byID := make(map[string]*domain.Game, len(ids))
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, err
		}
		byID[g.ID] = &g
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
		var s domain.Seat
		var gameID, color string
		if err := rows.Scan(&gameID, &color, &s.Name, &s.Email, &s.Locale, &s.TokenVersion); err != nil {
			return nil, fmt.Errorf("read seats: %w", err)
		}
		if s.Color, err = less.ParseColor(color); err != nil {
			return nil, damaged("read seats of "+gameID, err)
		}
		if g := byID[gameID]; g != nil {
			g.Seats = append(g.Seats, s)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read seats: %w", err)
	}
	rows.Close()
	games := make([]domain.Game, 0, len(byID))
	for _, id := range ids {
		g := byID[id]
		if g == nil {
			continue
		}
		if g.Clock.Control.AllowVacation && !g.Clock.TurnStart.IsZero() {
			if g.Away, err = awayOfSeats(ctx, q, g.Seats, g.Clock.TurnStart); err != nil {
				return nil, err
			}
		}
		games = append(games, *g)
	}
	return games, nil
}

// scanGame reads a row of sqlSelectGames.
func scanGame(row interface{ Scan(...any) error }) (domain.Game, error) {
	var (
		g                              domain.Game
		size, maxTurns, version, ply   int
		earlyStop                      bool
		walls, preset, start, position string
		counts, clock                  string
		seed, result, tournament       sql.NullString
		created, updated               int64
	)
	if err := row.Scan(&g.ID, &g.CreatorID, &size, &walls, &seed, &preset, &earlyStop, &maxTurns, &start, &position,
		&counts, &ply, &result, &version, &created, &updated, &clock, &tournament, &g.WatchVersion); err != nil {
		return domain.Game{}, fmt.Errorf("read game: %w", err)
	}
	g.Preset, g.Version = less.Preset(preset), version
	g.CreatedAt, g.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	if seed.Valid {
		s, err := strconv.ParseUint(seed.String, 10, 64)
		if err != nil {
			return domain.Game{}, damaged("read game "+g.ID+": seed", err)
		}
		g.Seed = &s
	}
	var err error
	if g.State, err = decodeState(size, walls, earlyStop, maxTurns, start, position, counts, ply, result); err != nil {
		return domain.Game{}, damaged("read game "+g.ID, err)
	}
	if err := json.Unmarshal([]byte(clock), &g.Clock); err != nil {
		return domain.Game{}, damaged("read game "+g.ID+": clock", err)
	}
	if tournament.Valid {
		g.Tournament = new(domain.TournamentRef)
		if err := json.Unmarshal([]byte(tournament.String), g.Tournament); err != nil {
			return domain.Game{}, damaged("read game "+g.ID+": tournament", err)
		}
	}
	return g, nil
}

// damaged wraps an error in decoding a stored value: domain.ErrStoredData
// makes it a server error, never one that blames the client.
func damaged(what string, err error) error {
	return fmt.Errorf("%s: %w: %w", what, domain.ErrStoredData, err)
}

// storedResult is less.Result with JSON names (same fields, same order).
type storedResult struct {
	Reason        less.Reason `json:"reason"`
	Draw          bool        `json:"draw"`
	Winner        less.Side   `json:"winner"`
	Margin        int         `json:"margin"`
	Counts        [2]int      `json:"counts"`
	Needed        [2]int      `json:"needed"`
	Totals        [2]int      `json:"totals"`
	BlockedCorner bool        `json:"blocked_corner"`
	Loser         less.Side   `json:"loser"`
}

func encodeState(st *less.State) (counts string, result sql.NullString, err error) {
	c, err := json.Marshal(st.Counts)
	if err != nil {
		return "", result, err
	}
	if st.Result != nil {
		r := storedResult(*st.Result)
		b, err := json.Marshal(r)
		if err != nil {
			return "", result, err
		}
		result = sql.NullString{String: string(b), Valid: true}
	}
	return string(c), result, nil
}

func decodeState(size int, walls string, earlyStop bool, maxTurns int, start, position, counts string, ply int, result sql.NullString) (less.State, error) {
	board, err := less.ParseBoard(size, walls)
	if err != nil {
		return less.State{}, err
	}
	st := less.State{Options: less.Options{EarlyStop: earlyStop, MaxTurns: maxTurns}, Ply: ply}
	if st.Start, err = less.ParsePosition(board, start, earlyStop); err != nil {
		return less.State{}, fmt.Errorf("start: %w", err)
	}
	if st.Position, err = less.ParsePosition(board, position, earlyStop); err != nil {
		return less.State{}, fmt.Errorf("position: %w", err)
	}
	if err := json.Unmarshal([]byte(counts), &st.Counts); err != nil {
		return less.State{}, fmt.Errorf("counts: %w", err)
	}
	if result.Valid {
		var r storedResult
		if err := json.Unmarshal([]byte(result.String), &r); err != nil {
			return less.State{}, fmt.Errorf("result: %w", err)
		}
		lr := less.Result(r)
		st.Result = &lr
	}
	return st, nil
}

// newID returns a random identifier with a prefix. Ids are public (they
// appear in links); access is granted by tokens, never by knowing an id.
func newID(prefix string) string {
	return prefix + "_" + randomToken(12)
}

func randomUint64() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// encodeClock stores a clock as JSON, with the deadline and the next due
// time as columns the scheduler can query.
func encodeClock(c *domain.Clock) (clock string, deadline, due sql.NullInt64, err error) {
	b, err := json.Marshal(c)
	if err != nil {
		return "", deadline, due, fmt.Errorf("encode clock: %w", err)
	}
	if !c.Deadline.IsZero() {
		deadline = sql.NullInt64{Int64: c.Deadline.UnixMilli(), Valid: true}
	}
	if next := c.NextDue(); !next.IsZero() {
		due = sql.NullInt64{Int64: next.UnixMilli(), Valid: true}
	}
	return string(b), deadline, due, nil
}

// fillLocales gives seats without a chosen locale their account's language.
func fillLocales(ctx context.Context, tx *Tx, g *domain.Game) error {
	for i := range g.Seats {
		seat := &g.Seats[i]
		if seat.Locale == "" {
			var err error
			if seat.Locale, err = accountLocale(ctx, tx, seat.Email); err != nil {
				return err
			}
		}
	}
	return nil
}
