package less

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Direction is one of the four orthogonal directions.
type direction uint8

const (
	up direction = iota
	right
	down
	left
)

var (
	dRow = [4]int{-1, 0, 1, 0}
	dCol = [4]int{0, 1, 0, -1}
)

// noEdge marks an edge that leads off the board (B3: the border is closed).
const noEdge = 0xff

// Board is the walled grid a game is played on (B1–B4). It is immutable and
// shared by pointer; NewBoard precomputes what move checking needs.
type Board struct {
	size  int
	walls string // B4 wall string, canonical
	// edge[i][d] is the wall count (0, 1, 2) of the edge leaving square i in
	// direction d, or noEdge at the border.
	edge [MaxSize * MaxSize][4]uint8
	// all is the set of squares on the board.
	all Bitboard
}

// WallsBetween is the number of walls (0, 1 or 2, B3) on the edge between two
// orthogonally adjacent squares; ok is false unless both are adjacent squares
// on the board.
func (b *Board) WallsBetween(from, to Square) (walls int, ok bool) {
	if !from.OnBoard(b.size) || !to.OnBoard(b.size) {
		return 0, false
	}
	for d := range direction(4) {
		if n, on := b.neighbour(from.index(), d); on && n == to.index() {
			return int(b.edge[from.index()][d]), true
		}
	}
	return 0, false
}

// Size is the number of rows (and columns).
func (b *Board) Size() int { return b.size }

// Walls is the board's wall string (B4).
func (b *Board) Walls() string { return b.walls }

// String is the board's wall string (B4).
func (b *Board) String() string { return b.walls }

// ErrBoard is wrapped by every error about a board's size or wall string.
var ErrBoard = errors.New("invalid board")

// ParseBoard reads a wall string (B4) for a board of the given size: 2n(n-1)
// digits 0, 1 or 2, row by row from the top, first the n-1 edges inside a row
// from the left, then (except after the last row) the n edges to the row
// below. Surrounding white space is ignored.
func ParseBoard(size int, walls string) (*Board, error) {
	if size != 6 && size != 8 {
		return nil, fmt.Errorf("%w: size %d, want 6 or 8 (B1)", ErrBoard, size)
	}
	lead := len(walls) - len(strings.TrimLeftFunc(walls, unicode.IsSpace))
	walls = strings.TrimSpace(walls)
	want := 2 * size * (size - 1)
	if len(walls) != want {
		return nil, fmt.Errorf("%w: wall string has %d characters, a %dx%d board needs %d (B4)", ErrBoard, len(walls), size, size, want)
	}
	b := &Board{size: size, walls: walls}
	for i := range b.edge {
		b.edge[i] = [4]uint8{noEdge, noEdge, noEdge, noEdge}
	}
	k := 0
	for r := range size {
		for c := range size {
			b.all |= 1 << uint(SquareAt(r, c).index())
		}
		for c := 0; c < size-1; c++ {
			w, err := wallDigit(walls, k, lead)
			if err != nil {
				return nil, err
			}
			b.setEdge(SquareAt(r, c), right, w)
			k++
		}
		if r == size-1 {
			break
		}
		for c := range size {
			w, err := wallDigit(walls, k, lead)
			if err != nil {
				return nil, err
			}
			b.setEdge(SquareAt(r, c), down, w)
			k++
		}
	}
	return b, nil
}

// MustParseBoard is ParseBoard for boards known to be valid, such as test
// fixtures; it panics on error.
func MustParseBoard(size int, walls string) *Board {
	b, err := ParseBoard(size, walls)
	if err != nil {
		panic(err)
	}
	return b
}

// EmptyBoard is a board of the given size without walls.
func EmptyBoard(size int) (*Board, error) {
	if size != 6 && size != 8 {
		return nil, fmt.Errorf("%w: size %d, want 6 or 8 (B1)", ErrBoard, size)
	}
	return ParseBoard(size, strings.Repeat("0", 2*size*(size-1)))
}

// wallDigit reads digit k of the wall string; lead is the white space cut
// from the front, so the message counts characters as the user wrote them.
func wallDigit(walls string, k, lead int) (uint8, error) {
	ch := walls[k]
	if ch < '0' || ch > '2' {
		return 0, fmt.Errorf("%w: character %d of the wall string is %q, want 0, 1 or 2 (B4)", ErrBoard, lead+k+1, ch)
	}
	return ch - '0', nil
}

func (b *Board) setEdge(s Square, d direction, w uint8) {
	n := SquareAt(int(s.Row)+dRow[d], int(s.Col)+dCol[d])
	b.edge[s.index()][d] = w
	b.edge[n.index()][d^2] = w // opposite direction: up<->down, right<->left
}

// neighbour is the square next to i in direction d; ok is false at the border.
func (b *Board) neighbour(i int, d direction) (int, bool) {
	if b.edge[i][d] == noEdge {
		return 0, false
	}
	return i + dRow[d]*MaxSize + dCol[d], true
}
