package repotest

import (
	"os"
	"path/filepath"
	"testing"
)

// cannotMount ends a test that needs a small disk it cannot have.
func cannotMount(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("repotest: CI must run the full-disk tests, but cannot mount a small disk (it takes root): %v", err)
	}
	t.Skipf("repotest: SKIPPED, cannot mount a small disk for a full-disk test (it takes root): %v", err)
}

// PathIn is Path in dir: a new database file of the test's own there.
func PathIn(t testing.TB, dir string) string {
	t.Helper()
	b, err := template()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "test.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatalf("copy the template database: %v", err)
	}
	return path
}
