package les

import "strconv"

// EachTurn calls yield with every distinct legal turn of the mover (LT1–LT3)
// in board order of the first placement, then of the second, until yield
// returns false: the pairs, and a lone first placement where LT3 allows it.
// The Turn is only valid during the call: clone it to keep it.
func (p Position) EachTurn(yield func(Turn) bool) {
	var buf [2]Point
	b := p.board
	p.firsts().each(func(f int) bool {
		after := p
		after.place(f, p.toMove)
		buf[0] = b.PointAt(f)
		second := after.isolated()
		if second.empty() {
			return yield(buf[:1])
		}
		more := true
		second.each(func(s int) bool {
			buf[1] = b.PointAt(s)
			more = yield(buf[:2])
			return more
		})
		return more
	})
}

// LegalTurns lists every distinct legal turn of the mover.
func (p Position) LegalTurns() []Turn {
	var out []Turn
	p.EachTurn(func(t Turn) bool {
		out = append(out, append(Turn(nil), t...))
		return true
	})
	return out
}

// Perft counts the mover's distinct legal turns and how many of them are a
// lone first placement, like chess "perft": a check of move generation. It
// counts without listing: the second placements after a first are the
// isolated points it leaves.
func (p Position) Perft() (turns, single int) {
	iso := p.isolated()
	p.firsts().each(func(f int) bool {
		// Placing on f takes f's neighbours out of the isolated points; f
		// itself touches a stone, so it never was one.
		if n := iso.andNot(p.board.touch[f]).count(); n > 0 {
			turns += n
		} else {
			turns++
			single++
		}
		return true
	})
	return turns, single
}

func itoa(n int) string { return strconv.Itoa(n) }
