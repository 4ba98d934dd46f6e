package les

import (
	"fmt"
	"strings"
)

// ResultText writes the result as a record does: the winner's stone colour
// and margin ("black+2", "white+0" when a tie-break decided), "draw", or "*"
// while the game goes on. Before the choice the winner has no colour yet:
// his seat stands for it ("setter+1").
func (g *Engine) ResultText() string {
	r, over := g.Outcome()
	switch {
	case !over:
		return "*"
	case r.Draw:
		return "draw"
	}
	return g.seatWord(r.Winner) + "+" + itoa(r.Margin)
}

// seatWord names a seat by its stone colour once chosen, else by the seat.
func (g *Engine) seatWord(s Seat) string {
	if c, ok := g.ColorOf(s); ok {
		return c.String()
	}
	return s.String()
}

// describe names a seat for people: "Black (the chooser)", or "the setter"
// before the choice.
func (g *Engine) describe(s Seat) string {
	if c, ok := g.ColorOf(s); ok {
		return title(c.String()) + " (the " + s.String() + ")"
	}
	return "the " + s.String()
}

// ResultLine says the result in English, for people, e.g. "Black (the
// chooser) won by 2 holes (4 to 2)" or "White (the setter) won by 1 hole
// (Black resigned)"; "" while the game goes on. The emails say it in each
// player's language from their own phrase tables.
func (g *Engine) ResultLine() string {
	r, over := g.Outcome()
	if !over {
		return ""
	}
	counts := [2]int{len(r.Holes[Black]), len(r.Holes[White])}
	var s, why string
	switch {
	case r.Draw:
		s = "a draw"
		switch {
		case g.ply < 2:
			why = "no colours were chosen"
		case counts[Black] == 0:
			why = "nobody owns a hole"
		default:
			why = fmt.Sprintf("%s each, alike in size and stones around", holes(counts[Black]))
		}
	case r.Decided == DecidedBySize:
		s = title(g.describe(r.Winner)) + " won on the sizes of the holes"
		why = holes(counts[Black]) + " each"
	case r.Decided == DecidedByAround:
		s = title(g.describe(r.Winner)) + " won on the stones around the holes"
		why = holes(counts[Black]) + " each, alike in size"
	default:
		s = title(g.describe(r.Winner)) + " won by " + holes(r.Margin)
		if c, ok := g.ColorOf(r.Winner); ok && r.Decided == DecidedByCount {
			why = fmt.Sprintf("%d to %d", counts[c], counts[c.Other()])
		}
	}
	loser := r.Winner.Other()
	switch r.Reason {
	case ReasonResignation:
		why = g.shortName(loser) + " resigned"
	case ReasonTimeout:
		why = g.shortName(loser) + " ran out of time"
	case ReasonAdjudicated:
		if why != "" {
			why += "; "
		}
		why += "adjudicated at the end of the round"
	}
	if why != "" {
		s += " (" + why + ")"
	}
	return s
}

// shortName names a seat by its colour once chosen ("White"), else by the
// seat ("the chooser").
func (g *Engine) shortName(s Seat) string {
	if c, ok := g.ColorOf(s); ok {
		return title(c.String())
	}
	return "the " + s.String()
}

func holes(n int) string {
	if n == 1 {
		return "1 hole"
	}
	return itoa(n) + " holes"
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
