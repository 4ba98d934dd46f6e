package api_test

import (
	"os"
	"regexp"
	"testing"
)

// The play page draws what the server says (GET /view, /moves, preview) and
// holds no rules of its own: this catches the old ways back in, a crude net
// for what the browser tests cannot see (a cost computed right by accident).
func TestPlayPageKnowsNoRules(t *testing.T) {
	forbidden := []struct{ what, re string }{
		{"reading the wall string", `board\.walls|parseWalls|\.right\[|\.below\[`},
		{"computing a move's cost", `moveCost|\b1 \+ edgeWalls|dist === 1`},
		{"a table of target corners", `targetCorners|\byellow: \[`},
		{"the turn's budget", `\b3 - |Budget`},
		{"splitting turn notation", `split\(':'\)|splitTurn`},
		{"row letters of its own", `'abcdefgh'|charCodeAt\(0\) - 97`},
	}
	for _, file := range []string{"web/board.js", "web/play.js"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range forbidden {
			if loc := regexp.MustCompile(f.re).FindIndex(src); loc != nil {
				t.Errorf("%s: %s (%q): take it from the server", file, f.what, src[loc[0]:loc[1]])
			}
		}
	}
}
