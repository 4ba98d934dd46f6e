package notify

import (
	"image"
	"image/color"
	"image/draw"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/lesspost/lesspost/domain/view"
)

// refDrawBoard is the board picture as it was drawn before the paletted
// canvas: straightforwardly, in RGBA, one sample at a time. It is the
// reference the fast drawing must match (TestBoardPNGMatchesReference); the
// layout under the pieces (drawBackground) is shared, the drawing is not.
func refDrawBoard(v view.Board) (*image.RGBA, error) {
	l, err := layoutOf(&v)
	if err != nil {
		return nil, err
	}
	w, h := boardPixels(l.n)
	c := refCanvas{image.NewRGBA(image.Rect(0, 0, w, h))}
	drawBackground(c, l)

	// Pieces.
	for _, p := range v.Pieces {
		k, _ := colorNumber(p.Color)
		cx, cy := squareCenter(l.places[p.Cell])
		c.disc(cx+shadowOffset*sub, cy+shadowOffset*sub, subUnits(pieceRadius), colShadow)
		c.disc(cx, cy, subUnits(pieceRadius), colOutline)
		c.disc(cx, cy, subUnits(pieceRadius-pieceOutline), pieceColors[k])
	}

	// The last turn's path: halo first, then the line, then the dots.
	steps := l.steps()
	for i, m := range steps {
		ax, ay := squareCenter(m.from)
		bx, by := squareCenter(m.to)
		c.capsule(ax, ay, bx, by, subUnits(pathHalo), colPathHalo)
		c.disc(ax, ay, subUnits(pathDotHalo), colPathHalo)
		if pathEnds(steps, i) {
			c.triangle(arrowhead(ax, ay, bx, by, true), colPathHalo)
		}
	}
	for i, m := range steps {
		ax, ay := squareCenter(m.from)
		bx, by := squareCenter(m.to)
		c.capsule(ax, ay, bx, by, subUnits(pathRadius), colPath)
		c.disc(ax, ay, subUnits(pathDotRadius), colPath)
		if pathEnds(steps, i) {
			c.triangle(arrowhead(ax, ay, bx, by, false), colPath)
		}
	}
	return c.img, nil
}

// refCanvas is an RGBA image with the few primitives the board needs. Shapes are
// anti-aliased by counting which of 4x4 sample points per pixel they cover;
// all geometry is integer arithmetic, so output never varies.
type refCanvas struct{ img *image.RGBA }

func (c refCanvas) fill(r image.Rectangle, col color.RGBA) {
	draw.Draw(c.img, r, image.NewUniform(col), image.Point{}, draw.Src)
}

func (c refCanvas) copyDown(r image.Rectangle) {
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c.img.SetRGBA(x, y, c.img.RGBAAt(x, r.Min.Y))
		}
	}
}

// blend composes col over pixel (x, y) with the given coverage (0..fullCoverage).
func (c refCanvas) blend(x, y int, col color.RGBA, coverage int) {
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
func (c refCanvas) cover(x0, y0, x1, y1 int, col color.RGBA, inside func(x, y int) bool) {
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

// disc paints a filled circle of radius r around (cx, cy), all in 1/sub pixels.
func (c refCanvas) disc(cx, cy, r int, col color.RGBA) {
	r2 := r * r
	c.cover(cx-r, cy-r, cx+r, cy+r, col, func(x, y int) bool {
		dx, dy := x-cx, y-cy
		return dx*dx+dy*dy <= r2
	})
}

// capsule paints a thick line with round ends: every point within r of the
// segment from (ax, ay) to (bx, by), all in 1/sub pixels.
func (c refCanvas) capsule(ax, ay, bx, by, r int, col color.RGBA) {
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

// triangle paints a filled triangle with corners v, in 1/sub pixels.
func (c refCanvas) triangle(v [3][2]int, col color.RGBA) {
	x0, y0, x1, y1 := triangleBox(v)
	c.cover(x0, y0, x1, y1, col, inTriangle(v))
}

// wall draws the walls of one edge: a vertical edge at grid column x from grid
// row y down one square, or a horizontal one at grid row y from grid column x
// across one square. A single wall is a dark bar; a double wall two red bars
// with a gap between them, so the two are told apart at a glance. Bars run
// past the edge's ends by half their thickness, so walls meeting at a corner
// join.
func (c refCanvas) wall(x, y int, vertical bool, walls int) {
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
func (c refCanvas) label(text string, x, y int) {
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
