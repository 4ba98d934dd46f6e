package les

import (
	"testing"
)

// Benchmarks of the hot paths of the rules engine. Goals (issue 13):
// validating and applying a turn ≤ 2 µs; listing the legal first
// placements ≤ 20 µs; the result with its holes on the default board
// ≤ 50 µs.
//
// The positions come from bnGame, a game on the default board played by a
// fixed rule, so that the figures never move with the vectors file.

// bnGame plays from the setup e5:e6:g3:g5 (the chooser takes Black) the
// legal turn at a fixed stride through the list of legal turns, until the
// game ends or after turns turns (-1: to the end). It returns the position
// and the turn last played.
func bnGame(tb testing.TB, turns int) (Position, Turn) {
	tb.Helper()
	p := setupPosition(tb)
	var last Turn
	for k := 0; k != turns && !p.Over(); k++ {
		legal := p.LegalTurns()
		last = legal[(k*7919+13)%len(legal)]
		var err error
		if p, err = p.Play(last); err != nil {
			tb.Fatal(err)
		}
	}
	return p, last
}

// bnMidGame is the default board after 30 turns: about 80 stones, many
// first placements, most of the board still open.
func bnMidGame(b *testing.B) (Position, string) {
	b.Helper()
	p, _ := bnGame(b, 30)
	turns := p.LegalTurns()
	if len(turns) < 100 || len(turns[len(turns)/2]) != 2 {
		b.Fatalf("mid-game position %s has %d turns", p, len(turns))
	}
	return p, turns[len(turns)/2].String()
}

// BenchmarkParseAndPlayTurn: the text of a two-stone turn in, the position
// after it out (LN0, LT1–LT3).
func BenchmarkParseAndPlayTurn(b *testing.B) {
	p, text := bnMidGame(b)
	b.ReportAllocs()
	for b.Loop() {
		t, err := ParseTurn(text)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Play(t); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnginePlay: the same through the ruleset interface, as the
// server submits a turn: a copy of the game (what the benchmark must pay to
// play again), then Play with what it returns.
func BenchmarkEnginePlay(b *testing.B) {
	p, text := bnMidGame(b)
	g := &Engine{board: p.board, ply: 60 + int(p.toMove), pos: p, chooser: Black}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.clone().Play(text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstPlacements: the legal first placements of the mid-game
// position, listed (LT1).
func BenchmarkFirstPlacements(b *testing.B) {
	p, _ := bnMidGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if len(p.FirstPlacements()) == 0 {
			b.Fatal("no first placement")
		}
	}
}

// BenchmarkLegalFirst: the same as the API asks for it, with names.
func BenchmarkLegalFirst(b *testing.B) {
	p, _ := bnMidGame(b)
	g := &Engine{board: p.board, ply: 60 + int(p.toMove), pos: p, chooser: Black}
	b.ReportAllocs()
	for b.Loop() {
		if l, err := g.Legal(""); err != nil || len(l.Choices) == 0 {
			b.Fatal(l, err)
		}
	}
}

// BenchmarkScoreEnd: the result with its holes (LE2–LE4) of the finished
// game's position on the default board.
func BenchmarkScoreEnd(b *testing.B) {
	p, _ := bnGame(b, -1)
	if !p.Over() {
		b.Fatal("the game did not end")
	}
	s := p.Score()
	b.Logf("%d stones; holes: black %v, white %v", p.occupied().count(), s.Holes[Black], s.Holes[White])
	b.ReportAllocs()
	for b.Loop() {
		p.Score()
	}
}

// BenchmarkHolesEnd: every hole with its points, as the view and the
// diagram list them.
func BenchmarkHolesEnd(b *testing.B) {
	p, _ := bnGame(b, -1)
	b.ReportAllocs()
	for b.Loop() {
		p.Holes()
	}
}

// BenchmarkPerftMidGame: every legal turn of the mid-game position, counted.
func BenchmarkPerftMidGame(b *testing.B) {
	p, _ := bnMidGame(b)
	b.ReportAllocs()
	for b.Loop() {
		p.Perft()
	}
}

// BenchmarkScoreMidGame: the same on the mid-game position, whose holes are
// large: the flood fill walks most of the board.
func BenchmarkScoreMidGame(b *testing.B) {
	p, _ := bnMidGame(b)
	b.ReportAllocs()
	for b.Loop() {
		p.Score()
	}
}

// BenchmarkScoreEmptyBoard: the longest flood fill, one hole of all 217
// points.
func BenchmarkScoreEmptyBoard(b *testing.B) {
	p := EmptyPosition(MustBoard(DefaultSide))
	b.ReportAllocs()
	for b.Loop() {
		p.Score()
	}
}
