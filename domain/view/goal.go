package view

// Goal is what a colour plays for, said the way a player sees the board as
// drawn (a1 at the top left, whatever his colour): the play page and the
// invitation both say its Phrase, so that they say the same.
type Goal struct {
	// Kind is GoalCorner for a race to a corner (Less), GoalHoles for
	// owning holes (Les).
	Kind string
	// From and To are the target corner's first and last cells in reading
	// order ("a1", "b2"), Pieces how many pieces go there, Corner where it
	// lies on the board as drawn (CornerTopLeft, …). Only for GoalCorner.
	From, To string
	Pieces   int
	Corner   string
	// Partner says the colour has a partner whose pieces it moves once its
	// own are home (Less with four players, rule M6).
	Partner bool
}

// Goal kinds.
const (
	GoalCorner = "corner"
	GoalHoles  = "holes"
)

// Corners of a board as drawn.
const (
	CornerTopLeft     = "top-left"
	CornerTopRight    = "top-right"
	CornerBottomLeft  = "bottom-left"
	CornerBottomRight = "bottom-right"
)

// GoalOf is the goal of color on board b: reaching its target cells on a
// board of squares, owning holes on a board of points. partner says color
// has a partner (see Goal.Partner). ok is false when a board of squares
// marks no target for color.
func GoalOf(b Board, color string, partner bool) (g Goal, ok bool) {
	if b.Layout == Points {
		return Goal{Kind: GoalHoles}, true
	}
	var cells []Cell
	for _, h := range b.Highlights {
		if h.Kind != Target || h.Color != color {
			continue
		}
		for _, name := range h.Cells {
			if c, found := b.CellAt(name); found {
				cells = append(cells, c)
			}
		}
	}
	if len(cells) == 0 {
		return Goal{}, false
	}
	first, last := cells[0], cells[0]
	for _, c := range cells[1:] {
		if c.Row < first.Row || c.Row == first.Row && c.Col < first.Col {
			first = c
		}
		if c.Row > last.Row || c.Row == last.Row && c.Col > last.Col {
			last = c
		}
	}
	// The corner is where the target's middle lies: the cells' coordinates
	// twice over, against the board's extent, so no division rounds.
	vert, horiz := "top", "left"
	if first.Row+last.Row >= b.Rows {
		vert = "bottom"
	}
	if first.Col+last.Col >= b.Cols {
		horiz = "right"
	}
	return Goal{Kind: GoalCorner, From: first.Name, To: last.Name, Pieces: len(cells),
		Corner: vert + "-" + horiz, Partner: partner}, true
}

// Words are a message of the edge's catalogue (internal/catalog), by key,
// with its arguments: what a view model says, without words of domain's.
// An argument that is itself Words is said first.
type Words struct {
	Key  string
	Args map[string]any
}

// Phrase is w's key and arguments, as the catalogue says them.
func (w Words) Phrase() (string, map[string]any) { return w.Key, w.Args }

// Phrase is the goal as the catalogue says it, one sentence ending in a
// full stop (no key for the zero Goal, of a board that shows no goal): goal.holes, or goal.corner (goal.cornerPartner for a team
// game) with the pieces (n), the target's first and last cells (from, to)
// and its corner's words (where, goal.where.<corner>).
func (g Goal) Phrase() (string, map[string]any) {
	if g.Kind == "" {
		return "", nil // a board that shows no goal: nothing to say
	}
	if g.Kind == GoalHoles {
		return "goal.holes", nil
	}
	key := "goal.corner"
	if g.Partner {
		key = "goal.cornerPartner"
	}
	return key, map[string]any{"n": g.Pieces, "from": g.From, "to": g.To, "where": Words{Key: "goal.where." + g.Corner}}
}
