package les

import (
	"testing"

	"github.com/lesspost/lesspost/domain/view"
)

// The view's geometry is the board's: two points touch exactly when they are
// in one row 2 half-steps apart, or in neighbouring rows 1 apart.
func TestViewPlacesPointsOnTheTriangularGrid(t *testing.T) {
	for _, side := range []int{3, 9, 13} {
		b := MustBoard(side)
		v := View(EmptyPosition(b), nil, false)
		if v.Layout != view.Points || v.Rows != 2*side-1 || v.Cols != 4*side-3 || len(v.Cells) != b.Points() ||
			len(v.Labels) != v.Rows || len(v.Walls) != 0 || len(v.Pieces) != 0 || len(v.Path) != 0 {
			t.Fatalf("side %d: %s %dx%d, %d cells, %d labels", side, v.Layout, v.Rows, v.Cols, len(v.Cells), len(v.Labels))
		}
		for i, c := range v.Cells {
			if c.Name != b.name(i) || c.Row < 0 || c.Row >= v.Rows || c.Col < 0 || c.Col >= v.Cols {
				t.Fatalf("side %d: cell %d %+v", side, i, c)
			}
			for j, d := range v.Cells {
				dr, dc := abs(c.Row-d.Row), abs(c.Col-d.Col)
				touch := (dr == 0 && dc == 2) || (dr == 1 && dc == 1)
				if touch != b.Touch(b.PointAt(i), b.PointAt(j)) {
					t.Fatalf("side %d: %+v and %+v: touch in the view %v", side, c, d, touch)
				}
			}
		}
		// Each row's label is one step before its first point.
		for r, l := range v.Labels {
			first, _ := v.CellAt(string(rune('a'+r)) + "1")
			if l.Text != string(rune('a'+r)) || l.Row != r || l.Col != first.Col-2 {
				t.Errorf("side %d: label %+v, first point %+v", side, l, first)
			}
		}
	}
}

func TestViewShowsStonesLastPlyAndHoles(t *testing.T) {
	b := MustBoard(3)
	p, err := NewPosition(b, points("b2 b3 c2 c4 d2 d3"), points("a1"), White)
	if err != nil {
		t.Fatal(err)
	}
	v := View(p, points("c2 a1 z9"), true)
	if len(v.Pieces) != 7 || v.Pieces[0] != (view.Piece{Cell: "b2", Color: "black"}) || v.Pieces[6] != (view.Piece{Cell: "a1", Color: "white"}) {
		t.Errorf("pieces %+v", v.Pieces)
	}
	if len(v.Path) != 2 || v.Path[0] != (view.Step{To: "c2"}) || v.Path[1] != (view.Step{To: "a1"}) {
		t.Errorf("path %+v", v.Path)
	}
	if len(v.Highlights) != 1 || v.Highlights[0].Kind != view.Hole || v.Highlights[0].Color != "black" ||
		len(v.Highlights[0].Cells) != 1 || v.Highlights[0].Cells[0] != "c3" {
		t.Errorf("highlights %+v", v.Highlights)
	}
	if v := View(p, nil, false); len(v.Highlights) != 0 {
		t.Errorf("holes shown while the game goes on: %+v", v.Highlights)
	}
	if v := View(Position{}, nil, true); v.Layout != "" {
		t.Errorf("a position without a board: %+v", v)
	}
}

func TestEngineBoardMarksTheLastPly(t *testing.T) {
	g := startRules(t, map[string]string{ParamSize: "5"})
	playAll(t, g, "c3:c4:b2:d2")
	for last, want := range map[string]int{"": 0, "c3:c4:b2:d2": 4, "black": 0, "c3": 1} {
		v, err := g.Board(last)
		if err != nil || len(v.Path) != want || len(v.Pieces) != 4 {
			t.Errorf("Board(%q): %d steps, %d pieces, %v", last, len(v.Path), len(v.Pieces), err)
		}
	}
	if _, err := g.Board("c3::c4"); err == nil {
		t.Error("Board of junk accepted")
	}
}

func abs(n int) int { return max(n, -n) }
