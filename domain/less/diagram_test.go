package less

import (
	"strings"
	"testing"
)

func TestDiagram(t *testing.T) {
	// Row a: a wall between a2|a3, a double wall between a4|a5; between rows
	// a and b: a double wall under a3, a wall under a6.
	walls := "01020" + "002001" + "00000" + "000000" + "00000" + "000000" + "00000" + "000000" + "00000" + "000000" + "00000"
	b := MustParseBoard(6, walls)
	tests := []struct {
		name string
		turn string
		last bool
		want string
	}{
		{"last turn marked", "e5e4:e4d4:f5e5", true, "" +
			"    1   2   3   4   5   6\n" +
			"  +---+---+---+---+---+---+\n" +
			"a | B   B | .   . # .   . |\n" +
			"  +   +   +===+   +   +---+\n" +
			"b | B   B   .   .   .   . |\n" +
			"  +   +   +   +   +   +   +\n" +
			"c | .   .   .   .   .   . |\n" +
			"  +   +   +   +   +   +   +\n" +
			"d | .   .   .   W   .   . |\n" +
			"  +   +   +   +   +   +   +\n" +
			"e | .   .   .   *   W   W |\n" +
			"  +   +   +   +   +   +   +\n" +
			"f | .   .   .   .   *   W |\n" +
			"  +---+---+---+---+---+---+\n"},
		{"empty target square", "e6d6:d6c6:c6c5", false, "" +
			"    1   2   3   4   5   6\n" +
			"  +---+---+---+---+---+---+\n" +
			"a | B   B | .   . # .   . |\n" +
			"  +   +   +===+   +   +---+\n" +
			"b | B   B   .   .   .   . |\n" +
			"  +   +   +   +   +   +   +\n" +
			"c | .   .   .   .   W   . |\n" +
			"  +   +   +   +   +   +   +\n" +
			"d | .   .   .   .   .   . |\n" +
			"  +   +   +   +   +   +   +\n" +
			"e | .   .   .   .   W   b |\n" +
			"  +   +   +   +   +   +   +\n" +
			"f | .   .   .   .   W   W |\n" +
			"  +---+---+---+---+---+---+\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turn := MustParseTurn(tt.turn)
			next, _, err := StartPosition(b, false).Play(turn)
			if err != nil {
				t.Fatal(err)
			}
			var last Turn
			if tt.last {
				last = turn
			}
			if got := Diagram(next, last); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestDiagram8x8Sizes(t *testing.T) {
	b, err := GenerateBoard(8, 7)
	if err != nil {
		t.Fatal(err)
	}
	d := Diagram(StartPosition(b, false), nil)
	lines := 0
	for _, ch := range d {
		if ch == '\n' {
			lines++
		}
	}
	if lines != 1+2*8+1 {
		t.Errorf("8x8 diagram has %d lines, want %d:\n%s", lines, 18, d)
	}
	for _, letter := range []string{"Y", "B", "W", "R"} {
		if n := strings.Count(d, letter); n != 4 {
			t.Errorf("%s appears %d times, want 4:\n%s", letter, n, d)
		}
	}
}
