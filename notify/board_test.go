package notify

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/view"
	"github.com/lesspost/lesspost/internal/vectors"
)

// edge names the edge between two orthogonally adjacent squares.
type edge struct{ a, b string }

// wallString builds a B4 wall string for an n x n board with the given walls.
func wallString(t testing.TB, n int, walls map[edge]int) string {
	t.Helper()
	digits := make([]byte, 2*n*(n-1))
	for i := range digits {
		digits[i] = '0'
	}
	for e, w := range walls {
		a, b := sq(t, e.a), sq(t, e.b)
		if b.Row < a.Row || b.Col < a.Col {
			a, b = b, a
		}
		r, c := int(a.Row), int(a.Col)
		var i int
		switch {
		case b.Row == a.Row && b.Col == a.Col+1:
			i = r*(2*n-1) + c
		case b.Col == a.Col && b.Row == a.Row+1:
			i = r*(2*n-1) + n - 1 + c
		default:
			t.Fatalf("%v: not adjacent", e)
		}
		digits[i] = byte('0' + w)
	}
	return string(digits)
}

func sq(t testing.TB, s string) less.Square {
	t.Helper()
	q, err := less.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// The sample 6x6 position: White has just played e5e4:e4d4:f5f4.
var (
	sampleWalls = map[edge]int{
		{"c3", "c4"}: 1, // single, vertical
		{"b5", "c5"}: 1, // single, horizontal
		{"d2", "e2"}: 2, // double, horizontal
		{"a4", "a5"}: 2, // double, vertical
		{"d5", "d6"}: 1,
		{"c5", "c6"}: 1,
		{"b3", "c3"}: 2,
		{"e3", "f3"}: 1,
	}
	sampleLast = "e5e4:e4d4:f5f4"
)

func samplePosition(t testing.TB) less.Position {
	t.Helper()
	b, err := less.ParseBoard(6, wallString(t, 6, sampleWalls))
	if err != nil {
		t.Fatal(err)
	}
	p, err := less.ParsePosition(b, "white:d4,e6,f4,f6 black:a1,a2,b2,c1 to-move:black", false)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sample8 is a four-player position on a generated board with a turn drawn.
func sample8(t testing.TB) (less.Position, less.Turn) {
	t.Helper()
	b, err := less.GenerateBoard(8, 7)
	if err != nil {
		t.Fatal(err)
	}
	p := less.StartPosition(b, false)
	turns := p.LegalTurns()
	if len(turns) == 0 {
		t.Fatal("no legal turn from the start")
	}
	turn := turns[len(turns)/2]
	next, _, err := p.Play(turn)
	if err != nil {
		t.Fatal(err)
	}
	return next, turn
}

func decode(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return img
}

func render(t *testing.T, p less.Position, last less.Turn) image.Image {
	t.Helper()
	data, err := pngOf(p, last)
	if err != nil {
		t.Fatalf("BoardPNG: %v", err)
	}
	return decode(t, data)
}

// pngOf is the picture of position p after turn last, drawn from its view.
func pngOf(p less.Position, last less.Turn) ([]byte, error) { return BoardPNG(less.View(p, last)) }

// placeOf is where square s is drawn.
func placeOf(s less.Square) place { return place{int(s.Row), int(s.Col)} }

func at(img image.Image, p image.Point) color.RGBA {
	return color.RGBAModel.Convert(img.At(p.X, p.Y)).(color.RGBA)
}

// centre is the pixel at the centre of a square.
func centre(s less.Square) image.Point {
	cx, cy := squareCenter(placeOf(s))
	return image.Pt(cx/sub, cy/sub)
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return abs(int(x)-int(y)) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

func luma(c color.RGBA) int { return (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000 }

func isDark(c color.RGBA) bool { return luma(c) < 90 }

// darkRuns samples pixels across an edge, from inside one square to inside the
// other through the edge's midpoint, and returns the lengths of the runs of
// dark pixels.
func darkRuns(img image.Image, a, b less.Square) []int {
	ca, cb := centre(a), centre(b)
	ax, ay, bx, by := ca.X, ca.Y, cb.X, cb.Y
	var runs []int
	run := 0
	steps := max(abs(bx-ax), abs(by-ay))
	for i := steps / 4; i <= steps*3/4; i++ {
		x := ax + (bx-ax)*i/steps
		y := ay + (by-ay)*i/steps
		if isDark(at(img, image.Pt(x, y))) {
			run++
			continue
		}
		if run > 0 {
			runs = append(runs, run)
		}
		run = 0
	}
	if run > 0 {
		runs = append(runs, run)
	}
	return runs
}

func TestBoardPNGSize(t *testing.T) {
	b6, _ := less.EmptyBoard(6)
	b8, _ := less.EmptyBoard(8)
	tests := []struct {
		name string
		p    less.Position
		w, h int
	}{
		{"6x6", less.StartPosition(b6, false), 337 * dpr, 337 * dpr},
		{"8x8", less.StartPosition(b8, false), 433 * dpr, 433 * dpr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := render(t, tt.p, nil)
			got := img.Bounds()
			if got != image.Rect(0, 0, tt.w, tt.h) {
				t.Errorf("bounds %v, want %dx%d", got, tt.w, tt.h)
			}
			if w, h := boardPixels(tt.p.Size()); w != tt.w || h != tt.h {
				t.Errorf("boardPixels = %dx%d, want %dx%d", w, h, tt.w, tt.h)
			}
		})
	}
}

func TestBoardPNGContent(t *testing.T) {
	img := render(t, samplePosition(t), less.MustParseTurn(sampleLast))
	pixelAt := func(s string) color.RGBA { return at(img, squareCorner(t, s)) }
	tests := []struct {
		name string
		ok   func() (color.RGBA, bool)
	}{
		{"white piece e6 is white", func() (color.RGBA, bool) {
			c := at(img, centre(sq(t, "e6")))
			return c, luma(c) > 235
		}},
		{"black piece a1 is dark", func() (color.RGBA, bool) {
			c := at(img, centre(sq(t, "a1")))
			return c, luma(c) < 60
		}},
		{"empty target b1 has White's tint", func() (color.RGBA, bool) {
			c := at(img, centre(sq(t, "b1")))
			return c, c == targetTints[less.White] && c != colSquare
		}},
		{"empty target e5 has Black's tint", func() (color.RGBA, bool) {
			// The centre carries the path's dot; sample near a corner.
			c := pixelAt("e5")
			return c, c == targetTints[less.Black] && c != colSquare
		}},
		{"occupied target a2 shows the tint around the piece", func() (color.RGBA, bool) {
			c := pixelAt("a2")
			return c, c == targetTints[less.White]
		}},
		{"plain square c2 has the square colour", func() (color.RGBA, bool) {
			c := at(img, centre(sq(t, "c2")))
			return c, c == colSquare
		}},
		{"single vertical wall c3|c4 midpoint is dark", func() (color.RGBA, bool) {
			c := at(img, edgeMid(t, "c3", "c4"))
			return c, isDark(c)
		}},
		{"single horizontal wall b5-c5 midpoint is dark", func() (color.RGBA, bool) {
			c := at(img, edgeMid(t, "b5", "c5"))
			return c, isDark(c)
		}},
		{"no wall a1|a2 midpoint is grid, not dark", func() (color.RGBA, bool) {
			c := at(img, edgeMid(t, "c1", "c2"))
			return c, c == colGrid
		}},
		{"double wall d2-e2 is drawn in the double-wall colour", func() (color.RGBA, bool) {
			c := at(img, edgeMid(t, "d2", "e2").Add(image.Pt(0, -3)))
			return c, c == colDoubleWall
		}},
		{"line e4->d4 at its midpoint", func() (color.RGBA, bool) {
			c := at(img, mid(t, "e4", "d4"))
			return c, near(c, colPath, 8)
		}},
		{"line f5->f4 at its midpoint", func() (color.RGBA, bool) {
			c := at(img, mid(t, "f5", "f4"))
			return c, near(c, colPath, 8)
		}},
		{"dot on from-square e5", func() (color.RGBA, bool) {
			c := at(img, centre(sq(t, "e5")))
			return c, near(c, colPath, 8)
		}},
		{"no path colour on untouched square c2", func() (color.RGBA, bool) {
			c := at(img, centre(sq(t, "c2")))
			return c, !near(c, colPath, 60)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c, ok := tt.ok(); !ok {
				t.Errorf("pixel %v", c)
			}
		})
	}
}

// TestBoardPNGWallKinds tells single from double walls by the dark runs across
// the edge: one bar against two bars with a gap.
func TestBoardPNGWallKinds(t *testing.T) {
	img := render(t, samplePosition(t), nil)
	tests := []struct {
		a, b string
		want []int
	}{
		{"c3", "c4", []int{wallThick}},
		{"b5", "c5", []int{wallThick}},
		{"e3", "f3", []int{wallThick}},
		{"d2", "e2", []int{doubleBar, doubleBar}},
		{"a4", "a5", []int{doubleBar, doubleBar}},
		{"b3", "c3", []int{doubleBar, doubleBar}},
		{"c2", "c3", nil},
		{"c2", "d2", nil},
	}
	for _, tt := range tests {
		t.Run(tt.a+"-"+tt.b, func(t *testing.T) {
			got := darkRuns(img, sq(t, tt.a), sq(t, tt.b))
			if !equalInts(got, tt.want) {
				t.Errorf("dark runs across the edge %v, want %v", got, tt.want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// squareCorner is a pixel inside a square near its top-left corner, clear of
// pieces and dots.
func squareCorner(t *testing.T, s string) image.Point {
	return squareRect(placeOf(sq(t, s))).Min.Add(image.Pt(5, 5))
}

// edgeMid is the pixel in the middle of the edge between two adjacent squares.
func edgeMid(t *testing.T, a, b string) image.Point {
	sa, sb := sq(t, a), sq(t, b)
	if sb.Row < sa.Row || sb.Col < sa.Col {
		sa, sb = sb, sa
	}
	p := centre(sa)
	if sb.Col > sa.Col {
		return image.Pt(gridX(int(sb.Col)), p.Y)
	}
	return image.Pt(p.X, gridY(int(sb.Row)))
}

// mid is the pixel halfway between two squares' centres.
func mid(t *testing.T, a, b string) image.Point {
	ax, ay := squareCenter(placeOf(sq(t, a)))
	bx, by := squareCenter(placeOf(sq(t, b)))
	return image.Pt((ax+bx)/2/sub, (ay+by)/2/sub)
}

func TestBoardPNGZeroPosition(t *testing.T) {
	tests := []struct {
		name string
		last less.Turn
	}{
		{"no turn", nil},
		{"with turn", less.MustParseTurn("a1a2")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := pngOf(less.Position{}, tt.last)
			if err == nil {
				t.Fatal("want an error for the zero Position")
			}
			if data != nil {
				t.Errorf("got %d bytes with the error", len(data))
			}
		})
	}
}

func TestBoardPNGFourPlayers(t *testing.T) {
	b, err := less.EmptyBoard(8)
	if err != nil {
		t.Fatal(err)
	}
	p := less.StartPosition(b, false)
	img := render(t, p, nil)
	for _, c := range less.Colors(8) {
		t.Run(c.String(), func(t *testing.T) {
			starts := less.StartCorner(c, 8).Squares()
			if len(starts) != 4 {
				t.Fatalf("%d start squares", len(starts))
			}
			for _, s := range starts {
				if got := at(img, centre(s)); got != pieceColors[c] {
					t.Errorf("centre of %v is %v, want %v", s, got, pieceColors[c])
				}
			}
			// Each target corner is at someone's start, so its tint shows
			// around the pieces there.
			for _, s := range less.TargetCorner(c, 8).Squares() {
				r := squareRect(placeOf(s))
				if got := at(img, r.Min.Add(image.Pt(3, 3))); got != targetTints[c] {
					t.Errorf("corner of target %v is %v, want %v", s, got, targetTints[c])
				}
			}
		})
	}
}

func TestBoardPNGDeterministic(t *testing.T) {
	p8, last8 := sample8(t)
	tests := []struct {
		name string
		p    less.Position
		last less.Turn
	}{
		{"6x6", samplePosition(t), less.MustParseTurn(sampleLast)},
		{"8x8", p8, last8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := pngOf(tt.p, tt.last)
			if err != nil {
				t.Fatal(err)
			}
			b, err := pngOf(tt.p, tt.last)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Error("two calls gave different bytes")
			}
			none, err := pngOf(tt.p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(a, none) {
				t.Error("the last turn changed nothing")
			}
		})
	}
}

// TestBoardPNGOffBoardMoves: moves with a square off the board are skipped.
func TestBoardPNGOffBoardMoves(t *testing.T) {
	p := samplePosition(t)
	want, err := pngOf(p, less.MustParseTurn("e5e4"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := pngOf(p, less.MustParseTurn("e5e4:z9z8:f6f7:a0a1"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("off-board moves were drawn")
	}
}

// TestBoardPNGSample writes sample pictures to a temporary directory, and also
// to $LESSPOST_BOARD_PNG_DIR when set, to look at the design.
func TestBoardPNGSample(t *testing.T) {
	p8, last8 := sample8(t)
	samples := []struct {
		file string
		p    less.Position
		last less.Turn
	}{
		{"board6.png", samplePosition(t), less.MustParseTurn(sampleLast)},
		{"board8.png", p8, last8},
	}
	dirs := []string{t.TempDir()}
	if d := os.Getenv("LESSPOST_BOARD_PNG_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	for _, s := range samples {
		data, err := pngOf(s.p, s.last)
		if err != nil {
			t.Fatal(err)
		}
		decode(t, data)
		for _, d := range dirs {
			if err := os.WriteFile(filepath.Join(d, s.file), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d bytes, last %v", s.file, len(data), s.last)
	}
}

// BenchmarkBoardPNG measures the picture of every "your turn" email: a
// two-player 6x6 board and a four-player 8x8 board, each with the last turn,
// and a game of Les at its end; then, for the same views, the drawing alone
// and the encoding alone.
func BenchmarkBoardPNG(b *testing.B) {
	p8, last8 := sample8(b)
	cases := []struct {
		name string
		v    view.Board
	}{
		{"6x6", less.View(samplePosition(b), less.MustParseTurn(sampleLast))},
		{"8x8", less.View(p8, last8)},
		{"Les", lesEndView(b, vectors.LoadLes(b).GameCases[0])},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := BoardPNG(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, c := range cases {
		draw := drawBoard
		if c.v.Layout == view.Points {
			draw = drawPoints
		}
		b.Run("draw/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cv, err := draw(c.v)
				if err != nil {
					b.Fatal(err)
				}
				canvases.Put(cv)
			}
		})
		b.Run("encode/"+c.name, func(b *testing.B) {
			cv, err := draw(c.v)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(cv.img.Pix)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := cv.encode(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBoardPNGMatchesReference plays random games and compares every picture
// with the reference drawing, pixel by pixel: equal, unless the picture needs
// more than 256 colours (a PNG palette's limit, reached by some four-player
// pictures), when a few edge pixels, at most 0.5%, take the nearest colour
// of the full palette. (Seen: 132 pixels at most 48 off, where the path's
// edge crosses a red piece; side by side at 4x zoom the pictures look the
// same.)
func TestBoardPNGMatchesReference(t *testing.T) {
	games := 3
	if testing.Short() {
		games = 1
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, players := range []int{2, 4} {
		n := 6
		if players == 4 {
			n = 8
		}
		for seed := range games {
			b, err := less.GenerateBoard(n, uint64(seed))
			if err != nil {
				t.Fatal(err)
			}
			p := less.StartPosition(b, false)
			var last less.Turn
			for ply := range 40 {
				if ply%3 == 0 { // not every ply, for time: the reference is slow
					matchReference(t, fmt.Sprintf("%d players, seed %d, ply %d", players, seed, ply), p, last)
				}
				turns := p.LegalTurns()
				if len(turns) == 0 {
					break
				}
				last = turns[rng.IntN(len(turns))]
				if p, _, err = p.Play(last); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func matchReference(t *testing.T, name string, p less.Position, last less.Turn) {
	t.Helper()
	want, err := refDrawBoard(less.View(p, last))
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, p, last)
	if got.Bounds() != want.Bounds() {
		t.Fatalf("%s: bounds %v, want %v", name, got.Bounds(), want.Bounds())
	}
	full := len(got.(*image.Paletted).Palette) == 256
	differ, worst := 0, 0
	for y := range want.Rect.Dy() {
		for x := range want.Rect.Dx() {
			w := want.RGBAAt(x, y)
			if g := at(got, image.Pt(x, y)); g != w {
				differ++
				worst = max(worst, abs(int(g.R)-int(w.R)), abs(int(g.G)-int(w.G)), abs(int(g.B)-int(w.B)))
			}
		}
	}
	if !full && differ > 0 || differ > len(want.Pix)/4/200 || worst > 64 {
		t.Errorf("%s (palette full: %v): %d pixels differ, by up to %d", name, full, differ, worst)
	}
}

// TestBoardPNGDrawsTheView draws views no Less position has (a 3x3 board,
// a target that is not a corner) to show that the picture follows the view
// and not rules of its own, and refuses views it cannot draw.
func TestBoardPNGDrawsTheView(t *testing.T) {
	cells := func(n int) []view.Cell {
		var out []view.Cell
		for r := range n {
			for c := range n {
				out = append(out, view.Cell{Name: fmt.Sprintf("r%dc%d", r, c), Row: r, Col: c})
			}
		}
		return out
	}
	good := view.Board{Layout: view.Squares, Rows: 3, Cols: 3, Cells: cells(3),
		Walls:      []view.Wall{{Between: [2]string{"r1c1", "r1c2"}, Count: 2}},
		Pieces:     []view.Piece{{Cell: "r2c0", Color: "red"}},
		Highlights: []view.Highlight{{Kind: view.Target, Color: "yellow", Cells: []string{"r1c1"}}},
	}
	data, err := BoardPNG(good)
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, data)
	if got := at(img, squareRect(place{1, 1}).Min.Add(image.Pt(5, 5))); got != targetTints[2] {
		t.Errorf("highlighted cell is %v, want yellow's tint %v", got, targetTints[2])
	}
	if got := at(img, squareRect(place{0, 0}).Min.Add(image.Pt(5, 5))); got != colSquare {
		t.Errorf("plain cell is %v, want %v", got, colSquare)
	}
	if c := pixelCentre(place{2, 0}); at(img, c) != pieceColors[3] {
		t.Errorf("piece on r2c0 is %v, want red", at(img, c))
	}
	// The middle of the right-hand bar of the double wall (see canvas.wall).
	if got := at(img, image.Pt(gridX(2)+(gridLine-doubleGap)/2+doubleGap+doubleBar/2, gridY(1)+cell/2)); got != colDoubleWall {
		t.Errorf("double wall right of r1c1: %v, want %v", got, colDoubleWall)
	}

	bad := []struct {
		name   string
		change func(v *view.Board)
	}{
		{"no cells", func(v *view.Board) { v.Cells = nil }},
		{"unknown layout", func(v *view.Board) { v.Layout = "hex" }},
		{"not square", func(v *view.Board) { v.Cols = 4 }},
		{"cell off the grid", func(v *view.Board) { v.Cells[0].Row = 3 }},
		{"wall between strangers", func(v *view.Board) { v.Walls[0].Between[1] = "r2c2" }},
		{"wall on no cell", func(v *view.Board) { v.Walls[0].Between[1] = "x9" }},
		{"piece on no cell", func(v *view.Board) { v.Pieces[0].Cell = "x9" }},
		{"unknown colour", func(v *view.Board) { v.Pieces[0].Color = "green" }},
		{"highlight on no cell", func(v *view.Board) { v.Highlights[0].Cells = []string{"x9"} }},
		{"path off the board", func(v *view.Board) { v.Path = []view.Step{{From: "r0c0", To: "x9"}} }},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			v := good
			v.Cells = slices.Clone(good.Cells)
			v.Walls = slices.Clone(good.Walls)
			v.Pieces = slices.Clone(good.Pieces)
			v.Highlights = slices.Clone(good.Highlights)
			tt.change(&v)
			if data, err := BoardPNG(v); err == nil || data != nil {
				t.Errorf("got %d bytes and error %v, want only an error", len(data), err)
			}
		})
	}
}

// pixelCentre is the pixel at the centre of a place.
func pixelCentre(p place) image.Point {
	cx, cy := squareCenter(p)
	return image.Pt(cx/sub, cy/sub)
}

// An arrowhead marks where each moved piece stopped, pointing the way it
// went; a square a piece only passed through has its dot and no head.
func TestBoardPNGArrowheads(t *testing.T) {
	last, err := less.ParseTurn(sampleLast) // e5e4:e4d4:f5f4: one piece e5→e4→d4, another f5→f4
	if err != nil {
		t.Fatal(err)
	}
	img := render(t, samplePosition(t), last)
	// wing is a pixel inside the head of a step that ends on square to,
	// coming from square from: beside the line, towards the base.
	wing := func(from, to string) image.Point {
		f, c := centre(sq(t, from)), centre(sq(t, to))
		ux, uy := (c.X-f.X)/max(abs(c.X-f.X), abs(c.Y-f.Y)), (c.Y-f.Y)/max(abs(c.X-f.X), abs(c.Y-f.Y))
		back, side := arrowLength*2/3, arrowWidth/4
		return image.Pt(c.X-ux*back-uy*side, c.Y-uy*back+ux*side)
	}
	cases := []struct {
		from, to string
		head     bool
	}{
		{"e4", "d4", true},  // the first piece's stop: it went up
		{"f5", "f4", true},  // the second's: it went left
		{"e5", "e4", false}, // passed through
	}
	for _, c := range cases {
		p := wing(c.from, c.to)
		got := at(img, p)
		if head := near(got, colPath, 8); head != c.head {
			t.Errorf("%s→%s: pixel %v is %v; arrowhead %v, want %v", c.from, c.to, p, got, head, c.head)
		}
	}
	// The pixel the head would cover on the way in from the other side
	// is not blue: the head points the way the piece went.
	f, c := centre(sq(t, "e4")), centre(sq(t, "d4"))
	if got := at(img, image.Pt(c.X+arrowWidth/4, c.Y-(f.Y-c.Y)/abs(f.Y-c.Y)*arrowLength*2/3)); near(got, colPath, 8) {
		t.Errorf("the head on d4 points the wrong way")
	}
}

// TestBoardPNGLargestBoard draws the largest board a picture takes, with
// pieces in its corners, walls, targets and a long path, and compares it
// with the reference drawing pixel by pixel: its rows are over 2,500 bytes,
// and the encoder's matches reach that far back.
func TestBoardPNGLargestBoard(t *testing.T) {
	n := maxSide
	name := func(r, c int) string { return fmt.Sprintf("r%dc%d", r, c) }
	v := view.Board{Layout: view.Squares, Rows: n, Cols: n}
	for r := range n {
		for c := range n {
			v.Cells = append(v.Cells, view.Cell{Name: name(r, c), Row: r, Col: c})
		}
	}
	for i, col := range colorNames {
		r, c := (i/2)*(n-1), (i%2)*(n-1)
		v.Pieces = append(v.Pieces, view.Piece{Cell: name(r, c), Color: col})
		v.Highlights = append(v.Highlights, view.Highlight{Kind: view.Target, Color: col, Cells: []string{name(n-1-r, n-1-c)}})
	}
	v.Walls = []view.Wall{{Between: [2]string{name(3, 3), name(3, 4)}, Count: 1}, {Between: [2]string{name(20, 7), name(21, 7)}, Count: 2}}
	v.Path = []view.Step{{From: name(0, 0), To: name(0, 9)}, {From: name(0, 9), To: name(12, 9)}, {From: name(25, 25), To: name(24, 24)}}
	want, err := refDrawBoard(v)
	if err != nil {
		t.Fatal(err)
	}
	data, err := BoardPNG(v)
	if err != nil {
		t.Fatal(err)
	}
	got := decode(t, data)
	if got.Bounds() != want.Rect {
		t.Fatalf("bounds %v, want %v", got.Bounds(), want.Rect)
	}
	differ := 0
	for y := range want.Rect.Dy() {
		for x := range want.Rect.Dx() {
			if at(got, image.Pt(x, y)) != want.RGBAAt(x, y) {
				differ++
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d pixels differ from the reference (%d bytes)", differ, len(data))
	}
}
