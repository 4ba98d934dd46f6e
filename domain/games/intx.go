package games

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// InTx is the games' use cases that another aggregate runs inside its own
// unit of work: a tournament's round creates its games, and its organiser's
// changes resign, adjudicate, halt, resume, extend and reseat them, in the
// same transaction as the tournament's own writes, so that both stand or
// fall together. Each method computes the change to a game and writes it,
// with its notices through the unit of work's mail policy; the caller never
// builds a change itself.
//
// Every change it makes is Scheduled (see domain.Cause): it happens however
// its mail fares. by, where a method takes it, is the address of who caused
// the change (the organiser), whose own mail counts against nobody's budget.
type InTx struct {
	tx    *Tx
	newID func(prefix string) string
}

// In is the games' use cases inside kt, a unit of work of the Service's
// store that another aggregate opened (under its mail policy). It fails
// only when the store's unit of work keeps no games.
func (s *Service) In(kt *domain.Tx) (*InTx, error) {
	gt, ok := kt.StoreTx.(StoreTx)
	if !ok {
		return nil, fmt.Errorf("the store's unit of work (%T) keeps no games", kt.StoreTx)
	}
	return &InTx{tx: &Tx{Tx: kt, StoreTx: gt}, newID: s.newID}, nil
}

// Game reads a game as the unit of work sees it.
func (in *InTx) Game(ctx context.Context, id string) (Game, error) {
	return in.tx.Game(ctx, id)
}

// Turns lists a game's turns in order, as the unit of work sees them.
func (in *InTx) Turns(ctx context.Context, id string) ([]StoredTurn, error) {
	return in.tx.Turns(ctx, id)
}

// Consent says, for the address of an invitation, whether its recipient
// agreed to hear from the game's creator and whether he took part already
// (see domain.Notice's Agreed and Engaged).
type Consent func(email string) (agreed, engaged bool, err error)

// Create builds a game from spec for the account creatorID on the board
// seed and stores it with its invitations, which consent marks, as by's
// doing.
func (in *InTx) Create(ctx context.Context, spec NewGameSpec, creatorID int64, seed uint64, by string, consent Consent, now time.Time) (Game, error) {
	away, err := in.tx.PlayersAway(ctx, spec.Players, now)
	if err != nil {
		return Game{}, err
	}
	created, err := CreateGame(spec, in.newID("g"), creatorID, now, seed, away)
	if err != nil {
		return Game{}, err
	}
	if err := fillLocales(ctx, in.tx, &created.Game); err != nil {
		return Game{}, err
	}
	for i := range created.Notices {
		n := &created.Notices[i]
		if n.Agreed, n.Engaged, err = consent(created.Game.Recipient(*n)); err != nil {
			return Game{}, err
		}
	}
	if err := in.tx.InsertGame(ctx, &created, domain.Cause{By: by, Scheduled: true}, now); err != nil {
		return Game{}, err
	}
	return created.Game, nil
}

// Forfeit resigns g, as read in the unit of work, for the seat of colour
// color (its player withdrew), and returns the game ended.
func (in *InTx) Forfeit(ctx context.Context, g Game, color string, now time.Time) (Game, error) {
	sub, err := Resign(g, Actor{SeatColor: &color}, now)
	if err != nil {
		return Game{}, err
	}
	return sub.Game, in.update(ctx, &g, GameChange{Game: sub.Game, Notices: sub.Notices}, now)
}

// Adjudicate ends g at its deadline by the rules' adjudication, and tells
// its players the result.
func (in *InTx) Adjudicate(ctx context.Context, g Game, now time.Time) (Game, error) {
	return in.adjudicate(ctx, g, true, now)
}

// EndUnplayed ends g, in which nobody moved, at its deadline: the rules
// adjudicate it so that it is over, but its players are not told that
// result, which is none (the caller tells them what counts instead).
func (in *InTx) EndUnplayed(ctx context.Context, g Game, now time.Time) (Game, error) {
	return in.adjudicate(ctx, g, false, now)
}

func (in *InTx) adjudicate(ctx context.Context, g Game, tell bool, now time.Time) (Game, error) {
	sub, err := Adjudicate(g, now)
	if err != nil {
		return Game{}, err
	}
	c := GameChange{Game: sub.Game}
	if tell {
		c.Notices = sub.Notices
	}
	return sub.Game, in.update(ctx, &g, c, now)
}

// HaltClock stops g's clock (its tournament is paused), if it runs.
func (in *InTx) HaltClock(ctx context.Context, g Game, now time.Time) error {
	return in.updateIf(ctx, &g, haltClock, now)
}

// ResumeClock restarts g's halted clock: the pause does not count against
// the player to move.
func (in *InTx) ResumeClock(ctx context.Context, g Game, now time.Time) error {
	return in.updateIf(ctx, &g, resumeClock, now)
}

// ExtendTurn gives the player to move in g by more time for his turn, if
// it has a clock running.
func (in *InTx) ExtendTurn(ctx context.Context, g Game, by time.Duration, now time.Time) error {
	return in.updateIf(ctx, &g, func(g Game, now time.Time) (Game, bool) { return extendTurn(g, by, now) }, now)
}

// Reseat puts player p in the seat of g where the address old sits (see
// Reseat), as by's doing.
func (in *InTx) Reseat(ctx context.Context, g Game, old string, p Player, by string, now time.Time) error {
	i := slices.IndexFunc(g.Seats, func(s Seat) bool { return s.Email == old })
	if i < 0 {
		return fmt.Errorf("game %s has no seat of %s", g.ID, old)
	}
	ng, notices := Reseat(g, i, p, now)
	return in.write(ctx, &g, GameChange{Game: ng, Notices: notices}, by, now)
}

// update writes c, a change to before that nobody in particular caused.
func (in *InTx) update(ctx context.Context, before *Game, c GameChange, now time.Time) error {
	return in.write(ctx, before, c, "", now)
}

// write writes c, a scheduled change to before that by caused.
func (in *InTx) write(ctx context.Context, before *Game, c GameChange, by string, now time.Time) error {
	c.Cause = domain.Cause{By: by, Scheduled: true}
	return in.tx.UpdateGame(ctx, before, &c, now)
}

// updateIf writes what change does to g, if it changes it.
func (in *InTx) updateIf(ctx context.Context, g *Game, change func(Game, time.Time) (Game, bool), now time.Time) error {
	ng, changed := change(*g, now)
	if !changed {
		return nil
	}
	return in.update(ctx, g, GameChange{Game: ng}, now)
}

// Reseat puts player p in seat i of g: his name, address and language.
// When the address changes the seat's move link is renewed, so the old
// address's link stops working, and the new address is invited with its
// own link.
func Reseat(g Game, i int, p Player, now time.Time) (Game, []domain.Notice) {
	g.Seats = slices.Clone(g.Seats)
	seat := &g.Seats[i]
	var notices []domain.Notice
	if seat.Email != p.Email {
		seat.TokenVersion++
		// Email names the seat's new player: his invitation is not the
		// seat's first (the store gives it a Message-ID of its own).
		notices = append(notices, domain.Notice{Kind: domain.NoticeInvitation, GameID: g.ID, Color: seat.Color, Ply: g.Ply(), Email: p.Email})
	}
	seat.Player = p
	g.Version++
	g.UpdatedAt = now
	return g, notices
}
