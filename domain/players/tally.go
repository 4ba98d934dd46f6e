package players

import (
	"slices"
	"strings"

	"github.com/lesspost/lesspost/domain/games"
)

// Tally is a player's record in one game (Less, Les): his finished games.
type Tally struct {
	Ruleset                  string
	Played, Won, Drawn, Lost int
	// Margin is the average of what he won by (positive) or lost by
	// (negative), draws counting 0, in the rules' own points; 0 when he
	// has played none.
	Margin float64
}

// Tallies is the record of the address in the finished games among gs, one
// Tally per ruleset he has finished a game of, by ruleset name. A game he
// created without a seat counts for nothing.
func Tallies(gs []games.Game, email string) []Tally {
	by := map[string]*Tally{}
	sums := map[string]int{}
	for i := range gs {
		g := &gs[i]
		res, over := g.Result()
		color := colorOf(*g, email)
		if !over || color == "" {
			continue
		}
		name := g.Rules.Ruleset()
		t := by[name]
		if t == nil {
			t = &Tally{Ruleset: name}
			by[name] = t
		}
		t.Played++
		switch {
		case res.Draw:
			t.Drawn++
		case res.Winner == g.Rules.Side(color):
			t.Won++
			sums[name] += res.Margin
		default:
			t.Lost++
			sums[name] -= res.Margin
		}
	}
	var out []Tally
	for name, t := range by {
		t.Margin = float64(sums[name]) / float64(t.Played)
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Tally) int { return strings.Compare(a.Ruleset, b.Ruleset) })
	return out
}

// colorOf is the colour of the address's seat in g, "" if it has none.
func colorOf(g games.Game, email string) string {
	for _, s := range g.Seats {
		if strings.EqualFold(s.Email, email) {
			return s.Color
		}
	}
	return ""
}
