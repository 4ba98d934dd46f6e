package les

import "github.com/lesspost/lesspost/domain/view"

// View describes position p for drawing (view.Points): every point with its
// row and its column in half-steps (a row of n points on a board of side s
// starts (2s−1−n) half-steps in), a label with each row's letter one step
// before its first point, the stones (black, then white, each in board
// order), the points of last, the ply to show, as placements (points off
// the board are left out), and, when holes is set, each owned hole as a
// view.Hole highlight in its owner's colour (Black's, then White's, each as
// LE3 orders them). It is what the play page and the email pictures draw,
// so that they need no rules of their own. A Position without a board
// gives a zero Board.
func View(p Position, last []Point, holes bool) view.Board {
	b := p.board
	if b == nil {
		return view.Board{}
	}
	rows := b.Rows()
	v := view.Board{Layout: view.Points, Rows: rows, Cols: 2*rows - 1,
		Cells: make([]view.Cell, 0, b.Points()), Labels: make([]view.Label, 0, rows),
		Walls: []view.Wall{}, Pieces: make([]view.Piece, 0, p.occupied().count()),
		Highlights: []view.Highlight{}, Path: []view.Step{}}
	for i := range b.pts {
		v.Cells = append(v.Cells, view.Cell{Name: b.name(i), Row: int(b.pts[i].row), Col: halfCol(b, i)})
	}
	for r := range rows {
		v.Labels = append(v.Labels, view.Label{Text: string(rune('a' + r)), Row: r, Col: rows - b.rowLen(r) - 2})
	}
	for c := range Color(2) {
		for _, name := range b.names(p.stones[c]) {
			v.Pieces = append(v.Pieces, view.Piece{Cell: name, Color: c.String()})
		}
	}
	if holes {
		regions := p.Holes()
		for _, c := range []Color{Black, White} {
			for _, r := range ownedInOrder(regions, c) {
				h := view.Highlight{Kind: view.Hole, Color: c.String(), Cells: make([]string, len(r.Points))}
				for k, pt := range r.Points {
					h.Cells[k] = pt.String()
				}
				v.Highlights = append(v.Highlights, h)
			}
		}
	}
	for _, pt := range last {
		if i, ok := b.Index(pt); ok {
			v.Path = append(v.Path, view.Step{From: "", To: b.name(i)})
		}
	}
	return v
}

// halfCol is the column of point i in half-steps: rows are centred, so a
// row of n points starts (2s−1−n) half-steps from the left.
func halfCol(b *Board, i int) int {
	r := int(b.pts[i].row)
	return b.Rows() - b.rowLen(r) + 2*int(b.pts[i].pos)
}

// ownedInOrder lists the regions colour c owns in LE3's order: by size, then
// stones around, both descending; ties in board order.
func ownedInOrder(regions []Region, c Color) []Region {
	var out []Region
	for _, r := range regions {
		if r.Owned && r.Owner == c {
			out = append(out, r)
		}
	}
	// Insertion sort keeps board order among equals and the lists are short.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (out[j].Size > out[j-1].Size ||
			out[j].Size == out[j-1].Size && out[j].Around > out[j-1].Around); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
