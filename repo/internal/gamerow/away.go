package gamerow

import (
	"context"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// Vacations lists an address's vacations that end after since, by start:
// each store reads them its own way.
type Vacations func(ctx context.Context, email string, since time.Time) ([]games.Period, error)

// Away gives the vacations of the seats' players from since on, by seat.
func Away(ctx context.Context, vacations Vacations, seats []games.Seat, since time.Time) (games.Away, error) {
	away := games.Away{}
	for i, s := range seats {
		periods, err := vacations(ctx, s.Email, since)
		if err != nil {
			return nil, err
		}
		if len(periods) > 0 {
			away[i] = periods
		}
	}
	return away, nil
}

// PlayersAway is Away for the players of a game being created, in turn
// order. Players with an address CreateGame refuses have none.
func PlayersAway(ctx context.Context, vacations Vacations, players []games.Player, since time.Time) (games.Away, error) {
	var seats []games.Seat
	for _, p := range players {
		email, err := domain.NormalizeEmail(p.Email)
		if err != nil {
			return nil, nil // CreateGame refuses the spec
		}
		seats = append(seats, games.Seat{Player: games.Player{Email: email}})
	}
	return Away(ctx, vacations, seats, since)
}

// Complete finishes reading games: of byID, whose rows and seats are read,
// the games of ids in that order (skipping those not found), their seats
// checked and, where their clock needs them, their players' vacations read.
func Complete(ctx context.Context, vacations Vacations, ids []string, byID map[string]*games.Game) ([]games.Game, error) {
	games := make([]games.Game, 0, len(byID))
	for _, id := range ids {
		g := byID[id]
		if g == nil {
			continue
		}
		if err := CheckSeats(g); err != nil {
			return nil, err
		}
		if g.CountsVacations() {
			var err error
			if g.Away, err = Away(ctx, vacations, g.Seats, g.Clock.TurnStart); err != nil {
				return nil, err
			}
		}
		games = append(games, *g)
	}
	return games, nil
}
