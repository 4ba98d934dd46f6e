package games

import (
	"fmt"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// Replay is a game as it stood after the first n plies of its history,
// rebuilt by playing them again from its start (ruleset.Game.Restart): what
// a page stepping through a finished game, or back from the current turn,
// draws. The rules the history came from are only read.
//
// A ply the rules made by themselves (a forced pass) comes with the ply
// before it, so an n inside such a run gives the position after the run:
// reached says which ply that is.
func Replay(rules ruleset.Game, history []ruleset.Played, n int) (g ruleset.Game, reached int, err error) {
	if n < 0 || n > len(history) {
		return nil, 0, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "ply %d: the game has plies 0 to %d", n, len(history))
	}
	g, made, err := rules.Restart()
	if err != nil {
		return nil, 0, fmt.Errorf("replay: %w: %w", domain.ErrStoredData, err)
	}
	reached = len(made)
	for reached < n {
		p := history[reached]
		var played []ruleset.Played
		if p.TimedOut {
			played, err = g.TimeOut(true)
		} else {
			played, err = g.Play(p.Ply)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("replay ply %d %q: %w: %w", reached, p.Ply, domain.ErrStoredData, err)
		}
		if len(played) == 0 || played[0].Ply != p.Ply {
			return nil, 0, fmt.Errorf("replay ply %d: %w: played %v, the history says %q", reached, domain.ErrStoredData, played, p.Ply)
		}
		reached += len(played)
	}
	return g, reached, nil
}
