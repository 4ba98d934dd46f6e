package les

import "math/bits"

// words is how many uint64 hold a set of the points of the largest board.
const words = (MaxPoints + 63) / 64

// set is a set of points of one board by index, a bit each.
type set [words]uint64

func (s *set) add(i int)     { s[i>>6] |= 1 << uint(i&63) }
func (s set) has(i int) bool { return s[i>>6]&(1<<uint(i&63)) != 0 }

func (s set) and(t set) set {
	for k := range s {
		s[k] &= t[k]
	}
	return s
}

func (s set) or(t set) set {
	for k := range s {
		s[k] |= t[k]
	}
	return s
}

func (s set) andNot(t set) set {
	for k := range s {
		s[k] &^= t[k]
	}
	return s
}

func (s set) empty() bool {
	var any uint64
	for _, w := range s {
		any |= w
	}
	return any == 0
}

func (s set) count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// first is the lowest index in the set, or -1 for the empty set.
func (s set) first() int {
	for k, w := range s {
		if w != 0 {
			return k*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// each calls f with every index of the set in increasing order (board
// order), until f returns false.
func (s set) each(f func(i int) bool) {
	for k, w := range s {
		for w != 0 {
			if !f(k*64 + bits.TrailingZeros64(w)) {
				return
			}
			w &= w - 1
		}
	}
}
