package les

import (
	"cmp"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/ruleset"
)

// Fuzz targets. The oracle for parsing is a regular expression of LN0; the
// oracle for play is fzRef, a deliberately naive restatement of LB1–LB4,
// LS2, LT1–LT3, LE1–LE4 and LN4 from docs/les-rules.md, on points as (row,
// position) pairs with LB3's explicit neighbour formula, maps and a plain
// flood fill, sharing no code with the engine.
//
// Helpers are prefixed fz.

// fzSpace is unicode.IsSpace as a character class; fzForm is LN0.
const fzSpace = `[\t\n\v\f\r\x{85}\p{Z}]`

var fzForm = regexp.MustCompile(`^` + fzSpace + `*([A-Za-z](?:0|[1-9][0-9]*))((?:` + fzSpace + `*:` + fzSpace + `*|` + fzSpace + `+)[A-Za-z](?:0|[1-9][0-9]*))*` + fzSpace + `*$`)
var fzName = regexp.MustCompile(`[A-Za-z](?:0|[1-9][0-9]*)`)

func FuzzParsePly(f *testing.F) {
	for _, s := range []string{"e5:e6:g3:g5", " d4 : K12 ", "d4\tk12", "a0", "a01", "d4::k12", ":d4", "d4:", "black",
		" White ", "d4,k12", "\u00a0d4\u2003k12", "e 2", "z99999999999", "", "a1 b2 c3 d4 e5", "d4\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pts, err := ParsePoints(text)
		wantOK := len(text) <= MaxPlyText && fzForm.MatchString(text)
		if (err == nil) != wantOK {
			t.Fatalf("ParsePoints(%q) = %v, %v; LN0 says ok %v", text, pts, err, wantOK)
		}
		if err != nil {
			var pe *PlyError
			if !errors.As(err, &pe) || pe.Code != CodeSyntax || pe.Index != NoIndex {
				t.Fatalf("ParsePoints(%q) = %v, want a syntax error", text, err)
			}
		} else {
			if names := fzName.FindAllString(text, -1); len(names) != len(pts) {
				t.Fatalf("ParsePoints(%q) = %v, the text names %v", text, pts, names)
			}
			canon := joinPoints(pts)
			back, err := ParsePoints(canon)
			if err != nil || !slices.Equal(back, pts) || strings.ToLower(canon) != canon {
				t.Fatalf("canonical %q of %q reads back as %v, %v", canon, text, back, err)
			}
		}
		// Each ply kind takes its count of points or its colour, or syntax.
		_, errSetup := ParseSetup(text)
		_, errTurn := ParseTurn(text)
		_, errChoice := ParseChoice(text)
		if (errSetup == nil) != (err == nil && len(pts) == 4) || (errTurn == nil) != (err == nil && len(pts) <= 2) {
			t.Fatalf("%q: setup %v, turn %v with %d points", text, errSetup, errTurn, len(pts))
		}
		word := strings.ToLower(fzTrim.ReplaceAllString(text, ""))
		if (errChoice == nil) != (len(text) <= MaxPlyText && (word == "black" || word == "white")) {
			t.Fatalf("ParseChoice(%q) = %v", text, errChoice)
		}
	})
}

var fzTrim = regexp.MustCompile(`^` + fzSpace + `+|` + fzSpace + `+$`)

// ---------------------------------------------------------------------------
// The reference

type fzPt struct{ r, c int }

type fzRef struct {
	side   int
	stones map[fzPt]Color
	// memo holds each point's neighbours once computed: the formula is
	// LB3's, the cache only spares the fuzzer its cost.
	memo map[fzPt][]fzPt
}

func newFzRef(side int) *fzRef {
	return &fzRef{side: side, stones: map[fzPt]Color{}, memo: map[fzPt][]fzPt{}}
}

func (g *fzRef) rows() int         { return 2*g.side - 1 }
func (g *fzRef) rowLen(r int) int  { return g.side + min(r, 2*g.side-2-r) }
func (g *fzRef) on(p fzPt) bool    { return p.r >= 0 && p.r < g.rows() && p.c >= 0 && p.c < g.rowLen(p.r) }
func (g *fzRef) empty(p fzPt) bool { _, taken := g.stones[p]; return !taken }

// nbrs is LB3 as written.
func (g *fzRef) nbrs(p fzPt) []fzPt {
	if out, ok := g.memo[p]; ok {
		return out
	}
	s, r, c := g.side, p.r, p.c
	cands := []fzPt{{r, c - 1}, {r, c + 1}}
	if r <= s-1 {
		cands = append(cands, fzPt{r - 1, c - 1}, fzPt{r - 1, c})
	} else {
		cands = append(cands, fzPt{r - 1, c}, fzPt{r - 1, c + 1})
	}
	if r < s-1 {
		cands = append(cands, fzPt{r + 1, c}, fzPt{r + 1, c + 1})
	} else {
		cands = append(cands, fzPt{r + 1, c - 1}, fzPt{r + 1, c})
	}
	var out []fzPt
	for _, q := range cands {
		if g.on(q) {
			out = append(out, q)
		}
	}
	g.memo[p] = out
	return out
}

func (g *fzRef) touch(p, q fzPt) bool { return slices.Contains(g.nbrs(p), q) }

// inLine is LB4: two steps in one direction leave exactly one point
// between, which is their only common neighbour.
func (g *fzRef) inLine(p, q fzPt) bool {
	if p == q || g.touch(p, q) {
		return false
	}
	common := 0
	for _, m := range g.nbrs(p) {
		if g.touch(m, q) {
			common++
		}
	}
	return common == 1
}

func (g *fzRef) touchesColor(p fzPt, c Color) bool {
	for _, q := range g.nbrs(p) {
		if s, ok := g.stones[q]; ok && s == c {
			return true
		}
	}
	return false
}

func (g *fzRef) touchesAny(p fzPt) bool { return g.touchesColor(p, Black) || g.touchesColor(p, White) }

func (g *fzRef) all() []fzPt {
	var out []fzPt
	for r := range g.rows() {
		for c := range g.rowLen(r) {
			out = append(out, fzPt{r, c})
		}
	}
	return out
}

func (g *fzRef) firsts() []fzPt {
	var out []fzPt
	for _, p := range g.all() {
		if g.empty(p) && g.touchesColor(p, Black) && g.touchesColor(p, White) {
			out = append(out, p)
		}
	}
	return out
}

func (g *fzRef) isolated() []fzPt {
	var out []fzPt
	for _, p := range g.all() {
		if g.empty(p) && !g.touchesAny(p) {
			out = append(out, p)
		}
	}
	return out
}

func (g *fzRef) clone() *fzRef {
	c := &fzRef{side: g.side, stones: make(map[fzPt]Color, len(g.stones)+2), memo: g.memo}
	for p, s := range g.stones {
		c.stones[p] = s
	}
	return c
}

// fzVerdict is the reference judgement of a ply: "" for ok.
type fzVerdict struct {
	code  Code
	index int
}

// judgeSetup is LS2 in LN4's order; on success the stones are placed.
func (g *fzRef) judgeSetup(pts []fzPt) fzVerdict {
	if len(pts) != 4 {
		return fzVerdict{CodeSyntax, NoIndex}
	}
	next := g.clone()
	for k, p := range pts {
		switch {
		case !next.on(p):
			return fzVerdict{CodeOffBoard, k}
		case !next.empty(p):
			return fzVerdict{CodeOccupied, k}
		case k == 1 && !next.touch(pts[0], p):
			return fzVerdict{CodeSetupNotTouching, k}
		case k == 3 && !next.inLine(pts[2], p):
			return fzVerdict{CodeSetupNotInLine, k}
		}
		next.stones[p] = Color(k % 2)
	}
	*g = *next
	return fzVerdict{}
}

// judgeTurn is LT1–LT3 in LN4's order; on success the stones are placed.
func (g *fzRef) judgeTurn(mover Color, pts []fzPt) fzVerdict {
	if len(pts) == 0 || len(pts) > 2 {
		return fzVerdict{CodeSyntax, NoIndex}
	}
	next := g.clone()
	for k, p := range pts {
		switch {
		case !next.on(p):
			return fzVerdict{CodeOffBoard, k}
		case !next.empty(p):
			return fzVerdict{CodeOccupied, k}
		case k == 0 && !(next.touchesColor(p, Black) && next.touchesColor(p, White)):
			return fzVerdict{CodeNotTouchingBoth, k}
		case k == 1 && next.touchesAny(p):
			return fzVerdict{CodeNotIsolated, k}
		}
		next.stones[p] = mover
	}
	if len(pts) == 1 && len(next.isolated()) > 0 {
		return fzVerdict{CodeIncomplete, NoIndex}
	}
	*g = *next
	return fzVerdict{}
}

// holes is LE2 and LE3's lists: each colour's owned holes, sorted.
func (g *fzRef) holes() [2][]Hole {
	var out [2][]Hole
	seen := map[fzPt]bool{}
	for _, start := range g.all() {
		if !g.empty(start) || seen[start] {
			continue
		}
		size, around := 0, map[fzPt]Color{}
		queue := []fzPt{start}
		seen[start] = true
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			size++
			for _, q := range g.nbrs(p) {
				if s, ok := g.stones[q]; ok {
					around[q] = s
				} else if !seen[q] {
					seen[q] = true
					queue = append(queue, q)
				}
			}
		}
		var colors [2]int
		for _, s := range around {
			colors[s]++
		}
		for c := range 2 {
			if colors[c] > 0 && colors[1-c] == 0 {
				out[c] = append(out[c], Hole{size, len(around)})
			}
		}
	}
	for c := range out {
		slices.SortFunc(out[c], func(a, b Hole) int { return cmp.Or(b.Size-a.Size, b.Around-a.Around) })
	}
	return out
}

// verdict is LE3 and LE4: the winning colour (-1 for a draw) and the margin.
func fzResult(h [2][]Hole) (Color, int) {
	nb, nw := len(h[Black]), len(h[White])
	switch {
	case nb > nw:
		return Black, nb - nw
	case nw > nb:
		return White, nw - nb
	}
	for i := range h[Black] {
		if d := h[Black][i].Size - h[White][i].Size; d != 0 {
			return map[bool]Color{true: Black, false: White}[d > 0], 0
		}
	}
	for i := range h[Black] {
		if d := h[Black][i].Around - h[White][i].Around; d != 0 {
			return map[bool]Color{true: Black, false: White}[d > 0], 0
		}
	}
	return -1, 0
}

func (g *fzRef) names(c Color) []string {
	var out []string
	for _, p := range g.all() {
		if s, ok := g.stones[p]; ok && s == c {
			out = append(out, Point{Row: int16(p.r), Pos: int16(p.c)}.String())
		}
	}
	return out
}

func fzText(pts []fzPt) string {
	parts := make([]string, len(pts))
	for i, p := range pts {
		parts[i] = string(rune('a'+p.r)) + itoa(p.c+1)
	}
	return strings.Join(parts, ":")
}

// ---------------------------------------------------------------------------
// Playing by bytes

type fzBytes struct{ b []byte }

func (f *fzBytes) next() int {
	if len(f.b) == 0 {
		return 0
	}
	v := int(f.b[0])
	f.b = f.b[1:]
	return v
}

// point picks a point: mostly from the candidates the rules want, sometimes
// any point of the board or one just off it.
func (f *fzBytes) point(g *fzRef, want []fzPt) fzPt {
	v := f.next()
	switch {
	case v%8 < 5 && len(want) > 0:
		return want[f.next()%len(want)]
	case v%8 < 7:
		all := g.all()
		return all[f.next()%len(all)]
	}
	return fzPt{f.next() % (g.rows() + 1), f.next()%(2*g.side+1) - 1}
}

// FuzzPlay plays a game chosen by the bytes through the ruleset interface
// and checks every ply, legal or not, every Legal answer, perft, the stones,
// the end and the result against the reference, and that the state encodes
// and decodes to itself.
func FuzzPlay(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte("a Les game, chosen by these bytes, on a small board"))
	f.Add(append([]byte{6}, make([]byte, 400)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fzBytes{data}
		side := []int{3, 3, 4, 4, 5, 6, 7, 9}[in.next()%8]
		ref := newFzRef(side)
		gi, _, err := Rules{}.Start(ruleset.Options{Players: 2, Params: map[string]string{ParamSize: itoa(side)}})
		if err != nil {
			t.Fatal(err)
		}
		g := gi.(*Engine)
		chooser := Black
		checked := -1 // the last ply whose Legal was checked
		for step := 0; step < 600 && !g.Over(); step++ {
			var text string
			var want fzVerdict
			after := ref.clone()
			switch g.Ply() {
			case 0:
				n := 3 + in.next()%3
				pts := make([]fzPt, 0, n)
				for k := range n {
					var cands []fzPt
					switch {
					case k == 1:
						cands = ref.nbrs(pts[0])
					case k == 3 && after.on(pts[2]):
						for _, p := range ref.all() {
							if ref.inLine(pts[2], p) {
								cands = append(cands, p)
							}
						}
					}
					pts = append(pts, in.point(ref, cands))
				}
				text = fzText(pts)
				want = after.judgeSetup(pts)
			case 1:
				text = []string{"black", "white", "White", "grey", "e5"}[in.next()%5]
				if c, err := ParseColor(text); err == nil {
					chooser = c
				} else {
					want = fzVerdict{CodeSyntax, NoIndex}
				}
			default:
				mover := Color((g.Ply() - 2) % 2)
				first := in.point(ref, ref.firsts())
				pts := []fzPt{first}
				probe := ref.clone()
				probe.stones[first] = mover
				if n := in.next() % 8; n > 0 {
					pts = append(pts, in.point(ref, probe.isolated()))
					if n == 7 {
						pts = append(pts, in.point(ref, nil))
					}
				}
				text = fzText(pts)
				want = after.judgeTurn(mover, pts)
				if checked != g.Ply() {
					fzCheckLegal(t, g, ref)
					checked = g.Ply()
				}
			}
			checkErr := g.Check(text)
			played, err := g.Play(text)
			if (checkErr == nil) != (err == nil) {
				t.Fatalf("ply %d %q: Check %v but Play %v", g.Ply(), text, checkErr, err)
			}
			if want.code == "" {
				if err != nil {
					t.Fatalf("ply %d %q on %s: %v; the reference accepts it", g.Ply(), text, g.pos, err)
				}
				if len(played) != 1 || played[0].Ply != strings.ToLower(text) {
					t.Fatalf("ply %q played as %+v", text, played)
				}
				ref = after
			} else {
				var re *ruleset.Error
				if !errors.As(err, &re) || re.Code != string(want.code) || re.Index != want.index {
					t.Fatalf("ply %d %q on %s: %v; the reference says %s at %d", g.Ply(), text, g.pos, err, want.code, want.index)
				}
				continue
			}
			if got, w := pointNames(g.pos.Stones(Black)), ref.names(Black); !slices.Equal(got, w) {
				t.Fatalf("black stones %v, the reference has %v", got, w)
			}
			if got, w := pointNames(g.pos.Stones(White)), ref.names(White); !slices.Equal(got, w) {
				t.Fatalf("white stones %v, the reference has %v", got, w)
			}
			if g.Ply() >= 2 && g.Over() != (len(ref.firsts()) == 0) {
				t.Fatalf("over %v with %d first placements", g.Over(), len(ref.firsts()))
			}
			fzCheckEncoding(t, g)
		}
		if !g.Over() {
			if err := g.Adjudicate(); err != nil {
				t.Fatal(err)
			}
		}
		r, _ := g.Outcome()
		h := ref.holes()
		if !slices.Equal(r.Holes[Black], h[Black]) || !slices.Equal(r.Holes[White], h[White]) {
			t.Fatalf("holes %v, the reference has %v", r.Holes, h)
		}
		if g.Ply() >= 2 {
			winner, margin := fzResult(h)
			got := Color(-1)
			if !r.Draw {
				got, _ = g.ColorOf(r.Winner)
			}
			if got != winner || r.Margin != margin {
				t.Fatalf("%s: winner %d by %d, the reference says %d by %d", r.Reason, got, r.Margin, winner, margin)
			}
			if c, _ := g.ColorOf(Chooser); c != chooser {
				t.Fatalf("the chooser plays %s, chose %s", c, chooser)
			}
		}
		fzCheckEncoding(t, g)
	})
}

// fzCheckLegal compares Legal's first and second placements and perft with
// the reference.
func fzCheckLegal(t *testing.T, g *Engine, ref *fzRef) {
	t.Helper()
	l, err := g.Legal("")
	if err != nil {
		t.Fatal(err)
	}
	firsts := ref.firsts()
	if len(l.Choices) != len(firsts) || l.CanEnd {
		t.Fatalf("Legal: %d first placements, the reference has %d", len(l.Choices), len(firsts))
	}
	turns, single := 0, 0
	isolated := ref.isolated()
	for k, p := range firsts {
		if l.Choices[k].To != fzText([]fzPt{p}) {
			t.Fatalf("Legal: first placement %d is %s, the reference has %s", k, l.Choices[k].To, fzText([]fzPt{p}))
		}
		// A stone on p takes p's neighbours out of the isolated points.
		iso := len(isolated)
		for _, q := range ref.nbrs(p) {
			if slices.Contains(isolated, q) {
				iso--
			}
		}
		if iso == 0 {
			turns++
			single++
		} else {
			turns += iso
		}
		if k == 0 {
			l2, err := g.Legal(fzText([]fzPt{p}))
			if err != nil || len(l2.Choices) != iso || l2.CanEnd != (iso == 0) {
				t.Fatalf("Legal(%s): %d second placements, can end %v, %v; the reference has %d", fzText([]fzPt{p}), len(l2.Choices), l2.CanEnd, err, iso)
			}
		}
	}
	if gt, gs := g.pos.Perft(); gt != turns || gs != single {
		t.Fatalf("perft %d, %d; the reference counts %d, %d", gt, gs, turns, single)
	}
}

func fzCheckEncoding(t *testing.T, g *Engine) {
	t.Helper()
	data, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Rules{}.Decode(data)
	if err != nil {
		t.Fatalf("Decode(%s): %v", data, err)
	}
	again, _ := back.Encode()
	r1, _ := g.Result()
	r2, _ := back.Result()
	if string(again) != string(data) || back.ToMove() != g.ToMove() || !slices.Equal(r1.Winners, r2.Winners) || r1.Line != r2.Line {
		t.Fatalf("Decode(Encode()) differs: %s then %s", data, again)
	}
}
