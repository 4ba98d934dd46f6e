package games

import (
	"fmt"

	"github.com/lesspost/lesspost/domain"
)

// EncodeState writes the game's ruleset and its state as the ruleset
// encodes it, for a store to keep opaquely beside the common columns.
func EncodeState(g *Game) (name string, state []byte, err error) {
	if state, err = g.Rules.Encode(); err != nil {
		return "", nil, fmt.Errorf("encode game %s: %w", g.ID, err)
	}
	return g.Rules.Ruleset(), state, nil
}

// DecodeState sets the game's rules from what EncodeState wrote. A state
// its ruleset refuses, or an unknown ruleset, is ErrStoredData.
func DecodeState(g *Game, name string, state []byte) error {
	rs, ok := domain.Rulesets.Get(name)
	if !ok {
		return fmt.Errorf("game %s: %w: unknown ruleset %q", g.ID, domain.ErrStoredData, name)
	}
	rules, err := rs.Decode(state)
	if err != nil {
		return fmt.Errorf("game %s: %w: %w", g.ID, domain.ErrStoredData, err)
	}
	g.Rules = rules
	return nil
}
