package repotest

import (
	"fmt"
	"os"
	"syscall"
	"testing"
)

// SmallDisk mounts a file system of size bytes (a tmpfs) for the test and
// returns its directory, unmounted after the test: a disk that fills up
// for real. Mounting takes root (CAP_SYS_ADMIN); without it the test
// skips, loudly, or fails under CI=true.
func SmallDisk(t testing.TB, size int64) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0700", size)); err != nil {
		cannotMount(t, err)
	}
	// Registered after TempDir's: runs before it removes the directory. A
	// lazy unmount, so that a file still open does not keep it mounted.
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount the small disk: %v", err)
		}
	})
	return dir
}

// FreeBytes is what is left on the file system of dir.
func FreeBytes(t testing.TB, dir string) int64 {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Bavail) * st.Bsize
}

// Fill writes the file path until the disk it is on is full, and returns
// how much it wrote.
func Fill(t testing.TB, path string) int64 {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 64<<10)
	var n int64
	for len(block) > 0 {
		w, err := f.Write(block)
		n += int64(w)
		if err != nil {
			// ENOSPC: what is left is smaller than the block.
			block = block[:len(block)/2]
		}
	}
	return n
}
