package les

// judging a placement: each point of a ply is checked in order on the board
// the points before it left (LN4): off_board, occupied, then the point's own
// rule.

// onBoard is the index of pt, or the off_board or occupied error for the
// k-th point; rule is the rule that wants the point empty.
func (p Position) onBoard(k int, pt Point, rule string) (int, *PlyError) {
	i, ok := p.board.Index(pt)
	if !ok {
		return 0, pointError(CodeOffBoard, k, "%s is not on this board (%s) (LB1)", pt, p.board.extent(pt))
	}
	if c, taken := p.StoneAt(pt); taken {
		return 0, pointError(CodeOccupied, k, "%s already holds a %s stone (%s)", pt, c, rule)
	}
	return i, nil
}

// extent says which names the board has, near the row of pt.
func (b *Board) extent(pt Point) string {
	last := 'a' + rune(b.Rows()-1)
	if r := int(pt.Row); r >= 0 && r < b.Rows() {
		return "row " + string(rune('a'+r)) + " has points 1 to " + itoa(b.rowLen(r))
	}
	return "rows a to " + string(last)
}

// SetupState is a setup being placed stone by stone (LS2): what the page
// asks Legal about while the setter places his four stones.
type SetupState struct {
	pos Position
	idx [4]int
	n   int
}

// BeginSetup starts a setup on the empty board b.
func BeginSetup(b *Board) SetupState { return SetupState{pos: EmptyPosition(b)} }

// Placed is the number of stones placed so far.
func (s *SetupState) Placed() int { return s.n }

// Position is the board with the stones placed so far, Black to move.
func (s *SetupState) Position() Position { return s.pos }

// Add judges and places the next stone of the setup (LS2, LN4).
func (s *SetupState) Add(pt Point) *PlyError {
	k := s.n
	if k == 4 {
		return syntaxError("a setup is four points (LN1)")
	}
	i, err := s.pos.onBoard(k, pt, "LS2")
	if err != nil {
		return err
	}
	switch k {
	case 1:
		if !s.pos.board.touch[s.idx[0]].has(i) {
			return pointError(CodeSetupNotTouching, k, "the white stone %s must touch the first black stone, %s (LS2)",
				pt, s.pos.board.name(s.idx[0]))
		}
	case 3:
		if !s.pos.board.inLine(s.idx[2], i) {
			return pointError(CodeSetupNotInLine, k,
				"the second white stone %s must be in line with the second black stone, %s, two steps away (LS2, LB4)",
				pt, s.pos.board.name(s.idx[2]))
		}
	}
	s.pos.place(i, ColorOfSetupStone(k))
	s.idx[k] = i
	s.n++
	return nil
}

// Next lists where the next stone of the setup may go, in board order;
// none once the four are placed.
func (s *SetupState) Next() []Point {
	b := s.pos.board
	free := b.all.andNot(s.pos.occupied())
	switch s.n {
	case 1:
		free = free.and(b.touch[s.idx[0]])
	case 3:
		var line set
		free.each(func(i int) bool {
			if b.inLine(s.idx[2], i) {
				line.add(i)
			}
			return true
		})
		free = line
	case 4:
		return []Point{}
	}
	return b.points(free)
}

// SetUp judges a whole setup on the empty board b (LS2, LN4) and returns the
// position it makes, Black to move (LS4).
func SetUp(b *Board, setup Setup) (Position, error) {
	s := BeginSetup(b)
	for _, pt := range setup {
		if err := s.Add(pt); err != nil {
			return Position{}, err
		}
	}
	return s.pos, nil
}

// TurnState is a turn being placed (LT1–LT3): the position after the
// placements so far.
type TurnState struct {
	pos   Position // the mover is pos.toMove until End
	first int      // the first placement's index
	n     int
}

// BeginTurn starts the mover's turn.
func (p Position) BeginTurn() TurnState { return TurnState{pos: p} }

// Placed is the number of stones placed so far in the turn.
func (s *TurnState) Placed() int { return s.n }

// Position is the board with the turn's stones placed so far, the mover
// still to move.
func (s *TurnState) Position() Position { return s.pos }

// Add judges and places the turn's next stone (LT1, LT2, LN4).
func (s *TurnState) Add(pt Point) *PlyError {
	k := s.n
	if k == 2 {
		return syntaxError("a turn is one or two points (LN3)")
	}
	i, err := s.pos.onBoard(k, pt, [2]string{"LT1", "LT2"}[k])
	if err != nil {
		return err
	}
	mover := s.pos.toMove
	if k == 0 && !s.pos.firsts().has(i) {
		missing := "no stone"
		switch {
		case s.pos.near[mover].has(i):
			missing = "no " + mover.Other().String() + " stone"
		case s.pos.near[mover.Other()].has(i):
			missing = "no " + mover.String() + " stone"
		}
		return pointError(CodeNotTouchingBoth, k, "%s touches %s: the first placement must touch both a black and a white stone (LT1)", pt, missing)
	}
	if k == 1 && (s.pos.near[Black].has(i) || s.pos.near[White].has(i)) {
		return pointError(CodeNotIsolated, k, "%s touches a stone: the second placement must touch none (LT2)", pt)
	}
	s.pos.place(i, mover)
	if k == 0 {
		s.first = i
	}
	s.n++
	return nil
}

// CanEnd reports whether the turn may stop here: after two placements, or
// after the first when no empty point touches no stone (LT3).
func (s *TurnState) CanEnd() bool {
	return s.n == 2 || (s.n == 1 && s.pos.isolated().empty())
}

// Next lists where the turn's next stone may go, in board order: the first
// placements (LT1), then the second (LT2); none after two.
func (s *TurnState) Next() []Point {
	switch s.n {
	case 0:
		return s.pos.FirstPlacements()
	case 1:
		return s.pos.Isolated()
	}
	return []Point{}
}

// End ends the turn: the position after it, the other colour to move.
func (s *TurnState) End() (Position, error) {
	if !s.CanEnd() {
		if s.n == 0 {
			return Position{}, syntaxError("a turn is one or two points (LN3)")
		}
		iso := s.pos.isolated()
		return Position{}, &PlyError{Code: CodeIncomplete, Index: NoIndex,
			Message: "the turn needs a second placement: " + itoa(iso.count()) + " empty points touch no stone, such as " +
				s.pos.board.name(iso.first()) + " (LT3)"}
	}
	next := s.pos
	next.toMove = next.toMove.Other()
	return next, nil
}

// Play judges the mover's turn (LT1–LT3, LN4) and returns the position after
// it, the other colour to move. On error p is as it was.
func (p Position) Play(t Turn) (Position, error) {
	if len(t) == 0 || len(t) > 2 {
		return Position{}, syntaxError("a turn is one or two points, not %d (LN3)", len(t))
	}
	s := p.BeginTurn()
	for _, pt := range t {
		if err := s.Add(pt); err != nil {
			return Position{}, err
		}
	}
	return s.End()
}
