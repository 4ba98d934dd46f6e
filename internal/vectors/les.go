package vectors

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"
)

// LesDefaultPath is where the Les vectors live, relative to the module root.
const LesDefaultPath = "testdata/conformance/les-vectors.json"

// LesEnv names another Les vectors file of the same format.
const LesEnv = "LES_VECTORS"

// LesPosition is a Les position as the vectors write it: each colour's
// stones and the colour to move.
type LesPosition struct {
	Size   int      `json:"size"`
	Black  []string `json:"black"`
	White  []string `json:"white"`
	ToMove string   `json:"to_move"`
}

// LesExpect is what judging a setup or a turn gives: ok with the stones
// after it, or the code of the first rule broken and the 0-based index of
// the point (nil for an error about the whole text).
type LesExpect struct {
	OK bool `json:"ok"`
	// Stones are a setup's stones by colour (setup cases).
	Stones map[string][]string `json:"stones"`
	// Black and White are the stones after a turn, and GameOver whether the
	// next mover has no legal first placement (turn cases).
	Black    []string `json:"black"`
	White    []string `json:"white"`
	GameOver bool     `json:"game_over"`
	Code     string   `json:"code"`
	Index    *int     `json:"index"`
}

// LesSetupCase is a setup text (ply 0) on an empty board of a size.
type LesSetupCase struct {
	Size   int       `json:"size"`
	Setup  string    `json:"setup"`
	Expect LesExpect `json:"expect"`
}

// LesTurnCase is a turn text submitted by the mover of a position.
type LesTurnCase struct {
	Position LesPosition `json:"position"`
	Turn     string      `json:"turn"`
	Expect   LesExpect   `json:"expect"`
}

// LesPerftCase counts the mover's distinct legal turns and how many of them
// are a lone first placement.
type LesPerftCase struct {
	Position LesPosition `json:"position"`
	Turns    int         `json:"turns"`
	Single   int         `json:"single"`
}

// LesGameCase is a whole game: setup, choice, then the turns from Black's
// first, and its result.
type LesGameCase struct {
	Size   int      `json:"size"`
	Setup  string   `json:"setup"`
	Choice string   `json:"choice"`
	Turns  []string `json:"turns"`
	Result struct {
		Winner *string `json:"winner"` // nil for a draw
		Margin int     `json:"margin"`
		// Holes are each colour's owned holes as [size, stones around].
		Holes   map[string][][2]int `json:"holes"`
		EndedBy string              `json:"ended_by"`
	} `json:"result"`
}

// LesFile is a whole Les vectors file.
type LesFile struct {
	SetupCases []LesSetupCase `json:"setup_cases"`
	TurnCases  []LesTurnCase  `json:"turn_cases"`
	PerftCases []LesPerftCase `json:"perft_cases"`
	GameCases  []LesGameCase  `json:"game_cases"`
}

// LoadLes returns the Les vectors, read once per test binary. A missing,
// unreadable file, or one lacking a section, fails the test: the
// conformance tests never skip.
func LoadLes(t testing.TB) *LesFile {
	t.Helper()
	f, err := loadLes()
	if err != nil {
		t.Fatalf("Les conformance vectors (set %s to use another file): %v", LesEnv, err)
	}
	return f
}

var loadLes = sync.OnceValues(func() (*LesFile, error) {
	path, err := LesPath()
	if err != nil {
		return nil, err
	}
	return readLes(path)
})

// readLes reads and checks a Les vectors file: every section must be there.
func readLes(path string) (*LesFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f LesFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if len(f.SetupCases) == 0 || len(f.TurnCases) == 0 || len(f.PerftCases) == 0 || len(f.GameCases) == 0 {
		return nil, fmt.Errorf("%s lacks a section: %d setup, %d turn, %d perft and %d game cases",
			path, len(f.SetupCases), len(f.TurnCases), len(f.PerftCases), len(f.GameCases))
	}
	return &f, nil
}

// LesPath is the Les vectors file the tests read: LES_VECTORS, or
// LesDefaultPath.
func LesPath() (string, error) { return resolve(LesEnv, LesDefaultPath) }
