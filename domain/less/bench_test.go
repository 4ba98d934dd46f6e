package less

import (
	"fmt"
	"testing"
	"time"

	"github.com/lesspost/lesspost/internal/vectors"
)

// Benchmarks of the hot paths of the rules engine. Goals:
// judging a turn ≤ 1 µs and ≤ 2 allocs; needed for one 4-player player from
// his start corner ≤ 100 ms.
//
// Boards are fixed wall strings so that the figures never move with the tile
// generator: bnBoard6 is tiles.Walls(6, 1) (pinned in tiles' golden test) and
// bnBoard8 is the 8x8 board of the first perft vector of
// testdata/conformance/less-vectors.json.
const (
	bnBoard6 = "110000000001000100010002000100110100010100100100000000010100"
	bnBoard8 = "0000022010122000000010202000000002001010002000001010000010001000100002100011000001001200010000000000011201001101"
	// bnTurn is a legal 3-move turn from the 2-player start on bnBoard6:
	// a step, a step, a jump.
	bnTurn = "e5e4:e4d4:f6d6"
)

func bnStart(b *testing.B, size int) Position {
	b.Helper()
	walls := bnBoard6
	if size == 8 {
		walls = bnBoard8
	}
	return StartPosition(MustParseBoard(size, walls), false)
}

// BenchmarkCheckTurn: Position.Play of a parsed legal 3-move turn.
func BenchmarkCheckTurn(b *testing.B) {
	p := bnStart(b, 6)
	turn := MustParseTurn(bnTurn)
	if _, out, err := p.Play(turn); err != nil || out.Used != 3 || len(turn) != 3 {
		b.Fatalf("%s: %v %+v", bnTurn, err, out)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := p.Play(turn); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseAndCheckTurn: text in, verdict out.
func BenchmarkParseAndCheckTurn(b *testing.B) {
	p := bnStart(b, 6)
	b.ReportAllocs()
	for b.Loop() {
		turn, err := ParseTurn(bnTurn)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := p.Play(turn); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPerftStart2p: every legal turn from the 2-player start (411 turns,
// 111 placements on bnBoard6).
func BenchmarkPerftStart2p(b *testing.B) {
	p := bnStart(b, 6)
	if turns, placements := p.Perft(); turns != 411 || placements != 111 {
		b.Fatalf("perft %d/%d, want 411/111", turns, placements)
	}
	b.ReportAllocs()
	for b.Loop() {
		p.Perft()
	}
}

func BenchmarkLegalTurnsStart2p(b *testing.B) {
	p := bnStart(b, 6)
	b.ReportAllocs()
	for b.Loop() {
		if len(p.LegalTurns()) == 0 {
			b.Fatal("no legal turn")
		}
	}
}

// bnSlowestNeeded2p finds the slowest 2-player needed case of the conformance
// vectors by timing each (case, side) once — best of 3 — outside any timed
// loop. It is found afresh at each run, not hard-coded, so it follows the
// vectors file.
func bnSlowestNeeded2p(b *testing.B) (Position, Side, string) {
	b.Helper()
	v := vectors.Load(b)
	var (
		slowest time.Duration
		pos     Position
		side    Side
		name    string
	)
	for i, tc := range v.NeededCases {
		if tc.Position.Size != 6 {
			continue
		}
		p := vectorPosition(b, tc.Position)
		for _, s := range []Side{SideWhite, SideBlack} {
			best := time.Duration(1 << 62)
			for range 3 {
				t0 := time.Now()
				p.Needed(s)
				best = min(best, time.Since(t0))
			}
			if best > slowest {
				slowest, pos, side = best, p, s
				name = fmt.Sprintf("needed case %d, %s (%s): %v once", i, SideName(s, 6), p, best)
			}
		}
	}
	if name == "" {
		b.Fatal("no 2-player needed case in the vectors")
	}
	return pos, side, name
}

func BenchmarkNeededSlowest2p(b *testing.B) {
	p, s, name := bnSlowestNeeded2p(b)
	b.Log(name)
	b.ReportAllocs()
	for b.Loop() {
		p.Needed(s)
	}
}

// BenchmarkNeeded4pFromStart: one four-player player, all four pieces on his
// start corner of the walled bnBoard8, alone on the board (E4).
func BenchmarkNeeded4pFromStart(b *testing.B) {
	p := bnStart(b, 8)
	for _, c := range Colors(8) {
		b.Run(c.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.NeededFor(c)
			}
		})
	}
}

func BenchmarkNeeded2pStart(b *testing.B) {
	p := bnStart(b, 6)
	b.ReportAllocs()
	for b.Loop() {
		p.Needed(SideWhite)
	}
}
