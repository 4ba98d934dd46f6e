package less

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/ruleset"
)

var openWalls6 = strings.Repeat("0", 60)

func startRules(t *testing.T, players int, params map[string]string) *RulesGame {
	t.Helper()
	g, _, err := Rules{}.Start(ruleset.Options{Players: players, Seed: 7, Params: params})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return g.(*RulesGame)
}

func TestRulesStartRefusesBadOptions(t *testing.T) {
	tests := []struct {
		name    string
		players int
		params  map[string]string
	}{
		{"three players", 3, nil},
		{"unknown option", 2, map[string]string{"colour": "red"}},
		{"seed and walls", 2, map[string]string{ParamSeed: "1", ParamWalls: openWalls6}},
		{"bad seed", 2, map[string]string{ParamSeed: "-1"}},
		{"bad walls", 2, map[string]string{ParamWalls: "0"}},
		{"bad preset", 2, map[string]string{ParamPreset: "blitz"}},
		{"bad early stop", 2, map[string]string{ParamEarlyStop: "maybe"}},
		{"bad max turns", 2, map[string]string{ParamMaxTurns: "many"}},
		{"bad setup", 2, map[string]string{ParamWalls: openWalls6, ParamSetup: "white:z9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Rules{}.Start(ruleset.Options{Players: tt.players, Params: tt.params})
			var re *ruleset.Error
			if !errors.As(err, &re) || re.Code != "invalid_input" || re.Index != ruleset.NoIndex {
				t.Fatalf("Start = %v, want a ruleset error invalid_input", err)
			}
		})
	}
}

func TestRulesStartsLikeTheEngine(t *testing.T) {
	g := startRules(t, 4, map[string]string{ParamSeed: "99", ParamPreset: string(PresetClassic), ParamMaxTurns: "40"})
	board, err := GenerateBoard(8, 99)
	if err != nil {
		t.Fatal(err)
	}
	if g.Seed == nil || *g.Seed != 99 || g.Game.Start().Board().Walls() != board.Walls() || g.Game.Options().MaxTurns != 40 {
		t.Errorf("started seed %v walls %s max turns %d", g.Seed, g.Game.Start().Board().Walls(), g.Game.Options().MaxTurns)
	}
	if want := []string{"yellow", "black", "white", "red"}; !reflect.DeepEqual(g.Colors(), want) {
		t.Errorf("Colors = %v, want %v", g.Colors(), want)
	}
	// Without a board, the seed of the options draws one.
	if g := startRules(t, 2, nil); g.Seed == nil || *g.Seed != 7 {
		t.Errorf("seed = %v, want 7", g.Seed)
	}
}

func TestRulesPlyErrorsKeepCodeRuleAndIndex(t *testing.T) {
	g := startRules(t, 2, map[string]string{ParamWalls: openWalls6})
	tests := []struct {
		ply   string
		code  Code
		index int
	}{
		{"e5e4:zz", CodeSyntax, ruleset.NoIndex},
		{"e5e4:e4e3:a1a2", CodeNotYourPiece, 2},
		{"e5e4", CodeIncomplete, ruleset.NoIndex},
	}
	for _, tt := range tests {
		for name, f := range map[string]func(string) error{
			"Check": g.Check,
			"Play":  func(p string) error { _, err := g.Play(p); return err },
		} {
			err := f(tt.ply)
			var re *ruleset.Error
			var te *TurnError
			if !errors.As(err, &re) || re.Code != string(tt.code) || re.Index != tt.index || re.Rule != tt.code.Rule() || !errors.As(err, &te) {
				t.Errorf("%s(%q) = %#v, want code %s at %d", name, tt.ply, err, tt.code, tt.index)
			}
		}
	}
	if g.Ply() != 0 {
		t.Errorf("refused plies changed the game: ply %d", g.Ply())
	}
}

func TestRulesGamePlaysLegalsAndRecords(t *testing.T) {
	g := startRules(t, 2, map[string]string{ParamWalls: openWalls6})
	legal, err := g.Legal("e5e4")
	if err != nil {
		t.Fatal(err)
	}
	if legal.Partial != "e5e4" || legal.Used != 1 || legal.Left != 2 || legal.CanEnd || len(legal.Choices) == 0 {
		t.Errorf("Legal(e5e4) = %+v", legal)
	}
	if err := g.Check("e5e4:e4d4:d4c4"); err != nil {
		t.Fatalf("Check: %v", err)
	}
	played, err := g.Play("e5e4:e4d4:d4c4")
	if err != nil {
		t.Fatal(err)
	}
	if want := []ruleset.Played{{Color: "white", Ply: "e5e4:e4d4:d4c4", Used: 3, Counted: 3}}; !reflect.DeepEqual(played, want) {
		t.Errorf("Play = %+v, want %+v", played, want)
	}
	if g.Ply() != 1 || g.ToMove() != "black" {
		t.Errorf("after a turn: ply %d, to move %s", g.Ply(), g.ToMove())
	}
	b, err := g.Board("e5e4:e4d4:d4c4")
	if err != nil || len(b.Path) != 3 {
		t.Errorf("Board = %d steps, %v", len(b.Path), err)
	}
	if err := g.Resign("black"); err != nil {
		t.Fatal(err)
	}
	res, over := g.Result()
	if want := (ruleset.Result{Reason: "resignation", Winners: []string{"white"}, Text: "white+"}); !over ||
		res.Reason != want.Reason || !reflect.DeepEqual(res.Winners, want.Winners) || !strings.HasPrefix(res.Text, want.Text) {
		t.Errorf("Result = %+v, %v", res, over)
	}
	text, err := g.Record(played, map[string]string{"white": "Ada", "black": "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	back, history, err := Rules{}.ImportRecord(text)
	if err != nil {
		t.Fatalf("ImportRecord: %v\n%s", err, text)
	}
	if !reflect.DeepEqual(history, played) || back.Ply() != 1 {
		t.Errorf("record round trip: history %+v, ply %d", history, back.Ply())
	}
	if _, err := g.Legal(""); !errors.Is(err, ErrGameOver) {
		t.Errorf("Legal after the end = %v", err)
	}
}

// Side, Clone, TimeOut and Adjudicate: what the clock and the tournaments
// ask of any ruleset.
func TestRulesSidesCloneTimeOutAdjudicate(t *testing.T) {
	four := startRules(t, 4, nil)
	for color, want := range map[string]int{"yellow": 0, "white": 0, "black": 1, "red": 1, "blue": -1} {
		if got := four.Side(color); got != want {
			t.Errorf("Side(%s) = %d, want %d", color, got, want)
		}
	}
	if got := startRules(t, 2, nil).Side("yellow"); got != -1 {
		t.Errorf("two players: Side(yellow) = %d, want -1", got)
	}

	g := startRules(t, 2, map[string]string{ParamWalls: openWalls6})
	c := g.Clone()
	if _, err := c.Play("e5e4:e4d4:d4c4"); err != nil {
		t.Fatal(err)
	}
	if g.Ply() != 0 || c.Ply() != 1 {
		t.Errorf("after playing the clone: game at ply %d, clone at %d", g.Ply(), c.Ply())
	}

	passed, err := g.Clone().TimeOut(true)
	if err != nil || len(passed) == 0 || !passed[0].TimedOut || passed[0].Color != "white" || passed[0].Counted != Budget {
		t.Errorf("TimeOut(pass) = %+v, %v", passed, err)
	}
	lost := g.Clone()
	if played, err := lost.TimeOut(false); err != nil || len(played) != 0 {
		t.Fatalf("TimeOut(forfeit) = %+v, %v", played, err)
	}
	if r, over := lost.Result(); !over || r.Reason != string(ReasonTimeout) || r.Winner != int(SideBlack) || r.Winners[0] != "black" || r.Margin < 10 {
		t.Errorf("after a forfeit on time: %+v, over %v", r, over)
	}
	if _, err := lost.TimeOut(true); !errors.Is(err, ruleset.ErrGameOver) {
		t.Errorf("TimeOut after the end = %v, want ErrGameOver", err)
	}

	adj := g.Clone()
	if err := adj.Adjudicate(); err != nil {
		t.Fatal(err)
	}
	if r, over := adj.Result(); !over || r.Reason != string(ReasonAdjudicated) {
		t.Errorf("after Adjudicate: %+v, over %v", r, over)
	}
	if _, over := g.Result(); over {
		t.Error("the original game ended with its clones")
	}
}

// PlayedFrom reads a stored ply (no Detail) back as the engine's.
func TestPlayedFrom(t *testing.T) {
	tests := []struct {
		in      ruleset.Played
		want    Played
		wantErr bool
	}{
		{in: ruleset.Played{Color: "white", Ply: "Nil", Counted: 3, Auto: true},
			want: Played{Color: White, Turn: Turn{}, Outcome: Outcome{Counted: 3}, Auto: true}},
		{in: ruleset.Played{Color: "red", Ply: "a1a2:a2a4", Used: 3, Counted: 3, TimedOut: false},
			want: Played{Color: Red, Turn: MustParseTurn("a1a2:a2a4"), Outcome: Outcome{Used: 3, Counted: 3}}},
		{in: ruleset.Played{Color: "green", Ply: "a1a2"}, wantErr: true},
		{in: ruleset.Played{Color: "white", Ply: "garbage"}, wantErr: true},
	}
	for _, tt := range tests {
		got, err := PlayedFrom(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("PlayedFrom(%+v) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && (got.Color != tt.want.Color || got.Turn.String() != tt.want.Turn.String() ||
			got.Outcome != tt.want.Outcome || got.Auto != tt.want.Auto) {
			t.Errorf("PlayedFrom(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestRulesEncodeDecodeRoundTrip(t *testing.T) {
	over := startRules(t, 2, map[string]string{ParamWalls: openWalls6})
	if _, err := over.Play("e5e4:e4d4:d4c4"); err != nil {
		t.Fatal(err)
	}
	if err := over.Resign("white"); err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*RulesGame{
		"seeded 4p": startRules(t, 4, map[string]string{ParamSeed: "18446744073709551615", ParamEarlyStop: "true"}),
		"finished":  over,
	} {
		t.Run(name, func(t *testing.T) {
			b, err := g.Encode()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Rules{}.Decode(b)
			if err != nil {
				t.Fatalf("Decode(%s): %v", b, err)
			}
			rg := back.(*RulesGame)
			if !reflect.DeepEqual(rg.Game.State(), g.Game.State()) || rg.Preset != g.Preset || !reflect.DeepEqual(rg.Seed, g.Seed) {
				t.Errorf("Decode(Encode()) = %+v, want %+v", rg, g)
			}
		})
	}
	for _, bad := range []string{`{`, `{}`, `{"size":6,"walls":"x"}`} {
		if _, err := (Rules{}).Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%s) accepted", bad)
		}
	}
}

func TestRulesSyntaxReadsTurnsOnly(t *testing.T) {
	g := startRules(t, 2, map[string]string{ParamWalls: openWalls6})
	tests := []struct {
		text string
		ok   bool
	}{
		{"e5e4:e4d4", true},
		{"  E5-E4, e4d4 ", true},
		{"nil", true},
		{"a1h8", true}, // off the board: judged by Check, not by Syntax
		{"resign", false},
		{"Thanks for the game!", false},
		{"", false},
		{"> e5e4", false},
	}
	for _, tt := range tests {
		err := g.Syntax(tt.text)
		var re *ruleset.Error
		if (err == nil) != tt.ok || (err != nil && (!errors.As(err, &re) || re.Code != "syntax")) {
			t.Errorf("Syntax(%q) = %v, want ok %v (else a syntax *ruleset.Error)", tt.text, err, tt.ok)
		}
	}
}

func TestExampleTurnIsLegalAndLongest(t *testing.T) {
	for _, players := range []int{2, 4} {
		g := startRules(t, players, nil)
		turn, ok := g.Game.Position().ExampleTurn()
		if !ok || len(turn) != Budget {
			t.Fatalf("%d players: ExampleTurn = %v, %v, want a turn of %d moves", players, turn, ok, Budget)
		}
		if err := g.Check(turn.String()); err != nil {
			t.Errorf("%d players: the example %s is illegal: %v", players, turn, err)
		}
	}
}
