//go:build !linux

package repotest

import (
	"errors"
	"testing"
)

// SmallDisk mounts a small file system on Linux only: elsewhere the test
// skips, loudly, or fails under CI=true.
func SmallDisk(t testing.TB, size int64) string {
	t.Helper()
	cannotMount(t, errors.New("tmpfs mounts are made on Linux only"))
	return ""
}

// FreeBytes is not known off Linux.
func FreeBytes(t testing.TB, dir string) int64 {
	t.Helper()
	t.Fatal("FreeBytes: Linux only")
	return 0
}

// Fill is not used off Linux.
func Fill(t testing.TB, path string) int64 {
	t.Helper()
	t.Fatal("Fill: Linux only")
	return 0
}
