package les

import (
	"errors"
	"slices"
	"testing"
)

func TestBoardSizes(t *testing.T) {
	for side := MinSide; side <= MaxSide; side++ {
		b := MustBoard(side)
		if b.Side() != side || b.Rows() != 2*side-1 || b.Points() != 3*side*(side-1)+1 {
			t.Errorf("side %d: side %d, %d rows, %d points", side, b.Side(), b.Rows(), b.Points())
		}
		for r := range b.Rows() {
			if want := side + min(r, 2*side-2-r); b.RowLen(r) != want {
				t.Errorf("side %d row %d: %d points, want %d (LB1)", side, r, b.RowLen(r), want)
			}
		}
	}
	if b := MustBoard(DefaultSide); b.Points() != 217 || b.RowLen(8) != 17 {
		t.Errorf("default board: %d points, middle row %d", b.Points(), b.RowLen(8))
	}
	for _, side := range []int{-1, 0, 2, 14, 100} {
		if _, err := BoardOf(side); !errors.Is(err, ErrBoard) {
			t.Errorf("BoardOf(%d) = %v, want ErrBoard", side, err)
		}
	}
}

func TestBoardNames(t *testing.T) {
	b := MustBoard(9)
	tests := []struct {
		name string
		on   bool
	}{
		{"a1", true}, {"a9", true}, {"a10", false}, {"a0", false}, {"i17", true}, {"i18", false},
		{"q9", true}, {"q10", false}, {"r1", false}, {"z1", false},
	}
	for _, tt := range tests {
		p, err := ParsePoint(tt.name)
		if err != nil {
			t.Fatalf("ParsePoint(%s): %v", tt.name, err)
		}
		if b.Contains(p) != tt.on || p.String() != tt.name {
			t.Errorf("%s: on the board %v, written %s", tt.name, b.Contains(p), p)
		}
	}
	for i := range b.Points() {
		if j, ok := b.Index(b.PointAt(i)); !ok || j != i {
			t.Fatalf("index %d: point %s gives %d, %v", i, b.PointAt(i), j, ok)
		}
	}
}

// lb3Neighbours is LB3's explicit formula in rows and indices, as the rules
// state it, kept apart from the cube coordinates the board uses.
func lb3Neighbours(b *Board, p Point) []Point {
	s, r, c := b.Side(), int(p.Row), int(p.Pos)
	cands := [][2]int{{r, c - 1}, {r, c + 1}}
	if r <= s-1 {
		cands = append(cands, [2]int{r - 1, c - 1}, [2]int{r - 1, c})
	} else {
		cands = append(cands, [2]int{r - 1, c}, [2]int{r - 1, c + 1})
	}
	if r < s-1 {
		cands = append(cands, [2]int{r + 1, c}, [2]int{r + 1, c + 1})
	} else {
		cands = append(cands, [2]int{r + 1, c - 1}, [2]int{r + 1, c})
	}
	var out []Point
	for _, rc := range cands {
		q := Point{Row: int16(rc[0]), Pos: int16(rc[1])}
		if b.Contains(q) {
			out = append(out, q)
		}
	}
	slices.SortFunc(out, func(x, y Point) int {
		i, _ := b.Index(x)
		j, _ := b.Index(y)
		return i - j
	})
	return out
}

func TestNeighboursFollowLB3(t *testing.T) {
	b3 := MustBoard(3)
	for name, want := range map[string][]string{
		"a1": {"a2", "b1", "b2"},
		"c1": {"b1", "c2", "d1"},
		"c3": {"b2", "b3", "c2", "c4", "d2", "d3"},
	} {
		if got := pointNames(b3.Neighbours(mustPoint(name))); !slices.Equal(got, want) {
			t.Errorf("side 3: %s touches %v, want %v (LB3)", name, got, want)
		}
	}
	for side := MinSide; side <= MaxSide; side++ {
		b := MustBoard(side)
		inner := 0
		for i := range b.Points() {
			p := b.PointAt(i)
			got, want := b.Neighbours(p), lb3Neighbours(b, p)
			if !slices.Equal(got, want) {
				t.Fatalf("side %d: %s touches %v, LB3 says %v", side, p, got, want)
			}
			for _, q := range got {
				if !b.Touch(q, p) {
					t.Fatalf("side %d: %s touches %s but not back", side, p, q)
				}
			}
			if len(got) == 6 {
				inner++
			}
		}
		if want := 3*(side-1)*(side-2) + 1; inner != want {
			t.Errorf("side %d: %d points touch six others, want %d", side, inner, want)
		}
	}
}

// Two points are in line at distance 2 (LB4) exactly when they do not touch
// and have one common neighbour, the point between them: two points two
// steps apart in different directions have two.
func TestInLineFollowsLB4(t *testing.T) {
	for _, side := range []int{3, 5, 9} {
		b := MustBoard(side)
		n := b.Points()
		lines := 0
		for i := range n {
			for j := range n {
				p, q := b.PointAt(i), b.PointAt(j)
				common := 0
				for _, m := range b.Neighbours(p) {
					if b.Touch(m, q) {
						common++
					}
				}
				want := i != j && !b.Touch(p, q) && common == 1
				if got := b.InLine(p, q); got != want {
					t.Fatalf("side %d: InLine(%s, %s) = %v, want %v", side, p, q, got, want)
				}
				if want {
					lines++
				}
			}
		}
		t.Logf("side %d: %d ordered pairs in line", side, lines)
	}
	b := MustBoard(9)
	for _, tt := range []struct {
		p, q string
		want bool
	}{{"g3", "g5", true}, {"e5", "g5", true}, {"e5", "g7", true}, {"e5", "g6", false}, {"i1", "k1", true}, {"a1", "c1", true}, {"a1", "c3", true}, {"a1", "c2", false}, {"a1", "a1", false}, {"a1", "z9", false}} {
		if got := b.InLine(mustPoint(tt.p), mustPoint(tt.q)); got != tt.want {
			t.Errorf("InLine(%s, %s) = %v, want %v", tt.p, tt.q, got, tt.want)
		}
	}
}

func mustPoint(s string) Point {
	p, err := ParsePoint(s)
	if err != nil {
		panic(err)
	}
	return p
}
