package notify

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"math/bits"
	"slices"
	"sync"

	"github.com/lesspost/lesspost/domain/view"
)

// The picture of a view.Points board (Les): points on a triangular grid,
// drawn with the lines between touching points on a light hexagon, stones
// as outlined discs, the last ply's stones with a blue dot, the holes a
// colour owns shaded in a tint of it, and the row letters the view gives.
// Everything is placed on whole pixels, so each shape is one mask, computed
// once per spacing and moved from point to point as the squares' discs are.

// Spacing of the points: the distance between touching points is chosen so
// that the board is about pointsTargetWidth pixels wide, within limits that
// keep the stones large enough to tell apart and the row letters (drawn at
// labelScale) no taller than a row.
const (
	pointsTargetWidth = 480 * dpr
	minSpacing        = 28 * dpr
	maxSpacing        = 64 * dpr
	maxPointsRows     = 51 // rows a picture draws at most; Les has 25
)

// Colours of the points picture, beside the squares' (colSquare for the
// board, colGrid for its lines, pieceColors for the stones).
var (
	colPoint = rgb(0xa8, 0x9e, 0x8a) // the dot on an empty point
	// holeTints shade the holes a colour owns, by colour number as
	// colorNames orders them: White's holes are lighter than the board,
	// Black's darker.
	holeTints = [numPieceColors]color.RGBA{
		rgb(0xff, 0xff, 0xff),
		rgb(0x9e, 0x97, 0x8a),
		rgb(0xf8, 0xe3, 0x8f),
		rgb(0xf0, 0xb4, 0xac),
	}
)

// pointsGeom places a Points board on the picture.
type pointsGeom struct {
	s, h   int // pixels between touching points in a row, and between rows
	x0, y0 int // the pixel of column 0, row 0
	w, ht  int // the picture's size
}

// at is the pixel of the point in row r, column c (in half-steps).
func (g pointsGeom) at(r, c int) (x, y int) { return g.x0 + c*g.s/2, g.y0 + r*g.h }

// spacingFor is the spacing of a board whose columns run 0..cols-1 in
// half-steps: even, so that half a step is a whole pixel.
func spacingFor(cols int) int {
	steps := max(1, (cols-1)/2)
	s := min(max(pointsTargetWidth/steps, minSpacing), maxSpacing)
	return s &^ 1
}

// rowHeight is the distance between rows for spacing s, s·√3/2 rounded to
// a whole pixel.
func rowHeight(s int) int { return (s*866 + 500) / 1000 }

// pointsLayout is a view.Points board checked for drawing: its points by
// name and by place, and the geometry.
type pointsLayout struct {
	v      *view.Board
	geom   pointsGeom
	byName map[string]place
	filled []bool // by place (row*Cols + col): whether a point is there
}

// pointsLayoutOf checks that the picture can show v: a grid of points of a
// sensible size whose pieces, highlights and marks name its points.
func pointsLayoutOf(v *view.Board) (pointsLayout, error) {
	if len(v.Cells) == 0 {
		return pointsLayout{}, errNoBoard
	}
	if v.Rows < 1 || v.Rows > maxPointsRows || v.Cols < 1 || v.Cols > 2*maxPointsRows {
		return pointsLayout{}, fmt.Errorf("notify: board picture: cannot draw a %q board of %dx%d", v.Layout, v.Rows, v.Cols)
	}
	l := pointsLayout{v: v, byName: make(map[string]place, len(v.Cells)), filled: make([]bool, v.Rows*v.Cols)}
	for _, c := range v.Cells {
		p := place{c.Row, c.Col}
		if c.Row < 0 || c.Col < 0 || c.Row >= v.Rows || c.Col >= v.Cols {
			return pointsLayout{}, fmt.Errorf("notify: board picture: point %s at (%d, %d) is off the grid", c.Name, c.Row, c.Col)
		}
		if l.has(p) {
			return pointsLayout{}, fmt.Errorf("notify: board picture: two points at (%d, %d)", c.Row, c.Col)
		}
		l.byName[c.Name], l.filled[l.index(p)] = p, true
	}
	check := func(name string) error {
		if _, ok := l.byName[name]; !ok {
			return fmt.Errorf("notify: board picture: no point %q", name)
		}
		return nil
	}
	for _, p := range v.Pieces {
		if err := check(p.Cell); err != nil {
			return pointsLayout{}, err
		}
		if _, ok := colorNumber(p.Color); !ok {
			return pointsLayout{}, fmt.Errorf("notify: board picture: no colour for %q", p.Color)
		}
	}
	for _, h := range v.Highlights {
		for _, name := range h.Cells {
			if err := check(name); err != nil {
				return pointsLayout{}, err
			}
		}
	}
	for _, s := range v.Path {
		if err := check(s.To); err != nil {
			return pointsLayout{}, err
		}
		if s.From != "" {
			if err := check(s.From); err != nil {
				return pointsLayout{}, err
			}
		}
	}

	// The picture spans the points and the labels, with a margin for the
	// board's rim and the stones on it.
	s := spacingFor(v.Cols)
	minCol, maxCol := v.Cols, -1
	for _, c := range v.Cells {
		minCol, maxCol = min(minCol, c.Col), max(maxCol, c.Col)
	}
	for _, lb := range v.Labels {
		if l.labelShown(lb) {
			minCol, maxCol = min(minCol, lb.Col), max(maxCol, lb.Col)
		}
	}
	margin := s/2 + s/4
	g := pointsGeom{s: s, h: rowHeight(s)}
	g.x0 = margin - minCol*s/2
	g.y0 = margin
	g.w = 2*margin + (maxCol-minCol)*s/2 + gridLine
	g.ht = 2*margin + (v.Rows-1)*g.h + gridLine
	l.geom = g
	return l, nil
}

// labelShown reports whether the picture shows a label: one beside a row,
// at most two steps outside the grid.
func (l pointsLayout) labelShown(lb view.Label) bool {
	return lb.Row >= 0 && lb.Row < l.v.Rows && lb.Col >= -4 && lb.Col < l.v.Cols+4
}

// fillFace paints the face inside the rim: each band between two rows,
// from the line through their first points to the line through their
// last. Its edges lie under the rim's band of face, which covers them
// whole, so they need no anti-aliasing; a few spans replace hundreds of
// triangles.
func (l pointsLayout) fillFace(c *canvas) {
	first, last := make([]int, l.v.Rows), make([]int, l.v.Rows)
	for r := range first {
		first[r], last[r] = l.v.Cols, -1
	}
	for _, cl := range l.v.Cells {
		first[cl.Row], last[cl.Row] = min(first[cl.Row], cl.Col), max(last[cl.Row], cl.Col)
	}
	g := l.geom
	for r := 0; r+1 < l.v.Rows; r++ {
		if last[r] < 0 || last[r+1] < 0 {
			continue // a row without points: no face across it
		}
		ax, ay := g.at(r, first[r])
		bx, _ := g.at(r+1, first[r+1])
		cx, _ := g.at(r, last[r])
		dx, _ := g.at(r+1, last[r+1])
		for y := ay; y <= ay+g.h; y++ {
			k := y - ay
			xl := ax + (bx-ax)*k/g.h
			xr := cx + (dx-cx)*k/g.h
			c.fill(image.Rect(xl, y, xr+1, y+1), colSquare)
		}
	}
}

// index is the place's index in grids of the layout's size.
func (l pointsLayout) index(p place) int { return p.row*l.v.Cols + p.col }

// has reports whether a point is at place p.
func (l pointsLayout) has(p place) bool {
	return p.row >= 0 && p.col >= 0 && p.row < l.v.Rows && p.col < l.v.Cols && l.filled[l.index(p)]
}

// onRim reports whether the side from a to the point in direction d
// borders one triangle at most: both triangles on it need their third
// point.
func (l pointsLayout) onRim(a place, d int) bool {
	var thirds [2]place
	switch d {
	case 0: // right: the points above and below its middle
		thirds = [2]place{{a.row - 1, a.col + 1}, {a.row + 1, a.col + 1}}
	case 1: // down-left: left of its lower end, right of its upper end
		thirds = [2]place{{a.row, a.col - 2}, {a.row + 1, a.col + 1}}
	default: // down-right: right of its upper end, left of its lower end
		thirds = [2]place{{a.row, a.col + 2}, {a.row + 1, a.col - 1}}
	}
	return !l.has(thirds[0]) || !l.has(thirds[1])
}

// The three directions from a point to the touching points after it in
// reading order: right in its row, down-left and down-right in the next.
var pointDirs = [3]place{{0, 2}, {1, -1}, {1, 1}}

// edges calls f with every pair of touching points, each once, from the
// first in reading order, with the direction (an index of pointDirs).
func (l pointsLayout) edges(f func(a place, dir int)) {
	for _, c := range l.v.Cells {
		a := place{c.Row, c.Col}
		for d, step := range pointDirs {
			if l.has(place{a.row + step.row, a.col + step.col}) {
				f(a, d)
			}
		}
	}
}

// triangles calls f with every triangle of three touching points, by the
// left end of its one horizontal side, pointing down (the third point in
// the row below) or up.
func (l pointsLayout) triangles(f func(a place, down bool)) {
	for _, c := range l.v.Cells {
		a := place{c.Row, c.Col}
		if !l.has(place{a.row, a.col + 2}) {
			continue
		}
		if l.has(place{a.row + 1, a.col + 1}) {
			f(a, true)
		}
		if l.has(place{a.row - 1, a.col + 1}) {
			f(a, false)
		}
	}
}

// corners are a triangle's three points.
func corners(a place, down bool) [3]place {
	third := place{a.row - 1, a.col + 1}
	if down {
		third = place{a.row + 1, a.col + 1}
	}
	return [3]place{a, {a.row, a.col + 2}, third}
}

// pointMasks are the shapes of a points picture of one spacing, drawn
// around the point at pixel (0, 0): moved by a point's pixel they fall on
// it.
type pointMasks struct {
	down, up     spanMask    // the triangles between three points, for holes
	lines        [3]spanMask // the grid line to the next point in each of pointDirs
	rim, face    [3]spanMask // the board's edge: a grid-coloured band, and the face inside it
	stone, inner spanMask
	dot, dotHalo spanMask // the mark of a stone of the last ply
	point        spanMask // the dot on an empty point
	stoneShapes  discShapes
}

var pointMaskCache sync.Map // spacing -> *pointMasks

// pointMasksFor is the masks of spacing s, computed once: a few sizes
// serve every board.
func pointMasksFor(s int) *pointMasks {
	if m, ok := pointMaskCache.Load(s); ok {
		return m.(*pointMasks)
	}
	h := rowHeight(s)
	c := sub / 2 // the centre of pixel (0, 0) in 1/sub pixels
	x := func(halfSteps int) int { return c + halfSteps*s/2*sub }
	y := func(rows int) int { return c + rows*h*sub }
	frac := func(k, n int) int { return s * sub * k / n } // k/n of the spacing in 1/sub pixels
	pad := frac(11, 20)
	m := &pointMasks{
		down:    spansOf(triangleMask([3][2]int{{x(0), y(0)}, {x(2), y(0)}, {x(1), y(1)}})),
		up:      spansOf(triangleMask([3][2]int{{x(0), y(0)}, {x(2), y(0)}, {x(1), y(-1)}})),
		stone:   spansOf(discMask(c, c, frac(2, 5))),
		inner:   spansOf(discMask(c, c, frac(2, 5)-subUnits(pieceOutline))),
		dot:     spansOf(discMask(c, c, frac(7, 50))),
		dotHalo: spansOf(discMask(c, c, frac(10, 50))),
		point:   spansOf(discMask(c, c, max(frac(1, 14), subUnits(2*dpr)))),
	}
	m.stoneShapes = shapesOf(m.stone.mask, m.inner.mask, 0)
	for d, step := range pointDirs {
		bx, by := x(step.col), y(step.row)
		m.lines[d] = spansOf(capsuleMask(c, c, bx, by, subUnits(0.75*dpr)))
		m.rim[d] = spansOf(capsuleMask(c, c, bx, by, pad+subUnits(1.5*dpr)))
		m.face[d] = spansOf(capsuleMask(c, c, bx, by, pad))
	}
	actual, _ := pointMaskCache.LoadOrStore(s, m)
	return actual.(*pointMasks)
}

// triangleMask is the filled triangle with corners v, in 1/sub pixels.
func triangleMask(v [3][2]int) mask {
	x0, y0, x1, y1 := triangleBox(v)
	return coverage(x0, y0, x1, y1, inTriangle(v))
}

// triangleBox is the box around the triangle with corners v.
func triangleBox(v [3][2]int) (x0, y0, x1, y1 int) {
	return min(v[0][0], v[1][0], v[2][0]), min(v[0][1], v[1][1], v[2][1]),
		max(v[0][0], v[1][0], v[2][0]), max(v[0][1], v[1][1], v[2][1])
}

// inTriangle is the test of a point against the triangle with corners v.
func inTriangle(v [3][2]int) func(x, y int) bool {
	// side is the cross product telling which side of edge a→b point (x, y) is on.
	side := func(a, b [2]int, x, y int) int {
		return (b[0]-a[0])*(y-a[1]) - (b[1]-a[1])*(x-a[0])
	}
	return func(x, y int) bool {
		s0, s1, s2 := side(v[0], v[1], x, y), side(v[1], v[2], x, y), side(v[2], v[0], x, y)
		return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0)
	}
}

// drawPoints draws the picture of a view.Points board; the caller puts the
// canvas back into canvases when done with it. The shapes that meet or
// overlap are gathered in layers, one per colour (see canvas.addLayer):
// the board's rim, its face, each colour's holes, the lines.
func drawPoints(v view.Board) (*canvas, error) {
	l, err := pointsLayoutOf(&v)
	if err != nil {
		return nil, err
	}
	g := l.geom
	c := newCanvas(g.w, g.ht)
	c.period = g.s
	c.startLayers()
	c.fill(image.Rect(0, 0, g.w, g.ht), colBackground)
	// The flat colours go into the palette first, so that they stay exact
	// in a picture with more blends than a palette holds.
	for _, col := range []color.RGBA{colSquare, colGrid, colPoint, holeTints[0], holeTints[1], colOutline, colPath, colLabel} {
		c.colorIndex(col)
	}
	for _, p := range v.Pieces {
		k, _ := colorNumber(p.Color)
		c.colorIndex(pieceColors[k])
	}
	m := pointMasksFor(g.s)
	at := func(p place) (int, int) { return g.at(p.row, p.col) }
	triangle := func(a place, down bool) {
		x, y := at(a)
		if down {
			c.addLayer(m.down, x, y, false)
		} else {
			c.addLayer(m.up, x, y, false)
		}
	}

	// The board's face: the triangles between the points and a band round
	// the rim (the sides that border one triangle only), so that stones on
	// the rim lie on the board, edged in the grid's colour.
	type side struct {
		from place
		dir  int
	}
	var rim []side
	l.edges(func(a place, d int) {
		if l.onRim(a, d) {
			rim = append(rim, side{a, d})
		}
	})
	for _, e := range rim {
		x, y := at(e.from)
		c.addLayer(m.rim[e.dir], x, y, true)
	}
	c.paintLayer(inkGrid)
	for _, e := range rim {
		x, y := at(e.from)
		c.addLayer(m.face[e.dir], x, y, true)
	}
	c.paintLayer(inkBoard)
	l.fillFace(c)

	// Owned holes: every triangle with a corner in the hole, which is the
	// area the owner's stones wall off (the other corners are the hole's
	// points or its stones). One layer per colour.
	for k := range numPieceColors {
		found := false
		for _, hl := range v.Highlights {
			if n, ok := colorNumber(hl.Color); hl.Kind != view.Hole || !ok || n != k {
				continue
			}
			in := make([]bool, len(l.filled))
			for _, name := range hl.Cells {
				in[l.index(l.byName[name])] = true
			}
			l.triangles(func(a place, down bool) {
				if k3 := corners(a, down); in[l.index(k3[0])] || in[l.index(k3[1])] || in[l.index(k3[2])] {
					triangle(a, down)
					found = true
				}
			})
		}
		if found {
			c.paintLayer(inkHole + k)
		}
	}

	// The grid's lines.
	l.edges(func(a place, d int) {
		x, y := at(a)
		c.addLayer(m.lines[d], x, y, true)
	})
	c.paintLayer(inkGrid)
	// Empty points' dots, stones and the last ply's marks are painted
	// shape by shape: they do not overlap, so they need no layer.
	stoneAt := make([]bool, len(l.filled))
	for _, p := range v.Pieces {
		stoneAt[l.index(l.byName[p.Cell])] = true
	}
	for _, cl := range v.Cells {
		if p := (place{cl.Row, cl.Col}); !stoneAt[l.index(p)] {
			x, y := at(p)
			c.paint(m.point.mask, x, y, inkPoint)
		}
	}

	// Stones: an outline, then the colour. Unlike pieces on squares they
	// cast no shadow: stones stand close together, and the blends of a
	// shadow with all that lies under it would crowd the palette.
	for _, p := range v.Pieces {
		k, _ := colorNumber(p.Color)
		x, y := at(l.byName[p.Cell])
		c.paintDisc(m.stoneShapes, x, y, k)
	}

	// The last ply: a blue dot with a light halo on each stone it placed.
	for _, s := range v.Path {
		x, y := at(l.byName[s.To])
		c.paint(m.dotHalo.mask, x, y, inkPathHalo)
		c.paint(m.dot.mask, x, y, inkPath)
	}

	// Row letters, where the view puts them.
	for _, lb := range v.Labels {
		if l.labelShown(lb) {
			x, y := g.at(lb.Row, lb.Col)
			c.label(lb.Text, x, y)
		}
	}
	return c, nil
}

// spanMask is a mask with, for each of its rows, the columns [lo, hi)
// where it covers anything: most of the box of a slanting line, a triangle
// or a disc is empty, and a layer skips it.
type spanMask struct {
	mask
	lo, hi []int
}

// spansOf finds the spans of m's rows.
func spansOf(m mask) spanMask {
	w, h := m.r.Dx(), m.r.Dy()
	s := spanMask{mask: m, lo: make([]int, h), hi: make([]int, h)}
	for y := range h {
		row := m.cov[y*w : (y+1)*w]
		lo, hi := 0, w
		for lo < hi && row[lo] == 0 {
			lo++
		}
		for hi > lo && row[hi-1] == 0 {
			hi--
		}
		s.lo[y], s.hi[y] = lo, hi
	}
	return s
}

// startLayers readies the canvas for addLayer: a cleared layer the size
// of the picture.
func (c *canvas) startLayers() {
	n := len(c.img.Pix)
	c.layer = slices.Grow(c.layer[:0], n)[:n]
	clear(c.layer)
	h := c.img.Rect.Dy()
	c.layerTiles = slices.Grow(c.layerTiles[:0], h)[:h]
	clear(c.layerTiles)
	c.layerBox = image.Rectangle{}
}

// layerTile is the width of the tiles of a layer's rows that layerTiles
// marks: a picture is at most 64 of them wide (maxPointsRows).
const layerTile = 64

// addLayer adds mask m, moved by (dx, dy) pixels, to the layer: with union
// a pixel keeps the larger coverage (for shapes that overlap, such as lines
// meeting at a point), else the coverages add up to full (for shapes that
// only share edges, such as the triangles of a hole). Painting a layer once
// (paintLayer), rather than each shape in turn, blends each edge pixel
// once: shapes of one colour meeting at an edge leave no seam, and no blend
// of a blend crowds the palette.
func (c *canvas) addLayer(m spanMask, dx, dy int, union bool) {
	r := m.r.Add(image.Pt(dx, dy)).Intersect(c.img.Rect)
	if r.Empty() {
		return
	}
	c.layerBox = c.layerBox.Union(r)
	w := m.r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		my := y - dy - m.r.Min.Y // the mask's row
		x0 := max(r.Min.X, m.r.Min.X+dx+m.lo[my])
		x1 := min(r.Max.X, m.r.Min.X+dx+m.hi[my])
		if x0 >= x1 {
			continue
		}
		c.layerTiles[y] |= 1<<((x1-1)/layerTile+1) - 1<<(x0/layerTile) // bits x0/64 .. (x1-1)/64
		row := c.layer[c.img.PixOffset(x0, y):][:x1-x0]
		cov := m.cov[my*w+x0-dx-m.r.Min.X:][:x1-x0]
		if union {
			// 8 at a time: coverages are below 128, so a byte's top bit
			// in (a|H) - b tells whether a >= b.
			const h = 0x8080808080808080
			i := 0
			for ; i+8 <= len(cov); i += 8 {
				a, b := binary.LittleEndian.Uint64(row[i:]), binary.LittleEndian.Uint64(cov[i:])
				ge := (((a | h) - b) & h) >> 7 * 0xff
				binary.LittleEndian.PutUint64(row[i:], a&ge|b&^ge)
			}
			for ; i < len(cov); i++ {
				row[i] = max(row[i], cov[i])
			}
		} else {
			for i, n := range cov {
				row[i] = min(row[i]+n, fullCoverage)
			}
		}
	}
}

// paintLayer paints the layer in inks[ink] and clears it. Most of a layer
// is empty: it is read only in the tiles addLayer marked, and there a word
// at a time where it is empty.
func (c *canvas) paintLayer(ink int) {
	r := c.layerBox
	memo := &c.memo[ink]
	// Where an opaque ink covers 8 pixels whole, they take its colour.
	const whole = fullCoverage * 0x0101010101010101
	opaque, full := inks[ink].A == 0xff, uint64(c.colorIndex(inks[ink]))*0x0101010101010101
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for tiles := c.layerTiles[y]; tiles != 0; tiles &= tiles - 1 {
			t := bits.TrailingZeros64(tiles)
			x0, x1 := max(t*layerTile, r.Min.X), min((t+1)*layerTile, r.Max.X)
			off := c.img.PixOffset(x0, y)
			row, cov := c.img.Pix[off:][:x1-x0], c.layer[off:][:x1-x0]
			for i := 0; i < len(cov); {
				if i+8 <= len(cov) {
					switch w := binary.LittleEndian.Uint64(cov[i:]); {
					case w == 0:
						i += 8
						continue
					case w == whole && opaque:
						binary.LittleEndian.PutUint64(row[i:], full)
						binary.LittleEndian.PutUint64(cov[i:], 0)
						i += 8
						continue
					}
				}
				if n := cov[i]; n != 0 {
					under := row[i]
					k := memo[n][under]
					if k == 0 {
						k = uint16(c.colorIndex(blend(c.colors[under], inks[ink], int(n)))) + 1
						memo[n][under] = k
					}
					row[i], cov[i] = uint8(k-1), 0
				}
				i++
			}
		}
		c.layerTiles[y] = 0
	}
	c.layerBox = image.Rectangle{}
}
