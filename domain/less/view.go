package less

import (
	"strconv"

	"github.com/lesspost/lesspost/domain/view"
)

// View describes position p for drawing: the squares (B2 names), the walls
// of each edge (B3, B4), the pieces, each colour's target corner (S1, S2) and
// the path of last, the turn to show (moves with a square off the board are
// left out). It is what the play page and the email pictures draw, so that
// they need no rules of their own. A Position without a board gives a zero
// Board.
func View(p Position, last Turn) view.Board {
	b := p.board
	if b == nil {
		return view.Board{}
	}
	n := b.size
	v := view.Board{Layout: view.Squares, Rows: n, Cols: n,
		Cells: make([]view.Cell, 0, n*n), Labels: make([]view.Label, 0, 2*n),
		Walls: []view.Wall{}, Pieces: []view.Piece{}, Highlights: []view.Highlight{}, Path: []view.Step{}}
	// Walls in the wall string's order (B4): the edges inside each row, then
	// those below it. Pictures draw them in this order, so where walls meet
	// the same one is on top in the page and the emails.
	wall := func(s Square, d direction) {
		if w := b.edge[s.index()][d]; w != noEdge && w > 0 {
			to := SquareAt(int(s.Row)+dRow[d], int(s.Col)+dCol[d])
			v.Walls = append(v.Walls, view.Wall{Between: [2]string{s.String(), to.String()}, Count: int(w)})
		}
	}
	for r := range n {
		for c := range n {
			s := SquareAt(r, c)
			v.Cells = append(v.Cells, view.Cell{Name: s.String(), Row: r, Col: c})
			wall(s, right)
		}
		for c := range n {
			wall(SquareAt(r, c), down)
		}
	}
	for k := range n {
		v.Labels = append(v.Labels,
			view.Label{Text: string(rune('a' + k)), Row: k, Col: -1},
			view.Label{Text: strconv.Itoa(k + 1), Row: -1, Col: k})
	}
	for _, c := range Colors(n) {
		for _, s := range p.pieces[c].Squares() {
			v.Pieces = append(v.Pieces, view.Piece{Cell: s.String(), Color: c.String()})
		}
		h := view.Highlight{Kind: view.Target, Color: c.String()}
		for _, s := range TargetCorner(c, n).Squares() {
			h.Cells = append(h.Cells, s.String())
		}
		v.Highlights = append(v.Highlights, h)
	}
	for _, m := range last {
		if m.From.OnBoard(n) && m.To.OnBoard(n) {
			v.Path = append(v.Path, view.Step{From: m.From.String(), To: m.To.String()})
		}
	}
	return v
}
