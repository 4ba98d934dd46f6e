package less_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/view"
)

// TestViewSeed42 checks the view of a known board, the 6x6 board of seed
// 42, after White's first turn, against what its diagram shows:
//
//	    1   2   3   4   5   6
//	  +---+---+---+---+---+---+
//	a | B | B   .   .   .   . |
//	  +   +---+   +   +---+   +
//	b | B   B   .   . | .   . |
//	  +---+   +   +---+   +   +
//	c | .   .   .   .   .   . |
//	  +   +---+   +---+---+   +
//	d | .   .   . | .   .   . |
//	  +   +   +   +   +---+   +
//	e | .   .   .   .   W   W |
//	  +---+---+   +   +   +   +
//	f | .   . | .   .   W   W |
//	  +---+---+---+---+---+---+
func TestViewSeed42(t *testing.T) {
	b, err := less.GenerateBoard(6, 42)
	if err != nil {
		t.Fatal(err)
	}
	turn := less.MustParseTurn("e6d6:d6c6:f5f4")
	p, _, err := less.StartPosition(b, false).Play(turn)
	if err != nil {
		t.Fatal(err)
	}
	v := less.View(p, turn)

	if v.Layout != view.Squares || v.Rows != 6 || v.Cols != 6 || len(v.Cells) != 36 {
		t.Fatalf("layout %q, %dx%d, %d cells", v.Layout, v.Rows, v.Cols, len(v.Cells))
	}
	for _, c := range []view.Cell{{Name: "a1", Row: 0, Col: 0}, {Name: "a6", Row: 0, Col: 5}, {Name: "e5", Row: 4, Col: 4}, {Name: "f6", Row: 5, Col: 5}} {
		if got, ok := v.CellAt(c.Name); !ok || got != c {
			t.Errorf("cell %s = %+v, %v; want %+v", c.Name, got, ok, c)
		}
	}
	if got := v.Cells[7]; got != (view.Cell{Name: "b2", Row: 1, Col: 1}) {
		t.Errorf("cells are not in reading order: the eighth is %+v", got)
	}

	var walls []string
	for _, w := range v.Walls {
		walls = append(walls, w.Between[0]+w.Between[1]+strings.Repeat("|", w.Count))
	}
	wantWalls := []string{"a1a2|", "a2b2|", "a5b5|", "b4b5|", "b1c1|", "b4c4|", "c2d2|", "c4d4|", "c5d5|",
		"d3d4|", "d5e5|", "e1f1|", "e2f2|", "f2f3|"}
	if !reflect.DeepEqual(walls, wantWalls) {
		t.Errorf("walls\n got %v\nwant %v", walls, wantWalls)
	}

	wantPieces := []view.Piece{
		{Cell: "c6", Color: "white"}, {Cell: "e5", Color: "white"}, {Cell: "f4", Color: "white"}, {Cell: "f6", Color: "white"},
		{Cell: "a1", Color: "black"}, {Cell: "a2", Color: "black"}, {Cell: "b1", Color: "black"}, {Cell: "b2", Color: "black"},
	}
	if !reflect.DeepEqual(v.Pieces, wantPieces) {
		t.Errorf("pieces\n got %v\nwant %v", v.Pieces, wantPieces)
	}

	wantTargets := []view.Highlight{
		{Kind: view.Target, Color: "white", Cells: []string{"a1", "a2", "b1", "b2"}},
		{Kind: view.Target, Color: "black", Cells: []string{"e5", "e6", "f5", "f6"}},
	}
	if !reflect.DeepEqual(v.Highlights, wantTargets) {
		t.Errorf("highlights\n got %v\nwant %v", v.Highlights, wantTargets)
	}

	wantPath := []view.Step{{From: "e6", To: "d6"}, {From: "d6", To: "c6"}, {From: "f5", To: "f4"}}
	if !reflect.DeepEqual(v.Path, wantPath) {
		t.Errorf("path %v, want %v", v.Path, wantPath)
	}

	var labels []string
	for _, l := range v.Labels {
		labels = append(labels, l.Text)
		if (l.Row == -1) == (l.Col == -1) {
			t.Errorf("label %+v is not in the margin of exactly one side", l)
		}
	}
	if got := strings.Join(labels, ""); got != "a1b2c3d4e5f6" {
		t.Errorf("labels %q", got)
	}
}

// TestViewCases: double walls, the four-player targets, a path with squares
// off the board, and a position without a board.
func TestViewCases(t *testing.T) {
	// One double wall below a3 and one single wall right of f5.
	walls := []byte(strings.Repeat("0", 60))
	walls[5+2] = '2'  // row a: 5 edges right, then the 6 below; a3's is the third
	walls[55+4] = '1' // row f: after 5 rows of 11 edges, f5's right edge
	six := less.MustParseBoard(6, string(walls))
	eight, err := less.EmptyBoard(8)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		p     less.Position
		last  less.Turn
		check func(t *testing.T, v view.Board)
	}{
		{"double wall", less.StartPosition(six, false), nil, func(t *testing.T, v view.Board) {
			want := []view.Wall{{Between: [2]string{"a3", "b3"}, Count: 2}, {Between: [2]string{"f5", "f6"}, Count: 1}}
			if !reflect.DeepEqual(v.Walls, want) {
				t.Errorf("walls %v, want %v", v.Walls, want)
			}
			if len(v.Path) != 0 || v.Path == nil {
				t.Errorf("path %#v, want empty (not null in JSON)", v.Path)
			}
		}},
		{"four players", less.StartPosition(eight, false), nil, func(t *testing.T, v view.Board) {
			got := map[string]string{}
			for _, h := range v.Highlights {
				got[h.Color] = h.Cells[0]
			}
			want := map[string]string{"yellow": "a7", "black": "g7", "white": "a1", "red": "g1"}
			if !reflect.DeepEqual(got, want) || v.Highlights[0].Color != "yellow" {
				t.Errorf("targets start at %v (first %s), want %v, yellow first", got, v.Highlights[0].Color, want)
			}
			if len(v.Walls) != 0 || len(v.Pieces) != 16 || v.Pieces[0].Color != "yellow" {
				t.Errorf("%d walls, %d pieces, first %v", len(v.Walls), len(v.Pieces), v.Pieces[0])
			}
		}},
		{"moves off the board", less.StartPosition(six, false), less.MustParseTurn("e5e4:z9z8:f6f7:a0a1"), func(t *testing.T, v view.Board) {
			if want := []view.Step{{From: "e5", To: "e4"}}; !reflect.DeepEqual(v.Path, want) {
				t.Errorf("path %v, want %v", v.Path, want)
			}
		}},
		{"no board", less.Position{}, nil, func(t *testing.T, v view.Board) {
			if !reflect.DeepEqual(v, view.Board{}) {
				t.Errorf("view %+v, want the zero Board", v)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, less.View(tt.p, tt.last)) })
	}
}
