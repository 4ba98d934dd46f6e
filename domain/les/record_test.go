package les

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/internal/vectors"
)

// Every conformance game writes a record that reads back to the same game
// and writes the same text again.
func TestRecordRoundTripConformanceGames(t *testing.T) {
	v := vectors.LoadLes(t)
	for i, tc := range v.GameCases {
		g := startRules(t, map[string]string{ParamSize: itoa(tc.Size)})
		history := playAll(t, g, append([]string{tc.Setup, tc.Choice}, tc.Turns...)...)
		text, err := g.Record(history, map[string]string{"setter": `Ann "the wall"`, "chooser": "Bob"})
		if err != nil {
			t.Fatal(err)
		}
		back, backHistory, err := Rules{}.ImportRecord(text)
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, text)
		}
		again, err := back.Record(backHistory, map[string]string{"setter": `Ann "the wall"`, "chooser": "Bob"})
		if err != nil || again != text {
			t.Errorf("case %d: round trip differs (%v):\n%s\nvs\n%s", i, err, again, text)
		}
		if !reflect.DeepEqual(backHistory, history) || !back.(*Engine).pos.Equal(g.pos) {
			t.Errorf("case %d: replay differs", i)
		}
		r1, _ := g.Result()
		r2, _ := back.Result()
		if !reflect.DeepEqual(r1, r2) {
			t.Errorf("case %d: result %+v, want %+v", i, r2, r1)
		}
	}
}

func TestRecordFormat(t *testing.T) {
	g := startRules(t, map[string]string{ParamSize: "5"})
	history := playAll(t, g, "c3 C4 b2 d2", "white", "c2:e9")
	if err := g.Resign("chooser"); err != nil {
		t.Fatal(err)
	}
	// A stored history has no detail: the record reads the plies back.
	text, err := g.Record(history, map[string]string{"setter": "Ann", "chooser": "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	want := `[Game "Les"]
[Size "5"]
[Setter "Ann"]
[Chooser "Bob"]
[Result "black+1"]
[Termination "resignation"]
[Holes "0-0"]

0 setter c3:c4:b2:d2
1 chooser white
2 black c2:e9
`
	if text != want {
		t.Errorf("record:\n%s\nwant:\n%s", text, want)
	}
	back, _, err := Rules{}.ImportRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := back.Result(); r.Reason != "resignation" || r.Winners[0] != "setter" {
		t.Errorf("imported result %+v", r)
	}
	if _, err := g.Record(nil, map[string]string{"black": "Ann"}); !errors.Is(err, ErrSeat) {
		t.Errorf("Record with a colour for a seat = %v", err)
	}

	// Time-outs, adjudications and games still going on round-trip too.
	for _, end := range []func(g *Engine) error{
		func(g *Engine) error { _, err := g.TimeOut(false); return err },
		func(g *Engine) error { return g.Adjudicate() },
		func(g *Engine) error { return nil },
	} {
		for _, plies := range [][]string{nil, {"c3:c4:b2:d2"}, {"c3:c4:b2:d2", "black"}} {
			g := startRules(t, map[string]string{ParamSize: "5"})
			h := playAll(t, g, plies...)
			if err := end(g); err != nil {
				t.Fatal(err)
			}
			text, err := g.Record(h, nil)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := Rules{}.ImportRecord(text)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			r1, o1 := g.Result()
			r2, o2 := back.Result()
			if !reflect.DeepEqual(r1, r2) || o1 != o2 || back.Ply() != g.Ply() {
				t.Errorf("round trip of\n%s gives %+v, want %+v", text, r2, r1)
			}
		}
	}
}

func TestImportRecordNamesTheFirstIllegalPly(t *testing.T) {
	header := "[Game \"Les\"]\n[Size \"9\"]\n\n"
	tests := []struct {
		name     string
		text     string
		line     int
		ply      int
		code     Code
		index    int
		contains string
	}{
		{"bad setup", header + "0 setter e5:e7:g3:g5\n", 4, 0, CodeSetupNotTouching, 1, ""},
		{"bad choice", header + "0 setter e5:e6:g3:g5\n1 chooser red\n", 5, 1, CodeSyntax, NoIndex, ""},
		{"bad turn", header + "0 setter e5:e6:g3:g5\n1 chooser black\n2 black d5:a1\n3 white d6:c4\n", 7, 3, CodeNotIsolated, 1, ""},
		{"incomplete turn", header + "0 setter e5:e6:g3:g5\n1 chooser black\n2 black d5\n", 6, 2, CodeIncomplete, NoIndex, ""},
		{"wrong number", header + "1 setter e5:e6:g3:g5\n", 4, NoPly, "", 0, "numbered 1, want 0"},
		{"wrong seat", header + "0 chooser e5:e6:g3:g5\n", 4, NoPly, "", 0, "setter's"},
		{"wrong colour", header + "0 setter e5:e6:g3:g5\n1 chooser white\n2 white d5:a1\n", 6, NoPly, "", 0, "black's"},
		{"short line", header + "0 setter\n", 4, NoPly, "", 0, "number, who, ply"},
		{"not a number", header + "x setter e5:e6:g3:g5\n", 4, NoPly, "", 0, "not a number"},
		{"no Game tag", "[Size \"9\"]\n", 0, NoPly, "", 0, "not a Les record"},
		{"a Less record", "[Game \"Less\"]\n[Size \"6\"]\n", 0, NoPly, "", 0, "not a Les record"},
		{"no Size", "[Game \"Les\"]\n", 0, NoPly, "", 0, "Size tag is missing"},
		{"bad Size", "[Game \"Les\"]\n[Size \"15\"]\n", 0, NoPly, "", 0, "side 15"},
		{"tag twice", header + "[Size \"9\"]\n", 4, NoPly, "", 0, "appears twice"},
		{"tag after plies", header + "0 setter e5:e6:g3:g5\n[Event \"x\"]\n", 5, NoPly, "", 0, "after the plies"},
		{"bad tag", "[Game Les]\n", 1, NoPly, "", 0, "quoted"},
		{"wrong result", "[Game \"Les\"]\n[Size \"9\"]\n[Result \"black+1\"]\n\n0 setter e5:e6:g3:g5\n", 0, NoPly, "", 0, "Result tag"},
		{"resigned by nobody", "[Game \"Les\"]\n[Size \"9\"]\n[Result \"draw\"]\n[Termination \"resignation\"]\n", 0, NoPly, "", 0, "does not name the winner"},
		{"wrong time-out", "[Game \"Les\"]\n[Size \"9\"]\n[Result \"setter+1\"]\n[Termination \"timeout\"]\n", 0, NoPly, "", 0, "not to move"},
		{"wrong holes", "[Game \"Les\"]\n[Size \"9\"]\n[Result \"*\"]\n[Holes \"1-0\"]\n", 0, NoPly, "", 0, "Holes tag"},
		{"not UTF-8", "[Game \"Les\xff\"]\n", 0, NoPly, "", 0, "UTF-8"},
	}
	for _, tt := range tests {
		_, _, err := Rules{}.ImportRecord(tt.text)
		var re *RecordError
		if !errors.As(err, &re) {
			t.Errorf("%s: %v, want a RecordError", tt.name, err)
			continue
		}
		if re.Line != tt.line || re.Ply != tt.ply || !strings.Contains(err.Error(), tt.contains) {
			t.Errorf("%s: %v (line %d, ply %d), want line %d, ply %d, %q", tt.name, err, re.Line, re.Ply, tt.line, tt.ply, tt.contains)
		}
		if tt.code != "" && !isRefusal(err, tt.code, tt.index) {
			t.Errorf("%s: %v, want %s at %d", tt.name, err, tt.code, tt.index)
		}
	}
	// After the end no ply may follow.
	v := conformanceGame(t, 0)
	var sb strings.Builder
	sb.WriteString("[Game \"Les\"]\n[Size \"" + itoa(v.Size) + "\"]\n\n0 setter " + v.Setup + "\n1 chooser " + v.Choice + "\n")
	for k, turn := range v.Turns {
		sb.WriteString(itoa(k+2) + " " + []string{"black", "white"}[k%2] + " " + turn + "\n")
	}
	sb.WriteString(itoa(len(v.Turns)+2) + " " + []string{"black", "white"}[len(v.Turns)%2] + " a1\n")
	if _, _, err := (Rules{}).ImportRecord(sb.String()); err == nil || !strings.Contains(err.Error(), "after the end") {
		t.Errorf("a ply after the end: %v", err)
	}
}
