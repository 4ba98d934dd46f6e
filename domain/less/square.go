package less

import (
	"fmt"
	"strconv"
)

// MaxSize is the side length of the largest board (B1). Squares are indexed
// row*MaxSize+col on every board, so one uint64 holds any set of squares.
const MaxSize = 8

// Square names one square: Row 0 is row a (the top), Col 0 is column 1 (the left).
//
// A Square may lie off every board: parsed notation keeps squares such as "x1"
// or "a0" so that a turn can be rejected as off_board at the right move (N3)
// and the message can name the square the player wrote.
type Square struct {
	Row, Col int16
}

// maxColumn bounds the column number kept from notation; any larger number is
// off the board all the same, and clamping keeps absurd input harmless.
const maxColumn = 9999

// SquareAt returns the square at 0-based row and column.
func SquareAt(row, col int) Square { return Square{Row: int16(row), Col: int16(col)} }

// ParseSquare parses a square in notation (B2): a row letter followed by the
// column number, case-insensitive, e.g. "a1" or "H8". The square may be off
// the board; only the syntax is checked here.
func ParseSquare(s string) (Square, error) {
	sq, n, ok := scanSquare(s)
	if !ok || n != len(s) {
		return Square{}, fmt.Errorf("square %q: want a row letter followed by a column number, like e5", s)
	}
	return sq, nil
}

// scanSquare reads a square at the start of s and reports how many bytes it used.
func scanSquare(s string) (sq Square, n int, ok bool) {
	if len(s) < 2 {
		return Square{}, 0, false
	}
	c := s[0] | 0x20 // lower case for letters
	if c < 'a' || c > 'z' {
		return Square{}, 0, false
	}
	col := 0
	n = 1
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		if col <= maxColumn {
			col = col*10 + int(s[n]-'0')
		}
		n++
	}
	if n == 1 {
		return Square{}, 0, false
	}
	col = min(col, maxColumn+1)
	return Square{Row: int16(c - 'a'), Col: int16(col - 1)}, n, true
}

// String writes the square in notation, e.g. "e5".
func (s Square) String() string {
	if s.Row < 0 || s.Row >= 26 {
		return fmt.Sprintf("(%d,%d)", s.Row, s.Col)
	}
	return string(rune('a'+s.Row)) + strconv.Itoa(int(s.Col)+1)
}

// OnBoard reports whether the square lies on a board of the given size.
func (s Square) OnBoard(size int) bool {
	return s.Row >= 0 && s.Col >= 0 && int(s.Row) < size && int(s.Col) < size
}

// index is the square's bit number; only meaningful for squares on a board.
func (s Square) index() int { return int(s.Row)*MaxSize + int(s.Col) }

func squareOf(i int) Square { return Square{Row: int16(i / MaxSize), Col: int16(i % MaxSize)} }

// Bitboard is a set of squares, bit row*8+col for each square.
type Bitboard uint64

func (b Bitboard) has(i int) bool { return b&(1<<uint(i)) != 0 }

// Squares lists the squares of the set in board order (a1, a2, …, b1, …).
func (b Bitboard) Squares() []Square {
	out := make([]Square, 0, 4)
	for b != 0 {
		i := trailingZeros(b)
		out = append(out, squareOf(i))
		b &= b - 1
	}
	return out
}

// Count is the number of squares in the set.
func (b Bitboard) Count() int { return onesCount(b) }

func bitsOf(squares ...Square) Bitboard {
	var b Bitboard
	for _, s := range squares {
		b |= 1 << uint(s.index())
	}
	return b
}
