package games

import (
	"context"
)

// GameRecords reads what a game email shows: the game and its turns.
type GameRecords interface {
	Game(ctx context.Context, id string) (Game, error)
	Turns(ctx context.Context, id string) ([]StoredTurn, error)
	TurnsFrom(ctx context.Context, id string, ply int) ([]StoredTurn, error)
	// TimeZoneOf is the time zone an address's account reads its
	// deadlines in (User.TimeZone); "" for none, or no account.
	TimeZoneOf(ctx context.Context, email string) (string, error)
}
