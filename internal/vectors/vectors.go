// Package vectors loads the conformance vectors for tests. Less's are by
// default testdata/conformance/less-vectors.json at the module root, or the
// file that LESS_VECTORS names; Les's (les.go) are
// testdata/conformance/les-vectors.json, or the file LES_VECTORS names. A
// relative name is taken from the module root, since every package's tests
// run in their own directory. testdata/README.md describes the formats.
//
// Only tests import this package. It imports nothing of the project, so the
// rules engines' own tests (packages less and les) can use it without an
// import cycle; positions stay as the files write them, and each test
// converts them to its own types.
package vectors

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// DefaultPath is where the vectors live, relative to the module root.
const DefaultPath = "testdata/conformance/less-vectors.json"

// Env names another vectors file of the same format.
const Env = "LESS_VECTORS"

// Position is a position as the vectors write it.
type Position struct {
	Size      int                 `json:"size"`
	Walls     string              `json:"walls"`
	ToMove    string              `json:"to_move"`
	Pieces    map[string][]string `json:"pieces"`
	EarlyStop bool                `json:"early_stop"`
}

// TurnCase is a turn submitted on a position and what judging it gives.
type TurnCase struct {
	Position Position `json:"position"`
	Turn     string   `json:"turn"`
	Expect   struct {
		OK      bool                `json:"ok"`
		Used    int                 `json:"used"`
		Counted int                 `json:"counted"`
		Pieces  map[string][]string `json:"pieces"`
		Code    string              `json:"code"`
		Index   *int                `json:"index"` // nil for an error about the whole turn
	} `json:"expect"`
}

// PerftCase counts the legal turns of a position and the placements they reach.
type PerftCase struct {
	Position  Position `json:"position"`
	Turns     int      `json:"turns"`
	Positions int      `json:"positions"`
}

// NeededCase gives rules E4 for each side of a two-player position.
type NeededCase struct {
	Position Position       `json:"position"`
	Needed   map[string]int `json:"needed"`
}

// GameCase is a whole two-player game from the start position.
type GameCase struct {
	Size   int      `json:"size"`
	Walls  string   `json:"walls"`
	Turns  []string `json:"turns"`
	Result struct {
		Winner *string        `json:"winner"` // nil for a draw
		Margin int            `json:"margin"`
		Totals map[string]int `json:"totals"`
		Counts map[string]int `json:"counts"`
	} `json:"result"`
}

// File is a whole vectors file.
type File struct {
	TurnCases   []TurnCase   `json:"turn_cases"`
	PerftCases  []PerftCase  `json:"perft_cases"`
	NeededCases []NeededCase `json:"needed_cases"`
	GameCases   []GameCase   `json:"game_cases"`
}

// Load returns the vectors, read once per test binary. A missing, unreadable
// or empty file fails the test: the conformance tests never skip.
func Load(t testing.TB) *File {
	t.Helper()
	f, err := load()
	if err != nil {
		t.Fatalf("conformance vectors (set %s to use another file): %v", Env, err)
	}
	return f
}

var load = sync.OnceValues(func() (*File, error) {
	path, err := Path()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if len(f.TurnCases) == 0 || len(f.PerftCases) == 0 || len(f.NeededCases) == 0 || len(f.GameCases) == 0 {
		return nil, fmt.Errorf("%s lacks a section: %d turn, %d perft, %d needed and %d game cases",
			path, len(f.TurnCases), len(f.PerftCases), len(f.NeededCases), len(f.GameCases))
	}
	return &f, nil
})

// Path is the vectors file the tests read: LESS_VECTORS, or DefaultPath.
func Path() (string, error) { return resolve(Env, DefaultPath) }

// resolve is the file the environment variable env names, or def: a
// relative name is taken from the module root.
func resolve(env, def string) (string, error) {
	path := os.Getenv(env)
	if path == "" {
		path = def
	}
	if filepath.IsAbs(path) {
		return path, nil
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, filepath.FromSlash(path)), nil
}

// ModuleRoot is the nearest directory at or above the working directory
// that holds go.mod; tests run in their package's directory inside it.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working directory")
		}
		dir = parent
	}
}
