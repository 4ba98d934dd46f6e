package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
)

var (
	_ domain.Store        = (*DB)(nil)
	_ domain.StoreTx      = storeTx{}
	_ games.Store         = (*DB)(nil)
	_ games.StoreTx       = storeTx{}
	_ tournaments.Store   = (*DB)(nil)
	_ tournaments.StoreTx = storeTx{}
	_ accounts.Store      = (*DB)(nil)
	_ accounts.StoreTx    = storeTx{}
	_ hooks.Store         = (*DB)(nil)
	_ hooks.PushTx        = storeTx{}
)

// Transact runs fn in one READ COMMITTED transaction (see withTx); a unit
// of work that meets a deadlock or a serialization failure runs again.
func (db *DB) Transact(ctx context.Context, fn func(domain.StoreTx) error) error {
	return db.withTx(ctx, func(tx pgx.Tx) error { return fn(storeTx{tx}) })
}

// storeTx is the domain.StoreTx of one transaction.
type storeTx struct{ tx pgx.Tx }

func (s storeTx) Game(ctx context.Context, id string) (games.Game, error) {
	return loadGame(ctx, s.tx, id, true)
}

func (s storeTx) Turns(ctx context.Context, id string) ([]games.StoredTurn, error) {
	return loadTurns(ctx, s.tx, id, sqlSelectTurns, id)
}

func (s storeTx) TurnsFrom(ctx context.Context, id string, ply int) ([]games.StoredTurn, error) {
	return loadTurns(ctx, s.tx, id, sqlSelectTurnsFrom, id, ply)
}

func (s storeTx) StoredResponse(ctx context.Context, idem domain.Idempotency) (domain.Response, bool, error) {
	return storedResponse(ctx, s.tx, idem)
}

func (s storeTx) PlayersAway(ctx context.Context, players []games.Player, since time.Time) (games.Away, error) {
	return gamerow.PlayersAway(ctx, vacationsIn(s.tx), players, since)
}

func (s storeTx) UserEmail(ctx context.Context, userID int64) (string, error) {
	return userEmail(ctx, s.tx, userID)
}

func (s storeTx) AccountLocale(ctx context.Context, email string) (string, error) {
	return accountLocale(ctx, s.tx, email)
}

func (s storeTx) InsertGame(ctx context.Context, c *games.Created, mail []domain.Mail, now time.Time) error {
	if err := insertGame(ctx, s.tx, &c.Game); err != nil {
		return err
	}
	if err := insertTurns(ctx, s.tx, &c.Game, 0, c.History, now); err != nil {
		return err
	}
	if err := writeEvents(ctx, s.tx, games.ChangeEvents(&c.Game, c.Game.Ply(), nil, c.Notices), now); err != nil {
		return err
	}
	return enqueue(ctx, s.tx, mail, now)
}

// UpdateGame writes what a change did to before: the new state (if the
// game is still at before's version, else domain.ErrStale), the turns it
// played and its emails.
func (s storeTx) UpdateGame(ctx context.Context, before *games.Game, c *games.GameChange, mail []domain.Mail, now time.Time) error {
	write := updateGame
	if c.Game.Version == before.Version {
		write = checkVersion // a change that only answers: the game stays as it is
	}
	if err := write(ctx, s.tx, &c.Game, before); err != nil {
		return err
	}
	if err := insertTurns(ctx, s.tx, &c.Game, before.Ply(), c.Played, now); err != nil {
		return err
	}
	if err := writeEvents(ctx, s.tx, games.ChangeEvents(&c.Game, before.Ply(), c.Played, c.Notices), now); err != nil {
		return err
	}
	return enqueue(ctx, s.tx, mail, now)
}

// StoreResponse keeps the response to an idempotent request. A key stored
// meanwhile by a concurrent retry is domain.ErrStale: the caller reads it
// and replays it.
func (s storeTx) StoreResponse(ctx context.Context, idem domain.Idempotency, r domain.Response, now time.Time) error {
	tag, err := s.tx.Exec(ctx, `INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
		idem.Scope, idem.Key, idem.Fingerprint, r.Status, r.Body, ms(now))
	if err != nil {
		return fmt.Errorf("store idempotent response: %w", err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("store idempotent response: %w", domain.ErrStale)
	}
	return nil
}
