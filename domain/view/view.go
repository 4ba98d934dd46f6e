// Package view describes a game's board as something to draw: cells with
// their coordinates and names, walls, pieces, highlighted cells and the path
// of the last turn. A ruleset builds it; the play page and the email pictures
// draw it without knowing the rules (how to read a wall string, what a move
// costs, which corner is whose).
//
// Coordinates are whole rows and columns of the board's Layout. The renderer
// turns them into pixels; everything else a picture shows is named here.
package view

// Layouts: how a board's cells lie, so a renderer knows how to place them.
const (
	// Squares: cells are squares of a grid, Row 0 at the top and Col 0 at
	// the left; walls lie on the edges between orthogonal neighbours.
	Squares = "squares"
	// Points: cells are the points of a triangular grid (Les's hexagonal
	// board), where each inner point touches six others. Row 0 is the top
	// row; Col counts half-steps from the left, so that rows stagger: with
	// spacing the distance between two touching points, a renderer puts a
	// point at x = Col/2 × spacing, y = Row × spacing × √3/2. Two points
	// touch when they are in one row and 2 apart in Col, or in neighbouring
	// rows and 1 apart. Labels sit on the same grid (a row's label one
	// whole step, Col − 2, before its first point, which may make Col
	// negative). Boards of points have no walls; pieces are stones placed
	// on points, so a Path step of a placement has an empty From.
	Points = "points"
)

// Board is a board to draw.
type Board struct {
	// Layout is how the cells lie (Squares).
	Layout string `json:"layout"`
	// Rows and Cols are the extent of the cells' coordinates: rows 0..Rows-1
	// and columns 0..Cols-1.
	Rows int `json:"rows"`
	Cols int `json:"cols"`
	// Cells are the board's cells, in reading order (row by row).
	Cells []Cell `json:"cells"`
	// Labels are the coordinates written beside the board, placed like
	// cells: a row or column of -1 is the margin before the first.
	Labels []Label `json:"labels"`
	// Walls are the edges that carry walls, row by row; edges without walls
	// are left out. Where walls meet, the later one is drawn on top.
	Walls []Wall `json:"walls"`
	// Pieces are the pieces on the board, by colour in turn order, then in
	// reading order. Drawing them in this order gives the same picture
	// every time.
	Pieces []Piece `json:"pieces"`
	// Highlights are sets of cells to mark, such as a colour's target.
	Highlights []Highlight `json:"highlights"`
	// Path is the last turn's moves, in order; empty when there is none to
	// show.
	Path []Step `json:"path"`
}

// Cell is one cell of the board.
type Cell struct {
	Name string `json:"name"` // in the game's notation, e.g. "e5"
	Row  int    `json:"row"`
	Col  int    `json:"col"`
}

// Label is a coordinate written at a position off the board.
type Label struct {
	Text string `json:"text"`
	Row  int    `json:"row"`
	Col  int    `json:"col"`
}

// Wall is the wall (or walls) on the edge between two neighbouring cells.
type Wall struct {
	Between [2]string `json:"between"` // the two cells' names
	Count   int       `json:"count"`   // 1 a single wall, 2 a double wall
}

// Piece is a piece of a colour on a cell.
type Piece struct {
	Cell  string `json:"cell"`
	Color string `json:"color"`
}

// Highlight kinds.
const (
	// Target marks the cells a colour's pieces must reach.
	Target = "target"
	// Hole marks one hole a colour owns at the end of a game of Les: empty
	// points bordered only by that colour's stones. Each hole is its own
	// Highlight, so that a picture can tell them apart.
	Hole = "hole"
)

// Highlight is a set of cells to mark, of a kind and for a colour.
type Highlight struct {
	Kind  string   `json:"kind"`
	Color string   `json:"color"`
	Cells []string `json:"cells"`
}

// Step is one move of a path: a piece went from one cell to another.
type Step struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// CellAt returns the cell named name.
func (b *Board) CellAt(name string) (Cell, bool) {
	for _, c := range b.Cells {
		if c.Name == name {
			return c, true
		}
	}
	return Cell{}, false
}
