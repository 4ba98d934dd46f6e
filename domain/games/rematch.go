package games

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// A rematch is a finished game played again: the same rules, board and
// options from the same start, the same time control, and every player on
// the other side — two players swap colours; in the four-player game each
// team takes the other team's seats, partners staying partners. Any player
// of the game, or its creator, asks for it with one click; a game has one
// rematch however many ask, and however often.

// Rematch builds the rematch of a finished game g as a new game id. away
// gives the vacations of the players in the new seats (see CreateGame).
func Rematch(g *Game, id string, now time.Time, away Away) (Created, error) {
	if !g.Over() {
		return Created{}, domain.Errorf(domain.KindConflict, domain.CodeGameNotOver, "the game is still being played: a rematch follows its end")
	}
	rules, history, err := g.Rules.Restart()
	if err != nil {
		return Created{}, fmt.Errorf("rematch of %s: %w: %w", g.ID, domain.ErrStoredData, err)
	}
	players := RematchPlayers(g)
	colors := rules.Colors()
	if len(colors) != len(players) {
		return Created{}, fmt.Errorf("rematch of %s: %w: %d seats for %d colours", g.ID, domain.ErrStoredData, len(players), len(colors))
	}
	// Every player changes sides: what makes it a return game.
	for i, c := range colors {
		if from := g.Seats[(i+1)%len(g.Seats)].Color; rules.Side(from) == rules.Side(c) {
			return Created{}, fmt.Errorf("rematch of %s: %w: the player of %s would keep his side as %s", g.ID, domain.ErrStoredData, from, c)
		}
	}
	seats := make([]Seat, len(colors))
	for i, c := range colors {
		seats[i] = Seat{Color: c, Player: players[i], TokenVersion: 1}
	}
	r := Game{ID: id, CreatorID: g.CreatorID, Seats: seats, Rules: rules, Away: away, Version: 1, CreatedAt: now, UpdatedAt: now}
	r.startClock(g.Clock.Control, now)
	notices := make([]domain.Notice, 0, len(seats))
	for _, s := range seats {
		notices = append(notices, domain.Notice{Kind: domain.NoticeInvitation, GameID: id, Color: s.Color, Ply: r.Ply()})
	}
	notices = append(notices, AfterPly(&r, history)...)
	return Created{Game: r, History: history, Notices: notices}, nil
}

// RematchPlayers are g's players in the seats of its rematch, in turn
// order: each seat's player moves one seat on. Turn order alternates the
// sides (White, Black; Yellow, Black, White, Red), so everyone changes side
// and partners stay together.
func RematchPlayers(g *Game) []Player {
	out := make([]Player, len(g.Seats))
	for i := range g.Seats {
		out[i] = g.Seats[(i+1)%len(g.Seats)].Player
	}
	return out
}

// RematchDone is the rematch a request got: the new game, or the one made
// before (Created false), and for a caller who asked with a seat's link the
// colour his player holds in it (else "").
type RematchDone struct {
	Game    Game
	Created bool
	Seat    string
}

// callerSeat is the colour in the rematch r of the seat a acted as in g,
// "" for a caller with an account.
func callerSeat(a Actor, g, r *Game) string {
	if a.SeatColor == nil {
		return ""
	}
	return rematchSeat(g, r, *a.SeatColor)
}

// rematchSeat is the colour in the rematch r of the player of g's seat c:
// one seat back in turn order (see RematchPlayers).
func rematchSeat(g, r *Game, c string) string {
	i := g.SeatIndex(c)
	if i < 0 || len(r.Seats) != len(g.Seats) {
		return ""
	}
	return r.Seats[(i+len(r.Seats)-1)%len(r.Seats)].Color
}

// Rematch gives the rematch of a finished game to one of its players or
// its creator: made now, in the unit of work that links it to the game (so
// that two players clicking at once get one), or the one made before.
func (s *Service) Rematch(ctx context.Context, gameID string, by Credentials) (RematchDone, error) {
	var done RematchDone
	now := s.now()
	// Two players asking at once: the second link is ErrStale, and the run
	// again finds the first one's game.
	err := s.transactAgain(ctx, func(tx *Tx) error {
		done = RematchDone{}
		g, err := tx.Game(ctx, gameID)
		if err != nil {
			return err
		}
		a, err := by.ActorIn(&g)
		if err != nil {
			return err
		}
		if a.Spectator || len(a.Seats(&g)) == 0 && (a.UserID == 0 || a.UserID != g.CreatorID) {
			return domain.Errorf(domain.KindForbidden, domain.CodeForbidden, "only the game's players and its creator may ask for a rematch")
		}
		existing, err := tx.RematchOf(ctx, g.ID)
		if err != nil {
			return err
		}
		if existing != "" {
			if done.Game, err = tx.Game(ctx, existing); err != nil {
				return err
			}
			done.Seat = callerSeat(a, &g, &done.Game)
			return nil
		}
		away, err := tx.PlayersAway(ctx, RematchPlayers(&g), now)
		if err != nil {
			return err
		}
		created, err := Rematch(&g, s.newID("g"), now, away)
		if err != nil {
			return err
		}
		cause := domain.Cause{By: a.UserEmail}
		if a.SeatColor != nil {
			if seat, ok := g.Seat(*a.SeatColor); ok {
				cause.By = seat.Email
			}
		}
		if err := tx.InsertGame(ctx, &created, cause, now); err != nil {
			return err
		}
		if err := tx.LinkRematch(ctx, g.ID, created.Game.ID, now); err != nil {
			return err
		}
		done = RematchDone{Game: created.Game, Created: true, Seat: callerSeat(a, &g, &created.Game)}
		return nil
	})
	if err != nil {
		if _, ok := domain.ErrorOf(err); ok {
			return RematchDone{}, err
		}
		return RematchDone{}, fmt.Errorf("rematch of %s: %w", gameID, err)
	}
	return done, nil
}
