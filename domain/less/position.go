package less

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Position is a placement of the pieces on a board, the colour to move and the
// rule options that judging a turn depends on. It is a small value: applying a
// turn returns a new Position and leaves the old one as it was.
type Position struct {
	board     *Board
	pieces    [4]Bitboard // by Color
	toMove    Color
	earlyStop bool
}

// ErrPosition is wrapped by every error about an impossible placement.
var ErrPosition = errors.New("invalid position")

// Placement lists each colour's pieces.
type Placement map[Color][]Square

// StartPosition is the position at the start of a game on the board: every
// colour on its start corner (S1, S2) and the first colour to move.
func StartPosition(b *Board, earlyStop bool) Position {
	p := Position{board: b, earlyStop: earlyStop, toMove: Colors(b.size)[0]}
	for _, c := range Colors(b.size) {
		p.pieces[c] = StartCorner(c, b.size)
	}
	return p
}

// NewPosition sets up any legal placement (for analysis, puzzles and
// imports): on a 6x6 board White and Black, on 8x8 all four colours, each
// with exactly 4 pieces on distinct squares of the board; toMove must be in play.
func NewPosition(b *Board, pieces Placement, toMove Color, earlyStop bool) (Position, error) {
	if b == nil {
		return Position{}, fmt.Errorf("%w: no board", ErrPosition)
	}
	if !inPlay(toMove, b.size) {
		return Position{}, fmt.Errorf("%w: %s does not play on a %dx%d board", ErrPosition, toMove, b.size, b.size)
	}
	p := Position{board: b, toMove: toMove, earlyStop: earlyStop}
	var all Bitboard
	for c, squares := range pieces {
		if !inPlay(c, b.size) {
			if len(squares) > 0 {
				return Position{}, fmt.Errorf("%w: %s does not play on a %dx%d board", ErrPosition, c, b.size, b.size)
			}
			continue
		}
		for _, s := range squares {
			if !s.OnBoard(b.size) {
				return Position{}, fmt.Errorf("%w: %s piece on %s, off the %dx%d board", ErrPosition, c, s, b.size, b.size)
			}
			bit := Bitboard(1) << uint(s.index())
			if all&bit != 0 {
				return Position{}, fmt.Errorf("%w: two pieces on %s (M4)", ErrPosition, s)
			}
			all |= bit
			p.pieces[c] |= bit
		}
	}
	for _, c := range Colors(b.size) {
		if n := p.pieces[c].Count(); n != 4 {
			return Position{}, fmt.Errorf("%w: %s has %d pieces, want 4 (S1)", ErrPosition, c, n)
		}
	}
	return p, nil
}

// Board is the position's board.
func (p Position) Board() *Board { return p.board }

// Size is the board size.
func (p Position) Size() int { return p.board.size }

// ToMove is the colour whose turn it is.
func (p Position) ToMove() Color { return p.toMove }

// EarlyStop reports whether the T3 option is on.
func (p Position) EarlyStop() bool { return p.earlyStop }

// Pieces is the set of squares holding colour c's pieces.
func (p Position) Pieces(c Color) Bitboard { return p.pieces[c] }

// Placement lists each colour's pieces in board order.
func (p Position) Placement() Placement {
	out := make(Placement, Players(p.Size()))
	for _, c := range Colors(p.Size()) {
		out[c] = p.pieces[c].Squares()
	}
	return out
}

// PieceAt is the colour of the piece on s, if any.
func (p Position) PieceAt(s Square) (Color, bool) {
	if !s.OnBoard(p.Size()) {
		return 0, false
	}
	bit := Bitboard(1) << uint(s.index())
	for _, c := range Colors(p.Size()) {
		if p.pieces[c]&bit != 0 {
			return c, true
		}
	}
	return 0, false
}

// Finished reports whether all of colour c's pieces are home (S3).
func (p Position) Finished(c Color) bool { return p.pieces[c] == TargetCorner(c, p.Size()) }

// Complete reports whether all pieces of the side are home (S3).
func (p Position) Complete(s Side) bool {
	for _, c := range SideColors(s, p.Size()) {
		if !p.Finished(c) {
			return false
		}
	}
	return true
}

// WithToMove is the same placement with another colour to move.
func (p Position) WithToMove(c Color) (Position, error) {
	if !inPlay(c, p.Size()) {
		return p, fmt.Errorf("%w: %s does not play on a %dx%d board", ErrPosition, c, p.Size(), p.Size())
	}
	p.toMove = c
	return p, nil
}

// next is the colour after c in turn order.
func (p Position) next(c Color) Color {
	order := Colors(p.Size())
	i := slices.Index(order, c)
	return order[(i+1)%len(order)]
}

func (p Position) occupied() Bitboard {
	return p.pieces[0] | p.pieces[1] | p.pieces[2] | p.pieces[3]
}

// movable is the colour whose pieces the mover moves now (M6): his own, or in
// the four-player game his partner's once all his own are home.
func (p Position) movable() Color {
	if p.Size() == 8 && p.Finished(p.toMove) {
		return Partner(p.toMove)
	}
	return p.toMove
}

// Equal reports whether two positions have the same board, placement, mover
// and options.
func (p Position) Equal(q Position) bool {
	return p.board.walls == q.board.walls && p.board.size == q.board.size &&
		p.pieces == q.pieces && p.toMove == q.toMove && p.earlyStop == q.earlyStop
}

// String writes the placement compactly, e.g. "white:e5,e6,f5,f6 black:a1,a2,b1,b2 to-move:white".
func (p Position) String() string {
	var sb strings.Builder
	for _, c := range Colors(p.Size()) {
		sb.WriteString(c.String())
		sb.WriteByte(':')
		for i, s := range p.pieces[c].Squares() {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(s.String())
		}
		sb.WriteByte(' ')
	}
	sb.WriteString("to-move:")
	sb.WriteString(p.toMove.String())
	return sb.String()
}
