package notify

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/lesspost/lesspost/domain/less"
)

// The picture's geometry in pixels. A square is cell pixels from grid line to
// grid line; grid lines are one pixel wide and lie on the square's top and
// left edge, so the square's own area starts one pixel further in.
const (
	cell        = 48
	marginLeft  = 34 // row letters
	marginTop   = 34 // column numbers
	marginRight = 14
	marginBot   = 14

	labelScale = 2 // the 7x13 bitmap font drawn at twice its size

	pieceRadius   = 17.5 // outline included
	pieceOutline  = 2.5
	shadowOffset  = 2
	wallThick     = 5   // single wall: one bar on the grid line
	doubleBar     = 4   // double wall: two bars …
	doubleGap     = 3   // … this far apart
	pathRadius    = 2   // the last turn's line is 4 px wide
	pathHalo      = 3.5 // with a light halo so it shows on dark pieces
	pathDotRadius = 5.5 // the dot on each from-square
	pathDotHalo   = 7.0
	frameThick    = 4 // the closed outer border (B3)
	sub           = 8 // geometry is computed in 1/8 pixels
	samples       = 4 // 4x4 samples per pixel for anti-aliasing
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

	pieceColors = [4]color.RGBA{
		less.White:  rgb(0xff, 0xff, 0xff),
		less.Black:  rgb(0x24, 0x24, 0x24),
		less.Yellow: rgb(0xf4, 0xc4, 0x1a),
		less.Red:    rgb(0xd6, 0x33, 0x2a),
	}
	targetTints = [4]color.RGBA{
		less.White:  rgb(0xfd, 0xfc, 0xf9),
		less.Black:  rgb(0xb9, 0xb3, 0xa8),
		less.Yellow: rgb(0xf8, 0xe3, 0x8f),
		less.Red:    rgb(0xf0, 0xb4, 0xac),
	}
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// errNoBoard is returned for a Position without a board (the zero value).
var errNoBoard = errors.New("notify: board picture: position has no board")

// BoardPNG draws the position as a PNG for the HTML part of emails: row
// letters down the left and column numbers along the top as in less.Diagram,
// target corners tinted with a pale version of the colour that must reach
// them, single walls as a dark bar, double walls as two parallel red bars,
// pieces as outlined discs in their colours and, on top, the path of last (the
// turn just played): a blue line from each move's from-square to its
// to-square with a dot on each from-square. Moves with a square off the board
// are left out. The output depends only on the input, byte for byte.
func BoardPNG(p less.Position, last less.Turn) ([]byte, error) {
	img, err := drawBoard(p, last)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// boardPixels is the width and height of the picture of an n x n board.
func boardPixels(n int) (w, h int) {
	return marginLeft + n*cell + 1 + marginRight, marginTop + n*cell + 1 + marginBot
}

// squareRect is the area of a square inside its grid lines.
func squareRect(s less.Square) image.Rectangle {
	x := marginLeft + int(s.Col)*cell
	y := marginTop + int(s.Row)*cell
	return image.Rect(x+1, y+1, x+cell, y+cell)
}

// squareCenter is the centre of a square in 1/sub pixels.
func squareCenter(s less.Square) (x, y int) {
	r := squareRect(s)
	return (r.Min.X + r.Max.X) * sub / 2, (r.Min.Y + r.Max.Y) * sub / 2
}

// gridX and gridY are the pixel column and row of grid line k.
func gridX(k int) int { return marginLeft + k*cell }
func gridY(k int) int { return marginTop + k*cell }

func drawBoard(p less.Position, last less.Turn) (*image.RGBA, error) {
	b := p.Board()
	if b == nil {
		return nil, errNoBoard
	}
	n := b.Size()
	if n < 2 || n > less.MaxSize {
		return nil, errors.New("notify: board picture: unsupported board size")
	}
	w, h := boardPixels(n)
	c := canvas{image.NewRGBA(image.Rect(0, 0, w, h))}
	c.fill(c.img.Rect, colBackground)

	// Squares: grid colour under the whole board, then each square inside
	// its lines, tinted where it belongs to a target corner.
	c.fill(image.Rect(gridX(0), gridY(0), gridX(n)+1, gridY(n)+1), colGrid)
	var tint [less.MaxSize][less.MaxSize]*color.RGBA
	for _, col := range less.Colors(n) {
		for _, s := range less.TargetCorner(col, n).Squares() {
			tint[s.Row][s.Col] = &targetTints[col]
		}
	}
	for r := range n {
		for col := range n {
			fillCol := colSquare
			if t := tint[r][col]; t != nil {
				fillCol = *t
			}
			c.fill(squareRect(less.SquareAt(r, col)), fillCol)
		}
	}

	// Walls, on the edges between squares.
	for r := range n {
		for col := range n {
			s := less.SquareAt(r, col)
			if col+1 < n {
				walls, _ := b.WallsBetween(s, less.SquareAt(r, col+1))
				c.wall(gridX(col+1), gridY(r), true, walls)
			}
			if r+1 < n {
				walls, _ := b.WallsBetween(s, less.SquareAt(r+1, col))
				c.wall(gridX(col), gridY(r+1), false, walls)
			}
		}
	}

	// The closed outer border.
	x0, y0 := gridX(0)-frameThick/2, gridY(0)-frameThick/2
	x1, y1 := gridX(n)+1+frameThick/2, gridY(n)+1+frameThick/2
	c.fill(image.Rect(x0, y0, x1, y0+frameThick), colWall)
	c.fill(image.Rect(x0, y1-frameThick, x1, y1), colWall)
	c.fill(image.Rect(x0, y0, x0+frameThick, y1), colWall)
	c.fill(image.Rect(x1-frameThick, y0, x1, y1), colWall)

	// Coordinates: row letters down the left, column numbers along the top.
	for k := range n {
		mid := gridY(k) + cell/2
		c.label(string(rune('a'+k)), x0/2, mid)
		mid = gridX(k) + cell/2
		c.label(string(rune('1'+k)), mid, y0/2)
	}

	// Pieces.
	for _, col := range less.Colors(n) {
		for _, s := range p.Pieces(col).Squares() {
			cx, cy := squareCenter(s)
			c.disc(cx+shadowOffset*sub, cy+shadowOffset*sub, subUnits(pieceRadius), colShadow)
			c.disc(cx, cy, subUnits(pieceRadius), colOutline)
			c.disc(cx, cy, subUnits(pieceRadius-pieceOutline), pieceColors[col])
		}
	}

	// The last turn's path: halo first, then the line, then the dots.
	var moves []less.Move
	for _, m := range last {
		if m.From.OnBoard(n) && m.To.OnBoard(n) {
			moves = append(moves, m)
		}
	}
	for _, m := range moves {
		ax, ay := squareCenter(m.From)
		bx, by := squareCenter(m.To)
		c.capsule(ax, ay, bx, by, subUnits(pathHalo), colPathHalo)
		c.disc(ax, ay, subUnits(pathDotHalo), colPathHalo)
	}
	for _, m := range moves {
		ax, ay := squareCenter(m.From)
		bx, by := squareCenter(m.To)
		c.capsule(ax, ay, bx, by, subUnits(pathRadius), colPath)
		c.disc(ax, ay, subUnits(pathDotRadius), colPath)
	}
	return c.img, nil
}

// subUnits converts a length in pixels to 1/sub pixels. The lengths are
// constants in halves of a pixel, so the product is exact; the conversion to
// float64 forbids a fused multiply-add, so the result is the same everywhere.
func subUnits(px float64) int { return int(float64(px*sub) + 0.5) }

// canvas is an RGBA image with the few primitives the board needs. Shapes are
// anti-aliased by counting which of 4x4 sample points per pixel they cover;
// all geometry is integer arithmetic, so output never varies.
type canvas struct{ img *image.RGBA }

func (c canvas) fill(r image.Rectangle, col color.RGBA) {
	draw.Draw(c.img, r, image.NewUniform(col), image.Point{}, draw.Src)
}

// blend composes col over pixel (x, y) with the given coverage (0..fullCoverage).
func (c canvas) blend(x, y int, col color.RGBA, coverage int) {
	if coverage <= 0 || !(image.Point{x, y}).In(c.img.Rect) {
		return
	}
	a := coverage * int(col.A) // 0 .. fullCoverage*255
	const full = fullCoverage * 255
	i := c.img.PixOffset(x, y)
	px := c.img.Pix[i : i+4 : i+4]
	src := [3]uint8{col.R, col.G, col.B}
	for k := range 3 {
		px[k] = uint8((int(px[k])*(full-a) + int(src[k])*a + full/2) / full)
	}
	px[3] = 0xff
}

// cover paints the pixels in the box [x0,x1)x[y0,y1) (in 1/sub pixels) whose
// sample points satisfy inside.
func (c canvas) cover(x0, y0, x1, y1 int, col color.RGBA, inside func(x, y int) bool) {
	px0, py0 := floorDiv(x0, sub), floorDiv(y0, sub)
	px1, py1 := floorDiv(x1, sub)+1, floorDiv(y1, sub)+1
	for py := py0; py < py1; py++ {
		for px := px0; px < px1; px++ {
			n := 0
			for sy := range samples {
				y := py*sub + sy*subPerSample + subHalfSample
				for sx := range samples {
					if inside(px*sub+sx*subPerSample+subHalfSample, y) {
						n++
					}
				}
			}
			c.blend(px, py, col, n)
		}
	}
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// disc paints a filled circle of radius r around (cx, cy), all in 1/sub pixels.
func (c canvas) disc(cx, cy, r int, col color.RGBA) {
	r2 := r * r
	c.cover(cx-r, cy-r, cx+r, cy+r, col, func(x, y int) bool {
		dx, dy := x-cx, y-cy
		return dx*dx+dy*dy <= r2
	})
}

// capsule paints a thick line with round ends: every point within r of the
// segment from (ax, ay) to (bx, by), all in 1/sub pixels.
func (c canvas) capsule(ax, ay, bx, by, r int, col color.RGBA) {
	dx, dy := int64(bx-ax), int64(by-ay)
	l2 := dx*dx + dy*dy
	r2 := int64(r) * int64(r)
	c.cover(min(ax, bx)-r, min(ay, by)-r, max(ax, bx)+r, max(ay, by)+r, col, func(x, y int) bool {
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

// wall draws the walls of one edge: a vertical edge at grid column x from grid
// row y down one square, or a horizontal one at grid row y from grid column x
// across one square. A single wall is a dark bar; a double wall two red bars
// with a gap between them, so the two are told apart at a glance. Bars run
// past the edge's ends by half their thickness, so walls meeting at a corner
// join.
func (c canvas) wall(x, y int, vertical bool, walls int) {
	// bar fills the pixels lo..lo+thick-1 across the edge, counted from the
	// grid line's pixel, along the whole edge and thick/2 past each end.
	bar := func(lo, thick int, col color.RGBA) {
		ext := thick / 2
		var r image.Rectangle
		if vertical {
			r = image.Rect(x+lo, y-ext, x+lo+thick, y+cell+1+ext)
		} else {
			r = image.Rect(x-ext, y+lo, x+cell+1+ext, y+lo+thick)
		}
		c.fill(r, col)
	}
	switch walls {
	case 1:
		bar(-wallThick/2, wallThick, colWall)
	case 2:
		lo, hi := -doubleGap/2, doubleGap-doubleGap/2
		bar(lo, doubleGap, colBackground) // a light channel between the bars
		bar(lo-doubleBar, doubleBar, colDoubleWall)
		bar(hi, doubleBar, colDoubleWall)
	}
}

// label writes text centred on (x, y) in the bitmap font at labelScale.
func (c canvas) label(text string, x, y int) {
	face := basicfont.Face7x13
	w := font.MeasureString(face, text).Ceil()
	h := face.Ascent + face.Descent
	mask := image.NewAlpha(image.Rect(0, 0, w, h))
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: face, Dot: fixed.P(0, face.Ascent)}
	d.DrawString(text)
	// Centre on the ink, not the cell: lower-case letters and digits leave
	// the top rows of the cell empty.
	ink := image.Rectangle{}
	for py := range h {
		for px := range w {
			if mask.AlphaAt(px, py).A != 0 {
				ink = ink.Union(image.Rect(px, py, px+1, py+1))
			}
		}
	}
	if ink.Empty() {
		return
	}
	ox := x - (ink.Min.X+ink.Max.X)*labelScale/2
	oy := y - (ink.Min.Y+ink.Max.Y)*labelScale/2
	for py := ink.Min.Y; py < ink.Max.Y; py++ {
		for px := ink.Min.X; px < ink.Max.X; px++ {
			if a := mask.AlphaAt(px, py).A; a != 0 {
				c.fill(image.Rect(ox+px*labelScale, oy+py*labelScale, ox+(px+1)*labelScale, oy+(py+1)*labelScale), colLabel)
			}
		}
	}
}
