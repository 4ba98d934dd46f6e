package less

import (
	"sync"
	"testing"
)

// The publisher's scoring examples, as docs/rules.md E6 restates them:
//
//   - White completes using 1 point in his last turn and Black needs 1 → draw;
//   - White completes using 2 and Black needs 3 → White by 1;
//   - Black completes first using 2 points and White needs 2 → Black by 3.
//
// A Game started from a set-up position counts from 0, so each example first
// plays two full rounds in which both sides spend their 3 points (T1) by
// moving one piece to and fro; the counts before the final turn are then
// equal (6 each) when White finishes, or White is one turn ahead (9 against
// 6) when Black finishes, exactly as in a game from the start.
//
// Boards are empty (EmptyBoard(6)), so every step costs 1 and needed (E4) can
// be counted by hand.

// scSetUp starts a 2-player game on an empty 6x6 board with White to move.
func scSetUp(t *testing.T, white, black string) *Engine {
	t.Helper()
	b, err := EmptyBoard(6)
	if err != nil {
		t.Fatal(err)
	}
	g := rtGame(t, rtPos(t, b, rtPieces{White: white, Black: black}, White, false), 40)
	if g.Count(White) != 0 || g.Count(Black) != 0 {
		t.Fatalf("a set-up game starts with counts %d/%d, want 0/0", g.Count(White), g.Count(Black))
	}
	return g
}

// scRounds plays full 3-point turns that complete nothing and checks the
// counts grow by 3 a turn (T4).
func scRounds(t *testing.T, g *Engine, turns ...string) {
	t.Helper()
	for _, text := range turns {
		mover := g.Position().ToMove()
		before := g.Count(mover)
		played := rtGamePlay(t, g, text)
		if len(played) != 1 || played[0].Used != 3 || played[0].Counted != 3 || played[0].Completed {
			t.Fatalf("%q: %+v, want a plain 3-point turn", text, played)
		}
		if g.Count(mover) != before+3 || g.Over() {
			t.Fatalf("%q: %s's count %d, want %d; over %v", text, mover, g.Count(mover), before+3, g.Over())
		}
	}
}

// scFinal plays the turn that completes a side and checks it counts only the
// points used (T4) and ends the game at once (E1).
func scFinal(t *testing.T, g *Engine, text string, used int) Result {
	t.Helper()
	played := rtGamePlay(t, g, text)
	if len(played) != 1 || played[0].Used != used || played[0].Counted != used || !played[0].Completed {
		t.Fatalf("final turn %q: %+v, want %d point(s) used and counted, side complete", text, played, used)
	}
	r := rtResult(t, g)
	if r.Reason != ReasonComplete || r.BlockedCorner {
		t.Fatalf("result %+v, want the game ended by completion (E1)", r)
	}
	return r
}

func scCheck(t *testing.T, r Result, counts, needed, totals [2]int) {
	t.Helper()
	if r.Counts != counts || r.Needed != needed || r.Totals != totals {
		t.Errorf("counts %v needed %v totals %v; want %v %v %v", r.Counts, r.Needed, r.Totals, counts, needed, totals)
	}
}

// TestPublisherExampleDraw: White completes using 1 point in his last turn;
// Black may still make as many moves (1) and needs exactly 1 → draw.
func TestPublisherExampleDraw(t *testing.T) {
	// White: a1 a2 b1 home, c2 one step from b2. Black: e6 f5 f6 home, d5 one step from e5.
	g := scSetUp(t, "a1 a2 b1 c2", "d5 e6 f5 f6")
	scRounds(t, g,
		"c2c3:c3c2:c2c3", "d5d4:d4d5:d5d4",
		"c3c2:c2c3:c3c2", "d4d5:d5d4:d4d5",
	)
	if g.Count(White) != 6 || g.Count(Black) != 6 {
		t.Fatalf("before the last turn: counts %d/%d, want 6/6", g.Count(White), g.Count(Black))
	}
	r := scFinal(t, g, "c2b2", 1)
	// White 6+1 = 7; Black 6 + needed 1 = 7.
	scCheck(t, r, [2]int{7, 6}, [2]int{0, 1}, [2]int{7, 7})
	if !r.Draw {
		t.Errorf("result %+v, want a draw", r)
	}
}

// TestPublisherExampleWhiteByOne: White completes using 2 points; Black needs
// 3 → White wins by 1.
func TestPublisherExampleWhiteByOne(t *testing.T) {
	// White: c3 two steps from b2. Black: b5 three steps from e5 (no piece to jump).
	g := scSetUp(t, "a1 a2 b1 c3", "b5 e6 f5 f6")
	scRounds(t, g,
		"c3c4:c4c3:c3c4", "b5b4:b4b5:b5b4",
		"c4c3:c3c4:c4c3", "b4b5:b5b4:b4b5",
	)
	if g.Count(White) != 6 || g.Count(Black) != 6 {
		t.Fatalf("before the last turn: counts %d/%d, want 6/6", g.Count(White), g.Count(Black))
	}
	r := scFinal(t, g, "c3c2:c2b2", 2)
	// White 6+2 = 8; Black 6 + needed 3 = 9.
	scCheck(t, r, [2]int{8, 6}, [2]int{0, 3}, [2]int{8, 9})
	if r.Draw || r.Winner != SideWhite || r.Loser != SideBlack || r.Margin != 1 {
		t.Errorf("result %+v, want White by 1", r)
	}
}

// TestPublisherExampleBlackByThree: Black completes first using 2 points in
// his last turn; White, who has had one turn more, needs 2 → Black by 3.
func TestPublisherExampleBlackByThree(t *testing.T) {
	// White: d3, wandering, ends on d2 two steps from b2. Black: c5 two steps from e5.
	g := scSetUp(t, "a1 a2 b1 d3", "c5 e6 f5 f6")
	scRounds(t, g,
		"d3d2:d2d3:d3d2", "c5c4:c4c5:c5c4",
		"d2d3:d3d2:d2d3", "c4c5:c5c4:c4c5",
		"d3d2:d2d3:d3d2",
	)
	if g.Count(White) != 9 || g.Count(Black) != 6 {
		t.Fatalf("before Black's last turn: counts %d/%d, want 9/6", g.Count(White), g.Count(Black))
	}
	r := scFinal(t, g, "c5d5:d5e5", 2)
	// White 9 + needed 2 = 11; Black 6+2 = 8.
	scCheck(t, r, [2]int{9, 8}, [2]int{2, 0}, [2]int{11, 8})
	if r.Draw || r.Winner != SideBlack || r.Loser != SideWhite || r.Margin != 3 {
		t.Errorf("result %+v, want Black by 3", r)
	}
}

// needed keeps its working memory between searches (searchSpace): searches
// of both sizes, one after another and at once, find what a first search
// finds.
func TestNeededReusesItsSpace(t *testing.T) {
	positions := []Position{
		StartPosition(MustParseBoard(6, bnBoard6), false),
		StartPosition(MustParseBoard(8, bnBoard8), false),
	}
	type query struct {
		p Position
		c Color
	}
	var queries []query
	for _, p := range positions {
		for _, c := range Colors(p.Size()) {
			queries = append(queries, query{p, c})
		}
	}
	want := make([]int, len(queries))
	for i, q := range queries {
		want[i] = q.p.NeededFor(q.c)
	}
	for i, q := range queries { // again, each after another size's search
		if got := q.p.NeededFor(q.c); got != want[i] {
			t.Errorf("%s on %dx%d: %d, then %d", q.c, q.p.Size(), q.p.Size(), want[i], got)
		}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i, q := range queries {
				if got := q.p.NeededFor(q.c); got != want[i] {
					t.Errorf("at once: %s on %dx%d: %d, want %d", q.c, q.p.Size(), q.p.Size(), got, want[i])
				}
			}
		})
	}
	wg.Wait()
}
