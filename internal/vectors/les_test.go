package vectors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLesPathFollowsTheEnvironment(t *testing.T) {
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(t.TempDir(), "other.json")
	tests := []struct{ env, want string }{
		{"", filepath.Join(root, "testdata", "conformance", "les-vectors.json")},
		{"testdata/other.json", filepath.Join(root, "testdata", "other.json")},
		{abs, abs},
	}
	for _, tt := range tests {
		t.Setenv(LesEnv, tt.env)
		if got, err := LesPath(); err != nil || got != tt.want {
			t.Errorf("%s=%q: LesPath() = %q, %v; want %q", LesEnv, tt.env, got, err, tt.want)
		}
	}
}

func TestReadLesRefusesMissingFilesAndSections(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	one := `[{"size": 9}]`
	full := `{"setup_cases": ` + one + `, "turn_cases": ` + one + `, "perft_cases": ` + one + `, "game_cases": ` + one + `}`
	if f, err := readLes(write("full.json", full)); err != nil || len(f.GameCases) != 1 {
		t.Fatalf("readLes(full) = %+v, %v", f, err)
	}
	for _, section := range []string{"setup_cases", "turn_cases", "perft_cases", "game_cases"} {
		text := strings.Replace(full, `"`+section+`"`, `"other"`, 1)
		if _, err := readLes(write(section+".json", text)); err == nil || !strings.Contains(err.Error(), "lacks a section") {
			t.Errorf("without %s: readLes = %v, want lacks a section", section, err)
		}
	}
	if _, err := readLes(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("readLes(missing file) succeeded")
	}
	if _, err := readLes(write("bad.json", "{")); err == nil {
		t.Error("readLes(bad JSON) succeeded")
	}
}

// The vectors file the tests read (the committed one unless LES_VECTORS names
// another) loads with every section.
func TestLoadLesReadsEverySection(t *testing.T) {
	f := LoadLes(t)
	if len(f.SetupCases) == 0 || len(f.TurnCases) == 0 || len(f.PerftCases) == 0 || len(f.GameCases) == 0 {
		t.Fatalf("sections: %d %d %d %d", len(f.SetupCases), len(f.TurnCases), len(f.PerftCases), len(f.GameCases))
	}
}
