package les

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/internal/vectors"
)

func startRules(t *testing.T, params map[string]string) *Engine {
	t.Helper()
	g, played, err := Rules{}.Start(ruleset.Options{Players: 2, Seed: 7, Params: params})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if len(played) != 0 {
		t.Fatalf("Start played %+v", played)
	}
	return g.(*Engine)
}

// playAll plays plies through the interface and returns what was played.
func playAll(t *testing.T, g ruleset.Game, plies ...string) []ruleset.Played {
	t.Helper()
	var out []ruleset.Played
	for _, p := range plies {
		played, err := g.Play(p)
		if err != nil {
			t.Fatalf("ply %d %q: %v", g.Ply(), p, err)
		}
		out = append(out, played...)
	}
	return out
}

func TestRulesStart(t *testing.T) {
	if g := startRules(t, nil); g.pos.board.Side() != DefaultSide || g.Ruleset() != "les" || (Rules{}).Name() != "les" {
		t.Errorf("default game: side %d, ruleset %s", g.pos.board.Side(), g.Ruleset())
	}
	if g := startRules(t, map[string]string{ParamSize: "3"}); g.pos.board.Points() != 19 {
		t.Errorf("size 3: %d points", g.pos.board.Points())
	}
	tests := []struct {
		name    string
		players int
		params  map[string]string
	}{
		{"four players", 4, nil},
		{"one player", 1, nil},
		{"unknown option", 2, map[string]string{"walls": "0"}},
		{"size not a number", 2, map[string]string{ParamSize: "nine"}},
		{"size too small", 2, map[string]string{ParamSize: "2"}},
		{"size too large", 2, map[string]string{ParamSize: "14"}},
	}
	for _, tt := range tests {
		_, _, err := Rules{}.Start(ruleset.Options{Players: tt.players, Params: tt.params})
		var re *ruleset.Error
		if !errors.As(err, &re) || re.Code != ruleset.CodeInvalidOptions || re.Index != ruleset.NoIndex || !errors.Is(err, ErrOptions) {
			t.Errorf("%s: Start = %v, want invalid_input", tt.name, err)
		}
	}
}

// Seats, not colours, cross the interface: the setter sets up, the chooser
// chooses, then the seat holding Black moves.
func TestRulesSeats(t *testing.T) {
	g := startRules(t, nil)
	if !reflect.DeepEqual(g.Colors(), []string{"setter", "chooser"}) {
		t.Errorf("Colors = %v", g.Colors())
	}
	for seat, want := range map[string]int{"setter": 0, "chooser": 1, "black": -1, "white": -1, "": -1} {
		if got := g.Side(seat); got != want {
			t.Errorf("Side(%q) = %d, want %d", seat, got, want)
		}
	}
	steps := []struct {
		ply, toMove string
		setter      string // the setter's stone colour after the ply, "" before the choice
	}{
		{"e5:e6:g3:g5", "chooser", ""},
		{"white", "setter", "black"}, // the chooser took White: the setter is Black and moves first
		{"d5:a1", "chooser", "black"},
		{"d6:q9", "setter", "black"},
	}
	if g.ToMove() != "setter" {
		t.Fatalf("to move first: %s", g.ToMove())
	}
	if _, ok := g.StoneColor("setter"); ok {
		t.Error("a stone colour before the choice")
	}
	for _, s := range steps {
		played := playAll(t, g, s.ply)
		if g.ToMove() != s.toMove {
			t.Errorf("after %s: %s to move, want %s", s.ply, g.ToMove(), s.toMove)
		}
		if c, ok := g.StoneColor("setter"); c != s.setter || ok != (s.setter != "") {
			t.Errorf("after %s: the setter plays %q, %v", s.ply, c, ok)
		}
		if played[0].Used != 0 || played[0].Counted != 0 || played[0].Auto {
			t.Errorf("played %+v", played[0])
		}
	}
	if c, _ := g.StoneColor("chooser"); c != "white" {
		t.Errorf("the chooser plays %s", c)
	}
	if _, ok := g.StoneColor("black"); ok {
		t.Error("StoneColor(black) answered")
	}
}

func TestRulesPlyErrorsKeepCodeRuleAndIndex(t *testing.T) {
	g := startRules(t, nil)
	check := func(ply string, code Code, index int) {
		t.Helper()
		for name, f := range map[string]func(string) error{
			"Check": g.Check,
			"Play":  func(p string) error { _, err := g.Play(p); return err },
		} {
			err := f(ply)
			var re *ruleset.Error
			var pe *PlyError
			if !errors.As(err, &re) || re.Code != string(code) || re.Index != index || re.Rule != code.Rule() || !errors.As(err, &pe) {
				t.Errorf("ply %d %s(%q) = %#v, want %s at %d", g.Ply(), name, ply, err, code, index)
			}
		}
	}
	check("e5:e7:g3:g5", CodeSetupNotTouching, 1)
	check("black", CodeSyntax, ruleset.NoIndex)
	playAll(t, g, "e5:e6:g3:g5")
	check("e5:e6:g3:g5", CodeSyntax, ruleset.NoIndex)
	check("green", CodeSyntax, ruleset.NoIndex)
	playAll(t, g, "Black")
	check("d5", CodeIncomplete, ruleset.NoIndex)
	check("d5:e4", CodeNotIsolated, 1)
	check("white", CodeSyntax, ruleset.NoIndex)
	if g.Ply() != 2 {
		t.Errorf("refused plies changed the game: ply %d", g.Ply())
	}
}

func TestRulesLegalAtEveryStage(t *testing.T) {
	g := startRules(t, nil)
	type want struct {
		partial string
		canEnd  bool
		to      []string // nil: only count
		count   int
		kind    string
	}
	ask := func(partial string, w want) {
		t.Helper()
		l, err := g.Legal(partial)
		if err != nil {
			t.Fatalf("Legal(%q): %v", partial, err)
		}
		var to []string
		for _, c := range l.Choices {
			if c.Kind != w.kind || c.From != "" || c.Cost != 0 {
				t.Fatalf("Legal(%q): choice %+v", partial, c)
			}
			to = append(to, c.To)
		}
		if l.Partial != w.partial || l.CanEnd != w.canEnd || l.Used != 0 || l.Left != 0 || len(to) != w.count ||
			(w.to != nil && !slices.Equal(to, w.to)) {
			t.Errorf("Legal(%q) = partial %q, can end %v, %d choices %v; want %+v", partial, l.Partial, l.CanEnd, len(to), to, w)
		}
	}
	refuse := func(partial string, code Code, index int) {
		t.Helper()
		_, err := g.Legal(partial)
		var re *ruleset.Error
		if !errors.As(err, &re) || re.Code != string(code) || re.Index != index {
			t.Errorf("Legal(%q) = %v, want %s at %d", partial, err, code, index)
		}
	}
	// The setup, stone by stone (LS2).
	ask("", want{count: 217, kind: "place"})
	ask(" E5 ", want{partial: "e5", to: []string{"d4", "d5", "e4", "e6", "f5", "f6"}, count: 6, kind: "place"})
	ask("e5:e6", want{partial: "e5:e6", count: 215, kind: "place"})
	l, _ := g.Legal("e5:e6:g3")
	for _, c := range l.Choices {
		if !g.pos.board.InLine(mustPoint("g3"), mustPoint(c.To)) {
			t.Errorf("W2 choice %s is not in line with g3", c.To)
		}
	}
	ask("e5:e6:g3", want{partial: "e5:e6:g3", count: 6, kind: "place"})
	ask("e5:e6:g3:g5", want{partial: "e5:e6:g3:g5", canEnd: true, kind: "place"})
	refuse("e5:e7", CodeSetupNotTouching, 1)
	refuse("e5:e6:g3:g5:a1", CodeSyntax, ruleset.NoIndex)
	refuse("e5::e6", CodeSyntax, ruleset.NoIndex)

	// The choice (LS3).
	playAll(t, g, "e5:e6:g3:g5")
	ask("", want{to: []string{"black", "white"}, count: 2, kind: "color"})
	ask("WHITE", want{partial: "white", canEnd: true, kind: "color"})
	refuse("e5", CodeSyntax, ruleset.NoIndex)

	// A turn: first placements, then second (LT1–LT3).
	playAll(t, g, "black")
	ask("", want{to: []string{"d5", "f5", "f6", "g4"}, count: 4, kind: "place"})
	l, _ = g.Legal("d5")
	if len(l.Choices) < 150 || l.CanEnd || l.Partial != "d5" {
		t.Errorf("Legal(d5): %d choices, can end %v", len(l.Choices), l.CanEnd)
	}
	ask("d5:a1", want{partial: "d5:a1", canEnd: true, kind: "place"})
	refuse("a1", CodeNotTouchingBoth, 0)
	refuse("d5:e4", CodeNotIsolated, 1)
	refuse("d5:a1:a2", CodeSyntax, ruleset.NoIndex)
}

// A whole game of the vectors, won on the number of holes, ends as its
// vector says: the result, its line, the holes and the last turn drawn.
func TestRulesGameToTheEnd(t *testing.T) {
	var v vectors.LesGameCase
	found := false
	for _, gc := range vectors.LoadLes(t).GameCases {
		if w := gc.Result.Winner; w != nil && len(gc.Result.Holes["black"]) != len(gc.Result.Holes["white"]) {
			v, found = gc, true
			break
		}
	}
	if !found {
		t.Skip("the vectors have no game won on the number of holes")
	}
	g := startRules(t, map[string]string{ParamSize: itoa(v.Size)})
	playAll(t, g, append([]string{v.Setup, v.Choice}, v.Turns...)...)
	res, over := g.Result()
	won := *v.Result.Winner
	if !over || res.Reason != "no_move" || res.Draw || res.Text != won+"+"+itoa(v.Result.Margin) || res.Margin != v.Result.Margin {
		t.Fatalf("Result = %+v, %v; the vector: %+v", res, over, v.Result)
	}
	seat, _ := ParseSeat(res.Winners[0])
	if c, _ := g.ColorOf(seat); c.String() != won || res.Winner != int(seat) || len(res.Winners) != 1 {
		t.Errorf("winners %v, side %d", res.Winners, res.Winner)
	}
	owned, lost := len(v.Result.Holes[won]), len(v.Result.Holes[map[string]string{"black": "white", "white": "black"}[won]])
	if want := fmt.Sprintf("%s (the %s) won by %s (%d to %d)", title(won), seat, holes(v.Result.Margin), owned, lost); res.Line != want {
		t.Errorf("Line = %q, want %q", res.Line, want)
	}
	last := v.Turns[len(v.Turns)-1]
	b, err := g.Board(last)
	if err != nil {
		t.Fatal(err)
	}
	drawn := 0
	for _, h := range b.Highlights {
		if h.Kind == "hole" {
			drawn++
		}
	}
	if drawn != owned+lost || len(b.Path) != strings.Count(last, ":")+1 {
		t.Errorf("board: %d holes, path %v; the vector: %d holes, last turn %s", drawn, b.Path, owned+lost, last)
	}
	if _, err := g.Legal(""); !errors.Is(err, ruleset.ErrGameOver) {
		t.Errorf("Legal after the end = %v", err)
	}
	for name, err := range map[string]error{
		"Play":       errOf(g.Play("a1")),
		"Check":      g.Check("a1"),
		"Resign":     g.Resign("setter"),
		"TimeOut":    errOf(g.TimeOut(false)),
		"TimeOut(p)": errOf(g.TimeOut(true)),
		"Adjudicate": g.Adjudicate(),
	} {
		if !errors.Is(err, ruleset.ErrGameOver) {
			t.Errorf("%s after the end = %v, want ErrGameOver", name, err)
		}
	}
}

func TestRulesResignTimeOutAdjudicate(t *testing.T) {
	fresh := startRules(t, nil)
	afterSetup := fresh.Clone().(*Engine)
	playAll(t, afterSetup, "e5:e6:g3:g5")
	midGame := afterSetup.Clone().(*Engine)
	playAll(t, midGame, "white", "d5:a1")
	if fresh.Ply() != 0 || afterSetup.Ply() != 1 || midGame.Ply() != 3 {
		t.Fatalf("clones share state: plies %d %d %d", fresh.Ply(), afterSetup.Ply(), midGame.Ply())
	}
	tests := []struct {
		name string
		g    *Engine
		end  func(g *Engine) error
		want ruleset.Result
	}{
		{"the setter resigns at the setup", fresh, func(g *Engine) error { return g.Resign("setter") },
			ruleset.Result{Reason: "resignation", Winners: []string{"chooser"}, Winner: 1, Margin: 1, Text: "chooser+1",
				Line: "The chooser won by 1 hole (the setter resigned)"}},
		{"the chooser runs out of time at the choice", afterSetup, func(g *Engine) error { _, err := g.TimeOut(false); return err },
			ruleset.Result{Reason: "timeout", Winners: []string{"setter"}, Winner: 0, Margin: 1, Text: "setter+1",
				Line: "The setter won by 1 hole (the chooser ran out of time)"}},
		{"adjudicated before the choice", afterSetup, func(g *Engine) error { return g.Adjudicate() },
			ruleset.Result{Reason: "adjudicated", Draw: true, Text: "draw",
				Line: "a draw (no colours were chosen; adjudicated at the end of the round)"}},
		{"the chooser resigns in play", midGame, func(g *Engine) error { return g.Resign("Chooser") },
			ruleset.Result{Reason: "resignation", Winners: []string{"setter"}, Winner: 0, Margin: 1, Text: "black+1",
				Line: "Black (the setter) won by 1 hole (White resigned)"}},
		{"the mover (the chooser, White) runs out of time", midGame, func(g *Engine) error { _, err := g.TimeOut(false); return err },
			ruleset.Result{Reason: "timeout", Winners: []string{"setter"}, Winner: 0, Margin: 1, Text: "black+1",
				Line: "Black (the setter) won by 1 hole (White ran out of time)"}},
		{"adjudicated in play", midGame, func(g *Engine) error { return g.Adjudicate() },
			ruleset.Result{Reason: "adjudicated", Draw: true, Text: "draw",
				Line: "a draw (nobody owns a hole; adjudicated at the end of the round)"}},
	}
	for _, tt := range tests {
		g := tt.g.Clone().(*Engine)
		if err := tt.end(g); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got, over := g.Result()
		if !over || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Result = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if _, over := midGame.Result(); over {
		t.Error("the original game ended with its clones")
	}

	// Les has no pass: a time-out that asks for one is refused and changes
	// nothing.
	g := midGame.Clone()
	if played, err := g.TimeOut(true); !errors.Is(err, ErrNoPass) || played != nil || g.Ply() != 3 {
		t.Errorf("TimeOut(pass) = %v, %v", played, err)
	}
	if _, over := g.Result(); over {
		t.Error("TimeOut(pass) ended the game")
	}
	if err := g.Resign("black"); !errors.Is(err, ErrSeat) {
		t.Errorf("Resign(black) = %v, want ErrSeat", err)
	}
}

func TestRulesEncodeDecodeRoundTrip(t *testing.T) {
	v := conformanceGame(t, 1)
	ended := startRules(t, map[string]string{ParamSize: itoa(v.Size)})
	playAll(t, ended, append([]string{v.Setup, v.Choice}, v.Turns...)...)
	resigned := startRules(t, map[string]string{ParamSize: "5"})
	playAll(t, resigned, "c3:c4:b2:d2")
	if err := resigned.Resign("chooser"); err != nil {
		t.Fatal(err)
	}
	mid := startRules(t, map[string]string{ParamSize: "13"})
	playAll(t, mid, "e5:e6:g3:g5", "white", "d5:a1", "d6:m20")
	games := map[string]*Engine{"fresh": startRules(t, nil), "ended": ended, "resigned before the choice": resigned, "mid-game": mid}
	for name, g := range games {
		data, err := g.Encode()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Rules{}.Decode(data)
		if err != nil {
			t.Fatalf("%s: Decode(%s): %v", name, data, err)
		}
		bg := back.(*Engine)
		if !bg.pos.Equal(g.pos) || bg.ply != g.ply || bg.chooser != g.chooser || !reflect.DeepEqual(bg.result, g.result) {
			t.Errorf("%s: Decode(Encode()) = %+v, want %+v", name, bg, g)
		}
		again, _ := back.Encode()
		if string(again) != string(data) {
			t.Errorf("%s: encoded %s, then %s", name, data, again)
		}
		r1, _ := g.Result()
		r2, _ := back.Result()
		if !reflect.DeepEqual(r1, r2) || back.ToMove() != g.ToMove() {
			t.Errorf("%s: result %+v, want %+v", name, r2, r1)
		}
	}
	if data, _ := mid.Encode(); len(data) > 200 || !strings.Contains(string(data), `"chooser":"white"`) {
		t.Errorf("mid-game state: %s", data)
	}
	for _, bad := range []string{
		`{`, `{}`, `{"size":2}`,
		`{"size":9,"ply":0,"black":"e5"}`,
		`{"size":9,"ply":-1}`,
		`{"size":9,"ply":1,"black":"e5:g3","white":"e6"}`,
		`{"size":9,"ply":1,"black":"e5:g3","white":"e6:g5","chooser":"black"}`,
		`{"size":9,"ply":2,"black":"e5:g3","white":"e6:g5"}`,
		`{"size":9,"ply":2,"black":"e5:g3","white":"e6:g5","chooser":"red"}`,
		`{"size":9,"ply":5,"black":"e5:g3","white":"e6:g5","chooser":"black"}`,
		`{"size":9,"ply":1,"black":"e5:e5","white":"e6:g5"}`,
		`{"size":9,"ply":1,"black":"e5:z1","white":"e6:g5"}`,
		`{"size":9,"ply":1,"black":"e5,g3","white":"e6:g5"}`,
		`{"size":9,"ply":1,"black":"e5:g3","white":"e6:g5","result":{"reason":"checkmate","decided":"none"}}`,
		`{"size":9,"ply":1,"black":"e5:g3","white":"e6:g5","result":{"reason":"timeout","winner":"nobody","decided":"none"}}`,
		`{"size":9,"ply":1,"black":"e5:g3","white":"e6:g5","result":{"reason":"timeout","winner":"setter","decided":"luck"}}`,
	} {
		if _, err := (Rules{}).Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%s) accepted", bad)
		}
	}
}

func TestRulesSyntaxReadsTheStagesPly(t *testing.T) {
	g := startRules(t, nil)
	setup, ok := g.Example()
	if !ok {
		t.Fatal("no example setup")
	}
	afterSetup := g.Clone()
	playAll(t, afterSetup, setup)
	afterChoice := afterSetup.Clone()
	playAll(t, afterChoice, "black")
	tests := []struct {
		name string
		g    ruleset.Game
		text string
		ok   bool
	}{
		{"setup", g, "e5:e6:g3:g5", true},
		{"setup of three", g, "e5:e6:g3", false},
		{"choice at the setup", g, "black", false},
		{"choice", afterSetup, " White ", true},
		{"points at the choice", afterSetup, "e5", false},
		{"turn", afterChoice, "d4:k12", true},
		{"one placement", afterChoice, "d4", true},
		{"three placements", afterChoice, "d4 e4 f4", false},
		{"prose", afterChoice, "Thanks, my move:", false},
		{"resign", afterChoice, "resign", false},
	}
	for _, tt := range tests {
		err := tt.g.Syntax(tt.text)
		var re *ruleset.Error
		if (err == nil) != tt.ok || (err != nil && !errors.As(err, &re)) {
			t.Errorf("%s: Syntax(%q) = %v, want ok %v (else a *ruleset.Error)", tt.name, tt.text, err, tt.ok)
		}
	}
}

func TestExampleIsLegalAtEveryStage(t *testing.T) {
	g := startRules(t, nil)
	for stage := range 4 {
		ply, ok := g.Example()
		if !ok {
			t.Fatalf("stage %d: no example", stage)
		}
		if err := g.Check(ply); err != nil {
			t.Fatalf("stage %d: the example %q is illegal: %v", stage, ply, err)
		}
		if stage >= 2 && !strings.Contains(ply, ":") {
			t.Errorf("stage %d: example %q, want a turn of two placements", stage, ply)
		}
		playAll(t, g, ply)
	}
	if err := g.Resign("setter"); err != nil {
		t.Fatal(err)
	}
	if ply, ok := g.Example(); ok {
		t.Errorf("Example after the end = %q, want none", ply)
	}
}
