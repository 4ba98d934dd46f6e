package less

import (
	"fmt"
	"strings"
)

// Line says the result in English, e.g. "White won by 2 (Black resigned)":
// the API's result text. The emails say it in each player's language from
// their own phrase tables, which a test keeps in step with this.
func (r Result) Line(size int) string {
	side := func(s Side) string {
		if size == 8 {
			return [2]string{"Yellow and White", "Black and Red"}[s]
		}
		name := SideColors(s, size)[0].String()
		return strings.ToUpper(name[:1]) + name[1:]
	}
	s := "a draw"
	if !r.Draw {
		s = fmt.Sprintf("%s won by %d", side(r.Winner), r.Margin)
	}
	var why string
	switch {
	case r.Reason == ReasonResignation:
		why = side(r.Loser) + " resigned"
	case r.Reason == ReasonTimeout:
		why = side(r.Loser) + " ran out of time"
	case r.BlockedCorner:
		why = "a piece of " + side(r.Loser) + " stayed on its start corner"
	case r.Reason == ReasonTurnLimit:
		why = "the turn limit was reached"
	}
	if r.Reason == ReasonAdjudicated {
		if why != "" {
			why = "adjudicated at the end of the round; " + why // and the blocked corner that decided it
		} else {
			why = "adjudicated at the end of the round"
		}
	}
	if why != "" {
		s += " (" + why + ")"
	}
	return s
}
