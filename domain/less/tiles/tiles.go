// Package tiles owns the tile set of lesspost and the seeded board
// generator (rules B3-B5).
//
// A board of n x n squares is laid from (n/2)^2 tiles of 2x2 squares, each in
// one of 4 rotations. A wall is printed on one side of one square, so the
// wall count of an edge is the number of its two adjoining squares whose side
// carries a wall: two tiles with walls on their shared border make a double
// wall. Walls on the outer border of the board do nothing and are dropped.
package tiles

import (
	"fmt"
	"strings"
)

// Side is a side of a square, in clockwise order so that a quarter turn
// clockwise is +1 mod 4.
type Side uint8

const (
	N Side = iota
	E
	S
	W
)

func (s Side) String() string { return string("NESW"[s&3]) }

// Wall is a wall printed on one side of one square of a tile. Row and Col
// are 0 or 1, with (0, 0) the tile's top-left square.
type Wall struct {
	Row, Col int
	Side     Side
}

// Tile is a 2x2 tile: the walls printed on it (0 to 3), in its unrotated
// orientation.
type Tile []Wall

// Rotate returns the tile turned q quarter turns clockwise (any q; it is
// taken mod 4).
func (t Tile) Rotate(q int) Tile {
	q = (q%4 + 4) % 4
	out := make(Tile, len(t))
	for i, w := range t {
		for range q {
			// Clockwise on a 2x2 grid: TL -> TR -> BR -> BL -> TL.
			w = Wall{Row: w.Col, Col: 1 - w.Row, Side: (w.Side + 1) % 4}
		}
		out[i] = w
	}
	return out
}

// set is the lesspost tile set. It is part of the board format: changing a
// tile changes every generated board, so it is frozen (TestGolden guards it).
//
// Drawings: each tile is 2x2 squares, '|' and '-' are walls, '.' marks a
// side without a wall. A wall on the tile's border faces the neighbouring
// tile and doubles with any wall that tile prints on the same edge.
// Inner walls are those between two squares of the same tile.
var set = [12]Tile{
	// 0 plain        +.+.+
	//                . . .
	//                +.+.+
	//                . . .
	//                +.+.+
	{},
	// 1 inner stub   +.+.+
	//                . | .
	//                +.+.+
	//                . . .
	//                +.+.+
	{{0, 0, E}},
	// 2 border stub  +-+.+
	//                . . .
	//                +.+.+
	//                . . .
	//                +.+.+
	{{0, 0, N}},
	// 3 inner corner +.+.+
	//                . | .
	//                +-+.+
	//                . . .
	//                +.+.+
	{{0, 0, E}, {0, 0, S}},
	// 4 inner fence  +.+.+
	//                . | .
	//                +.+.+
	//                . | .
	//                +.+.+
	{{0, 0, E}, {1, 0, E}},
	// 5 border side  +-+-+
	//                . . .
	//                +.+.+
	//                . . .
	//                +.+.+
	{{0, 0, N}, {0, 1, N}},
	// 6 outer corner +-+.+
	//                | . .
	//                +.+.+
	//                . . .
	//                +.+.+
	{{0, 0, N}, {0, 0, W}},
	// 7 stub + foot  +.+.+
	//                . | .
	//                +.+.+
	//                . . .
	//                +.+-+
	{{0, 0, E}, {1, 1, S}},
	// 8 shelf + post +.+.+
	//                | . .
	//                +.+-+
	//                . . .
	//                +.+.+
	{{0, 1, S}, {0, 0, W}},
	// 9 zigzag       +.+.+
	//                . . |
	//                +-+.+
	//                . | .
	//                +.+.+
	{{0, 0, S}, {0, 1, E}, {1, 1, W}},
	// 10 hook        +-+.+
	//                | . .
	//                +.+-+
	//                . . .
	//                +.+.+
	{{0, 0, N}, {0, 0, W}, {1, 1, N}},
	// 11 gate        +.+-+
	//                . . .
	//                +.+.+
	//                . | |
	//                +.+.+
	{{0, 1, N}, {1, 0, E}, {1, 1, E}},
}

// Set returns the 12 tiles of the lesspost tile set, in their fixed order.
// The result is a copy.
func Set() []Tile {
	out := make([]Tile, len(set))
	for i, t := range set {
		out[i] = append(Tile{}, t...)
	}
	return out
}

// Walls generates the board of the given size (6 or 8) for seed and returns
// its wall string (B4). The same size and seed give the same board forever.
//
// From one splitmix64 stream seeded with seed, in this order:
//   - shuffle "box one", the 12 tiles of the set (Fisher-Yates);
//   - 8x8 only: shuffle "box two", a second full set; 16 slots take the 12
//     tiles of box one followed by the first 4 of box two;
//   - one rotation (0-3 quarter turns clockwise) per slot.
//
// Slots are filled in reading order: tile rows from the top, each from the
// left.
func Walls(size int, seed uint64) (string, error) {
	if size != 6 && size != 8 {
		return "", fmt.Errorf("tiles: board size %d, want 6 or 8", size)
	}
	idx, rot := deal(size, seed)
	laid := make([]Tile, len(idx))
	for i := range idx {
		laid[i] = set[idx[i]].Rotate(rot[i])
	}
	return lay(size, laid), nil
}

// deal picks, for each slot, the index of its tile in set and its rotation.
func deal(size int, seed uint64) (idx, rot []int) {
	r := &splitmix64{state: seed}
	slots := size / 2 * (size / 2)
	idx = r.perm(len(set))
	for len(idx) < slots {
		idx = append(idx, r.perm(len(set))...)
	}
	idx = idx[:slots]
	rot = make([]int, slots)
	for i := range rot {
		rot[i] = r.intn(4)
	}
	return idx, rot
}

// lay places the (already rotated) tiles in reading order on a size x size
// board and writes the B4 wall string.
func lay(size int, laid []Tile) string {
	// printed[r][c][s]: 1 when square (r, c) carries a wall on side s.
	printed := make([][][4]byte, size)
	for r := range printed {
		printed[r] = make([][4]byte, size)
	}
	per := size / 2
	for i, t := range laid {
		r0, c0 := i/per*2, i%per*2
		for _, w := range t {
			printed[r0+w.Row][c0+w.Col][w.Side] = 1
		}
	}
	var b strings.Builder
	b.Grow(2 * size * (size - 1))
	for r := range size {
		for c := range size - 1 {
			b.WriteByte('0' + printed[r][c][E] + printed[r][c+1][W])
		}
		if r == size-1 {
			break
		}
		for c := range size {
			b.WriteByte('0' + printed[r][c][S] + printed[r+1][c][N])
		}
	}
	return b.String()
}

// splitmix64 is Vigna's SplitMix64 generator. It is spelled out here rather
// than taken from math/rand so that a seed's board can never change with the
// Go version.
type splitmix64 struct{ state uint64 }

func (r *splitmix64) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a uniform int in [0, n), n > 0, by rejection sampling: draws
// in the incomplete last block of n values are discarded, so there is no
// modulo bias.
func (r *splitmix64) intn(n int) int {
	un := uint64(n)
	limit := -un % un // 2^64 mod n: the size of the incomplete block
	for {
		if x := r.next(); x >= limit {
			return int(x % un)
		}
	}
}

// perm returns a Fisher-Yates shuffle of 0..n-1.
func (r *splitmix64) perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := r.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}
