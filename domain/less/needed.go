package less

import "runtime"

// Needed is docs/rules.md E4 for side s: the least number of points that would
// bring all its pieces home, ignoring how they fall into turns. Two players:
// exact, with the other side's pieces standing where they are (they block and
// can be jumped); if that cannot be done, with them removed. Four players: per
// player, his own 4 pieces alone on the board, summed over the team.
func (p Position) Needed(s Side) int {
	b := p.board
	if b.size != 8 {
		c := SideColors(s, b.size)[0]
		if n, ok := needed(b, p.pieces[c], TargetCorner(c, b.size), p.occupied()&^p.pieces[c]); ok {
			return n
		}
		n, _ := needed(b, p.pieces[c], TargetCorner(c, b.size), 0)
		return n
	}
	total := 0
	for _, c := range SideColors(s, b.size) {
		n, _ := needed(b, p.pieces[c], TargetCorner(c, b.size), 0)
		total += n
	}
	return total
}

// NeededFor is E4 for one colour alone (all other pieces removed), the
// four-player measure for a single player.
func (p Position) NeededFor(c Color) int {
	n, _ := needed(p.board, p.pieces[c], TargetCorner(c, p.Size()), 0)
	return n
}

// needed is an A* search over the placements of one colour's 4 pieces, with
// blockers fixed, from own to target. The heuristic is the cheapest
// assignment of pieces to target squares under relaxed costs (jumps allowed
// wherever no wall is in the way, other pieces ignored); it never overestimates
// and drops by at most a move's cost per move, so the first time the target
// is taken from the queue its cost is exact. ok is false if no sequence of
// moves reaches the target.
func needed(b *Board, own, target, blockers Bitboard) (int, bool) {
	if own == target {
		return 0, true
	}
	if target&blockers != 0 {
		return 0, false // a fixed foreign piece sits on a target square
	}
	dist := relaxedDistances(b, target)
	rank := rankerFor(b.size)

	// best[rank(state)] is 1 + the cheapest cost found so far (0: unseen).
	// Queue entries carry their cost, so a stale entry (a cheaper path to its
	// state was found after it was queued) is recognised without recomputing
	// the heuristic.
	space := <-searchSpaces
	defer func() { searchSpaces <- space }()
	best := space.table(b.size)
	defer clear(best)
	var buckets [][]searchEntry
	push := func(state Bitboard, g int) {
		r := rank(state)
		if best[r] != 0 && int(best[r]) <= g+1 {
			return
		}
		best[r] = uint16(g + 1)
		f := g + assignmentBound(&dist, state)
		for len(buckets) <= f {
			buckets = append(buckets, nil)
		}
		buckets[f] = append(buckets[f], searchEntry{state, g})
	}
	push(own, 0)
	for f := 0; f < len(buckets); f++ {
		for len(buckets[f]) > 0 {
			last := len(buckets[f]) - 1
			e := buckets[f][last]
			buckets[f] = buckets[f][:last]
			state, g := e.state, e.g
			if int(best[rank(state)])-1 != g {
				continue
			}
			if state == target {
				return g, true
			}
			occ := state | blockers
			for pieces := state; pieces != 0; pieces &= pieces - 1 {
				from := trailingZeros(pieces)
				fromBit := Bitboard(1) << uint(from)
				for d := range direction(4) {
					n, ok := b.neighbour(from, d)
					if !ok {
						continue
					}
					if !occ.has(n) {
						push(state^fromBit|Bitboard(1)<<uint(n), g+1+int(b.edge[from][d]))
						continue
					}
					if b.edge[from][d] != 0 {
						continue
					}
					if land, ok := b.neighbour(n, d); ok && b.edge[n][d] == 0 && !occ.has(land) {
						push(state^fromBit|Bitboard(1)<<uint(land), g+1)
					}
				}
			}
		}
		buckets[f] = nil // what a hard search queued is many MB
	}
	return 0, false
}

// searchSpace is needed's table of costs, by board size, made when first
// needed: for an 8x8 board alone 1.27 MB. All zero between searches.
type searchSpace struct {
	best [MaxSize + 1][]uint16
}

// searchSpaces are as many as searches may run at once: one per CPU, since
// a search only computes, and more would only wait for a CPU while holding
// their memory. Each is kept between searches. Scoring a game runs one for
// every player; made anew each time, and as many at once as games ended
// together, they took the server from 89 to 170 MB when the load tool's
// 4-player games reached the turn limit at once.
var searchSpaces = func() chan *searchSpace {
	c := make(chan *searchSpace, runtime.GOMAXPROCS(0))
	for range cap(c) {
		c <- &searchSpace{}
	}
	return c
}()

func (s *searchSpace) table(size int) []uint16 {
	if s.best[size] == nil {
		s.best[size] = make([]uint16, binomial[size*size][4])
	}
	return s.best[size]
}

// searchEntry is a queued placement and its cost so far.
type searchEntry struct {
	state Bitboard
	g     int
}

// targetDistances holds, for every square, the cheapest cost from it to each
// of the 4 target squares when pieces are ignored and a two-square straight
// move without walls always costs 1 (as if there were a piece to jump).
type targetDistances [MaxSize * MaxSize][4]uint16

func relaxedDistances(b *Board, target Bitboard) targetDistances {
	var out targetDistances
	k := 0
	for t := target; t != 0; t &= t - 1 {
		dist := relaxedFrom(b, trailingZeros(t))
		for sq := range dist {
			out[sq][k] = dist[sq]
		}
		k++
	}
	return out
}

// relaxedFrom is Dijkstra from square t over the relaxed moves, run backwards
// (every relaxed move is reversible at the same cost).
func relaxedFrom(b *Board, t int) [MaxSize * MaxSize]uint16 {
	const unreached = 1<<16 - 1
	var dist [MaxSize * MaxSize]uint16
	for i := range dist {
		dist[i] = unreached
	}
	dist[t] = 0
	var buckets [][]int
	add := func(i, d int) {
		if d >= int(dist[i]) {
			return
		}
		dist[i] = uint16(d)
		for len(buckets) <= d {
			buckets = append(buckets, nil)
		}
		buckets[d] = append(buckets[d], i)
	}
	buckets = append(buckets, []int{t})
	for d := 0; d < len(buckets); d++ {
		for _, i := range buckets[d] {
			if int(dist[i]) != d {
				continue
			}
			for dir := range direction(4) {
				n, ok := b.neighbour(i, dir)
				if !ok {
					continue
				}
				add(n, d+1+int(b.edge[i][dir]))
				if b.edge[i][dir] == 0 {
					if land, ok := b.neighbour(n, dir); ok && b.edge[n][dir] == 0 {
						add(land, d+1)
					}
				}
			}
		}
	}
	return dist
}

// assignmentBound is the cheapest sum of relaxed costs over every assignment
// of the 4 pieces to distinct target squares. It is the search's inner loop:
// the 24 assignments are walked as a tree, cutting branches that cannot win.
func assignmentBound(dist *targetDistances, state Bitboard) int {
	var m [4][4]int // m[piece][target]
	k := 0
	for s := state; s != 0 && k < 4; s &= s - 1 {
		row := &dist[trailingZeros(s)]
		m[k] = [4]int{int(row[0]), int(row[1]), int(row[2]), int(row[3])}
		k++
	}
	best := 1 << 30
	for a := range 4 {
		sa := m[0][a]
		for b := range 4 {
			if b == a {
				continue
			}
			sb := sa + m[1][b]
			if sb >= best {
				continue
			}
			for c := range 4 {
				if c == a || c == b {
					continue
				}
				d := 6 - a - b - c
				best = min(best, sb+m[2][c]+m[3][d])
			}
		}
	}
	return best
}

// binomial[n][k] is n choose k, for ranking 4-piece placements densely.
var binomial = func() [MaxSize*MaxSize + 1][5]int {
	var c [MaxSize*MaxSize + 1][5]int
	for n := range c {
		c[n][0] = 1
		for k := 1; k < 5 && k <= n; k++ {
			c[n][k] = c[n-1][k-1] + c[n-1][k]
		}
	}
	return c
}()

// rankerFor numbers the sets of 4 squares of a board of the given size
// densely in 0 … C(size², 4)-1 (the combinatorial number system over the
// board's own squares, so a 6x6 search needs C(36,4), not C(64,4), slots).
func rankerFor(size int) func(Bitboard) int {
	var dense [MaxSize * MaxSize]int
	for i := range dense {
		dense[i] = i/MaxSize*size + i%MaxSize
	}
	return func(state Bitboard) int {
		r, k := 0, 1
		for s := state; s != 0; s &= s - 1 {
			r += binomial[dense[trailingZeros(s)]][k]
			k++
		}
		return r
	}
}
