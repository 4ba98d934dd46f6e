package less

import (
	"slices"
	"testing"

	"github.com/lesspost/lesspost/internal/vectors"
)

// The conformance vectors are testdata/conformance at the module root, or the
// file LESS_VECTORS names (see internal/vectors).

// vectorPosition builds the position a vector writes.
func vectorPosition(t testing.TB, vp vectors.Position) Position {
	t.Helper()
	b, err := ParseBoard(vp.Size, vp.Walls)
	if err != nil {
		t.Fatal(err)
	}
	toMove, err := ParseColor(vp.ToMove)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPosition(b, vectorPlacement(t, vp.Pieces), toMove, vp.EarlyStop)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func vectorPlacement(t testing.TB, pieces map[string][]string) Placement {
	t.Helper()
	out := Placement{}
	for name, squares := range pieces {
		c, err := ParseColor(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range squares {
			sq, err := ParseSquare(s)
			if err != nil {
				t.Fatal(err)
			}
			out[c] = append(out[c], sq)
		}
	}
	return out
}

func placementNames(p Position) map[string][]string {
	out := map[string][]string{}
	for c, squares := range p.Placement() {
		for _, s := range squares {
			out[c.String()] = append(out[c.String()], s.String())
		}
		slices.Sort(out[c.String()])
	}
	return out
}

func sortedNames(m map[string][]string) map[string][]string {
	out := map[string][]string{}
	for k, v := range m {
		out[k] = slices.Sorted(slices.Values(v))
	}
	return out
}

func TestConformanceTurns(t *testing.T) {
	v := vectors.Load(t)
	for i, tc := range v.TurnCases {
		pos := vectorPosition(t, tc.Position)
		turn, err := ParseTurn(tc.Turn)
		var out Outcome
		var next Position
		if err == nil {
			next, out, err = pos.Play(turn)
		}
		want := tc.Expect
		if want.OK {
			if err != nil {
				t.Errorf("case %d %q on %s: got %v, want ok", i, tc.Turn, pos, err)
				continue
			}
			if out.Used != want.Used || out.Counted != want.Counted {
				t.Errorf("case %d %q: used/counted %d/%d, want %d/%d", i, tc.Turn, out.Used, out.Counted, want.Used, want.Counted)
			}
			if got, w := placementNames(next), sortedNames(want.Pieces); !mapsEqual(got, w) {
				t.Errorf("case %d %q: pieces %v, want %v", i, tc.Turn, got, w)
			}
			continue
		}
		te, ok := err.(*TurnError)
		if !ok {
			t.Errorf("case %d %q on %s: got %v, want %s at %v", i, tc.Turn, pos, err, want.Code, want.Index)
			continue
		}
		wantIndex := NoIndex
		if want.Index != nil {
			wantIndex = *want.Index
		}
		if string(te.Code) != want.Code || te.Index != wantIndex {
			t.Errorf("case %d %q on %s: got %s at %d (%s), want %s at %d", i, tc.Turn, pos, te.Code, te.Index, te.Message, want.Code, wantIndex)
		}
	}
}

func mapsEqual(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func TestConformancePerft(t *testing.T) {
	v := vectors.Load(t)
	for i, tc := range v.PerftCases {
		pos := vectorPosition(t, tc.Position)
		turns, positions := pos.Perft()
		if turns != tc.Turns || positions != tc.Positions {
			t.Errorf("case %d %s: perft %d turns, %d placements; want %d, %d", i, pos, turns, positions, tc.Turns, tc.Positions)
		}
	}
}

func TestConformanceNeeded(t *testing.T) {
	v := vectors.Load(t)
	for i, tc := range v.NeededCases {
		pos := vectorPosition(t, tc.Position)
		for _, side := range []Side{SideWhite, SideBlack} {
			name := SideName(side, pos.Size())
			if got, want := pos.Needed(side), tc.Needed[name]; got != want {
				t.Errorf("case %d %s: needed(%s) = %d, want %d", i, pos, name, got, want)
			}
		}
	}
}

func TestConformanceGames(t *testing.T) {
	v := vectors.Load(t)
	for i, tc := range v.GameCases {
		b, err := ParseBoard(tc.Size, tc.Walls)
		if err != nil {
			t.Fatal(err)
		}
		opts, _ := PresetOptions(PresetClassic, tc.Size)
		g, _, err := NewGame(StartPosition(b, false), opts)
		if err != nil {
			t.Fatal(err)
		}
		for k, text := range tc.Turns {
			if _, err := g.Play(MustParseTurn(text)); err != nil {
				t.Fatalf("case %d turn %d %q: %v", i, k+1, text, err)
			}
		}
		r, over := g.Result()
		if !over {
			t.Errorf("case %d: game not over after %d turns", i, len(tc.Turns))
			continue
		}
		want := tc.Result
		winner := "draw"
		if !r.Draw {
			winner = SideName(r.Winner, tc.Size)
		}
		wantWinner := "draw"
		if want.Winner != nil {
			wantWinner = *want.Winner
		}
		if winner != wantWinner || (!r.Draw && r.Margin != want.Margin) {
			t.Errorf("case %d: %s by %d, want %s by %d (%+v)", i, winner, r.Margin, wantWinner, want.Margin, r)
		}
		for _, s := range []Side{SideWhite, SideBlack} {
			name := SideName(s, tc.Size)
			if r.Totals[s] != want.Totals[name] || r.Counts[s] != want.Counts[name] {
				t.Errorf("case %d %s: total %d count %d, want %d and %d", i, name, r.Totals[s], r.Counts[s], want.Totals[name], want.Counts[name])
			}
		}
	}
}
