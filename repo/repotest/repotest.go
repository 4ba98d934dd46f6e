// Package repotest gives tests a fresh database without paying for the
// migrations each time.
//
// sqlite.Open migrates a new file from scratch, and under the race detector
// that takes most of a second (migration 0012 alone rebuilds the games table
// ten times), while the test suites need hundreds of fresh databases. Path
// migrates one template per test process and gives every test a copy of it.
// Tests that are about creating or migrating a database file open a new path
// with sqlite.Open instead, which is what a server does.
package repotest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lesspost/lesspost/repo/sqlite"
)

// template is the content of a database file that sqlite.Open created and
// migrated, built once per test process.
var template = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "repotest-")
	if err != nil {
		return nil, fmt.Errorf("template database: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		return nil, fmt.Errorf("template database: %w", err)
	}
	if err := db.Close(); err != nil {
		return nil, fmt.Errorf("template database: %w", err)
	}
	// Closing the last connection checkpoints the WAL into the file and
	// deletes it. Were it left, the file alone would lack the migrations'
	// last writes.
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("template database: its WAL is left after closing (%v)", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("template database: %w", err)
	}
	return b, nil
})

// Path returns the path of a new database file of the test's own, in its
// temporary directory: what sqlite.Open makes of a new path (the current schema,
// no rows but the applied migrations'), ready to be opened with sqlite.Open.
func Path(t testing.TB) string {
	t.Helper()
	b, err := template()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	// Private, as sqlite.Open creates a database file.
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatalf("copy the template database: %v", err)
	}
	return path
}
