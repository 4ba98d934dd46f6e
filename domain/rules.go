package domain

import (
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
