package les

import (
	"slices"
	"testing"
)

func TestHolesFollowLE2(t *testing.T) {
	b := MustBoard(3)
	// A black ring round c3, and a white stone in the corner: c3 is Black's
	// hole; the rest of the empty points touch both colours.
	p, err := NewPosition(b, points("b2 b3 c2 c4 d2 d3"), points("a1"), Black)
	if err != nil {
		t.Fatal(err)
	}
	regions := p.Holes()
	if len(regions) != 2 {
		t.Fatalf("%d holes: %+v", len(regions), regions)
	}
	outer, inner := regions[0], regions[1]
	if outer.Owned || outer.Size != 11 || outer.Around != 7 {
		t.Errorf("outer hole %+v", outer)
	}
	if !inner.Owned || inner.Owner != Black || inner.Size != 1 || inner.Around != 6 || !slices.Equal(pointNames(inner.Points), []string{"c3"}) {
		t.Errorf("inner hole %+v", inner)
	}
	s := p.Score()
	if s.Draw || s.Winner != Black || s.Margin != 1 || s.Decided != DecidedByCount ||
		!slices.Equal(s.Holes[Black], []Hole{{1, 6}}) || len(s.Holes[White]) != 0 {
		t.Errorf("score %+v", s)
	}

	// Two empty points with all the rest black: one hole of 2, and each
	// stone around it counted once (b3 and d3 touch both points).
	var all []Point
	for i := range b.Points() {
		if name := b.name(i); name != "c3" && name != "c4" {
			all = append(all, b.PointAt(i))
		}
	}
	p, _ = NewPosition(b, all, nil, White)
	if s := p.Score(); !slices.Equal(s.Holes[Black], []Hole{{2, 8}}) || s.Winner != Black {
		t.Errorf("score %+v", s)
	}

	// The empty board: one hole with no stone around, which nobody owns.
	if s := EmptyPosition(b).Score(); !s.Draw || s.Decided != DecidedEqual || s.Margin != 0 ||
		len(s.Holes[Black])+len(s.Holes[White]) != 0 {
		t.Errorf("empty board %+v", s)
	}
}

func TestCompareHolesFollowsLE3(t *testing.T) {
	tests := []struct {
		name    string
		a, b    []Hole
		order   int
		decided Decision
	}{
		{"more holes", []Hole{{1, 3}, {1, 3}}, []Hole{{9, 12}}, 1, DecidedByCount},
		{"fewer holes", nil, []Hole{{1, 3}}, -1, DecidedByCount},
		{"first size that differs", []Hole{{5, 9}, {2, 6}}, []Hole{{5, 9}, {3, 4}}, -1, DecidedBySize},
		{"sizes before stones", []Hole{{4, 2}, {1, 9}}, []Hole{{3, 12}, {1, 9}}, 1, DecidedBySize},
		{"stones around", []Hole{{4, 8}, {1, 3}}, []Hole{{4, 8}, {1, 5}}, -1, DecidedByAround},
		{"equal", []Hole{{2, 6}}, []Hole{{2, 6}}, 0, DecidedEqual},
		{"nobody owns a hole", nil, nil, 0, DecidedEqual},
	}
	for _, tt := range tests {
		order, decided := compareHoles(tt.a, tt.b)
		if order != tt.order || decided != tt.decided {
			t.Errorf("%s: %d %s, want %d %s", tt.name, order, decided, tt.order, tt.decided)
		}
	}
}

// A tie-break win has margin 0 (LE4).
func TestScoreMarginZeroOnTieBreak(t *testing.T) {
	b := MustBoard(5)
	// Black: a ring round c3 (a hole of 1, 6 stones around). White: a
	// ring round g3 and g4 (a hole of 2, 8 stones around; row g is below
	// the middle row e). One hole each: the sizes decide.
	black := points("b2 b3 c2 c4 d3 d4")
	white := points("f3 f4 f5 g2 g5 h2 h3 h4")
	p, err := NewPosition(b, black, white, Black)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Score()
	t.Logf("holes %+v\n%s", s.Holes, Diagram(p, nil, true))
	if len(s.Holes[Black]) != len(s.Holes[White]) {
		t.Fatalf("want as many holes each: %+v", s.Holes)
	}
	if s.Draw || s.Winner != White || s.Margin != 0 || s.Decided != DecidedBySize {
		t.Errorf("score %+v", s)
	}
}
