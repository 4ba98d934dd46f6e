package less

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/lesspost/lesspost/domain/less/tiles"
)

// Fuzz targets and property tests. The oracle for judging turns is fzJudge,
// a deliberately naive re-statement of rules M1–M6, T1–T4 and N3 written
// from docs/rules.md on a plain grid, sharing no code with turn.go: Play must
// agree with it on every turn, legal or not.
//
// Helpers are prefixed fz.

// ---------------------------------------------------------------------------
// The reference judge

// fzGrid is a placement as a plain grid: -1 for an empty square, else the Color.
type fzGrid struct {
	size int
	cell [MaxSize][MaxSize]int8
}

func fzGridOf(p Position) fzGrid {
	g := fzGrid{size: p.Size()}
	for r := range MaxSize {
		for c := range MaxSize {
			g.cell[r][c] = -1
			if col, ok := p.PieceAt(SquareAt(r, c)); ok && r < g.size && c < g.size {
				g.cell[r][c] = int8(col)
			}
		}
	}
	return g
}

func (g *fzGrid) at(s Square) int8 { return g.cell[s.Row][s.Col] }

func (g *fzGrid) finished(c Color) bool {
	for _, s := range TargetCorner(c, g.size).Squares() {
		if g.at(s) != int8(c) {
			return false
		}
	}
	return true
}

func (g *fzGrid) complete(s Side) bool {
	for _, c := range SideColors(s, g.size) {
		if !g.finished(c) {
			return false
		}
	}
	return true
}

// fzVerdict is the reference judgement of a turn.
type fzVerdict struct {
	ok    bool
	code  Code
	index int
	out   Outcome
	after fzGrid
}

// fzMove judges one move of the mover on grid g with left points, returning
// its cost or the N3 code that rejects it, in the order of the N3 table.
func fzMove(b *Board, g *fzGrid, mover Color, m Move, left int) (int, Code) {
	size := g.size
	if !m.From.OnBoard(size) || !m.To.OnBoard(size) {
		return 0, CodeOffBoard
	}
	if g.complete(SideOf(mover)) {
		return 0, CodeSideComplete
	}
	owner := g.at(m.From)
	if owner < 0 {
		return 0, CodeEmptySquare
	}
	movable := mover
	if size == 8 && g.finished(mover) {
		movable = Partner(mover)
	}
	if Color(owner) != movable {
		return 0, CodeNotYourPiece
	}
	dr, dc := int(m.To.Row)-int(m.From.Row), int(m.To.Col)-int(m.From.Col)
	dist := max(dr, -dr) + max(dc, -dc)
	if (dr != 0 && dc != 0) || (dist != 1 && dist != 2) {
		return 0, CodeNotAMove
	}
	if g.at(m.To) >= 0 {
		return 0, CodeOccupied
	}
	cost := 1
	if dist == 1 {
		w, ok := b.WallsBetween(m.From, m.To)
		if !ok {
			panic("fzMove: adjacent squares without an edge")
		}
		cost += w
	} else {
		mid := SquareAt(int(m.From.Row)+dr/2, int(m.From.Col)+dc/2)
		if g.at(mid) < 0 {
			return 0, CodeNothingToJump
		}
		w1, _ := b.WallsBetween(m.From, mid)
		w2, _ := b.WallsBetween(mid, m.To)
		if w1+w2 != 0 {
			return 0, CodeWallInJump
		}
	}
	if cost > left {
		return 0, CodeOverBudget
	}
	return cost, ""
}

// fzAnyMove reports whether some legal move costs at most left points.
func fzAnyMove(b *Board, g *fzGrid, mover Color, left int) bool {
	for r := range g.size {
		for c := range g.size {
			for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-2, 0}, {2, 0}, {0, -2}, {0, 2}} {
				m := Move{SquareAt(r, c), SquareAt(r+d[0], c+d[1])}
				if _, code := fzMove(b, g, mover, m, left); code == "" {
					return true
				}
			}
		}
	}
	return false
}

func fzJudge(p Position, t Turn) fzVerdict {
	b := p.Board()
	g := fzGridOf(p)
	mover := p.ToMove()
	used := 0
	for i, m := range t {
		cost, code := fzMove(b, &g, mover, m, Budget-used)
		if code != "" {
			return fzVerdict{code: code, index: i}
		}
		g.cell[m.To.Row][m.To.Col] = g.at(m.From)
		g.cell[m.From.Row][m.From.Col] = -1
		used += cost
	}
	complete := g.complete(SideOf(mover))
	mayStop := used == Budget || complete || (p.EarlyStop() && len(t) > 0)
	if !mayStop && fzAnyMove(b, &g, mover, Budget-used) {
		return fzVerdict{code: CodeIncomplete, index: NoIndex}
	}
	counted := Budget
	if complete {
		counted = used
	}
	return fzVerdict{ok: true, out: Outcome{Used: used, Counted: counted, Completed: complete}, after: g}
}

// ---------------------------------------------------------------------------
// Deriving positions and turns from fuzzer input

// fzBoard derives a board: empty, uniformly random digits, or a tile board (B5).
func fzBoard(size int, seed uint64) *Board {
	var walls string
	switch seed % 4 {
	case 0:
		walls = strings.Repeat("0", 2*size*(size-1))
	case 1:
		r := rand.New(rand.NewPCG(seed, 1))
		w := make([]byte, 2*size*(size-1))
		for i := range w {
			w[i] = byte('0' + r.IntN(3))
		}
		walls = string(w)
	default:
		var err error
		if walls, err = tiles.Walls(size, seed); err != nil {
			panic(err)
		}
	}
	return MustParseBoard(size, walls)
}

// fzPosition derives a legal position: the start position, a random
// placement, or one where pieces crowd their targets (so that finished
// players, complete sides and M6 come up often).
func fzPosition(size8 bool, boardSeed, placeSeed uint64, mover uint8, early bool) Position {
	size := 6
	if size8 {
		size = 8
	}
	b := fzBoard(size, boardSeed)
	colors := Colors(size)
	toMove := colors[int(mover)%len(colors)]
	if placeSeed%5 == 0 {
		p, err := StartPosition(b, early).WithToMove(toMove)
		if err != nil {
			panic(err)
		}
		return p
	}
	r := rand.New(rand.NewPCG(placeSeed, 2))
	var taken Bitboard
	free := func() Square {
		for {
			s := SquareAt(r.IntN(size), r.IntN(size))
			if !taken.has(s.index()) {
				return s
			}
		}
	}
	homeBias := placeSeed%5 >= 3
	pl := Placement{}
	for _, c := range colors {
		for _, s := range TargetCorner(c, size).Squares() {
			if len(pl[c]) < 4 && homeBias && r.IntN(4) != 0 && !taken.has(s.index()) {
				pl[c] = append(pl[c], s)
				taken |= bitsOf(s)
			}
		}
		for len(pl[c]) < 4 {
			s := free()
			pl[c] = append(pl[c], s)
			taken |= bitsOf(s)
		}
	}
	p, err := NewPosition(b, pl, toMove, early)
	if err != nil {
		panic(err)
	}
	return p
}

// fzLegalMoves lists every legal move of the turn so far, via MovesFrom.
func fzLegalMoves(s *TurnState) []Move {
	var out []Move
	size := s.Position().Size()
	for r := range size {
		for c := range size {
			from := SquareAt(r, c)
			for _, o := range s.MovesFrom(from) {
				out = append(out, Move{from, o.To})
			}
		}
	}
	return out
}

// fzDeltas are the raw displacements a fuzzer byte can pick: steps, jumps
// and a few that are never moves.
var fzDeltas = [16][2]int{
	{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-2, 0}, {2, 0}, {0, -2}, {0, 2},
	{1, 1}, {0, 0}, {3, 0}, {0, -3}, {-1, 2}, {2, 2}, {-8, 0}, {0, 9},
}

// fzTurn builds a turn from choice bytes: a byte below 0x7f plays legal move
// number b (mod their count); 0x7f stops; a byte from 0x80 up, with the next
// byte, writes a raw move that may be anything (and ends the turn if it is
// illegal): from a piece, or from any square when bit 0x40 is set.
func fzTurn(p Position, choices []byte) Turn {
	s := p.BeginTurn()
	var t Turn
	for i := 0; i < len(choices) && len(t) < 6; i++ {
		ch := choices[i]
		switch {
		case ch == 0x7f:
			return t
		case ch < 0x7f:
			moves := fzLegalMoves(&s)
			if len(moves) == 0 {
				return t
			}
			m := moves[int(ch)%len(moves)]
			if err := s.Play(m); err != nil {
				panic("MovesFrom offered " + m.String() + ": " + err.Error())
			}
			t = append(t, m)
		default:
			var b2 byte
			if i+1 < len(choices) {
				i++
				b2 = choices[i]
			}
			// Mostly a piece (of any colour), sometimes any square at all.
			from := SquareAt(int(ch&0x0f)-1, int(b2&0x0f)-1)
			if ch&0x40 == 0 {
				pos := s.Position()
				var occ Bitboard
				for _, c := range Colors(pos.Size()) {
					occ |= pos.Pieces(c)
				}
				sq := occ.Squares()
				from = sq[int(ch&0x3f)%len(sq)]
			}
			d := fzDeltas[b2>>4]
			m := Move{from, SquareAt(int(from.Row)+d[0], int(from.Col)+d[1])}
			t = append(t, m)
			if s.Play(m) != nil {
				return t
			}
		}
	}
	return t
}

// ---------------------------------------------------------------------------
// The invariants of Play

// fzCheckPlay plays t on p and checks everything Play promises against the
// reference judge. It reports whether the turn was accepted.
func fzCheckPlay(t *testing.T, p Position, turn Turn) bool {
	t.Helper()
	before := p
	next, out, err := p.Play(turn)
	if !p.Equal(before) {
		t.Fatalf("Play changed its receiver (T5)")
	}
	ref := fzJudge(p, turn)
	checkOut, checkErr := p.Check(turn)
	if (checkErr == nil) != (err == nil) || checkOut != out || (err != nil && checkErr.Error() != err.Error()) {
		t.Fatalf("%s on %s: Check gives %+v %v, Play %+v %v", turn, p, checkOut, checkErr, out, err)
	}
	if err != nil {
		var te *TurnError
		if !errors.As(err, &te) {
			t.Fatalf("%s on %s: error %v is %T, want *TurnError", turn, p, err, err)
		}
		if !slices.Contains(Codes, te.Code) || te.Code == CodeSyntax {
			t.Fatalf("%s on %s: code %q", turn, p, te.Code)
		}
		if te.Code == CodeIncomplete {
			if te.Index != NoIndex {
				t.Fatalf("%s on %s: incomplete at index %d, want NoIndex", turn, p, te.Index)
			}
		} else if te.Index < 0 || te.Index >= len(turn) {
			t.Fatalf("%s on %s: %s at index %d of a %d-move turn", turn, p, te.Code, te.Index, len(turn))
		}
		if te.Message == "" || !utf8.ValidString(te.Error()) {
			t.Fatalf("%s: message %q", turn, te.Message)
		}
		if ref.ok || ref.code != te.Code || ref.index != te.Index {
			t.Fatalf("%s on %s (early_stop %v, board %s): engine %s at %d (%s); reference %+v",
				turn, p, p.EarlyStop(), p.Board(), te.Code, te.Index, te.Message, ref)
		}
		// Step by step: the moves before Index pass, the one at Index fails alike.
		s := p.BeginTurn()
		for i, m := range turn {
			e := s.Play(m)
			if i == te.Index {
				if e == nil || e.Error() != err.Error() {
					t.Fatalf("%s: TurnState.Play of move %d gives %v, Play gave %v", turn, i, e, err)
				}
				break
			}
			if e != nil {
				t.Fatalf("%s: move %d fails in TurnState (%v) before index %d", turn, i, e, te.Index)
			}
		}
		if te.Code == CodeIncomplete && s.CanEnd() {
			t.Fatalf("%s: incomplete, but CanEnd after all moves", turn)
		}
		return false
	}
	if !ref.ok {
		t.Fatalf("%s on %s (early_stop %v, board %s): engine accepts %+v; reference %s at %d",
			turn, p, p.EarlyStop(), p.Board(), out, ref.code, ref.index)
	}
	if out != ref.out {
		t.Fatalf("%s on %s: outcome %+v, reference %+v", turn, p, out, ref.out)
	}
	if out.Used < 0 || out.Used > Budget {
		t.Fatalf("%s: used %d", turn, out.Used)
	}
	if want := map[bool]int{true: out.Used, false: Budget}[out.Completed]; out.Counted != want {
		t.Fatalf("%s: counted %d with used %d completed %v (T4)", turn, out.Counted, out.Used, out.Completed)
	}
	mover := p.ToMove()
	if out.Completed != next.Complete(SideOf(mover)) {
		t.Fatalf("%s: Completed %v, but Complete says %v", turn, out.Completed, next.Complete(SideOf(mover)))
	}
	if got := fzGridOf(next); got != ref.after {
		t.Fatalf("%s on %s: placement %s differs from the reference", turn, p, next)
	}
	order := Colors(p.Size())
	if want := order[(slices.Index(order, mover)+1)%len(order)]; next.ToMove() != want {
		t.Fatalf("%s: %s to move next, want %s", turn, next.ToMove(), want)
	}
	for _, c := range order {
		if c != mover && (p.Size() == 6 || c != Partner(mover)) && next.Pieces(c) != p.Pieces(c) {
			t.Fatalf("%s by %s moved %s's pieces", turn, mover, c)
		}
	}
	q, err := NewPosition(next.Board(), next.Placement(), next.ToMove(), next.EarlyStop())
	if err != nil || !q.Equal(next) {
		t.Fatalf("%s: resulting position is not a legal placement: %v", turn, err)
	}
	return true
}

// ---------------------------------------------------------------------------
// Fuzz targets

var fzCanonicalTurn = regexp.MustCompile(`^(Nil|[a-z][0-9]+[a-z][0-9]+(:[a-z][0-9]+[a-z][0-9]+)*)$`)

func FuzzParseTurn(f *testing.F) {
	for _, s := range []string{
		"e5e4:f5f3", "e5-e4", "e5e4::,  f5f3", " :e5e4: ", "Nil", "nil", "NIL", " nil ",
		"", " ", "e5e4 Nil", "e5--e4", "e5e4;e4e3", "55e4", "e5e", "x1x2", "a0a1",
		"a99999999999b1", "é5e4", "\xff", "e5e4\u00a0e4e3", strings.Repeat("a1b1:", 205),
		"E5-E4,F5F3\te6e5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		turn, err := ParseTurn(text)
		if err != nil {
			var te *TurnError
			if !errors.As(err, &te) || te.Code != CodeSyntax || te.Index != NoIndex {
				t.Fatalf("ParseTurn(%q): %v, want a syntax *TurnError", text, err)
			}
			if !utf8.ValidString(te.Error()) {
				t.Fatalf("ParseTurn(%q): message not valid UTF-8", text)
			}
			return
		}
		if len(text) > MaxTurnText {
			t.Fatalf("ParseTurn accepted %d characters", len(text))
		}
		s := turn.String()
		if !fzCanonicalTurn.MatchString(s) {
			t.Fatalf("ParseTurn(%q).String() = %q is not canonical", text, s)
		}
		again, err := ParseTurn(s)
		if err != nil || !slices.Equal(again, turn) || len(again) != len(turn) {
			t.Fatalf("ParseTurn(%q) = %v; re-parsing %q gives %v, %v", text, turn, s, again, err)
		}
		if again.String() != s {
			t.Fatalf("String not stable: %q -> %q", s, again.String())
		}
		// The moves are the separated tokens (or none for Nil).
		tokens := strings.FieldsFunc(text, func(r rune) bool { return r == ':' || r == ',' || unicode.IsSpace(r) })
		if len(turn) == 0 {
			if len(tokens) != 1 || !strings.EqualFold(tokens[0], "nil") {
				t.Fatalf("ParseTurn(%q) = Nil from tokens %q", text, tokens)
			}
		} else if len(tokens) != len(turn) {
			t.Fatalf("ParseTurn(%q): %d moves from %d tokens", text, len(turn), len(tokens))
		}
	})
}

func FuzzParseBoard(f *testing.F) {
	f.Add(6, strings.Repeat("0", 60))
	f.Add(8, strings.Repeat("0", 112))
	f.Add(6, "110000000001000100010002000100110100010100100100000000010100")
	f.Add(8, "0000022010122000000010202000000002001010002000001010000010001000100002100011000001001200010000000000011201001101")
	f.Add(6, " "+strings.Repeat("2", 60)+"\n")
	f.Add(6, strings.Repeat("0", 59)+"3")
	f.Add(7, strings.Repeat("0", 84))
	f.Add(8, strings.Repeat("1", 111))
	f.Add(6, strings.Repeat("é", 30))
	f.Add(-6, "")
	f.Fuzz(func(t *testing.T, size int, walls string) {
		b, err := ParseBoard(size, walls)
		trimmed := strings.TrimSpace(walls)
		want := (size == 6 || size == 8) && len(trimmed) == 2*size*(size-1) &&
			strings.Trim(trimmed, "012") == ""
		if err != nil {
			if want {
				t.Fatalf("ParseBoard(%d, %q): %v, want it accepted", size, walls, err)
			}
			if !errors.Is(err, ErrBoard) {
				t.Fatalf("ParseBoard(%d, %q): %v does not wrap ErrBoard", size, walls, err)
			}
			return
		}
		if !want {
			t.Fatalf("ParseBoard(%d, %q) accepted", size, walls)
		}
		if b.Size() != size || b.String() != trimmed {
			t.Fatalf("ParseBoard(%d, %q): size %d string %q", size, walls, b.Size(), b.String())
		}
		if again, err := ParseBoard(size, b.String()); err != nil || again.String() != b.String() {
			t.Fatalf("round trip: %v", err)
		}
		for r := range size {
			for c := range size {
				a := SquareAt(r, c)
				for _, n := range []Square{SquareAt(r, c+1), SquareAt(r+1, c), SquareAt(r-1, c), SquareAt(r, c-1)} {
					k, adjacent := rtWallIndex(size, a, n)
					w, ok := b.WallsBetween(a, n)
					if ok != adjacent || (ok && w != int(trimmed[k]-'0')) {
						t.Fatalf("WallsBetween(%s, %s) = %d, %v; B4 digit %d", a, n, w, ok, k)
					}
				}
			}
		}
	})
}

func FuzzPlayTurn(f *testing.F) {
	// size8, boardSeed, placeSeed, mover, earlyStop, text, choices
	f.Add(false, uint64(0), uint64(0), uint8(0), false, "e5e4:e4e3:e3e2", []byte(nil))
	f.Add(false, uint64(0), uint64(0), uint8(0), false, "e5e4", []byte(nil))
	f.Add(false, uint64(2), uint64(5), uint8(1), true, "b2b3", []byte(nil))
	f.Add(false, uint64(1), uint64(0), uint8(0), false, "Nil", []byte(nil))
	f.Add(true, uint64(2), uint64(0), uint8(0), true, "g2f2:f2e2", []byte(nil))
	f.Add(true, uint64(3), uint64(0), uint8(2), false, "h8h9", []byte(nil))
	f.Add(false, uint64(2), uint64(7), uint8(0), false, "", []byte{0, 1, 2})
	f.Add(false, uint64(1), uint64(3), uint8(1), false, "", []byte{5, 9, 0x7f})
	f.Add(true, uint64(6), uint64(8), uint8(1), false, "", []byte{3, 4, 5, 6})
	f.Add(true, uint64(5), uint64(9), uint8(3), true, "", []byte{1, 0x85, 0x33})
	f.Add(false, uint64(4), uint64(4), uint8(0), false, "", []byte{0x81, 0x12})
	f.Add(true, uint64(0), uint64(13), uint8(2), false, "", []byte{0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, size8 bool, boardSeed, placeSeed uint64, mover uint8, earlyStop bool, text string, choices []byte) {
		p := fzPosition(size8, boardSeed, placeSeed, mover, earlyStop)
		var turn Turn
		if text != "" {
			var err error
			if turn, err = ParseTurn(text); err != nil {
				return // FuzzParseTurn covers syntax
			}
		} else {
			turn = fzTurn(p, choices)
		}
		fzCheckPlay(t, p, turn)
	})
}

// ---------------------------------------------------------------------------
// Property tests with deterministic seeds

// TestEachTurnAcceptedByPlay: every turn EachTurn produces on random positions
// is accepted by Play, leads to the position EachTurn gave, agrees with the
// reference judge, and appears once.
func TestEachTurnAcceptedByPlay(t *testing.T) {
	n := uint64(120)
	if testing.Short() {
		n = 20
	}
	const maxTurns = 1500 // per position, to bound the time on 8x8 with early_stop
	for seed := range n {
		p := fzPosition(seed%3 == 2, seed*7+1, seed*13+1, uint8(seed), seed%4 == 1)
		seen := map[string]bool{}
		count := 0
		p.EachTurn(func(turn Turn, next Position) bool {
			key := turn.String()
			if seen[key] {
				t.Fatalf("seed %d: EachTurn gave %s twice on %s", seed, key, p)
			}
			seen[key] = true
			got, out, err := p.Play(turn)
			if err != nil {
				t.Fatalf("seed %d: EachTurn gave %s on %s (early %v, board %s); Play: %v", seed, key, p, p.EarlyStop(), p.Board(), err)
			}
			if !got.Equal(next) {
				t.Fatalf("seed %d: %s leads to %s in EachTurn, %s in Play", seed, key, next, got)
			}
			if ref := fzJudge(p, turn); !ref.ok || ref.out != out {
				t.Fatalf("seed %d: %s on %s: reference %+v, engine %+v", seed, key, p, ref, out)
			}
			count++
			return count < maxTurns
		})
		if count == 0 {
			t.Fatalf("seed %d: no legal turn at all on %s (Nil must be legal then)", seed, p)
		}
	}
}

// TestPlayAgreesWithReference runs the FuzzPlayTurn checks on deterministic
// pseudo-random positions and turns, so that plain `go test` covers them.
func TestPlayAgreesWithReference(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(2017, 2026))
	accepted := 0
	codes := map[Code]int{}
	for range n {
		p := fzPosition(r.IntN(2) == 0, r.Uint64(), r.Uint64(), uint8(r.IntN(4)), r.IntN(3) == 0)
		choices := make([]byte, 1+r.IntN(6))
		for k := range choices {
			switch r.IntN(10) {
			case 0, 1, 2:
				choices[k] = byte(0x80 + r.IntN(0x80))
			case 3:
				choices[k] = 0x7f
			default:
				choices[k] = byte(r.IntN(0x7f))
			}
		}
		turn := fzTurn(p, choices)
		if fzCheckPlay(t, p, turn) {
			accepted++
		} else {
			_, err := p.Check(turn)
			codes[rtTurnError(t, err).Code]++
		}
	}
	// The generator must reach both outcomes and most codes.
	if accepted < n/10 || len(codes) < 9 {
		t.Errorf("weak generator: %d of %d accepted, codes %v", accepted, n, codes)
	}
	t.Logf("%d of %d accepted; rejections %v", accepted, n, codes)
}

// ---------------------------------------------------------------------------
// Independent perft and needed

// fzPerft counts the legal complete turns and the placements they lead to by
// brute force with the reference judge: every sequence of legal moves, a turn
// wherever T1–T3 allow it to end.
func fzPerft(p Position) (turns, placements int) {
	b := p.Board()
	mover := p.ToMove()
	seen := map[fzGrid]bool{}
	var walk func(g fzGrid, used, moves int)
	walk = func(g fzGrid, used, moves int) {
		left := Budget - used
		if used == Budget || g.complete(SideOf(mover)) || (p.EarlyStop() && moves > 0) || !fzAnyMove(b, &g, mover, left) {
			turns++
			seen[g] = true
		}
		for r := range g.size {
			for c := range g.size {
				if g.cell[r][c] < 0 {
					continue
				}
				for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-2, 0}, {2, 0}, {0, -2}, {0, 2}} {
					m := Move{SquareAt(r, c), SquareAt(r+d[0], c+d[1])}
					cost, code := fzMove(b, &g, mover, m, left)
					if code != "" {
						continue
					}
					next := g
					next.cell[m.To.Row][m.To.Col] = next.at(m.From)
					next.cell[m.From.Row][m.From.Col] = -1
					walk(next, used+cost, moves+1)
				}
			}
		}
	}
	walk(fzGridOf(p), 0, 0)
	return turns, len(seen)
}

func TestPerftAgreesWithReference(t *testing.T) {
	n := uint64(60)
	if testing.Short() {
		n = 10
	}
	for seed := range n {
		p := fzPosition(seed%3 == 1, seed*11+3, seed*17+2, uint8(seed/2), seed%5 == 3)
		turns, placements := p.Perft()
		wantTurns, wantPlacements := fzPerft(p)
		if turns != wantTurns || placements != wantPlacements {
			t.Errorf("seed %d %s (early %v, board %s): perft %d/%d, reference %d/%d",
				seed, p, p.EarlyStop(), p.Board(), turns, placements, wantTurns, wantPlacements)
		}
	}
}

// fzNeeded is plain Dijkstra over the placements of one colour's pieces (no
// heuristic, shares nothing with needed.go): the least points that bring own
// onto target with blockers standing still; ok is false if impossible.
func fzNeeded(b *Board, own, target, blockers Bitboard) (int, bool) {
	if own == target {
		return 0, true
	}
	size := b.Size()
	// rank numbers the 4-square sets of this board densely (combinatorial
	// number system over the size*size squares).
	rank := func(state Bitboard) int {
		r, k := 0, 1
		for s := state; s != 0; s &= s - 1 {
			i := trailingZeros(s)
			r += binomial[i/MaxSize*size+i%MaxSize][k]
			k++
		}
		return r
	}
	// dist[rank(state)] is 1 + the best cost found (0: unseen).
	dist := make([]int32, binomial[size*size][4])
	dist[rank(own)] = 1
	queue := [][]Bitboard{{own}}
	for d := 0; d < len(queue); d++ {
		for k := 0; k < len(queue[d]); k++ {
			state := queue[d][k]
			if int(dist[rank(state)]) != d+1 {
				continue
			}
			if state == target {
				return d, true
			}
			occ := state | blockers
			for pieces := state; pieces != 0; pieces &= pieces - 1 {
				from := squareOf(trailingZeros(pieces))
				for _, dir := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					n := SquareAt(int(from.Row)+dir[0], int(from.Col)+dir[1])
					if !n.OnBoard(size) {
						continue
					}
					w, _ := b.WallsBetween(from, n)
					var to Square
					cost := 1
					if !occ.has(n.index()) {
						to, cost = n, 1+w
					} else {
						land := SquareAt(int(n.Row)+dir[0], int(n.Col)+dir[1])
						if !land.OnBoard(size) || occ.has(land.index()) || w != 0 {
							continue
						}
						if w2, _ := b.WallsBetween(n, land); w2 != 0 {
							continue
						}
						to = land
					}
					next := state&^bitsOf(from) | bitsOf(to)
					if old := dist[rank(next)]; old != 0 && int(old) <= d+cost+1 {
						continue
					}
					dist[rank(next)] = int32(d + cost + 1)
					for len(queue) <= d+cost {
						queue = append(queue, nil)
					}
					queue[d+cost] = append(queue[d+cost], next)
				}
			}
		}
	}
	return 0, false
}

// fzNeededSide is E4 by the letter, with fzNeeded.
func fzNeededSide(p Position, s Side) int {
	b := p.Board()
	total := 0
	for _, c := range SideColors(s, p.Size()) {
		target := TargetCorner(c, p.Size())
		if p.Size() == 6 {
			var others Bitboard
			for _, o := range Colors(6) {
				if o != c {
					others |= p.Pieces(o)
				}
			}
			if n, ok := fzNeeded(b, p.Pieces(c), target, others); ok {
				return n
			}
		}
		n, ok := fzNeeded(b, p.Pieces(c), target, 0)
		if !ok {
			panic("fzNeededSide: unreachable target on an empty board")
		}
		total += n
	}
	return total
}

func TestNeededAgreesWithDijkstra(t *testing.T) {
	n := uint64(16)
	if testing.Short() {
		n = 4
	}
	for seed := range n {
		p := fzPosition(false, seed*5+1, seed*3+1, 0, false)
		for _, s := range []Side{SideWhite, SideBlack} {
			if got, want := p.Needed(s), fzNeededSide(p, s); got != want {
				t.Errorf("seed %d %s (board %s): needed(%s) = %d, Dijkstra %d", seed, p, p.Board(), SideName(s, p.Size()), got, want)
			}
		}
	}
}

// TestNeeded4pAgreesWithDijkstra: the four-player measure (one player alone
// on the board) has no conformance vectors, so check it here, from the start
// corner of a walled board and on a set-up position. A plain Dijkstra on 8x8
// takes up to about half a second, so -short skips it.
func TestNeeded4pAgreesWithDijkstra(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: plain Dijkstra over 8x8 placements")
	}
	start := StartPosition(MustParseBoard(8, bnBoard8), false)
	cases := []struct {
		p Position
		c Color
	}{
		{start, Black},
		{fzPosition(true, 2, 8, 0, false), White}, // pieces crowding their targets
	}
	for i, tc := range cases {
		want, ok := fzNeeded(tc.p.Board(), tc.p.Pieces(tc.c), TargetCorner(tc.c, 8), 0)
		if got := tc.p.NeededFor(tc.c); !ok || got != want {
			t.Errorf("case %d %s (board %s): NeededFor(%s) = %d, Dijkstra %d", i, tc.p, tc.p.Board(), tc.c, got, want)
		}
	}
	if got, want := start.Needed(SideBlack), start.NeededFor(Black)+start.NeededFor(Red); got != want {
		t.Errorf("Needed(black-red) = %d, want the sum %d", got, want)
	}
}
