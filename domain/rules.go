package domain

import (
	"fmt"
	"strings"

	"github.com/lesspost/lesspost/domain/internal/text"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// Rulesets are the games the server knows, by name; the first (Less) is the
// default. A new game adds itself here (one line); a test may Register one
// of its own before it starts a server.
var Rulesets = ruleset.NewRegistry(less.Rules{}, les.Rules{})

// RulesetNamed is the ruleset of a name, "" for the default; an unknown
// name is invalid input.
func RulesetNamed(name string) (ruleset.Ruleset, error) {
	if name == "" {
		return Rulesets.Default(), nil
	}
	rs, ok := Rulesets.Get(name)
	if !ok {
		return nil, Errorf(KindInvalid, CodeInvalidInput, "no game %q: the games are %s", text.Clip(name, 20),
			strings.Join(Rulesets.Names(), ", "))
	}
	return rs, nil
}

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
	rs, ok := Rulesets.Get(name)
	if !ok {
		return fmt.Errorf("game %s: %w: unknown ruleset %q", g.ID, ErrStoredData, name)
	}
	rules, err := rs.Decode(state)
	if err != nil {
		return fmt.Errorf("game %s: %w: %w", g.ID, ErrStoredData, err)
	}
	g.Rules = rules
	return nil
}
