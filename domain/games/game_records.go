package games

import (
	"context"
)

// GameRecords reads what a game email shows: the game and its turns.
type GameRecords interface {
	RecordReader
	// TimeZoneOf is the time zone an address's account reads its
	// deadlines in (User.TimeZone); "" for none, or no account.
	TimeZoneOf(ctx context.Context, email string) (string, error)
}
