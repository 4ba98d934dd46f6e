package domain

import (
	"fmt"

	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// Rulesets are the games the server knows, by name; the first (Less) is the
// default.
var Rulesets = ruleset.NewRegistry(less.Rules{})

// Rules returns the game behind the ruleset interface. It is a copy: playing
// it does not change g.
func (g *Game) Rules() (ruleset.Game, error) {
	eg, err := g.Engine()
	if err != nil {
		return nil, err
	}
	return &less.RulesGame{Game: eg, Preset: g.Preset, Seed: g.Seed}, nil
}

// EncodeState writes the game's ruleset and its state as the ruleset
// encodes it, for a store to keep opaquely beside the common columns.
func EncodeState(g *Game) (name string, state []byte, err error) {
	rg, err := g.Rules()
	if err != nil {
		return "", nil, err
	}
	if state, err = rg.Encode(); err != nil {
		return "", nil, fmt.Errorf("encode game %s: %w", g.ID, err)
	}
	return rg.Ruleset(), state, nil
}

// DecodeState sets the game's state from what EncodeState wrote. A state its
// ruleset refuses, or an unknown ruleset, is ErrStoredData.
func DecodeState(g *Game, name string, state []byte) error {
	rs, ok := Rulesets.Get(name)
	if !ok {
		return fmt.Errorf("game %s: %w: unknown ruleset %q", g.ID, ErrStoredData, name)
	}
	rg, err := rs.Decode(state)
	if err != nil {
		return fmt.Errorf("game %s: %w: %w", g.ID, ErrStoredData, err)
	}
	// Game still holds Less's own state (the API's views read it): this is
	// the one place a decoded game is taken apart by its type.
	switch rg := rg.(type) {
	case *less.RulesGame:
		g.State, g.Preset, g.Seed = rg.Game.State(), rg.Preset, rg.Seed
		return nil
	default:
		return fmt.Errorf("game %s: %w: ruleset %q cannot be held by a Game yet", g.ID, ErrStoredData, name)
	}
}
