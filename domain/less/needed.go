package less

// Needed is rules.md E4 for side s: the least number of points that would
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
	h := func(state Bitboard) int { return assignmentBound(&dist, state) }

	// best[rank(state)] is 1 + the cheapest cost found so far (0: unseen).
	best := make([]uint16, binomial[MaxSize*MaxSize][4])
	var buckets [][]Bitboard
	push := func(state Bitboard, g int) {
		r := rank4(state)
		if best[r] != 0 && int(best[r]) <= g+1 {
			return
		}
		best[r] = uint16(g + 1)
		f := g + h(state)
		for len(buckets) <= f {
			buckets = append(buckets, nil)
		}
		buckets[f] = append(buckets[f], state)
	}
	push(own, 0)
	for f := 0; f < len(buckets); f++ {
		for len(buckets[f]) > 0 {
			last := len(buckets[f]) - 1
			state := buckets[f][last]
			buckets[f] = buckets[f][:last]
			g := int(best[rank4(state)]) - 1
			if g+h(state) != f {
				continue // a cheaper path to this state was queued later
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
		buckets[f] = nil
	}
	return 0, false
}

// relaxedDistances holds, for each of the 4 target squares, the cheapest cost
// from every square to it when pieces are ignored and a two-square straight
// move without walls always costs 1 (as if there were a piece to jump).
type targetDistances [4][MaxSize * MaxSize]uint16

func relaxedDistances(b *Board, target Bitboard) targetDistances {
	var out targetDistances
	k := 0
	for t := target; t != 0; t &= t - 1 {
		out[k] = relaxedFrom(b, trailingZeros(t))
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

// permutations4 lists the 24 ways to give 4 pieces 4 distinct targets.
var permutations4 = func() [][4]uint8 {
	var out [][4]uint8
	for a := range uint8(4) {
		for b := range uint8(4) {
			for c := range uint8(4) {
				d := 6 - a - b - c
				if a != b && a != c && b != c {
					out = append(out, [4]uint8{a, b, c, d})
				}
			}
		}
	}
	return out
}()

// assignmentBound is the cheapest sum of relaxed costs over every assignment
// of the pieces to distinct target squares.
func assignmentBound(dist *targetDistances, state Bitboard) int {
	var sq [4]int
	k := 0
	for s := state; s != 0 && k < 4; s &= s - 1 {
		sq[k] = trailingZeros(s)
		k++
	}
	bestSum := 1 << 30
	for _, perm := range permutations4 {
		sum := int(dist[perm[0]][sq[0]]) + int(dist[perm[1]][sq[1]]) + int(dist[perm[2]][sq[2]]) + int(dist[perm[3]][sq[3]])
		bestSum = min(bestSum, sum)
	}
	return bestSum
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

// rank4 numbers a set of 4 squares densely in 0 … C(64,4)-1 (the
// combinatorial number system).
func rank4(state Bitboard) int {
	r, k := 0, 1
	for s := state; s != 0; s &= s - 1 {
		r += binomial[trailingZeros(s)][k]
		k++
	}
	return r
}
