package les

import (
	"fmt"
	"strconv"
)

// Board sizes (LB1): the side is the number of points along each of the
// hexagon's six edges.
const (
	MinSide     = 3
	MaxSide     = 13
	DefaultSide = 9
	// MaxPoints is the number of points of the largest board.
	MaxPoints = 3*MaxSide*(MaxSide-1) + 1
)

// Point names a point (LB2): Row 0 is row a (the top), Pos 0 is position 1
// (the left end of its row).
//
// A Point may lie off every board: parsed notation keeps names such as "a0"
// or "z40" so that a ply can be refused as off_board at the right point
// (LN4) and the message can name the point the player wrote.
type Point struct {
	Row, Pos int16
}

// maxNumber bounds the position number kept from notation; any larger number
// is off the board all the same, and clamping keeps absurd input harmless.
const maxNumber = 9999

// String writes the point in notation (LB2), e.g. "e5", lower case.
func (p Point) String() string {
	if p.Row < 0 || p.Row >= 26 {
		return fmt.Sprintf("(%d,%d)", p.Row, p.Pos)
	}
	return string(rune('a'+p.Row)) + strconv.Itoa(int(p.Pos)+1)
}

// ParsePoint reads one point name (LN0): a row letter in either case and a
// position number without leading zeros. The point may be off the board;
// only the form is checked here.
func ParsePoint(s string) (Point, error) {
	p, n, ok := scanPoint(s)
	if !ok || n != len(s) {
		return Point{}, syntaxError("%q is not a point: write a row letter and a number, like e5 (LN0)", clip(s))
	}
	return p, nil
}

// scanPoint reads a point name at the start of s and reports how many bytes
// it used. It stops after the digits: what follows is the caller's to judge.
func scanPoint(s string) (p Point, n int, ok bool) {
	if len(s) < 2 {
		return Point{}, 0, false
	}
	c := s[0] | 0x20 // lower case for ASCII letters
	if c < 'a' || c > 'z' {
		return Point{}, 0, false
	}
	num := 0
	n = 1
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		num = min(num*10+int(s[n]-'0'), maxNumber+1)
		n++
	}
	// At least one digit, and no leading zero: "a0" is a name (off every
	// board), "a01" is not (LN0).
	if n == 1 || (s[1] == '0' && n > 2) {
		return Point{}, 0, false
	}
	return Point{Row: int16(c - 'a'), Pos: int16(num - 1)}, n, true
}

// Board is the hexagonal board of one side (LB1–LB4): its points in reading
// order, their names, neighbours and cube coordinates. Boards are built once
// per side and shared read-only; BoardOf returns them.
type Board struct {
	side     int
	rowStart []int // index of each row's first point, and the number of points last
	pts      []pointInfo
	// touch[i] is the set of the points that touch point i (LB3).
	touch []set
	all   set
}

// pointInfo is what the board knows of one point.
type pointInfo struct {
	row, pos int16
	x, z     int8 // cube coordinates; y = -x-z
	degree   uint8
	nbr      [6]int16 // the neighbours in board order, degree of them
	name     string
}

// The six unit steps of the triangular grid as (dx, dz) in cube
// coordinates (LB3).
var steps = [6][2]int{{1, -1}, {0, -1}, {-1, 0}, {1, 0}, {0, 1}, {-1, 1}}

var boards = func() (out [MaxSide + 1]*Board) {
	for s := MinSide; s <= MaxSide; s++ {
		out[s] = newBoard(s)
	}
	return out
}()

// BoardOf returns the board of a side, MinSide to MaxSide (LB1).
func BoardOf(side int) (*Board, error) {
	if side < MinSide || side > MaxSide {
		return nil, fmt.Errorf("%w: side %d, want %d to %d (LB1)", ErrBoard, side, MinSide, MaxSide)
	}
	return boards[side], nil
}

// MustBoard is BoardOf for sides known to be valid; it panics otherwise.
func MustBoard(side int) *Board {
	b, err := BoardOf(side)
	if err != nil {
		panic(err)
	}
	return b
}

func newBoard(s int) *Board {
	rows := 2*s - 1
	b := &Board{side: s, rowStart: make([]int, rows+1)}
	for r := range rows {
		b.rowStart[r+1] = b.rowStart[r] + s + min(r, 2*s-2-r)
	}
	n := b.rowStart[rows]
	b.pts = make([]pointInfo, n)
	b.touch = make([]set, n)
	for r := range rows {
		z := r - (s - 1)
		for c := range b.rowLen(r) {
			i := b.rowStart[r] + c
			b.pts[i] = pointInfo{row: int16(r), pos: int16(c), x: int8(b.minX(z) + c), z: int8(z),
				name: Point{Row: int16(r), Pos: int16(c)}.String()}
			b.all.add(i)
		}
	}
	for i := range b.pts {
		p := &b.pts[i]
		for _, d := range steps {
			if j, ok := b.cube(int(p.x)+d[0], int(p.z)+d[1]); ok {
				b.touch[i].add(j)
			}
		}
		b.touch[i].each(func(j int) bool {
			p.nbr[p.degree] = int16(j)
			p.degree++
			return true
		})
	}
	return b
}

// minX is the cube x of the first point of the row at cube z: the points
// of a row are ordered by x (LB3).
func (b *Board) minX(z int) int { return max(-(b.side - 1), -(b.side-1)-z) }

func (b *Board) rowLen(r int) int { return b.rowStart[r+1] - b.rowStart[r] }

// cube is the index of the point at cube coordinates (x, -x-z, z).
func (b *Board) cube(x, z int) (int, bool) {
	r := z + b.side - 1
	if r < 0 || r >= b.Rows() {
		return 0, false
	}
	c := x - b.minX(z)
	if c < 0 || c >= b.rowLen(r) {
		return 0, false
	}
	return b.rowStart[r] + c, true
}

// Side is the number of points along each edge of the hexagon (LB1).
func (b *Board) Side() int { return b.side }

// Rows is the number of rows, 2·side−1.
func (b *Board) Rows() int { return len(b.rowStart) - 1 }

// RowLen is the number of points in row r (0 = a).
func (b *Board) RowLen(r int) int { return b.rowLen(r) }

// Points is the number of points: 217 on the default board.
func (b *Board) Points() int { return len(b.pts) }

// Index is the 0-based reading-order index of a point, if it is on the board.
func (b *Board) Index(p Point) (int, bool) {
	r, c := int(p.Row), int(p.Pos)
	if r < 0 || r >= b.Rows() || c < 0 || c >= b.rowLen(r) {
		return 0, false
	}
	return b.rowStart[r] + c, true
}

// Contains reports whether the point is on the board.
func (b *Board) Contains(p Point) bool {
	_, ok := b.Index(p)
	return ok
}

// PointAt is the point of an index, 0 to Points()-1.
func (b *Board) PointAt(i int) Point { return Point{Row: b.pts[i].row, Pos: b.pts[i].pos} }

// name is the notation of the point of an index.
func (b *Board) name(i int) string { return b.pts[i].name }

// Neighbours lists the points that touch p (LB3), in board order; none for a
// point off the board.
func (b *Board) Neighbours(p Point) []Point {
	i, ok := b.Index(p)
	if !ok {
		return nil
	}
	out := make([]Point, b.pts[i].degree)
	for k := range out {
		out[k] = b.PointAt(int(b.pts[i].nbr[k]))
	}
	return out
}

// Touch reports whether two points of the board touch (LB3).
func (b *Board) Touch(p, q Point) bool {
	i, ok1 := b.Index(p)
	j, ok2 := b.Index(q)
	return ok1 && ok2 && b.touch[i].has(j)
}

// InLine reports whether two points of the board are in line at distance 2
// (LB4): the one is reached from the other by two steps in one direction.
func (b *Board) InLine(p, q Point) bool {
	i, ok1 := b.Index(p)
	j, ok2 := b.Index(q)
	return ok1 && ok2 && b.inLine(i, j)
}

func (b *Board) inLine(i, j int) bool {
	dx := int(b.pts[j].x) - int(b.pts[i].x)
	dz := int(b.pts[j].z) - int(b.pts[i].z)
	dy := -dx - dz
	// Twice a unit step is one coordinate unchanged and the other two ±2;
	// with dx+dy+dz = 0 those are exactly the differences whose squares sum
	// to 8 (a single step sums to 2, other points two apart to 6).
	return dx*dx+dy*dy+dz*dz == 8
}

// points lists the points of a set in board order.
func (b *Board) points(s set) []Point {
	out := make([]Point, 0, s.count())
	s.each(func(i int) bool {
		out = append(out, b.PointAt(i))
		return true
	})
	return out
}

// names lists the names of the points of a set in board order.
func (b *Board) names(s set) []string {
	out := make([]string, 0, s.count())
	s.each(func(i int) bool {
		out = append(out, b.name(i))
		return true
	})
	return out
}
