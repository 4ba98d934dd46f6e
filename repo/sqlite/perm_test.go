package sqlite

import (
	"os"
	"path/filepath"
	"testing"
)

// The database holds addresses, sessions and (on old installs) the signing
// secret: it and its WAL and shared-memory files are the owner's alone.
func TestOpenCreatesPrivateFiles(t *testing.T) {
	for _, tc := range []struct {
		name     string
		existing os.FileMode // 0: no file before Open
	}{
		{"new file", 0},
		{"existing world-readable file", 0o644},
		{"existing group-writable file", 0o660},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "test.db")
			if tc.existing != 0 {
				// An empty file is an empty SQLite database.
				if err := os.WriteFile(path, nil, tc.existing); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tc.existing); err != nil { // past the umask
					t.Fatal(err)
				}
			}
			db := openTest(t, path)
			if err := db.SetSetting(t.Context(), "k", "v"); err != nil { // a write: the WAL exists
				t.Fatal(err)
			}
			for _, name := range []string{path, path + "-wal", path + "-shm"} {
				fi, err := os.Stat(name)
				if err != nil {
					t.Fatal(err)
				}
				if got := fi.Mode().Perm(); got != 0o600 {
					t.Errorf("%s has mode %v, want -rw-------", filepath.Base(name), got)
				}
			}
		})
	}
}
