package les

import (
	"errors"
	"slices"
	"testing"
)

// plyRefusal is the code and index a refused ply should give.
type plyRefusal struct {
	code  Code
	index int
}

func refusalOf(err error) (plyRefusal, bool) {
	var pe *PlyError
	if !errors.As(err, &pe) {
		return plyRefusal{}, false
	}
	return plyRefusal{pe.Code, pe.Index}, true
}

func TestSetupFollowsLS2InLN4Order(t *testing.T) {
	b := MustBoard(9)
	ok := plyRefusal{}
	tests := []struct {
		text string
		want plyRefusal
	}{
		{"e5:e6:g3:g5", ok},
		{"E5 e6\tg3\ng5", ok},
		// The point between B2 and W2 may hold any stone (house rule): here B1.
		{"e5:f5:e4:e6", ok},
		{"e5:e7:g3:g5", plyRefusal{CodeSetupNotTouching, 1}},
		{"e5:e6:g3:g4", plyRefusal{CodeSetupNotInLine, 3}},
		{"e5:e6:g3:g6", plyRefusal{CodeSetupNotInLine, 3}},
		{"e5:e5:g3:g5", plyRefusal{CodeOccupied, 1}},
		{"e5:e6:e5:g5", plyRefusal{CodeOccupied, 2}},
		{"e5:e6:g3:e6", plyRefusal{CodeOccupied, 3}},
		{"a10:e6:g3:g5", plyRefusal{CodeOffBoard, 0}},
		{"e5:a10:g3:g5", plyRefusal{CodeOffBoard, 1}},
		{"e5:e6:r1:g5", plyRefusal{CodeOffBoard, 2}},
		{"e5:e6:g3:a0", plyRefusal{CodeOffBoard, 3}},
		// Points are judged in order: the first broken rule wins.
		{"e5:e7:a10:z1", plyRefusal{CodeSetupNotTouching, 1}},
		{"e5:e6:g3", plyRefusal{CodeSyntax, NoIndex}},
		{"e5:e6:g3:g5:a1", plyRefusal{CodeSyntax, NoIndex}},
		{"e5:e6:g3:zz", plyRefusal{CodeSyntax, NoIndex}},
	}
	for _, tt := range tests {
		var pos Position
		s, err := ParseSetup(tt.text)
		if err == nil {
			pos, err = SetUp(b, s)
		}
		if tt.want == ok {
			if err != nil {
				t.Errorf("%q: %v, want ok", tt.text, err)
			} else if pos.StoneCount(Black) != 2 || pos.StoneCount(White) != 2 || pos.ToMove() != Black {
				t.Errorf("%q: %s", tt.text, pos)
			}
			continue
		}
		if got, _ := refusalOf(err); got != tt.want {
			t.Errorf("%q: %v, want %s at %d", tt.text, err, tt.want.code, tt.want.index)
		}
	}
}

func setupPosition(t testing.TB) Position {
	t.Helper()
	p, err := SetUp(MustBoard(9), Setup{mustPoint("e5"), mustPoint("e6"), mustPoint("g3"), mustPoint("g5")})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTurnsFollowLT1ToLT3InLN4Order(t *testing.T) {
	p := setupPosition(t)
	if got, want := pointNames(p.FirstPlacements()), []string{"d5", "f5", "f6", "g4"}; !slices.Equal(got, want) {
		t.Fatalf("first placements %v, want %v (LT1)", got, want)
	}
	ok := plyRefusal{}
	tests := []struct {
		text string
		want plyRefusal
	}{
		{"d5:a1", ok},
		{"G4 : Q9", ok},
		{"a1:d5", plyRefusal{CodeNotTouchingBoth, 0}},
		{"f4:a1", plyRefusal{CodeNotTouchingBoth, 0}}, // touches white only
		{"e5:a1", plyRefusal{CodeOccupied, 0}},
		{"a10:a1", plyRefusal{CodeOffBoard, 0}},
		{"d5:e4", plyRefusal{CodeNotIsolated, 1}},
		{"d5:c4", plyRefusal{CodeNotIsolated, 1}}, // touches the first placement
		{"d5:d5", plyRefusal{CodeOccupied, 1}},
		{"d5:g3", plyRefusal{CodeOccupied, 1}},
		{"d5:z1", plyRefusal{CodeOffBoard, 1}},
		{"d5", plyRefusal{CodeIncomplete, NoIndex}},
		{"a1", plyRefusal{CodeNotTouchingBoth, 0}}, // the point before incomplete
		{"d5:a1:a2", plyRefusal{CodeSyntax, NoIndex}},
		{"black", plyRefusal{CodeSyntax, NoIndex}},
	}
	for _, tt := range tests {
		var next Position
		turn, err := ParseTurn(tt.text)
		if err == nil {
			next, err = p.Play(turn)
		}
		if tt.want == ok {
			if err != nil {
				t.Errorf("%q: %v, want ok", tt.text, err)
			} else if next.StoneCount(Black) != 4 || next.ToMove() != White || p.StoneCount(Black) != 2 {
				t.Errorf("%q: %s from %s", tt.text, next, p)
			}
			continue
		}
		if got, _ := refusalOf(err); got != tt.want {
			t.Errorf("%q: %v, want %s at %d", tt.text, err, tt.want.code, tt.want.index)
		}
	}
}

// When no empty point touches no stone, the turn is the first placement
// alone (LT3), and a second point is judged like any and fails (LN3).
func TestLoneFirstPlacementWhenNothingIsIsolated(t *testing.T) {
	b := MustBoard(3)
	p, err := NewPosition(b, points("b2 d2 c1"), points("b3 d3 c5"), Black)
	if err != nil {
		t.Fatal(err)
	}
	if iso := p.Isolated(); len(iso) != 0 {
		t.Fatalf("isolated points %v", iso)
	}
	if got, want := pointNames(p.FirstPlacements()), []string{"a2", "c3", "e2"}; !slices.Equal(got, want) {
		t.Fatalf("first placements %v, want %v", got, want)
	}
	if turns, single := p.Perft(); turns != 3 || single != 3 {
		t.Errorf("perft %d, %d; want 3, 3", turns, single)
	}
	next, err := p.Play(MustParseTurn("c3"))
	if err != nil {
		t.Fatalf("c3: %v", err)
	}
	if _, err := p.Play(MustParseTurn("c3:a1")); !isRefusal(err, CodeNotIsolated, 1) {
		t.Errorf("c3:a1: %v, want not_isolated at 1", err)
	}
	// White's first placements are the points that touch both colours, as
	// Black's were (LE5): c3 is taken, c4 now touches it.
	if got := pointNames(next.FirstPlacements()); next.ToMove() != White || !slices.Equal(got, []string{"a2", "c4", "e2"}) {
		t.Errorf("after c3: %s, first placements %v", next, got)
	}
	// Every turn is a lone placement from here; the board fills until
	// nothing touches both colours, which ends the game (LE1).
	for turns := 0; !next.Over(); turns++ {
		if turns > b.Points() {
			t.Fatal("the game does not end")
		}
		if next, err = next.Play(Turn{next.FirstPlacements()[0]}); err != nil {
			t.Fatal(err)
		}
	}
}

func isRefusal(err error, code Code, index int) bool {
	got, ok := refusalOf(err)
	return ok && got == plyRefusal{code, index}
}

func points(text string) []Point {
	pts, err := ParsePoints(text)
	if err != nil {
		panic(err)
	}
	return pts
}

func TestLegalTurnsMatchPerftAndPlay(t *testing.T) {
	p := setupPosition(t)
	turns := p.LegalTurns()
	n, single := p.Perft()
	if len(turns) != n || single != 0 || n == 0 {
		t.Fatalf("%d listed turns, perft %d (%d single)", len(turns), n, single)
	}
	seen := map[string]bool{}
	for _, turn := range turns {
		if seen[turn.String()] {
			t.Fatalf("%s listed twice", turn)
		}
		seen[turn.String()] = true
		if _, err := p.Play(turn); err != nil {
			t.Fatalf("listed turn %s refused: %v", turn, err)
		}
	}
	// Stopping early stops.
	calls := 0
	p.EachTurn(func(Turn) bool { calls++; return calls < 5 })
	if calls != 5 {
		t.Errorf("EachTurn went on after false: %d calls", calls)
	}
}

func TestPositionStringRoundTrip(t *testing.T) {
	p := setupPosition(t)
	back, err := ParsePosition(p.Board(), p.String())
	if err != nil || !back.Equal(p) {
		t.Fatalf("ParsePosition(%q) = %s, %v", p, back, err)
	}
	for _, bad := range []string{"", "black:e5", "black:e5 black:e6 to-move:white", "black:e5,e5 to-move:black",
		"black:z99 to-move:black", "green:a1 to-move:black", "black:e5 to-move:red", "e5 to-move:black"} {
		if _, err := ParsePosition(p.Board(), bad); !errors.Is(err, ErrPosition) {
			t.Errorf("ParsePosition(%q) = %v, want ErrPosition", bad, err)
		}
	}
}
