package ruleset_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/view"
)

// TestGoalOf checks every colour's goal against the corners of docs/rules.md
// (S1, S2) as the board is drawn, a1 at the top left, as the message key
// and arguments the edge says it with (notify's TestGoalInWords has the
// words).
func TestGoalOf(t *testing.T) {
	corner := func(from, to, where string, partner bool) string {
		key := "goal.corner"
		if partner {
			key = "goal.cornerPartner"
		}
		return fmt.Sprintf("%s from=%s n=4 to=%s where=goal.where.%s", key, from, to, where)
	}
	cases := []struct {
		name    string
		rules   ruleset.Ruleset
		players int
		color   string
		want    string
	}{
		{"two players, white", less.Rules{}, 2, "white", corner("a1", "b2", view.CornerTopLeft, false)},
		{"two players, black", less.Rules{}, 2, "black", corner("e5", "f6", view.CornerBottomRight, false)},
		{"four players, yellow", less.Rules{}, 4, "yellow", corner("a7", "b8", view.CornerTopRight, true)},
		{"four players, black", less.Rules{}, 4, "black", corner("g7", "h8", view.CornerBottomRight, true)},
		{"four players, white", less.Rules{}, 4, "white", corner("a1", "b2", view.CornerTopLeft, true)},
		{"four players, red", less.Rules{}, 4, "red", corner("g1", "h2", view.CornerBottomLeft, true)},
		{"les, setter", les.Rules{}, 2, "setter", "goal.holes"},
		{"les, chooser", les.Rules{}, 2, "chooser", "goal.holes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, _, err := tc.rules.Start(ruleset.Options{Players: tc.players, Seed: 42})
			if err != nil {
				t.Fatal(err)
			}
			goal, err := ruleset.GoalOf(g, tc.color)
			if err != nil {
				t.Fatal(err)
			}
			if got := phrase(goal); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// phrase is a goal's key and arguments in one line, an argument that is
// itself words by its key.
func phrase(g view.Goal) string {
	key, args := g.Phrase()
	parts := []string{key}
	for _, name := range slices.Sorted(maps.Keys(args)) {
		v := args[name]
		if w, ok := v.(view.Words); ok {
			v = w.Key
		}
		parts = append(parts, fmt.Sprintf("%s=%v", name, v))
	}
	return strings.Join(parts, " ")
}

func TestGoalOfUnknownColor(t *testing.T) {
	g, _, err := less.Rules{}.Start(ruleset.Options{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ruleset.GoalOf(g, "red"); err == nil {
		t.Error("GoalOf(red) in a two-player game: no error")
	}
}
