package notify

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/view"
	"github.com/lesspost/lesspost/internal/vectors"
)

// lesPoints parses point names separated by spaces.
func lesPoints(t *testing.T, s string) []les.Point {
	t.Helper()
	if s == "" {
		return nil
	}
	pts, err := les.ParsePoints(strings.ReplaceAll(s, " ", ":"))
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// pointsPicture draws a position on the board of side 3 with ring's
// stones walling off c3, one stone of the other colour on a1, the last ply
// marked, holes shown, and returns the picture with its layout.
func pointsPicture(t *testing.T, ring les.Color, last string) (image.Image, pointsLayout) {
	t.Helper()
	stones := [2][]les.Point{}
	stones[ring] = lesPoints(t, "b2 b3 c2 c4 d2 d3")
	stones[ring.Other()] = lesPoints(t, "a1")
	p, err := les.NewPosition(les.MustBoard(3), stones[les.Black], stones[les.White], les.Black)
	if err != nil {
		t.Fatal(err)
	}
	v := les.View(p, lesPoints(t, last), true)
	l, err := pointsLayoutOf(&v)
	if err != nil {
		t.Fatal(err)
	}
	data, err := BoardPNG(v)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, data), l
}

// lesEndView is the board at the end of a conformance game of Les, its last
// ply marked.
func lesEndView(t testing.TB, gc vectors.LesGameCase) view.Board {
	t.Helper()
	e, err := les.NewEngine(gc.Size)
	if err != nil {
		t.Fatal(err)
	}
	plies := append([]string{gc.Setup, gc.Choice}, gc.Turns...)
	for _, ply := range plies {
		if _, err := e.PlayPly(ply); err != nil {
			t.Fatalf("ply %s: %v", ply, err)
		}
	}
	v, err := e.Board(plies[len(plies)-1])
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// pointPixel is the pixel at the centre of a named point.
func (l pointsLayout) pointPixel(t *testing.T, name string) image.Point {
	t.Helper()
	p, ok := l.byName[name]
	if !ok {
		t.Fatalf("no point %s", name)
	}
	x, y := l.geom.at(p.row, p.col)
	return image.Pt(x, y)
}

// centroid is the pixel at the centre of the triangle of three touching
// points: as far from the stones and lines as a pixel gets.
func (l pointsLayout) centroid(t *testing.T, a, b, c string) image.Point {
	t.Helper()
	pa, pb, pc := l.pointPixel(t, a), l.pointPixel(t, b), l.pointPixel(t, c)
	return image.Pt((pa.X+pb.X+pc.X)/3, (pa.Y+pb.Y+pc.Y)/3)
}

// The points picture shows stones in their colours, the last ply's mark,
// empty points, the board's face, and an owned hole in its owner's tint.
func TestPointsPNGContent(t *testing.T) {
	for _, ring := range []les.Color{les.Black, les.White} {
		t.Run(ring.String(), func(t *testing.T) {
			img, l := pointsPicture(t, ring, "c2")
			k, _ := colorNumber(ring.String())
			other, _ := colorNumber(ring.Other().String())
			tests := []struct {
				name string
				at   image.Point
				want color.RGBA
			}{
				{"a stone of the ring, b2", l.pointPixel(t, "b2"), pieceColors[k]},
				{"the other colour's stone, a1", l.pointPixel(t, "a1"), pieceColors[other]},
				{"the last ply's stone c2 carries the mark", l.pointPixel(t, "c2"), colPath},
				{"an empty point, e2", l.pointPixel(t, "e2"), colPoint},
				{"the hole's point c3", l.pointPixel(t, "c3"), colPoint},
				{"the hole's area between c3, b2 and b3", l.centroid(t, "c3", "b2", "b3"), holeTints[k]},
				{"the hole's area between c3, d3 and c4", l.centroid(t, "c3", "d3", "c4"), holeTints[k]},
				{"the face between d1, e1 and d2 (no hole)", l.centroid(t, "d1", "e1", "d2"), colSquare},
				{"the face between b2, b3 and a2 (stones, no hole)", l.centroid(t, "b2", "b3", "a2"), colSquare},
				{"outside the board", image.Pt(1, 1), colBackground},
			}
			for _, tt := range tests {
				if got := at(img, tt.at); got != tt.want {
					t.Errorf("%s at %v: %v, want %v", tt.name, tt.at, got, tt.want)
				}
			}
			// Half way between two touching empty points lies a grid line.
			e1, e2 := l.pointPixel(t, "e1"), l.pointPixel(t, "e2")
			if got := at(img, image.Pt((e1.X+e2.X)/2, e1.Y)); got != colGrid {
				t.Errorf("the line e1-e2: %v, want %v", got, colGrid)
			}
		})
	}
	// Without holes shown (a game going on), the same area is the face.
	p, err := les.NewPosition(les.MustBoard(3), lesPoints(t, "b2 b3 c2 c4 d2 d3"), lesPoints(t, "a1"), les.White)
	if err != nil {
		t.Fatal(err)
	}
	v := les.View(p, nil, false)
	l, _ := pointsLayoutOf(&v)
	data, err := BoardPNG(v)
	if err != nil {
		t.Fatal(err)
	}
	if got := at(decode(t, data), l.centroid(t, "c3", "b2", "b3")); got != colSquare {
		t.Errorf("a hole is shaded during the game: %v", got)
	}
}

// The mark follows the view's path: no mark, no blue.
func TestPointsPNGMarksOnlyTheLastPly(t *testing.T) {
	img, l := pointsPicture(t, les.Black, "")
	if got := at(img, l.pointPixel(t, "c2")); got != pieceColors[1] {
		t.Errorf("unmarked c2: %v, want black", got)
	}
	img, l = pointsPicture(t, les.Black, "c2 a1")
	for _, name := range []string{"c2", "a1"} {
		if got := at(img, l.pointPixel(t, name)); got != colPath {
			t.Errorf("marked %s: %v, want %v", name, got, colPath)
		}
	}
}

// Every board size draws, within sensible bounds, the same bytes each time,
// and with no colour approximated (fewer than 256 in the palette): the
// empty boards and the end of every conformance game, holes shaded.
func TestPointsPNGEveryBoard(t *testing.T) {
	check := func(name string, v view.Board) {
		t.Helper()
		a, err := BoardPNG(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := BoardPNG(v)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two calls gave different bytes", name)
		}
		img := decode(t, a)
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		if w < 200*dpr || w > 800*dpr || h < 150*dpr || h > 800*dpr {
			t.Errorf("%s: %dx%d pixels", name, w, h)
		}
		if n := len(img.(*image.Paletted).Palette); n >= 256 {
			t.Errorf("%s: the palette is full (%d colours): some pixels took the nearest colour", name, n)
		}
	}
	for side := les.MinSide; side <= les.MaxSide; side++ {
		check(fmt.Sprintf("empty, side %d", side), les.View(les.EmptyPosition(les.MustBoard(side)), nil, true))
	}
	for i, gc := range vectors.LoadLes(t).GameCases {
		v := lesEndView(t, gc)
		if len(v.Highlights) == 0 && len(gc.Result.Holes["black"])+len(gc.Result.Holes["white"]) > 0 {
			t.Errorf("game %d: the end shows no holes", i)
		}
		check(fmt.Sprintf("game %d (side %d)", i, gc.Size), v)
	}
}

// Views a points picture cannot draw are refused, with no picture.
func TestPointsPNGRefusesBadViews(t *testing.T) {
	p, err := les.NewPosition(les.MustBoard(3), lesPoints(t, "b2"), lesPoints(t, "a1"), les.Black)
	if err != nil {
		t.Fatal(err)
	}
	good := les.View(p, lesPoints(t, "b2"), true)
	good.Highlights = []view.Highlight{{Kind: view.Hole, Color: "white", Cells: []string{"c3"}}}
	if _, err := BoardPNG(good); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name   string
		change func(v *view.Board)
	}{
		{"no points", func(v *view.Board) { v.Cells = nil }},
		{"too many rows", func(v *view.Board) { v.Rows = 500 }},
		{"point off the grid", func(v *view.Board) { v.Cells[0].Col = v.Cols }},
		{"two points in one place", func(v *view.Board) { v.Cells[1].Row, v.Cells[1].Col = v.Cells[0].Row, v.Cells[0].Col }},
		{"stone on no point", func(v *view.Board) { v.Pieces[0].Cell = "z9" }},
		{"unknown colour", func(v *view.Board) { v.Pieces[0].Color = "green" }},
		{"hole on no point", func(v *view.Board) { v.Highlights[0].Cells = []string{"z9"} }},
		{"mark on no point", func(v *view.Board) { v.Path = []view.Step{{To: "z9"}} }},
		{"mark from no point", func(v *view.Board) { v.Path = []view.Step{{From: "z9", To: "b2"}} }},
	}
	// A label far off the grid is left out; it does not widen the picture.
	wide := good
	wide.Labels = append(slices.Clone(good.Labels), view.Label{Text: "x", Row: 0, Col: -1000000})
	if a, b := mustPNG(t, good), mustPNG(t, wide); !bytes.Equal(a, b) {
		t.Error("a label far off the grid changed the picture")
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			v := good
			v.Cells = slices.Clone(good.Cells)
			v.Pieces = slices.Clone(good.Pieces)
			v.Highlights = slices.Clone(good.Highlights)
			v.Path = slices.Clone(good.Path)
			tt.change(&v)
			if data, err := BoardPNG(v); err == nil || data != nil {
				t.Errorf("got %d bytes and error %v, want only an error", len(data), err)
			}
		})
	}
}

func mustPNG(t *testing.T, v view.Board) []byte {
	t.Helper()
	data, err := BoardPNG(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
