package less

import "strconv"

// Budget is the number of points a turn has (M1).
const Budget = 3

// Outcome is what an accepted turn did.
type Outcome struct {
	// Used is the points the moves cost.
	Used int
	// Counted is the points added to the mover's count (T4): 3, except in the
	// turn in which the mover's side became complete, where only Used counts.
	Counted int
	// Completed reports whether the mover's side is complete after the turn.
	Completed bool
}

// TurnState is a turn being made, move by move: the position after the moves
// so far and the points they cost. It is what the play page walks through,
// and what judging a whole turn uses (T5: a turn is judged as a whole, so
// nothing changes until End).
type TurnState struct {
	pos   Position
	used  int
	moves int
}

// BeginTurn starts the mover's turn from p with the full budget.
func (p Position) BeginTurn() TurnState { return TurnState{pos: p} }

// Position is the placement after the moves so far (still the same mover).
func (s *TurnState) Position() Position { return s.pos }

// Used is the points spent so far; Left what remains of Budget.
func (s *TurnState) Used() int { return s.used }

// Left is the points still available in this turn.
func (s *TurnState) Left() int { return Budget - s.used }

// MovesMade is the number of moves played so far.
func (s *TurnState) MovesMade() int { return s.moves }

// Mover is the colour whose pieces may move now: the mover's own, or in the
// four-player game his partner's once all his own are home (M6).
func (s *TurnState) Mover() Color { return s.pos.movable() }

// SideComplete reports whether the mover's side is complete, which ends the turn (T1).
func (s *TurnState) SideComplete() bool { return s.pos.Complete(SideOf(s.pos.toMove)) }

// Play checks move m against the rules in N3's order and applies it. On
// error the state is unchanged and the error is a *TurnError whose Index is
// the number of moves played before m.
func (s *TurnState) Play(m Move) error {
	cost, err := s.check(m)
	if err != nil {
		return err
	}
	s.apply(m, cost)
	return nil
}

func (s *TurnState) apply(m Move, cost int) {
	from, to := m.From.index(), m.To.index()
	bits := Bitboard(1)<<uint(from) | Bitboard(1)<<uint(to)
	for c := range s.pos.pieces {
		if s.pos.pieces[c].has(from) {
			s.pos.pieces[c] ^= bits
			break
		}
	}
	s.used += cost
	s.moves++
}

// check judges one move against the codes off_board … over_budget, in order,
// and returns its cost.
func (s *TurnState) check(m Move) (int, error) {
	p := &s.pos
	b := p.board
	i := s.moves
	if !m.From.OnBoard(b.size) {
		return 0, moveError(CodeOffBoard, i, "%s is off the %dx%d board (M4)", m.From, b.size, b.size)
	}
	if !m.To.OnBoard(b.size) {
		return 0, moveError(CodeOffBoard, i, "%s is off the %dx%d board: nothing leaves the board (M4)", m.To, b.size, b.size)
	}
	if s.SideComplete() {
		return 0, moveError(CodeSideComplete, i, "all pieces of %s are home, so the turn is over: %s comes too late (T1)", sideOfName(p), m)
	}
	from, to := m.From.index(), m.To.index()
	occ := p.occupied()
	if !occ.has(from) {
		return 0, moveError(CodeEmptySquare, i, "there is no piece on %s to move (M2, M3)", m.From)
	}
	if mine := p.movable(); !p.pieces[mine].has(from) {
		owner, _ := p.PieceAt(m.From)
		if mine != p.toMove {
			return 0, moveError(CodeNotYourPiece, i, "the piece on %s is %s; all of %s's pieces are home, so %s moves %s's pieces (M6)", m.From, owner, p.toMove, p.toMove, mine)
		}
		return 0, moveError(CodeNotYourPiece, i, "the piece on %s is %s; %s moves only %s pieces (M6)", m.From, owner, p.toMove, mine)
	}
	dr, dc := int(m.To.Row-m.From.Row), int(m.To.Col-m.From.Col)
	dist := abs(dr) + abs(dc)
	if (dr != 0 && dc != 0) || dist < 1 || dist > 2 {
		return 0, moveError(CodeNotAMove, i, "%s to %s is not a move: a piece steps to a neighbouring square or jumps two squares in a straight line (M4)", m.From, m.To)
	}
	if occ.has(to) {
		return 0, moveError(CodeOccupied, i, "%s is taken: pieces never share a square (M4)", m.To)
	}
	d := directionOf(dr, dc)
	if dist == 1 {
		cost := 1 + int(b.edge[from][d])
		if cost > s.Left() {
			return 0, moveError(CodeOverBudget, i, "%s costs %d (%s) but only %d of 3 points are left (M5)", m, cost, wallWords(cost-1), s.Left())
		}
		return cost, nil
	}
	mid, _ := b.neighbour(from, d)
	if !occ.has(mid) {
		return 0, moveError(CodeNothingToJump, i, "%s jumps over %s, which is empty: a jump needs a piece to jump over (M3)", m, squareOf(mid))
	}
	if b.edge[from][d] != 0 || b.edge[mid][d] != 0 {
		return 0, moveError(CodeWallInJump, i, "%s would jump across a wall: a jump never crosses a wall (M3)", m)
	}
	if s.Left() < 1 {
		return 0, moveError(CodeOverBudget, i, "%s costs 1 but no points are left (M5)", m)
	}
	return 1, nil
}

// CanEnd reports whether the turn may stop here (T1, T2, T3).
func (s *TurnState) CanEnd() bool { return s.endError() == nil }

func (s *TurnState) endError() error {
	if s.used == Budget || s.SideComplete() || (s.pos.earlyStop && s.moves > 0) {
		return nil
	}
	if m, ok := s.anyMove(); ok {
		if s.moves == 0 {
			return &TurnError{Code: CodeIncomplete, Index: NoIndex,
				Message: "a turn without moves (Nil) is allowed only when no legal move is possible, and " + m.String() + " is (T2)"}
		}
		return &TurnError{Code: CodeIncomplete, Index: NoIndex,
			Message: "the turn stops with " + strconv.Itoa(s.Left()) + " of 3 points left while a legal move such as " + m.String() + " fits: a turn spends all 3 points (T1)"}
	}
	return nil
}

// End finishes the turn: it returns the position with the next colour to
// move and the outcome, or a *TurnError with code incomplete.
func (s *TurnState) End() (Position, Outcome, error) {
	if err := s.endError(); err != nil {
		return Position{}, Outcome{}, err
	}
	out := Outcome{Used: s.used, Counted: Budget, Completed: s.SideComplete()}
	if out.Completed {
		out.Counted = s.used
	}
	next := s.pos
	next.toMove = next.next(next.toMove)
	return next, out, nil
}

// Check judges a whole turn (N3) without applying it.
func (p Position) Check(t Turn) (Outcome, error) {
	_, out, err := p.Play(t)
	return out, err
}

// Play judges a whole turn (N3) and, if it is legal, returns the position
// after it, with the next colour to move. On error p is unchanged (T5).
func (p Position) Play(t Turn) (Position, Outcome, error) {
	s := p.BeginTurn()
	for _, m := range t {
		if err := s.Play(m); err != nil {
			return p, Outcome{}, err
		}
	}
	next, out, err := s.End()
	if err != nil {
		return p, Outcome{}, err
	}
	return next, out, nil
}

// anyMove finds one legal move within the points left, if any.
func (s *TurnState) anyMove() (Move, bool) {
	var found Move
	ok := false
	s.eachMove(func(m Move, _ int) bool {
		found, ok = m, true
		return false
	})
	return found, ok
}

// eachMove calls yield for every legal move within the points left, with its
// cost, until yield returns false. It yields nothing once the side is complete.
func (s *TurnState) eachMove(yield func(Move, int) bool) {
	if s.SideComplete() {
		return
	}
	p := &s.pos
	b := p.board
	left := s.Left()
	occ := p.occupied()
	for own := p.pieces[p.movable()]; own != 0; own &= own - 1 {
		from := trailingZeros(own)
		for d := range direction(4) {
			n, ok := b.neighbour(from, d)
			if !ok {
				continue
			}
			if !occ.has(n) {
				if cost := 1 + int(b.edge[from][d]); cost <= left && !yield(Move{squareOf(from), squareOf(n)}, cost) {
					return
				}
				continue
			}
			if b.edge[from][d] != 0 || left < 1 {
				continue
			}
			if land, ok := b.neighbour(n, d); ok && b.edge[n][d] == 0 && !occ.has(land) {
				if !yield(Move{squareOf(from), squareOf(land)}, 1) {
					return
				}
			}
		}
	}
}

// MoveOption is a legal move of one piece with what it costs.
type MoveOption struct {
	To   Square
	Cost int
	Jump bool
}

// MovesFrom lists the legal moves of the piece on from within the points left
// (for the play page), or nil if there is none or it is not the mover's to move.
func (s *TurnState) MovesFrom(from Square) []MoveOption {
	var out []MoveOption
	s.eachMove(func(m Move, cost int) bool {
		if m.From == from {
			dist := abs(int(m.To.Row-m.From.Row)) + abs(int(m.To.Col-m.From.Col))
			out = append(out, MoveOption{To: m.To, Cost: cost, Jump: dist == 2})
		}
		return true
	})
	return out
}

func directionOf(dr, dc int) direction {
	switch {
	case dr < 0:
		return up
	case dr > 0:
		return down
	case dc > 0:
		return right
	default:
		return left
	}
}

func wallWords(walls int) string {
	switch walls {
	case 0:
		return "a step"
	case 1:
		return "a step across a wall"
	default:
		return "a step across a double wall"
	}
}

func sideOfName(p *Position) string { return SideName(SideOf(p.toMove), p.Size()) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
