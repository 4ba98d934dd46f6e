package les

import "testing"

func TestDiagram(t *testing.T) {
	b := MustBoard(3)
	p, err := NewPosition(b, points("b2 b3 c2 c4 d2 d3"), points("a1 c5"), White)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		last  string
		holes bool
		want  string
	}{
		{"", false, "" +
			"a    W . .    a\n" +
			"b   . B B .   b\n" +
			"c  . B . B W  c\n" +
			"d   . B B .   d\n" +
			"e    . . .    e\n"},
		// The last ply in brackets; adjacent marks share a bracket. The
		// hole round c3 is Black's.
		{"a1 c4 c5", true, "" +
			"a   (W). .    a\n" +
			"b   . B B .   b\n" +
			"c  . B b(B(W) c\n" +
			"d   . B B .   d\n" +
			"e    . . .    e\n"},
	}
	for _, tt := range tests {
		var last []Point
		if tt.last != "" {
			last = points(tt.last)
		}
		if got := Diagram(p, last, tt.holes); got != tt.want {
			t.Errorf("Diagram(%q, %v):\n%s\nwant:\n%s", tt.last, tt.holes, got, tt.want)
		}
	}
	g := startRules(t, nil)
	d, err := g.Diagram("")
	if err != nil || len(d) != 17*(2*17+1+5) {
		t.Errorf("default board diagram: %d bytes, %v\n%s", len(d), err, d)
	}
}
