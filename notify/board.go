package notify

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/lesspost/lesspost/domain/view"
)

// dpr is the picture's pixels per CSS pixel (the device pixel ratio it is
// drawn for): the email shows it at 1/dpr of its size (Image.Width), sharp
// on the high-density screens of phones and most laptops.
const dpr = 2

// The picture's geometry in pixels, dpr times the sizes it is shown at. A
// square is cell pixels from grid line to grid line; grid lines are
// gridLine pixels wide and lie on the square's top and left edge, so the
// square's own area starts gridLine pixels further in.
const (
	cell        = 48 * dpr
	gridLine    = 1 * dpr
	marginLeft  = 34 * dpr // row letters
	marginTop   = 34 * dpr // column numbers
	marginRight = 14 * dpr
	marginBot   = 14 * dpr

	labelScale = 2 * dpr // the 7x13 bitmap font drawn at twice its size

	pieceRadius   = 17.5 * dpr // outline included
	pieceOutline  = 2.5 * dpr
	shadowOffset  = 2 * dpr
	wallThick     = 5 * dpr   // single wall: one bar on the grid line
	doubleBar     = 4 * dpr   // double wall: two bars …
	doubleGap     = 3 * dpr   // … this far apart
	pathRadius    = 2 * dpr   // the last turn's line is 4 CSS px wide
	pathHalo      = 3.5 * dpr // with a light halo so it shows on dark pieces
	pathDotRadius = 5.5 * dpr // the dot on each from-square
	pathDotHalo   = 7.0 * dpr
	arrowLength   = 13 * dpr // the arrowhead at the end of each step: tip to base …
	arrowWidth    = 13 * dpr // … and across its base
	arrowHalo     = 2 * dpr  // its light rim
	frameThick    = 4 * dpr  // the closed outer border (B3)
	sub           = 8        // geometry is computed in 1/8 pixels
	// 2x2 samples per pixel for anti-aliasing: at dpr 2, as many per CSS
	// pixel as 4x4 gave at 1x. More would crowd the palette with blends (a
	// four-player picture would run out of its 256 colours).
	samples       = 2
	fullCoverage  = samples * samples
	subPerSample  = sub / samples
	subHalfSample = subPerSample / 2
)

// Colours. Target corners are tinted with a pale version of the colour that
// must reach them; White's pale version is a clean white, brighter than the
// ordinary squares.
var (
	colBackground = rgb(0xff, 0xff, 0xff)
	colSquare     = rgb(0xea, 0xe4, 0xd6)
	colGrid       = rgb(0xc4, 0xba, 0xa6)
	colWall       = rgb(0x2b, 0x25, 0x20)
	colDoubleWall = rgb(0x8e, 0x1b, 0x1b)
	colLabel      = rgb(0x5a, 0x52, 0x48)
	colOutline    = rgb(0x1a, 0x1a, 0x1a)
	colShadow     = color.RGBA{0, 0, 0, 0x38}
	colPath       = rgb(0x16, 0x6b, 0xe0)
	colPathHalo   = color.RGBA{0xff, 0xff, 0xff, 0xd0}

	// The players' colours by name as the view gives them; a piece's ink
	// is inkPiece plus its index here.
	colorNames  = [numPieceColors]string{"white", "black", "yellow", "red"}
	pieceColors = [numPieceColors]color.RGBA{
		rgb(0xff, 0xff, 0xff),
		rgb(0x24, 0x24, 0x24),
		rgb(0xf4, 0xc4, 0x1a),
		rgb(0xd6, 0x33, 0x2a),
	}
	targetTints = [numPieceColors]color.RGBA{
		rgb(0xfd, 0xfc, 0xf9),
		rgb(0xb9, 0xb3, 0xa8),
		rgb(0xf8, 0xe3, 0x8f),
		rgb(0xf0, 0xb4, 0xac),
	}
)

const numPieceColors = 4

// colorNumber is the index of a colour's name in colorNames.
func colorNumber(name string) (int, bool) {
	for i, n := range colorNames {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// errNoBoard is returned for a view without a board (the zero value).
var errNoBoard = errors.New("notify: board picture: no board")

// maxSide bounds the rows and columns a picture draws, and so its size.
const maxSide = 26

// BoardPNG draws a board view as a PNG for the HTML part of emails:
// coordinates in the margins (row letters down the left and column numbers
// along the top), highlighted target cells tinted with a pale version of
// their colour, single walls as a dark bar, double walls as two parallel red
// bars, pieces as outlined discs in their colours and, on top, the path (the
// turn just played): a blue line for each step with a dot on its
// from-square and an arrowhead where each piece stopped. It has dpr times
// the pixels it is shown at. A view.Points board (Les) is drawn as points on a triangular
// grid instead (see drawPoints). It draws what the view says and knows no
// rules. The output depends only on the input, byte for byte.
//
// Every "your turn" email carries one, so it is drawn for speed: into a
// paletted image (a few dozen colours, of which most are the blends at the
// edges of discs and lines), with shapes painted from coverage masks computed
// once (of a piece only what shows), rows of squares copied down, and
// encoded by a PNG writer of its own (board_png.go) that looks for matches
// only where this kind of picture has them. On the two busy cores of the
// test machine a two-player 6x6 picture costs ≈ 0.6 ms (0.2 drawing, 0.35
// encoding; with image/png ≈ 1.9 ms), a four-player 8x8 one ≈ 1 ms (2.9),
// the end of a game of Les ≈ 7 ms (11) (BenchmarkBoardPNG); they are ≈ 10,
// 17 and 49 kB.
func BoardPNG(v view.Board) ([]byte, error) {
	draw := drawBoard
	if v.Layout == view.Points {
		draw = drawPoints // Les's board (board_points.go)
	}
	c, err := draw(v)
	if err != nil {
		return nil, err
	}
	defer canvases.Put(c)
	return c.encode()
}

// encode is the canvas as a PNG (board_png.go).
func (c *canvas) encode() ([]byte, error) {
	w, h := c.img.Rect.Dx(), c.img.Rect.Dy()
	// Matches repeat the byte before, one period to the left, or the byte above.
	dists := append(make([]int, 0, 3), 1)
	if c.period > 1 && c.period < w {
		dists = append(dists, c.period)
	}
	dists = append(dists, w+1)
	// Written into the canvas's buffer, then copied out at its size: the
	// mail keeps it a while.
	c.out = encodePNG(c.out[:0], c.raw[:pngRaw(w, h)], w, h, c.colors, dists)
	return bytes.Clone(c.out), nil
}

// boardPixels is the width and height of the picture of an n x n board.
func boardPixels(n int) (w, h int) {
	return marginLeft + n*cell + gridLine + marginRight, marginTop + n*cell + gridLine + marginBot
}

// place is a cell's row and column on the picture's grid.
type place struct{ row, col int }

// squareRect is the area of a square inside its grid lines.
func squareRect(s place) image.Rectangle {
	x := marginLeft + s.col*cell
	y := marginTop + s.row*cell
	return image.Rect(x+gridLine, y+gridLine, x+cell, y+cell)
}

// squareCenter is the centre of a square in 1/sub pixels.
func squareCenter(s place) (x, y int) {
	r := squareRect(s)
	return (r.Min.X + r.Max.X) * sub / 2, (r.Min.Y + r.Max.Y) * sub / 2
}

// squareOffset is how many pixels square s lies right of and below the
// top-left one.
func squareOffset(s place) (dx, dy int) { return s.col * cell, s.row * cell }

// gridX and gridY are the pixel column and row of grid line k.
func gridX(k int) int { return marginLeft + k*cell }
func gridY(k int) int { return marginTop + k*cell }

// layout is a view checked for drawing, with its cells' places by name.
type layout struct {
	v      *view.Board
	n      int
	places map[string]place
}

// layoutOf checks that the picture can show v: a square grid of a sensible
// size whose walls, pieces, highlights and path name its cells.
func layoutOf(v *view.Board) (layout, error) {
	if len(v.Cells) == 0 {
		return layout{}, errNoBoard
	}
	n := v.Rows
	if v.Layout != view.Squares || v.Cols != n || n < 2 || n > maxSide {
		return layout{}, fmt.Errorf("notify: board picture: cannot draw a %q board of %dx%d", v.Layout, v.Rows, v.Cols)
	}
	l := layout{v: v, n: n, places: make(map[string]place, len(v.Cells))}
	for _, c := range v.Cells {
		if c.Row < 0 || c.Col < 0 || c.Row >= n || c.Col >= n {
			return layout{}, fmt.Errorf("notify: board picture: cell %s at (%d, %d) is off the grid", c.Name, c.Row, c.Col)
		}
		l.places[c.Name] = place{c.Row, c.Col}
	}
	for _, w := range v.Walls {
		a, b, err := l.edge(w)
		if err != nil {
			return layout{}, err
		}
		if d := abs(a.row-b.row) + abs(a.col-b.col); d != 1 {
			return layout{}, fmt.Errorf("notify: board picture: wall between %s and %s, which are not neighbours", w.Between[0], w.Between[1])
		}
	}
	for _, p := range v.Pieces {
		if _, err := l.at(p.Cell); err != nil {
			return layout{}, err
		}
		if _, ok := colorNumber(p.Color); !ok {
			return layout{}, fmt.Errorf("notify: board picture: no colour for %q", p.Color)
		}
	}
	for _, h := range v.Highlights {
		for _, name := range h.Cells {
			if _, err := l.at(name); err != nil {
				return layout{}, err
			}
		}
	}
	for _, s := range v.Path {
		if _, err := l.at(s.From); err != nil && s.From != "" {
			return layout{}, err
		}
		if _, err := l.at(s.To); err != nil {
			return layout{}, err
		}
	}
	return l, nil
}

// at is the place of the cell named name.
func (l layout) at(name string) (place, error) {
	p, ok := l.places[name]
	if !ok {
		return place{}, fmt.Errorf("notify: board picture: no cell %q", name)
	}
	return p, nil
}

// edge is the places of the two cells of a wall's edge.
func (l layout) edge(w view.Wall) (a, b place, err error) {
	if a, err = l.at(w.Between[0]); err == nil {
		b, err = l.at(w.Between[1])
	}
	return a, b, err
}

// drawBoard draws the picture; the caller puts the canvas back into canvases
// when done with it.
func drawBoard(v view.Board) (*canvas, error) {
	l, err := layoutOf(&v)
	if err != nil {
		return nil, err
	}
	w, h := boardPixels(l.n)
	c := newCanvas(w, h)
	c.period = cell
	drawBackground(c, l)

	// Pieces. Their colours and the path's go into the palette before any
	// blend, so that they stay exact in a picture with too many blends.
	c.colorIndex(colOutline)
	for _, p := range v.Pieces {
		k, _ := colorNumber(p.Color)
		c.colorIndex(pieceColors[k])
	}
	pc := pieceShapes()
	for _, p := range v.Pieces {
		k, _ := colorNumber(p.Color)
		dx, dy := squareOffset(l.places[p.Cell])
		c.paintDisc(pc, dx, dy, k)
	}

	c.path(l.steps()) // the last turn's path
	return c, nil
}

// painter is what the background is drawn with: the paletted canvas, and in
// the tests the plain RGBA reference drawing, which so shares this layout.
type painter interface {
	fill(r image.Rectangle, col color.RGBA)
	copyDown(r image.Rectangle) // r's first row over the rows below it in r
	wall(x, y int, vertical bool, walls int)
	label(text string, x, y int)
}

// drawBackground paints everything under the pieces: the squares, the
// walls, the frame and the coordinates.
func drawBackground(c painter, l layout) {
	n := l.n
	w, h := boardPixels(n)
	// The margins, around the board.
	board := image.Rect(gridX(0), gridY(0), gridX(n)+gridLine, gridY(n)+gridLine)
	c.fill(image.Rect(0, 0, w, board.Min.Y), colBackground)
	c.fill(image.Rect(0, board.Max.Y, w, h), colBackground)
	c.fill(image.Rect(0, board.Min.Y, board.Min.X, board.Max.Y), colBackground)
	c.fill(image.Rect(board.Max.X, board.Min.Y, w, board.Max.Y), colBackground)

	// Squares: grid colour under the whole board, then each square inside
	// its lines, tinted where it is highlighted as a target. A row of
	// squares is drawn on the first row of its pixels, then copied down.
	tint := make(map[place]color.RGBA, 16)
	for _, hl := range l.v.Highlights {
		k, ok := colorNumber(hl.Color)
		if hl.Kind != view.Target || !ok {
			continue
		}
		for _, name := range hl.Cells {
			tint[l.places[name]] = targetTints[k]
		}
	}
	for row := range n {
		y := gridY(row) + gridLine // the first row of pixels inside the squares
		c.fill(image.Rect(board.Min.X, gridY(row), board.Max.X, y+1), colGrid)
		for _, cl := range l.v.Cells {
			if cl.Row != row {
				continue
			}
			p := place{cl.Row, cl.Col}
			fillCol, ok := tint[p]
			if !ok {
				fillCol = colSquare
			}
			r := squareRect(p)
			c.fill(image.Rect(r.Min.X, y, r.Max.X, y+1), fillCol)
		}
		c.copyDown(image.Rect(board.Min.X, y, board.Max.X, gridY(row+1)))
	}
	c.fill(image.Rect(board.Min.X, gridY(n), board.Max.X, board.Max.Y), colGrid)

	// Walls, on the edges between squares.
	for _, wl := range l.v.Walls {
		a, b, _ := l.edge(wl) // checked by layoutOf
		if a.row == b.row {
			c.wall(gridX(max(a.col, b.col)), gridY(a.row), true, wl.Count)
		} else {
			c.wall(gridX(a.col), gridY(max(a.row, b.row)), false, wl.Count)
		}
	}

	// The closed outer border.
	x0, y0 := gridX(0)-frameThick/2, gridY(0)-frameThick/2
	x1, y1 := gridX(n)+gridLine+frameThick/2, gridY(n)+gridLine+frameThick/2
	c.fill(image.Rect(x0, y0, x1, y0+frameThick), colWall)
	c.fill(image.Rect(x0, y1-frameThick, x1, y1), colWall)
	c.fill(image.Rect(x0, y0, x0+frameThick, y1), colWall)
	c.fill(image.Rect(x1-frameThick, y0, x1, y1), colWall)

	// Coordinates, in the middle of the margin beside their row or column.
	for _, lb := range l.v.Labels {
		switch {
		case lb.Col < 0 && lb.Row >= 0:
			c.label(lb.Text, x0/2, gridY(lb.Row)+cell/2)
		case lb.Row < 0 && lb.Col >= 0:
			c.label(lb.Text, gridX(lb.Col)+cell/2, y0/2)
		}
	}
}

// step is a step of the path, between two places.
type step struct{ from, to place }

// steps is the view's path as places. A placement (From "") draws no
// line: the piece placed shows where it went.
func (l layout) steps() []step {
	var out []step
	for _, s := range l.v.Path {
		if s.From == "" {
			continue
		}
		out = append(out, step{l.places[s.From], l.places[s.To]})
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// subUnits converts a length in pixels to 1/sub pixels. The lengths are
// constants in halves of a pixel, so the product is exact; the conversion to
// float64 forbids a fused multiply-add, so the result is the same everywhere.
func subUnits(px float64) int { return int(float64(px*sub) + 0.5) }

// inks are the colours shapes are painted in, by number for canvas.memo:
// pieces, and the board of points (board_points.go).
var inks = [...]color.RGBA{
	inkShadow:    colShadow,
	inkOutline:   colOutline,
	inkPiece + 0: pieceColors[0],
	inkPiece + 1: pieceColors[1],
	inkPiece + 2: pieceColors[2],
	inkPiece + 3: pieceColors[3],
	inkBoard:     colSquare,
	inkGrid:      colGrid,
	inkPoint:     colPoint,
	inkPath:      colPath,
	inkPathHalo:  colPathHalo,
	inkHole + 0:  holeTints[0],
	inkHole + 1:  holeTints[1],
	inkHole + 2:  holeTints[2],
	inkHole + 3:  holeTints[3],
}

const (
	inkShadow   = 0
	inkOutline  = 1
	inkPiece    = 2 // + the colour's index in colorNames
	inkBoard    = 6
	inkGrid     = 7
	inkPoint    = 8
	inkPath     = 9
	inkPathHalo = 10
	inkHole     = 11 // + the colour's index in colorNames
	numInks     = 15
)

// canvas is a paletted picture being drawn, with the few primitives the board
// needs. Shapes are anti-aliased by counting which of 4x4 sample points per
// pixel they cover; all geometry is integer arithmetic, so output never
// varies. A colour painted over another is blended in RGBA, then looked up in
// the palette, which grows as blends appear.
type canvas struct {
	// img's pixels lie in raw, each row after a zero byte: raw is what PNG
	// compresses (see pngRaw), so the encoder reads it as drawn.
	img    image.Paletted
	raw    []uint8
	period int          // pixels from a square (or point) to the next along a row, see encode
	out    []byte       // the PNG, see encode
	colors []color.RGBA // the palette, for blending
	index  map[color.RGBA]uint8
	// memo[ink][coverage][under] is the palette index + 1 of ink painted
	// with that coverage over colour under, 0 until needed: a picture has
	// few distinct blends, each computed once.
	memo [numInks][fullCoverage + 1][256]uint16

	recent [1 << recentBits]recentColor // a cache of index, by a hash of the colour

	// The colour of the last fill and its index, while fillKnown.
	fillCol   color.RGBA
	fillIndex uint8
	fillKnown bool

	rgba    []color.RGBA // the path's area, see path
	painted []uint8      // by pixel of the path's area: how, see path
	// pathSpans are, by row of the path's area, the columns it paints.
	pathSpans [][2]int

	// layer is the coverage of the shapes of one colour gathered before
	// they are painted together (see addLayer), over layerBox.
	layer    []uint8
	layerBox image.Rectangle
	// layerTiles marks, by row, the tiles of layerTile pixels that the
	// layer covers, bit k for pixels k·layerTile up.
	layerTiles []uint64
}

// canvases keeps canvases for reuse: a picture is 0.4-1 MB of pixels.
var canvases = sync.Pool{New: func() any { return new(canvas) }}

// newCanvas takes a canvas from canvases, sized w x h, with undefined pixels.
func newCanvas(w, h int) *canvas {
	c := canvases.Get().(*canvas)
	n := pngRaw(w, h)
	if cap(c.raw) < n {
		c.raw = make([]uint8, n)
	}
	c.raw = c.raw[:n]
	for y := 0; y < n; y += w + 1 {
		c.raw[y] = 0 // filter None
	}
	c.img.Rect, c.img.Stride, c.img.Pix = image.Rect(0, 0, w, h), w+1, c.raw[1:]
	c.colors = c.colors[:0]
	if c.index == nil {
		c.index = make(map[color.RGBA]uint8, 256)
	}
	clear(c.index)
	c.recent = [1 << recentBits]recentColor{}
	c.fillKnown = false
	c.memo = [numInks][fullCoverage + 1][256]uint16{}
	return c
}

// colorIndex is col's index in the palette, added if it is new. A PNG
// palette holds 256 colours; a busy four-player picture can blend a few more
// at the edges of its shapes, and those get the nearest colour already there
// (an edge pixel a shade off).
func (c *canvas) colorIndex(col color.RGBA) uint8 {
	// Most look-ups are of a few colours, found in recent: a map look-up
	// costs more than the blend that made the colour.
	key := uint32(col.R)<<24 | uint32(col.G)<<16 | uint32(col.B)<<8 | uint32(col.A)
	slot := &c.recent[(key*0x9e3779b1)>>(32-recentBits)]
	if slot.known && slot.key == key {
		return slot.index
	}
	k, ok := c.index[col]
	if !ok {
		n := len(c.colors)
		if n < 256 {
			c.colors = append(c.colors, col)
		} else {
			n = nearest(c.colors, col)
		}
		k = uint8(n)
		c.index[col] = k
	}
	*slot = recentColor{key, k, true}
	return k
}

// recentColor is an entry of canvas.recent: a colour as R, G, B, A bytes,
// and its index.
type recentColor struct {
	key   uint32
	index uint8
	known bool
}

const recentBits = 6

// nearest is the index of the colour of palette closest to col, the first
// of equals.
func nearest(palette []color.RGBA, col color.RGBA) int {
	best, bestDist := 0, -1
	for i, p := range palette {
		dr, dg, db := int(p.R)-int(col.R), int(p.G)-int(col.G), int(p.B)-int(col.B)
		if d := dr*dr + dg*dg + db*db; bestDist < 0 || d < bestDist {
			best, bestDist = i, d
		}
	}
	return best
}

// fill paints r, clipped to the picture, in col.
func (c *canvas) fill(r image.Rectangle, col color.RGBA) {
	r = r.Intersect(c.img.Rect)
	if r.Empty() {
		return
	}
	if !c.fillKnown || c.fillCol != col { // fills come in long runs of one colour (labels, squares)
		c.fillCol, c.fillIndex, c.fillKnown = col, c.colorIndex(col), true
	}
	k := c.fillIndex
	first := c.img.Pix[c.img.PixOffset(r.Min.X, r.Min.Y):][:r.Dx()]
	for i := range first {
		first[i] = k
	}
	c.copyDown(r)
}

// copyDown copies r's first row of pixels over the rest of r.
func (c *canvas) copyDown(r image.Rectangle) {
	first := c.img.Pix[c.img.PixOffset(r.Min.X, r.Min.Y):][:r.Dx()]
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(c.img.Pix[c.img.PixOffset(r.Min.X, y):], first)
	}
}

// paint blends colour inks[ink] over the picture where mask m, moved by (dx,
// dy) pixels, covers it, straight into the palette: a piece is painted as
// three such discs, and nearly every blend of theirs shows in the finished
// picture (unlike the path's, see path).
func (c *canvas) paint(m mask, dx, dy, ink int) {
	r := m.r.Add(image.Pt(dx, dy)).Intersect(c.img.Rect)
	if r.Empty() {
		return
	}
	memo := &c.memo[ink]
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := c.img.Pix[c.img.PixOffset(r.Min.X, y):][:r.Dx()]
		at := (y-dy-m.r.Min.Y)*m.r.Dx() + r.Min.X - dx - m.r.Min.X
		for i, n := range m.cov[at : at+len(row)] {
			if n == 0 {
				continue
			}
			under := row[i]
			k := memo[n][under]
			if k == 0 {
				k = uint16(c.colorIndex(blend(c.colors[under], inks[ink], int(n)))) + 1
				memo[n][under] = k
			}
			row[i] = uint8(k - 1)
		}
	}
}

// path draws the path of moves: halo first, then the line, then the dots,
// with an arrowhead where each piece's way ends.
// It is composed in RGBA and only then put into the palette: the halo's
// blends under the line, which no pixel shows in the end, would crowd the
// palette.
func (c *canvas) path(moves []step) {
	if len(moves) == 0 {
		return
	}
	c.colorIndex(colPath)
	type stroke struct {
		m      mask
		dx, dy int
		col    color.RGBA
	}
	var strokes []stroke
	d := discs()
	for _, layer := range []struct {
		radius float64
		dot    mask
		halo   bool
		col    color.RGBA
	}{{pathHalo, d.dotHalo, true, colPathHalo}, {pathRadius, d.dot, false, colPath}} {
		for i, m := range moves {
			dx, dy := squareOffset(m.from)
			strokes = append(strokes, stroke{capsule(m, subUnits(layer.radius)), dx, dy, layer.col},
				stroke{layer.dot, dx, dy, layer.col})
			if pathEnds(moves, i) {
				strokes = append(strokes, stroke{arrow(m, layer.halo), dx, dy, layer.col})
			}
		}
	}
	var box image.Rectangle
	for _, s := range strokes {
		box = box.Union(s.m.r.Add(image.Pt(s.dx, s.dy)))
	}
	box = box.Intersect(c.img.Rect)
	w, size := box.Dx(), box.Dx()*box.Dy()
	// painted is all unpainted between pictures: only the spans are
	// cleared, after use.
	c.rgba, c.painted = slices.Grow(c.rgba[:0], size)[:size], slices.Grow(c.painted[:0], size)[:size]
	spans := slices.Grow(c.pathSpans[:0], box.Dy())[:box.Dy()]
	for y := range spans {
		spans[y] = [2]int{w, 0}
	}
	// rows calls f with each row of the pixels of stroke s: the picture's
	// pixels and the row of the path's area (painted, rgba) from the first,
	// and the stroke's coverage of them.
	rows := func(s stroke, f func(pix []uint8, painted []uint8, rgba []color.RGBA, cov []uint8)) {
		r := s.m.r.Add(image.Pt(s.dx, s.dy)).Intersect(box)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			at := (y-s.dy-s.m.r.Min.Y)*s.m.r.Dx() + r.Min.X - s.dx - s.m.r.Min.X
			i := (y-box.Min.Y)*w + r.Min.X - box.Min.X
			sp := &spans[y-box.Min.Y]
			sp[0], sp[1] = min(sp[0], r.Min.X-box.Min.X), max(sp[1], r.Max.X-box.Min.X)
			f(c.img.Pix[c.img.PixOffset(r.Min.X, y):][:r.Dx()], c.painted[i:][:r.Dx()], c.rgba[i:][:r.Dx()], s.m.cov[at:][:r.Dx()])
		}
	}
	// Where the opaque line covers a pixel whole, it ends in the line's
	// colour whatever lies under it: those pixels are marked first, and
	// nothing is blended there.
	const (
		unpainted = iota
		painted
		line
	)
	for _, s := range strokes {
		if s.col == colPath {
			rows(s, func(_, state []uint8, rgba []color.RGBA, cov []uint8) {
				for x, n := range cov {
					if n == fullCoverage {
						state[x], rgba[x] = line, colPath
					}
				}
			})
		}
	}
	for _, s := range strokes {
		blends := pathBlends()[0]
		if s.col == colPath {
			blends = pathBlends()[1]
		}
		rows(s, func(pix, state []uint8, rgba []color.RGBA, cov []uint8) {
			for x, n := range cov {
				if n == 0 || state[x] == line {
					continue
				}
				if state[x] == unpainted {
					rgba[x], state[x] = c.colors[pix[x]], painted
				}
				t, u := &blends[n], rgba[x]
				rgba[x] = color.RGBA{t[0][u.R], t[1][u.G], t[2][u.B], 0xff}
			}
		})
	}
	// Neighbours often share a colour: look each run up once.
	var last color.RGBA
	var lastIndex uint8
	known := false
	for y, sp := range spans {
		if sp[0] >= sp[1] {
			continue
		}
		n := sp[1] - sp[0]
		pix := c.img.Pix[c.img.PixOffset(box.Min.X+sp[0], box.Min.Y+y):][:n]
		i := y*w + sp[0]
		painted, rgba := c.painted[i:][:n], c.rgba[i:][:n]
		for x, state := range painted {
			if state == unpainted {
				continue
			}
			if col := rgba[x]; !known || col != last {
				last, lastIndex, known = col, c.colorIndex(col), true
			}
			pix[x] = lastIndex
		}
		clear(painted)
	}
	c.pathSpans = spans
}

// pathEnds reports whether step i of a path ends a piece's way: the next
// step (if any) moves from elsewhere. An arrowhead there shows which way
// the piece went; the dots show where it passed.
func pathEnds(moves []step, i int) bool { return i == len(moves)-1 || moves[i+1].from != moves[i].to }

// arrowhead is the triangle at the end of a line from (ax, ay) to (bx, by),
// in 1/sub pixels: its tip on (bx, by), its base arrowLength back; with
// halo, the larger triangle of its light rim. The direction is rounded to
// whole 1/sub pixels once, in float64 without fused operations, so the
// corners are the same everywhere.
func arrowhead(ax, ay, bx, by int, halo bool) [3][2]int {
	dx, dy := float64(bx-ax), float64(by-ay)
	l := math.Sqrt(dx*dx + dy*dy)
	if l == 0 {
		return [3][2]int{{bx, by}, {bx, by}, {bx, by}}
	}
	ux, uy := dx/l, dy/l
	along := func(length float64) (int, int) {
		return int(math.Round(float64(ux * length))), int(math.Round(float64(uy * length)))
	}
	tip, back, half := 0.0, float64(arrowLength*sub), float64(arrowWidth*sub/2)
	if halo {
		tip, back, half = float64(2*arrowHalo*sub), back+float64(arrowHalo*sub), half+float64(2*arrowHalo*sub)
	}
	tx, ty := along(tip)
	bkx, bky := along(back)
	px, py := along(half) // across: (-py, px)
	return [3][2]int{{bx + tx, by + ty}, {bx - bkx - py, by - bky + px}, {bx - bkx + py, by - bky - px}}
}

// arrows caches the masks of arrowheads like capsules, by the step's
// vector (r 1 for the halo, 0 for the head).
var arrows sync.Map // capsuleKey -> mask

// arrow is the mask of the arrowhead (or its halo) of step m, to be moved
// by squareOffset(m.from).
func arrow(m step, halo bool) mask {
	key := capsuleKey{m.to.row - m.from.row, m.to.col - m.from.col, 0}
	if halo {
		key.r = 1
	}
	if c, ok := arrows.Load(key); ok {
		return c.(mask)
	}
	ax, ay := squareCenter(place{})
	c := triangleMask(arrowhead(ax, ay, ax+key.dCol*cell*sub, ay+key.dRow*cell*sub, halo))
	arrows.Store(key, c)
	return c
}

// A blendTable is blend with one colour: by coverage and channel, the
// channel's value over each value under.
type blendTable [fullCoverage + 1][3][256]uint8

func blendTableOf(col color.RGBA) *blendTable {
	t := new(blendTable)
	for n := range t {
		for u := range 256 {
			b := blend(color.RGBA{uint8(u), uint8(u), uint8(u), 0xff}, col, n)
			t[n][0][u], t[n][1][u], t[n][2][u] = b.R, b.G, b.B
		}
	}
	return t
}

// pathBlends are the blend tables of the path's halo and line: the path
// blends more pixels than anything else.
var pathBlends = sync.OnceValue(func() [2]*blendTable {
	return [2]*blendTable{blendTableOf(colPathHalo), blendTableOf(colPath)}
})

// blend composes col over under with the given coverage (0..fullCoverage).
func blend(under, col color.RGBA, coverage int) color.RGBA {
	if coverage == fullCoverage && col.A == 0xff {
		return col // the path's line, mostly
	}
	a := uint32(coverage) * uint32(col.A) // 0 .. fullCoverage*255
	const full = fullCoverage * 255
	mix := func(u, s uint8) uint8 { return uint8((uint32(u)*(full-a) + uint32(s)*a + full/2) / full) }
	return color.RGBA{mix(under.R, col.R), mix(under.G, col.G), mix(under.B, col.B), 0xff}
}

// A mask is how much of each pixel of r a shape covers: the number of its
// sample points inside the shape, 0..fullCoverage, row by row.
type mask struct {
	r   image.Rectangle
	cov []uint8
}

// coverage is the mask of the shape inside (a test on points in 1/sub
// pixels) over the pixels of the box [x0,x1)x[y0,y1), also in 1/sub pixels.
func coverage(x0, y0, x1, y1 int, inside func(x, y int) bool) mask {
	r := image.Rect(floorDiv(x0, sub), floorDiv(y0, sub), floorDiv(x1, sub)+1, floorDiv(y1, sub)+1)
	m := mask{r: r, cov: make([]uint8, 0, r.Dx()*r.Dy())}
	for py := r.Min.Y; py < r.Max.Y; py++ {
		for px := r.Min.X; px < r.Max.X; px++ {
			n := 0
			for sy := range samples {
				y := py*sub + sy*subPerSample + subHalfSample
				for sx := range samples {
					if inside(px*sub+sx*subPerSample+subHalfSample, y) {
						n++
					}
				}
			}
			m.cov = append(m.cov, uint8(n))
		}
	}
	return m
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// discMask is a filled circle of radius r around (cx, cy), all in 1/sub pixels.
func discMask(cx, cy, r int) mask {
	r2 := r * r
	return coverage(cx-r, cy-r, cx+r, cy+r, func(x, y int) bool {
		dx, dy := x-cx, y-cy
		return dx*dx+dy*dy <= r2
	})
}

// capsuleMask is a thick line with round ends: every point within r of the
// segment from (ax, ay) to (bx, by), all in 1/sub pixels.
func capsuleMask(ax, ay, bx, by, r int) mask {
	dx, dy := int64(bx-ax), int64(by-ay)
	l2 := dx*dx + dy*dy
	r2 := int64(r) * int64(r)
	return coverage(min(ax, bx)-r, min(ay, by)-r, max(ax, bx)+r, max(ay, by)+r, func(x, y int) bool {
		px, py := int64(x-ax), int64(y-ay)
		t := px*dx + py*dy
		switch {
		case l2 == 0 || t <= 0:
			return px*px+py*py <= r2
		case t >= l2:
			qx, qy := int64(x-bx), int64(y-by)
			return qx*qx+qy*qy <= r2
		default:
			cross := px*dy - py*dx
			return cross*cross <= r2*l2
		}
	})
}

// squareDiscs are the discs drawn on a square, as masks on the top-left one. Squares are
// whole pixels apart, so a disc on another square is the same mask moved by
// squareOffset.
type squareDiscs struct{ piece, inner, dot, dotHalo mask }

var discs = sync.OnceValue(func() squareDiscs {
	cx, cy := squareCenter(place{})
	return squareDiscs{
		piece:   discMask(cx, cy, subUnits(pieceRadius)),
		inner:   discMask(cx, cy, subUnits(pieceRadius-pieceOutline)),
		dot:     discMask(cx, cy, subUnits(pathDotRadius)),
		dotHalo: discMask(cx, cy, subUnits(pathDotHalo)),
	}
})

// discShapes are the parts of a piece (a shadow, an outline disc and an
// inner disc in its colour, painted in turn) that show: the shadow where the
// outline does not cover it whole, the outline where the inner disc does
// not, the inside that the inner disc covers whole (one flat colour, filled
// span by span), and the inner disc's edge. Painted in this order they give
// the pixels of the three discs painted whole, for a small part of the work.
// A piece lies inside its square (a stone inside the picture), so these need
// no clipping.
type discShapes struct {
	shadow, outline, edge []maskPixel
	inside                []span
}

// shapesOf finds the parts of a piece with an outline disc piece, an inner
// disc inner, whose box lies inside piece's, and with a shadow moved by
// shadow pixels right and down (none for 0).
func shapesOf(piece, inner mask, shadow int) (s discShapes) {
	for i, n := range piece.cov {
		x, y := piece.r.Min.X+i%piece.r.Dx(), piece.r.Min.Y+i/piece.r.Dx()
		if m := inner.at(x, y); m == fullCoverage {
			if len(s.inside) > 0 && s.inside[len(s.inside)-1].y == y && s.inside[len(s.inside)-1].x1 == x {
				s.inside[len(s.inside)-1].x1++
			} else {
				s.inside = append(s.inside, span{y, x, x + 1})
			}
		} else {
			if m > 0 {
				s.edge = append(s.edge, maskPixel{x, y, m})
			}
			if n > 0 {
				s.outline = append(s.outline, maskPixel{x, y, n})
			}
		}
		// The shadow's pixel here, and whether the outline hides it.
		if sx, sy := x+shadow, y+shadow; shadow > 0 && n > 0 && piece.at(sx, sy) < fullCoverage {
			s.shadow = append(s.shadow, maskPixel{sx, sy, n})
		}
	}
	return s
}

// pieceShapes are the shapes of a piece on a square, on the top-left one.
var pieceShapes = sync.OnceValue(func() discShapes {
	d := discs()
	return shapesOf(d.piece, d.inner, shadowOffset)
})

// paintDisc paints a piece (or stone) of shapes s moved by (dx, dy), in
// colour number k.
func (c *canvas) paintDisc(s discShapes, dx, dy, k int) {
	c.paintPixels(s.shadow, dx, dy, inkShadow)
	c.paintPixels(s.outline, dx, dy, inkOutline)
	c.fillSpans(s.inside, dx, dy, pieceColors[k])
	c.paintPixels(s.edge, dx, dy, inkPiece+k)
}

// at is the mask's coverage of pixel (x, y), 0 outside its box.
func (m mask) at(x, y int) uint8 {
	if !image.Pt(x, y).In(m.r) {
		return 0
	}
	return m.cov[(y-m.r.Min.Y)*m.r.Dx()+x-m.r.Min.X]
}

// A maskPixel is a pixel of a shape with its coverage.
type maskPixel struct {
	x, y int
	n    uint8
}

// A span is the pixels x0..x1-1 of row y.
type span struct{ y, x0, x1 int }

// paintPixels is paint for a shape given as its pixels, which lie inside the
// picture once moved by (dx, dy).
func (c *canvas) paintPixels(px []maskPixel, dx, dy, ink int) {
	memo := &c.memo[ink]
	pix, stride := c.img.Pix, c.img.Stride
	for _, p := range px {
		i := (p.y+dy)*stride + p.x + dx
		under := pix[i]
		k := memo[p.n][under]
		if k == 0 {
			k = uint16(c.colorIndex(blend(c.colors[under], inks[ink], int(p.n)))) + 1
			memo[p.n][under] = k
		}
		pix[i] = uint8(k - 1)
	}
}

// fillSpans fills spans, moved by (dx, dy), in col.
func (c *canvas) fillSpans(spans []span, dx, dy int, col color.RGBA) {
	k := c.colorIndex(col)
	for _, s := range spans {
		i := c.img.PixOffset(s.x0+dx, s.y+dy)
		row := c.img.Pix[i : i+s.x1-s.x0]
		for j := range row {
			row[j] = k
		}
	}
}

// capsuleKey is a step as a vector in squares, with the line's radius.
type capsuleKey struct{ dRow, dCol, r int }

// capsules caches the masks of the lines of steps, drawn from the top-left
// square like the discs: paths take short steps, so a few vectors serve
// every picture (and a board of n x n squares has at most (2n-1)² of them).
var capsules sync.Map // capsuleKey -> mask

// capsule is the mask of the line of step m with radius r, to be moved by
// squareOffset(m.from).
func capsule(m step, r int) mask {
	key := capsuleKey{m.to.row - m.from.row, m.to.col - m.from.col, r}
	if c, ok := capsules.Load(key); ok {
		return c.(mask)
	}
	ax, ay := squareCenter(place{})
	c := capsuleMask(ax, ay, ax+key.dCol*cell*sub, ay+key.dRow*cell*sub, r)
	capsules.Store(key, c)
	return c
}

// wall draws the walls of one edge: a vertical edge at grid column x from grid
// row y down one square, or a horizontal one at grid row y from grid column x
// across one square. A single wall is a dark bar; a double wall two red bars
// with a gap between them, so the two are told apart at a glance. Bars run
// past the edge's ends by half their thickness, so walls meeting at a corner
// join.
func (c *canvas) wall(x, y int, vertical bool, walls int) {
	// bar fills the pixels lo..lo+thick-1 across the edge, counted from the
	// grid line's pixel, along the whole edge and thick/2 past each end.
	bar := func(lo, thick int, col color.RGBA) {
		ext := thick / 2
		var r image.Rectangle
		if vertical {
			r = image.Rect(x+lo, y-ext, x+lo+thick, y+cell+gridLine+ext)
		} else {
			r = image.Rect(x-ext, y+lo, x+cell+gridLine+ext, y+lo+thick)
		}
		c.fill(r, col)
	}
	// Bars are centred on the grid line, which is gridLine pixels wide.
	switch walls {
	case 1:
		bar((gridLine-wallThick)/2, wallThick, colWall)
	case 2:
		lo := (gridLine - doubleGap) / 2
		hi := lo + doubleGap
		bar(lo, doubleGap, colBackground) // a light channel between the bars
		bar(lo-doubleBar, doubleBar, colDoubleWall)
		bar(hi, doubleBar, colDoubleWall)
	}
}

// label writes text centred on (x, y) in the bitmap font at labelScale.
func (c *canvas) label(text string, x, y int) {
	g := glyphOf(text)
	ox := x - (g.ink.Min.X+g.ink.Max.X)*labelScale/2
	oy := y - (g.ink.Min.Y+g.ink.Max.Y)*labelScale/2
	for _, r := range g.runs {
		c.fill(image.Rect(ox+r.x0*labelScale, oy+r.y*labelScale, ox+r.x1*labelScale, oy+(r.y+1)*labelScale), colLabel)
	}
}

// A glyph is the ink of a text in the bitmap font: the box around it, and
// its pixels, as runs along its rows.
type glyph struct {
	ink  image.Rectangle
	runs []span
}

var glyphs sync.Map // text -> glyph; only coordinates are labels

// glyphOf is the glyph of text, drawn once.
func glyphOf(text string) glyph {
	if g, ok := glyphs.Load(text); ok {
		return g.(glyph)
	}
	face := basicfont.Face7x13
	w := font.MeasureString(face, text).Ceil()
	h := face.Ascent + face.Descent
	alpha := image.NewAlpha(image.Rect(0, 0, w, h))
	d := font.Drawer{Dst: alpha, Src: image.Opaque, Face: face, Dot: fixed.P(0, face.Ascent)}
	d.DrawString(text)
	// Centre on the ink, not the cell: lower-case letters and digits leave
	// the top rows of the cell empty.
	var g glyph
	for py := range h {
		for px := range w {
			if alpha.AlphaAt(px, py).A == 0 {
				continue
			}
			g.ink = g.ink.Union(image.Rect(px, py, px+1, py+1))
			if k := len(g.runs) - 1; k >= 0 && g.runs[k].y == py && g.runs[k].x1 == px {
				g.runs[k].x1++
			} else {
				g.runs = append(g.runs, span{py, px, px + 1})
			}
		}
	}
	glyphs.Store(text, g)
	return g
}
