package less

import "testing"

func TestResultLine(t *testing.T) {
	tests := []struct {
		r    Result
		size int
		want string
	}{
		{Result{Reason: ReasonComplete, Winner: SideWhite, Margin: 2}, 6, "White won by 2"},
		{Result{Reason: ReasonComplete, Draw: true}, 6, "a draw"},
		{Result{Reason: ReasonResignation, Winner: SideWhite, Loser: SideBlack}, 6, "White won by 0 (Black resigned)"},
		{Result{Reason: ReasonTimeout, Winner: SideBlack, Loser: SideWhite, Margin: 1}, 8,
			"Black and Red won by 1 (Yellow and White ran out of time)"},
		{Result{Reason: ReasonTurnLimit, Winner: SideBlack, Margin: 4, BlockedCorner: true, Loser: SideWhite}, 6,
			"Black won by 4 (a piece of White stayed on its start corner)"},
		{Result{Reason: ReasonTurnLimit, Winner: SideWhite, Margin: 3}, 6, "White won by 3 (the turn limit was reached)"},
		{Result{Reason: ReasonAdjudicated, Draw: true}, 8, "a draw (adjudicated at the end of the round)"},
		{Result{Reason: ReasonAdjudicated, Winner: SideWhite, Margin: 1, BlockedCorner: true, Loser: SideBlack}, 6,
			"White won by 1 (adjudicated at the end of the round; a piece of Black stayed on its start corner)"},
	}
	for _, tt := range tests {
		if got := tt.r.Line(tt.size); got != tt.want {
			t.Errorf("%+v.Line(%d) = %q, want %q", tt.r, tt.size, got, tt.want)
		}
	}
}
