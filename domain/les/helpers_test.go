package les

import (
	"strconv"
	"testing"

	"github.com/lesspost/lesspost/internal/vectors"
)

func quote(s string) string { return strconv.Quote(s) }

// conformanceGame is game case i of the Les vectors.
func conformanceGame(t *testing.T, i int) vectors.LesGameCase {
	t.Helper()
	v := vectors.LoadLes(t)
	if i >= len(v.GameCases) {
		t.Fatalf("the vectors have %d game cases", len(v.GameCases))
	}
	return v.GameCases[i]
}
