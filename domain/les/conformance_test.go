package les

import (
	"errors"
	"slices"
	"testing"

	"github.com/lesspost/lesspost/internal/vectors"
)

// The conformance vectors are testdata/conformance/les-vectors.json at the
// module root, or the file LES_VECTORS names (see internal/vectors).

// vectorPosition builds the position a vector writes.
func vectorPosition(t testing.TB, vp vectors.LesPosition) Position {
	t.Helper()
	b, err := BoardOf(vp.Size)
	if err != nil {
		t.Fatal(err)
	}
	toMove, err := ParseColor(vp.ToMove)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPosition(b, vectorPoints(t, vp.Black), vectorPoints(t, vp.White), toMove)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func vectorPoints(t testing.TB, names []string) []Point {
	t.Helper()
	out := make([]Point, len(names))
	for i, n := range names {
		p, err := ParsePoint(n)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = p
	}
	return out
}

func pointNames(ps []Point) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// checkRefusal compares an error with a vector's expected code and index.
func checkRefusal(t *testing.T, what string, err error, want vectors.LesExpect) {
	t.Helper()
	wantIndex := NoIndex
	if want.Index != nil {
		wantIndex = *want.Index
	}
	var pe *PlyError
	if !errors.As(err, &pe) {
		t.Errorf("%s: got %v, want %s at %d", what, err, want.Code, wantIndex)
		return
	}
	if string(pe.Code) != want.Code || pe.Index != wantIndex {
		t.Errorf("%s: got %s at %d (%s), want %s at %d", what, pe.Code, pe.Index, pe.Message, want.Code, wantIndex)
	}
}

func TestConformanceSetups(t *testing.T) {
	v := vectors.LoadLes(t)
	for i, tc := range v.SetupCases {
		b, err := BoardOf(tc.Size)
		if err != nil {
			t.Fatal(err)
		}
		var pos Position
		setup, err := ParseSetup(tc.Setup)
		if err == nil {
			pos, err = SetUp(b, setup)
		}
		what := "case " + itoa(i) + " " + quote(tc.Setup) + " on side " + itoa(tc.Size)
		if !tc.Expect.OK {
			checkRefusal(t, what, err, tc.Expect)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, want ok", what, err)
			continue
		}
		for _, c := range []Color{Black, White} {
			if got, want := pointNames(pos.Stones(c)), tc.Expect.Stones[c.String()]; !slices.Equal(got, want) {
				t.Errorf("%s: %s stones %v, want %v", what, c, got, want)
			}
		}
	}
}

func TestConformanceTurns(t *testing.T) {
	v := vectors.LoadLes(t)
	for i, tc := range v.TurnCases {
		pos := vectorPosition(t, tc.Position)
		var next Position
		turn, err := ParseTurn(tc.Turn)
		if err == nil {
			next, err = pos.Play(turn)
		}
		what := "case " + itoa(i) + " " + quote(tc.Turn) + " on " + pos.String()
		if !tc.Expect.OK {
			checkRefusal(t, what, err, tc.Expect)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, want ok", what, err)
			continue
		}
		if got, want := pointNames(next.Stones(Black)), tc.Expect.Black; !slices.Equal(got, want) {
			t.Errorf("%s: black %v, want %v", what, got, want)
		}
		if got, want := pointNames(next.Stones(White)), tc.Expect.White; !slices.Equal(got, want) {
			t.Errorf("%s: white %v, want %v", what, got, want)
		}
		if next.ToMove() != pos.ToMove().Other() || next.Over() != tc.Expect.GameOver {
			t.Errorf("%s: to move %s, over %v; want %s, %v", what, next.ToMove(), next.Over(), pos.ToMove().Other(), tc.Expect.GameOver)
		}
	}
}

func TestConformancePerft(t *testing.T) {
	v := vectors.LoadLes(t)
	for i, tc := range v.PerftCases {
		pos := vectorPosition(t, tc.Position)
		turns, single := pos.Perft()
		if turns != tc.Turns || single != tc.Single {
			t.Errorf("case %d %s: perft %d turns, %d single; want %d, %d", i, pos, turns, single, tc.Turns, tc.Single)
		}
		// The enumeration agrees with the count, and every turn it lists
		// is legal.
		listed, lone := 0, 0
		pos.EachTurn(func(turn Turn) bool {
			listed++
			if len(turn) == 1 {
				lone++
			}
			if _, err := pos.Play(turn); err != nil {
				t.Errorf("case %d: listed turn %s is refused: %v", i, turn, err)
				return false
			}
			return true
		})
		if listed != tc.Turns || lone != tc.Single {
			t.Errorf("case %d: EachTurn lists %d turns, %d single; want %d, %d", i, listed, lone, tc.Turns, tc.Single)
		}
	}
}

// TestConformanceGames plays each whole game through the ruleset interface,
// as the server does.
func TestConformanceGames(t *testing.T) {
	v := vectors.LoadLes(t)
	for i, tc := range v.GameCases {
		g, err := NewEngine(tc.Size)
		if err != nil {
			t.Fatal(err)
		}
		plies := append([]string{tc.Setup, tc.Choice}, tc.Turns...)
		for k, text := range plies {
			if _, err := g.Play(text); err != nil {
				t.Fatalf("case %d ply %d %q: %v", i, k, text, err)
			}
		}
		r, over := g.Outcome()
		if !over {
			t.Errorf("case %d: not over after %d plies", i, len(plies))
			continue
		}
		want := tc.Result
		winner := "draw"
		if !r.Draw {
			c, _ := g.ColorOf(r.Winner)
			winner = c.String()
		}
		wantWinner := "draw"
		if want.Winner != nil {
			wantWinner = *want.Winner
		}
		if winner != wantWinner || r.Margin != want.Margin || string(r.Reason) != want.EndedBy {
			t.Errorf("case %d: %s by %d (%s), want %s by %d (%s)", i, winner, r.Margin, r.Reason, wantWinner, want.Margin, want.EndedBy)
		}
		for _, c := range []Color{Black, White} {
			got := make([][2]int, len(r.Holes[c]))
			for k, h := range r.Holes[c] {
				got[k] = [2]int{h.Size, h.Around}
			}
			if w := want.Holes[c.String()]; !slices.Equal(got, w) && (len(got) != 0 || len(w) != 0) {
				t.Errorf("case %d: %s's holes %v, want %v", i, c, got, w)
			}
		}
	}
}
