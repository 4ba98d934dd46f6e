package games

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// The games' ports, and a change to a game in one unit of work.

// GameReader reads games. Reads through a Store see committed data; reads
// through a StoreTx also see what the transaction wrote.
type GameReader interface {
	RecordReader
	// RematchOf is the id of a game's rematch, "" if it has none.
	RematchOf(ctx context.Context, id string) (string, error)
	domain.IdempotencyReader
}

// RecordReader reads a game and its record.
type RecordReader interface {
	// Game reads a game; a missing game is a not-found *Error.
	Game(ctx context.Context, id string) (Game, error)
	// Turns lists a game's turns in order.
	Turns(ctx context.Context, id string) ([]StoredTurn, error)
	// TurnsFrom lists a game's turns from ply on, in order: the end of
	// its record, without reading the rest.
	TurnsFrom(ctx context.Context, id string, ply int) ([]StoredTurn, error)
}

// BatchReader reads many games at once: a tournament's page and records
// show thousands (a double round robin of 64 has 4,032), and a query or
// two for each would cost as many round trips.
type BatchReader interface {
	// Games reads the games with the given ids, in that order, leaving
	// out ids that do not exist; a few queries however many.
	Games(ctx context.Context, ids []string) ([]Game, error)
	// TurnsOf lists the turns of each of the games, in order, by game id;
	// one query however many.
	TurnsOf(ctx context.Context, ids []string) (map[string][]StoredTurn, error)
}

// StoreTx is what a unit of work may do to games.
type StoreTx interface {
	GameReader
	VacationTx
	// PlayersAway gives the vacations of the players of a game being
	// created, by colour in turn order, from since on. Players a spec would
	// refuse (a wrong count, a bad address) have none: CreateGame refuses it.
	PlayersAway(ctx context.Context, players []Player, since time.Time) (Away, error)
	// InsertGame stores a new game, the turns it starts with, the events of
	// the notices its creation causes, and mail.
	InsertGame(ctx context.Context, c *Created, mail []domain.Mail, now time.Time) error
	// LinkRematch records rematchID as the rematch of gameID; a game that
	// has one already (a concurrent request made it) is ErrStale.
	LinkRematch(ctx context.Context, gameID, rematchID string, now time.Time) error
	// UpdateGame stores a change to before with the events of its notices
	// and mail, if the stored game is still at before's version; else it
	// returns ErrStale. A change whose game is before itself (its Version
	// unchanged: a reply refused, which only answers) leaves the stored game
	// alone and queues its mail.
	UpdateGame(ctx context.Context, before *Game, c *GameChange, mail []domain.Mail, now time.Time) error
}

// GameChange is what a change to a game produced: the game as it now is,
// the turns it played, the notices it causes, who caused it and, for an
// idempotent request, the response to store.
type GameChange struct {
	Game     Game
	Played   []ruleset.Played
	Notices  []domain.Notice
	Response domain.Response
	domain.Cause
}

// StoredTurn is one turn as the store keeps it.
type StoredTurn struct {
	Ply      int
	Color    string
	Notation string // in the ruleset's canonical notation
	Used     int    // see ruleset.Played
	Counted  int
	Auto     bool
	TimedOut bool
	PlayedAt time.Time
}

// Played is the stored turn in the ruleset interface's form (without Detail).
func (t StoredTurn) Played() ruleset.Played {
	return ruleset.Played{Color: t.Color, Ply: t.Notation, Auto: t.Auto, TimedOut: t.TimedOut, Used: t.Used, Counted: t.Counted}
}

// GameUpdate is one change to one game, for UpdateGame.
type GameUpdate struct {
	GameID string
	// Idem, if set, makes the change idempotent: its response is stored
	// with it, and a retry gets the stored response instead.
	Idem *domain.Idempotency
	Now  time.Time
	// Authorize checks that the caller may act on the game; it runs before
	// a stored response is replayed, so that a retry with credentials that
	// no longer hold is refused like any request. Nil allows anyone.
	Authorize func(*Game) error
	// Compute is the change, from the game as read. It must be free of
	// side effects: it runs again when the game changed meanwhile.
	Compute func(Game) (GameChange, error)
	// Hold, if set, runs once before the change is first written, and
	// never for a stored response replayed: an edge's backpressure holds
	// new work back, not the retry of work already done.
	Hold func(context.Context)
}

// OptimisticAttempts bounds how often UpdateGame computes a change outside
// the unit of work. Races are rare: only the seat to move plays, and the
// scheduler acts on a game only at its deadline.
const OptimisticAttempts = 3

// UpdateGame applies a change to a game in one unit of work: the new state,
// the turns, the notices and (for an idempotent request) the response, or
// nothing if anything fails. If the Idempotency-Key was used before for the
// same request, the stored response is returned with replayed true and the
// change is not computed.
//
// The game is read and the change computed outside the unit of work, so
// that a store with one writer spends it only on writing; the write checks
// that the game's version is still the one read. If another change came
// first, UpdateGame reads and computes again, and after OptimisticAttempts
// such races it computes the change inside the unit of work, where nothing
// can overtake it.
//
// Its mail passes through p (nil: the default policy).
func UpdateGame(ctx context.Context, s Store, p *domain.MailPolicy, u GameUpdate) (resp domain.Response, replayed bool, err error) {
	transact := func(fn func(*Tx) error) error {
		return s.Transact(ctx, func(st domain.StoreTx) error {
			tx, err := NewTx(st, p)
			if err != nil {
				return err
			}
			return fn(tx)
		})
	}
	for range OptimisticAttempts {
		before, err := s.Game(ctx, u.GameID)
		if err != nil {
			return domain.Response{}, false, err
		}
		c, stored, err := planChange(ctx, s, &before, &u)
		if err != nil {
			return domain.Response{}, false, err
		}
		if stored != nil {
			return *stored, true, nil
		}
		if u.Hold != nil {
			u.Hold(ctx)
			u.Hold = nil
		}
		err = transact(func(tx *Tx) error { return applyChange(ctx, tx, &before, &c, &u) })
		if err == nil {
			return c.Response, false, nil
		}
		if !errors.Is(err, domain.ErrStale) {
			return domain.Response{}, false, err
		}
	}
	err = transact(func(tx *Tx) error {
		before, err := tx.Game(ctx, u.GameID)
		if err != nil {
			return err
		}
		c, stored, err := planChange(ctx, tx, &before, &u)
		if err != nil {
			return err
		}
		if stored != nil {
			resp, replayed = *stored, true
			return nil
		}
		resp = c.Response
		return applyChange(ctx, tx, &before, &c, &u)
	})
	if err != nil {
		return domain.Response{}, false, err
	}
	return resp, replayed, nil
}

// transactAgain runs fn as one unit of work, and again when it lost a race
// to a concurrent one (ErrStale: a key or a link another request wrote
// first), at most OptimisticAttempts times: the next run reads what the
// winner wrote and answers with it.
func (s *Service) transactAgain(ctx context.Context, fn func(*Tx) error) error {
	var err error
	for range OptimisticAttempts {
		if err = s.transact(ctx, fn); !errors.Is(err, domain.ErrStale) {
			return err
		}
	}
	return err
}

// planChange decides what u does to before, reading through r: the stored
// response if the Idempotency-Key was used before, else the change.
func planChange(ctx context.Context, r GameReader, before *Game, u *GameUpdate) (GameChange, *domain.Response, error) {
	if u.Authorize != nil {
		if err := u.Authorize(before); err != nil {
			return GameChange{}, nil, err
		}
	}
	if u.Idem != nil {
		stored, found, err := r.StoredResponse(ctx, *u.Idem)
		if err != nil {
			return GameChange{}, nil, err
		}
		if found {
			return GameChange{}, &stored, nil
		}
	}
	c, err := u.Compute(*before)
	return c, nil, err
}

// applyChange writes a planned change and, for an idempotent request, its
// response.
func applyChange(ctx context.Context, tx *Tx, before *Game, c *GameChange, u *GameUpdate) error {
	if err := tx.UpdateGame(ctx, before, c, u.Now); err != nil {
		return err
	}
	if u.Idem == nil {
		return nil
	}
	return tx.StoreResponse(ctx, *u.Idem, c.Response, u.Now)
}

// transact runs fn as one unit of work of the Service's store, under its
// mail policy (see Store.Transact).
func (s *Service) transact(ctx context.Context, fn func(*Tx) error) error {
	return s.store.Transact(ctx, func(st domain.StoreTx) error {
		tx, err := NewTx(st, s.mail)
		if err != nil {
			return err
		}
		return fn(tx)
	})
}

// updateGame is UpdateGame under the Service's mail policy.
func (s *Service) updateGame(ctx context.Context, u GameUpdate) (domain.Response, bool, error) {
	return UpdateGame(ctx, s.store, s.mail, u)
}

// Store is the persistence port of the games' use cases: the kernel's
// units of work, and what they read outside one.
type Store interface {
	domain.Store
	GameReader
	BatchReader
	VacationReader
	PlayerGamesReader
	ScheduleReader
	// GameMail lists how the emails a game caused fared, oldest first.
	GameMail(ctx context.Context, gameID string) ([]domain.NoticeDelivery, error)
}

// Tx is a unit of work as the games' use cases see it: the kernel's (every
// notice through the mail policy) and the store's writes to games.
type Tx struct {
	*domain.Tx
	StoreTx
}

// NewTx is st as the games' unit of work, under the policy p (nil: the
// default policy). The use cases get theirs from Service, and the other
// aggregates, whose units of work change games too, theirs from
// Service.In; tools and the store contract tests use this.
func NewTx(st domain.StoreTx, p *domain.MailPolicy) (*Tx, error) {
	gt, ok := st.(StoreTx)
	if !ok {
		return nil, fmt.Errorf("the store's unit of work (%T) keeps no games", st)
	}
	return &Tx{Tx: domain.NewTx(st, p), StoreTx: gt}, nil
}

// InsertGame stores a new game, and the mail of its notices that the policy
// admits (cause says who caused them).
func (t *Tx) InsertGame(ctx context.Context, c *Created, cause domain.Cause, now time.Time) error {
	mail, err := t.Admit(ctx, c.Notices, c.Game.Recipient, "", cause, now)
	if err != nil {
		return err
	}
	return t.StoreTx.InsertGame(ctx, c, mail, now)
}

// UpdateGame stores a change to before (see StoreTx.UpdateGame), and the
// mail of its notices that the policy admits.
func (t *Tx) UpdateGame(ctx context.Context, before *Game, c *GameChange, now time.Time) error {
	mail, err := t.Admit(ctx, c.Notices, c.Game.Recipient, "", c.Cause, now)
	if err != nil {
		return err
	}
	return t.StoreTx.UpdateGame(ctx, before, c, mail, now)
}
