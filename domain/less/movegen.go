package less

import "slices"

// maxMovesPerTurn bounds the moves of a legal turn: each costs at least 1 (M1–M3).
const maxMovesPerTurn = Budget

// moveCost is a generated move with its cost.
type moveCost struct {
	m    Move
	cost int
}

// legalMoves appends to buf every legal move within the points left.
func (s *TurnState) legalMoves(buf []moveCost) []moveCost {
	s.eachMove(func(m Move, cost int) bool {
		buf = append(buf, moveCost{m, cost})
		return true
	})
	return buf
}

// EachTurn calls yield with every distinct legal complete turn from p (T1–T3),
// including Nil where it is legal, and the position it leads to, until yield
// returns false. The Turn is only valid during the call: clone it to keep it.
func (p Position) EachTurn(yield func(Turn, Position) bool) {
	var buf [maxMovesPerTurn]Move
	s := p.BeginTurn()
	s.walk(buf[:0], yield)
}

// walk extends the turn so far with every legal continuation; it reports
// false once yield asked to stop.
func (s *TurnState) walk(moves Turn, yield func(Turn, Position) bool) bool {
	emit := func() bool {
		next, _, err := s.End()
		if err != nil {
			panic("less: walk emitted a turn that cannot end: " + err.Error())
		}
		return yield(moves, next)
	}
	if s.used == Budget || s.SideComplete() {
		return emit()
	}
	var buf [4 * 4 * MaxSize]moveCost
	options := s.legalMoves(buf[:0])
	if len(options) == 0 || (s.pos.earlyStop && s.moves > 0) {
		if !emit() {
			return false
		}
	}
	for _, o := range options {
		next := *s
		next.apply(o.m, o.cost)
		if !next.walk(append(moves, o.m), yield) {
			return false
		}
	}
	return true
}

// LegalTurns lists every distinct legal complete turn from p.
func (p Position) LegalTurns() []Turn {
	var out []Turn
	p.EachTurn(func(t Turn, _ Position) bool {
		out = append(out, slices.Clone(t))
		return true
	})
	return out
}

// Perft counts the distinct legal complete turns from p and the distinct
// placements they lead to, like chess "perft": a check of move generation.
func (p Position) Perft() (turns, placements int) {
	seen := make(map[[4]Bitboard]struct{})
	p.EachTurn(func(_ Turn, next Position) bool {
		turns++
		seen[next.pieces] = struct{}{}
		return true
	})
	return turns, len(seen)
}

// ExampleTurn is a legal turn from p to show people how a turn is written:
// the first of the longest (a pass only when nothing else is legal). ok is
// false when p has no legal turn.
func (p Position) ExampleTurn() (t Turn, ok bool) {
	p.EachTurn(func(turn Turn, _ Position) bool {
		if !ok || len(turn) > len(t) {
			t, ok = slices.Clone(turn), true
		}
		return len(t) < maxMovesPerTurn
	})
	return t, ok
}
