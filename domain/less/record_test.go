package less

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/internal/vectors"
)

func TestRecordRoundTripConformanceGames(t *testing.T) {
	v := vectors.Load(t)
	for i, tc := range v.GameCases {
		b := MustParseBoard(tc.Size, tc.Walls)
		opts, _ := PresetOptions(PresetClassic, tc.Size)
		g, history, err := NewGame(StartPosition(b, false), opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range tc.Turns {
			played, err := g.Play(MustParseTurn(text))
			if err != nil {
				t.Fatal(err)
			}
			history = append(history, played...)
		}
		rec := Record{Game: g, History: history, Players: map[Color]string{White: "Ann \"the rook\"", Black: "Bob"},
			Extra: []Tag{{"Event", "Case " + string(rune('A'+i%26))}}}
		text := rec.String()
		back, err := ParseRecord(text)
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, text)
		}
		if again := back.String(); again != text {
			t.Errorf("case %d: round trip differs:\n%s\nvs\n%s", i, again, text)
		}
		if !back.Game.Position().Equal(g.Position()) || ResultText(back.Game) != ResultText(g) {
			t.Errorf("case %d: replay differs", i)
		}
	}
}

// fourPlayerRecord plays a short codecup game to the turn limit so the record
// has auto passes and all four colours.
func TestRecordFourPlayersAutoPassAndSetup(t *testing.T) {
	b, err := GenerateBoard(8, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Yellow and White are one step from home each: their team completes
	// early and then passes automatically while Black and Red play on.
	_, err = ParsePosition(b, "yellow:a7,a8,b7,c8 black:a1,a2,b1,b2 white:a1,a2,b1,b2 red:a7,a8,b7,b8 to-move:yellow", false)
	if err == nil {
		t.Fatal("overlapping set-up accepted")
	}
	_, err = ParsePosition(b, "yellow:a7,a8,b7,c8 black:c1,c2,d1,d2 white:a1,a2,b1,c2 red:g1,g2,h1,h2 to-move:yellow", false)
	if err == nil {
		t.Fatal("overlapping set-up accepted (c2)")
	}
	start, err := ParsePosition(b, "yellow:a6,a8,b7,b8 black:c1,c2,d1,d2 white:a1,a2,b1,b3 red:e7,e8,f7,f8 to-move:yellow", false)
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(3)
	g, history, err := NewGame(start, Options{MaxTurns: 3})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		played, err := g.Play(greedyTurn(g.Position()))
		if err != nil {
			t.Fatal(err)
		}
		history = append(history, played...)
	}
	rec := Record{Game: g, History: history, Players: map[Color]string{Yellow: "Y", Black: "B", White: "W", Red: "R"}, Seed: &seed}
	text := rec.String()
	for _, want := range []string{`[Seed "3"]`, `[Setup "`, "1 yellow ", "3 red ", `[Termination "turn_limit"]`, "Nil ; auto"} {
		if !strings.Contains(text, want) {
			t.Errorf("record lacks %q:\n%s", want, text)
		}
	}
	back, err := ParseRecord(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if back.String() != text {
		t.Errorf("round trip differs:\n%s\nvs\n%s", back.String(), text)
	}
}

func TestRecordResignation(t *testing.T) {
	g, _, err := NewGame(StartPosition(MustParseBoard(6, strings.Repeat("0", 60)), false), Options{MaxTurns: 40})
	if err != nil {
		t.Fatal(err)
	}
	played, err := g.Play(MustParseTurn("e5e4:e4d4:d4c4"))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Resign(SideBlack); err != nil {
		t.Fatal(err)
	}
	text := Record{Game: g, History: played}.String()
	if !strings.Contains(text, `[Result "white+10"]`) || !strings.Contains(text, `[Termination "resignation"]`) {
		t.Fatalf("record:\n%s", text)
	}
	back, err := ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := back.Game.Result(); r.Reason != ReasonResignation || r.Loser != SideBlack || r.Margin != 10 {
		t.Errorf("result %+v", r)
	}
}

func TestParseRecordErrors(t *testing.T) {
	header := "[Size \"6\"]\n[Walls \"" + strings.Repeat("0", 60) + "\"]\n"
	tests := []struct {
		name     string
		text     string
		line     int
		code     Code // for illegal turns
		contains string
	}{
		{"illegal turn", header + "\n1 white e5e4:e4d4:d4c4\n1 black a1a3:a3a5\n", 5, CodeNothingToJump, "turn 1 black"},
		{"incomplete turn", header + "\n1 white e5e4\n", 4, CodeIncomplete, "turn 1 white"},
		{"syntax", header + "\n1 white e5e4e3\n", 4, CodeSyntax, ""},
		{"wrong colour", header + "\n1 black a1a3\n", 4, "", "white is to move"},
		{"wrong number", header + "\n2 white e5e4:e4d4:d4c4\n", 4, "", "numbered 2, want 1"},
		{"short line", header + "\n1 white\n", 4, "", "number colour turn"},
		{"no size", "[Walls \"0\"]\n", 0, "", "Size tag is missing"},
		{"bad walls", "[Size \"6\"]\n[Walls \"012\"]\n", 0, "", "B4"},
		{"duplicate tag", header + "[Size \"6\"]\n", 3, "", "twice"},
		{"unquoted tag", header + "[White Ann]\n", 3, "", "quoted"},
		{"control character", header + "[White \"A\\nB\"]\n", 3, "", "control"},
		{"tag after turns", header + "\n1 white e5e4:e4d4:d4c4\n[Black \"B\"]\n", 5, "", "after the turns"},
		{"wrong result", header + "[Result \"white+3\"]\n\n1 white e5e4:e4d4:d4c4\n", 0, "", "Result tag"},
		{"unknown preset", header + "[Preset \"blitz\"]\n", 0, "", "unknown preset"},
		{"bad setup", header + "[Setup \"white:a1,a1,a2,a3 black:f1,f2,f3,f4 to-move:white\"]\n", 0, "", "two pieces on a1"},
		{"invalid utf-8", header + "[White \"\xff\"]\n", 0, "", "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRecord(tt.text)
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a *RecordError", err)
			}
			if re.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", re.Line, tt.line, err)
			}
			if tt.code != "" {
				var te *TurnError
				if !errors.As(err, &te) || te.Code != tt.code {
					t.Errorf("got %v, want rule code %s", err, tt.code)
				}
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q does not mention %q", err, tt.contains)
			}
		})
	}
}

// greedyTurn is a legal turn that brings the mover's side closest to home,
// by the cheap lower bound the needed search uses.
func greedyTurn(p Position) Turn {
	side := SideOf(p.ToMove())
	var best Turn
	bestNeeded := 1 << 30
	p.EachTurn(func(t Turn, next Position) bool {
		n := 0
		for _, c := range SideColors(side, p.Size()) {
			dist := relaxedDistances(p.Board(), TargetCorner(c, p.Size()))
			n += assignmentBound(&dist, next.Pieces(c))
		}
		if n < bestNeeded {
			best, bestNeeded = slices.Clone(t), n
		}
		return true
	})
	return best
}
