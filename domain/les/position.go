package les

import (
	"fmt"
	"strings"
)

// Position is the stones on a board and the colour to move. It is a value:
// placing a stone returns a new Position and leaves the old one as it was.
// Beside the stones it keeps, per colour, the set of the points that touch
// one of its stones, so that the rules of a placement are a few word
// operations.
type Position struct {
	board  *Board
	stones [2]set // by Color
	near   [2]set // by Color: the points that touch a stone of that colour
	toMove Color
}

// EmptyPosition is the board before the setup, Black to move.
func EmptyPosition(b *Board) Position { return Position{board: b} }

// NewPosition sets up any placement (for analysis, tests and imports): each
// colour's stones on distinct points of the board.
func NewPosition(b *Board, black, white []Point, toMove Color) (Position, error) {
	if b == nil {
		return Position{}, fmt.Errorf("%w: no board", ErrPosition)
	}
	if toMove != Black && toMove != White {
		return Position{}, fmt.Errorf("%w: %s to move", ErrPosition, toMove)
	}
	p := Position{board: b, toMove: toMove}
	for c, pts := range [2][]Point{black, white} {
		for _, pt := range pts {
			i, ok := b.Index(pt)
			if !ok {
				return Position{}, fmt.Errorf("%w: %s stone on %s, off the board of side %d", ErrPosition, Color(c), pt, b.side)
			}
			if p.occupied().has(i) {
				return Position{}, fmt.Errorf("%w: two stones on %s", ErrPosition, pt)
			}
			p.place(i, Color(c))
		}
	}
	return p, nil
}

// place puts a stone of colour c on the point of index i.
func (p *Position) place(i int, c Color) {
	p.stones[c].add(i)
	p.near[c] = p.near[c].or(p.board.touch[i])
}

// Board is the position's board.
func (p Position) Board() *Board { return p.board }

// ToMove is the colour whose turn it is.
func (p Position) ToMove() Color { return p.toMove }

// WithToMove is the same stones with another colour to move.
func (p Position) WithToMove(c Color) Position {
	p.toMove = c
	return p
}

// Stones lists colour c's stones in board order.
func (p Position) Stones(c Color) []Point { return p.board.points(p.stones[c]) }

// StoneCount is the number of colour c's stones.
func (p Position) StoneCount(c Color) int { return p.stones[c].count() }

// StoneAt is the colour of the stone on pt, if any.
func (p Position) StoneAt(pt Point) (Color, bool) {
	i, ok := p.board.Index(pt)
	switch {
	case !ok:
		return 0, false
	case p.stones[Black].has(i):
		return Black, true
	case p.stones[White].has(i):
		return White, true
	}
	return 0, false
}

func (p Position) occupied() set { return p.stones[Black].or(p.stones[White]) }

// firsts is the set of legal first placements (LT1): the empty points that
// touch both colours. The condition is the same for both colours (LE5).
func (p Position) firsts() set {
	return p.near[Black].and(p.near[White]).andNot(p.occupied())
}

// isolated is the set of the empty points that touch no stone: where a
// second placement may go (LT2).
func (p Position) isolated() set {
	return p.board.all.andNot(p.occupied().or(p.near[Black]).or(p.near[White]))
}

// FirstPlacements lists the legal first placements in board order (LT1).
func (p Position) FirstPlacements() []Point { return p.board.points(p.firsts()) }

// Isolated lists the empty points that touch no stone, in board order:
// where a second placement may go (LT2).
func (p Position) Isolated() []Point { return p.board.points(p.isolated()) }

// Over reports whether the mover has no legal first placement, which ends
// the game (LE1).
func (p Position) Over() bool { return p.firsts().empty() }

// Equal reports whether two positions have the same board, stones and mover.
func (p Position) Equal(q Position) bool {
	return p.board == q.board && p.stones == q.stones && p.toMove == q.toMove
}

// String writes the position compactly, e.g.
// "black:e5,g3 white:e6,g5 to-move:black".
func (p Position) String() string {
	var sb strings.Builder
	for c := range Color(2) {
		sb.WriteString(c.String())
		sb.WriteByte(':')
		sb.WriteString(strings.Join(p.board.names(p.stones[c]), ","))
		sb.WriteByte(' ')
	}
	sb.WriteString("to-move:")
	sb.WriteString(p.toMove.String())
	return sb.String()
}

// ParsePosition reads a position as String writes it.
func ParsePosition(b *Board, text string) (Position, error) {
	var lists [2][]Point
	var seen [2]bool
	toMove, haveMover := Black, false
	for _, field := range strings.Fields(text) {
		key, list, ok := strings.Cut(field, ":")
		if !ok {
			return Position{}, fmt.Errorf("%w: %q is not colour:points", ErrPosition, clip(field))
		}
		if key == "to-move" {
			c, err := ParseColor(list)
			if err != nil {
				return Position{}, fmt.Errorf("%w: %v", ErrPosition, err)
			}
			toMove, haveMover = c, true
			continue
		}
		c, err := ParseColor(key)
		if err != nil {
			return Position{}, fmt.Errorf("%w: %v", ErrPosition, err)
		}
		if seen[c] {
			return Position{}, fmt.Errorf("%w: %s is listed twice", ErrPosition, c)
		}
		seen[c] = true
		if list == "" {
			continue
		}
		for _, s := range strings.Split(list, ",") {
			pt, err := ParsePoint(s)
			if err != nil {
				return Position{}, fmt.Errorf("%w: %v", ErrPosition, err)
			}
			lists[c] = append(lists[c], pt)
		}
	}
	if !haveMover {
		return Position{}, fmt.Errorf("%w: no to-move", ErrPosition)
	}
	return NewPosition(b, lists[Black], lists[White], toMove)
}
