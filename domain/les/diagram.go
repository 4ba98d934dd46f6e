package les

import "strings"

// DiagramLegend explains the symbols of Diagram.
const DiagramLegend = "B W stones   (B) a stone of the last ply   . an empty point\n" +
	"b w an empty point of a hole Black or White owns (at the end)   each row counts its points from 1 at its left"

// Diagram draws the position in plain ASCII for emails and logs: each row
// with its letter on both sides, centred so that the rows stagger as on the
// board, stones as B and W, the points of last (the ply to show) in
// parentheses, and, when holes is set, the empty points of owned holes in
// the owner's lower-case letter. On the board of side 3:
//
//	a    B W .    a
//	b   . . . .   b
//	c  . .(B). .  c
//	d   . . . .   d
//	e    . . .    e
func Diagram(p Position, last []Point, holes bool) string {
	b := p.board
	n := b.Points()
	marks := make([]byte, n)
	for i := range n {
		switch {
		case p.stones[Black].has(i):
			marks[i] = 'B'
		case p.stones[White].has(i):
			marks[i] = 'W'
		default:
			marks[i] = '.'
		}
	}
	if holes {
		for _, r := range p.Holes() {
			if !r.Owned {
				continue
			}
			for _, pt := range r.Points {
				i, _ := b.Index(pt)
				marks[i] = "bw"[r.Owner]
			}
		}
	}
	shown := make([]bool, n)
	for _, pt := range last {
		if i, ok := b.Index(pt); ok {
			shown[i] = true
		}
	}
	rows := b.Rows()
	width := 2*rows + 1 // the widest row: a space or bracket before each point, one after the last
	var sb strings.Builder
	sb.Grow(rows * (width + 8))
	for r := range rows {
		letter := byte('a' + r)
		sb.WriteByte(letter)
		sb.WriteByte(' ')
		indent := rows - b.rowLen(r)
		sb.WriteString(strings.Repeat(" ", indent))
		start := b.rowStart[r]
		for c := range b.rowLen(r) {
			i := start + c
			// The gap before a point opens a bracket round a shown point,
			// or closes the one round the point before.
			switch {
			case shown[i]:
				sb.WriteByte('(')
			case c > 0 && shown[i-1]:
				sb.WriteByte(')')
			default:
				sb.WriteByte(' ')
			}
			sb.WriteByte(marks[i])
		}
		if shown[start+b.rowLen(r)-1] {
			sb.WriteByte(')')
		} else {
			sb.WriteByte(' ')
		}
		sb.WriteString(strings.Repeat(" ", indent))
		sb.WriteByte(' ')
		sb.WriteByte(letter)
		sb.WriteByte('\n')
	}
	return sb.String()
}
