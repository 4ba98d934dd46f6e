package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
)

// The store ports of domain (see domain/store.go) on SQLite: DB is the
// domain.Store, storeTx the domain.StoreTx of one write transaction.

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

// StoredResponse is the response stored for an idempotent request.
func (db *DB) StoredResponse(ctx context.Context, idem domain.Idempotency) (domain.Response, bool, error) {
	return storedResponse(ctx, db.read, idem)
}

// Transact runs fn in a write transaction (see WithTx): with group commit,
// fn's part of a shared SQLite transaction stands or falls alone.
func (db *DB) Transact(ctx context.Context, fn func(domain.StoreTx) error) error {
	return db.WithTx(ctx, func(tx *Tx) error { return fn(storeTx{tx}) })
}

type storeTx struct{ tx *Tx }

func (s storeTx) Game(ctx context.Context, id string) (games.Game, error) {
	return loadGame(ctx, s.tx, id)
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

func (s storeTx) UpdateGame(ctx context.Context, before *games.Game, c *games.GameChange, mail []domain.Mail, now time.Time) error {
	return storeChange(ctx, s.tx, before, c, mail, now)
}

// StoreResponse keeps the response to an idempotent request. A key stored
// meanwhile by a concurrent retry is domain.ErrStale: the caller reads it
// and replays it.
func (s storeTx) StoreResponse(ctx context.Context, idem domain.Idempotency, r domain.Response, now time.Time) error {
	res, err := s.tx.ExecContext(ctx, sqlInsertIdempotency,
		idem.Scope, idem.Key, idem.Fingerprint, r.Status, r.Body, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("store idempotent response: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("store idempotent response: %w", cmp.Or(err, domain.ErrStale))
	}
	return nil
}
