package notify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/internal/vectors"
)

// How LE3 decided a game of Les, read from what its vector says of the end.
const (
	byCount  = "count"  // one colour owns more holes
	bySizes  = "sizes"  // as many holes, the sizes differ
	byAround = "around" // as many holes alike in size, the stones around differ
	alike    = "alike"  // a draw: as many holes, alike in everything
	noHoles  = "none"   // a draw: nobody owns a hole
)

// lesDecision says how the vector's game was decided.
func lesDecision(gc vectors.LesGameCase) string {
	black, white := gc.Result.Holes["black"], gc.Result.Holes["white"]
	switch {
	case gc.Result.Winner == nil && len(black) == 0:
		return noHoles
	case gc.Result.Winner == nil:
		return alike
	case len(black) != len(white):
		return byCount
	}
	for i := range black {
		if black[i][0] != white[i][0] {
			return bySizes
		}
	}
	return byAround
}

// lesGameDecided returns the first game of the Les vectors that was decided
// the way given, so that a test asserts what the vector says of it
// whichever valid file LES_VECTORS names. A file without such a game skips
// the test: nothing of it can be checked.
func lesGameDecided(t testing.TB, decided string, minPlies int) (int, vectors.LesGameCase) {
	t.Helper()
	for i, gc := range vectors.LoadLes(t).GameCases {
		if lesDecision(gc) == decided && 2+len(gc.Turns) >= minPlies {
			return i, gc
		}
	}
	t.Skipf("the Les vectors have no game decided by %s with %d plies or more", decided, minPlies)
	return 0, vectors.LesGameCase{}
}

// colorTitle is a colour as the English mails write it ("Black").
func colorTitle(c string) string {
	return strings.ToUpper(c[:1]) + c[1:]
}

// otherColor is the colour that is not c.
func otherColor(c string) string {
	if c == "black" {
		return "white"
	}
	return "black"
}

// lesGame is one of the games of Les that tests pinning whole emails play:
// they are kept in the package's own file, not read from the vectors, so
// that those emails stay what the tests and the golden files hold
// whichever vectors file LES_VECTORS names. "side9" (game 0 of the
// committed vectors) is won by Black on the number of holes; "side5" (game
// 8) by the chooser, White, on the stones around the holes, LE3's second
// tie-break; "side3" (game 9) is a draw, one hole each, alike.
func lesGame(t testing.TB, name string) vectors.LesGameCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "les-games.json"))
	if err != nil {
		t.Fatal(err)
	}
	var games map[string]vectors.LesGameCase
	if err := json.Unmarshal(data, &games); err != nil {
		t.Fatal(err)
	}
	gc, ok := games[name]
	if !ok {
		t.Fatalf("no game %q in testdata/les-games.json", name)
	}
	return gc
}

// lessGame is one of the games of Less that tests pinning whole emails
// play, kept in the package's own file like lesGame's: "game0" is game 0
// of the committed vectors, won by White by 2.
func lessGame(t testing.TB, name string) vectors.GameCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "less-games.json"))
	if err != nil {
		t.Fatal(err)
	}
	var games map[string]vectors.GameCase
	if err := json.Unmarshal(data, &games); err != nil {
		t.Fatal(err)
	}
	gc, ok := games[name]
	if !ok {
		t.Fatalf("no game %q in testdata/less-games.json", name)
	}
	return gc
}
