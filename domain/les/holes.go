package les

import (
	"cmp"
	"slices"
)

// Hole is a hole a colour owns as LE3 compares them: its size (empty
// points) and the number of stones around it.
type Hole struct {
	Size, Around int
}

// Region is one hole of a position with its points (LE2): for pictures and
// diagrams.
type Region struct {
	Points       []Point // in board order
	Size, Around int
	// Owned says whether a colour owns the hole, and Owner which: at least
	// one stone is around it and all of them are Owner's.
	Owned bool
	Owner Color
}

// eachHole calls f with every hole of p (LE2) in board order of its first
// point: its points, its size and the stones around it. It walks each
// maximal set of touching empty points once.
func (p Position) eachHole(f func(region *set, size int, around *set)) {
	b := p.board
	occ := p.occupied()
	var seen set
	var stack [MaxPoints]int16
	b.all.andNot(occ).each(func(start int) bool {
		if seen.has(start) {
			return true
		}
		var region, around set
		size := 0
		seen.add(start)
		stack[0] = int16(start)
		for sp := 1; sp > 0; {
			sp--
			i := stack[sp]
			region.add(int(i))
			size++
			pi := &b.pts[i]
			for _, j := range pi.nbr[:pi.degree] {
				switch {
				case occ.has(int(j)):
					around.add(int(j))
				case !seen.has(int(j)):
					seen.add(int(j))
					stack[sp] = j
					sp++
				}
			}
		}
		f(&region, size, &around)
		return true
	})
}

// owner is the colour that owns a hole with these stones around it (LE2).
func (p Position) owner(around *set) (Color, bool) {
	black, white := !around.and(p.stones[Black]).empty(), !around.and(p.stones[White]).empty()
	switch {
	case black && !white:
		return Black, true
	case white && !black:
		return White, true
	}
	return 0, false
}

// Holes lists every hole of p (LE2), owned or not, in board order of its
// first point.
func (p Position) Holes() []Region {
	var out []Region
	p.eachHole(func(region *set, size int, around *set) {
		r := Region{Points: p.board.points(*region), Size: size, Around: around.count()}
		r.Owner, r.Owned = p.owner(around)
		out = append(out, r)
	})
	return out
}

// Decision says which step of LE3 decided a result.
type Decision int8

const (
	// DecidedNone: LE3 did not decide (a resignation, a loss on time, or
	// an adjudication before the colours were chosen).
	DecidedNone Decision = iota
	// DecidedByCount: more holes (LE3 step 1).
	DecidedByCount
	// DecidedBySize: the first pair of holes whose sizes differ (step 2).
	DecidedBySize
	// DecidedByAround: the first pair whose stones around differ (step 3).
	DecidedByAround
	// DecidedEqual: nothing differs, a draw (step 4).
	DecidedEqual
)

var decisionNames = [...]string{"none", "holes", "sizes", "stones_around", "equal"}

// String is the decision's stable name: none, holes, sizes, stones_around,
// equal.
func (d Decision) String() string {
	if d >= 0 && int(d) < len(decisionNames) {
		return decisionNames[d]
	}
	return "Decision(" + itoa(int(d)) + ")"
}

// parseDecision reads a decision's name.
func parseDecision(s string) (Decision, bool) {
	i := slices.Index(decisionNames[:], s)
	return Decision(i), i >= 0
}

// Score is a position scored by LE2–LE4 as if the game ended there.
type Score struct {
	// Holes are each colour's owned holes, by Color, sorted as LE3
	// compares them: by size, then stones around, both descending.
	Holes [2][]Hole
	// Draw is true when LE3 finds no difference; then Winner means nothing.
	Draw    bool
	Winner  Color
	Decided Decision
	// Margin is the winner's number of holes minus the loser's (LE4): 0
	// when sizes or stones around decided, and for a draw.
	Margin int
}

// Score scores the position: each colour's owned holes, and who wins by
// LE3 with what margin (LE4).
func (p Position) Score() Score {
	var s Score
	p.eachHole(func(_ *set, size int, around *set) {
		if c, ok := p.owner(around); ok {
			s.Holes[c] = append(s.Holes[c], Hole{Size: size, Around: around.count()})
		}
	})
	for c := range s.Holes {
		slices.SortFunc(s.Holes[c], func(a, b Hole) int {
			return cmp.Or(cmp.Compare(b.Size, a.Size), cmp.Compare(b.Around, a.Around))
		})
	}
	order, decided := compareHoles(s.Holes[Black], s.Holes[White])
	s.Decided = decided
	switch {
	case order == 0:
		s.Draw = true
	case order > 0:
		s.Winner = Black
	default:
		s.Winner = White
	}
	if !s.Draw {
		s.Margin = max(len(s.Holes[Black])-len(s.Holes[White]), len(s.Holes[White])-len(s.Holes[Black]))
	}
	return s
}

// compareHoles compares two sorted lists of owned holes by LE3: > 0 when a
// wins, < 0 when b does, 0 for a draw, and the step that decided.
func compareHoles(a, b []Hole) (int, Decision) {
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c, DecidedByCount
	}
	for i := range a {
		if c := cmp.Compare(a[i].Size, b[i].Size); c != 0 {
			return c, DecidedBySize
		}
	}
	for i := range a {
		if c := cmp.Compare(a[i].Around, b[i].Around); c != 0 {
			return c, DecidedByAround
		}
	}
	return 0, DecidedEqual
}
