package less

import (
	"slices"
	"strings"
	"testing"
)

// A turn passed on time counts 3 (T4) and hands the turn on; in a
// four-player game the passes for a complete team follow.
func TestPassOnTime(t *testing.T) {
	b, _ := EmptyBoard(8)
	g, _, err := NewGame(StartPosition(b, false), Options{MaxTurns: 20})
	if err != nil {
		t.Fatal(err)
	}
	played, err := g.PassOnTime()
	if err != nil {
		t.Fatal(err)
	}
	if len(played) != 1 || played[0].Color != Yellow || !played[0].TimedOut || !played[0].Auto || played[0].Counted != 3 || len(played[0].Turn) != 0 {
		t.Fatalf("played %+v", played)
	}
	if g.Position().ToMove() != Black || g.Count(Yellow) != 3 || g.Ply() != 1 {
		t.Errorf("after the pass: to move %s, yellow count %d, ply %d", g.Position().ToMove(), g.Count(Yellow), g.Ply())
	}
	if err := g.Resign(SideBlack); err != nil {
		t.Fatal(err)
	}
	if _, err := g.PassOnTime(); err != ErrGameOver {
		t.Errorf("pass after the end: %v", err)
	}
}

func TestRecordRoundTripsTimeouts(t *testing.T) {
	b, _ := EmptyBoard(8)
	g, history, err := NewGame(StartPosition(b, false), Options{MaxTurns: 20})
	if err != nil {
		t.Fatal(err)
	}
	played, _ := g.PassOnTime()
	history = append(history, played...)
	played, err = g.Play(MustParseTurn("a1a3:a3a4:a2a3"))
	if err != nil {
		t.Fatal(err)
	}
	history = append(history, played...)
	text := Record{Game: g, History: history}.String()
	if !slices.Contains(strings.Split(text, "\n"), "1 yellow Nil ; timeout") {
		t.Fatalf("record:\n%s", text)
	}
	back, err := ParseRecord(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if back.String() != text || back.Game.Count(Yellow) != 3 {
		t.Errorf("round trip:\n%s", back.String())
	}
}
