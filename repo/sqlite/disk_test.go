package sqlite_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// On a full disk every write fails as unavailable (the HTTP edge answers
// 503), Ping says so though reads still work, and once a few MB are free
// writes work again at once, and go on working: the WAL takes no more than
// its limit of what was freed.
func TestFullDisk(t *testing.T) {
	const walLimit = 1 << 20
	disk := repotest.SmallDisk(t, 16<<20)
	path := repotest.PathIn(t, disk)
	ctx := t.Context()
	db, err := sqlite.OpenWith(ctx, path, sqlite.Options{WALLimit: walLimit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// 4 MiB to free later; the rest of the disk filled.
	spare := filepath.Join(disk, "spare")
	if err := os.WriteFile(spare, make([]byte, 4<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	repotest.Fill(t, filepath.Join(disk, "filler"))

	value := strings.Repeat("x", 16<<10)
	n := 0
	write := func() error {
		n++
		return db.SetSetting(ctx, fmt.Sprint("k", n), value) // a new row each: the file must grow
	}
	for err == nil && n < 10000 {
		err = write()
	}
	if err == nil {
		t.Fatalf("%d writes of %d bytes on a full disk, and none failed", n, len(value))
	}
	if !domain.IsUnavailable(err) {
		t.Fatalf("a write on a full disk failed with %v; want it marked unavailable", err)
	}
	if err := write(); !domain.IsUnavailable(err) {
		t.Fatalf("the next write: %v; want it marked unavailable", err)
	}
	if _, _, err := db.Setting(ctx, "k1"); err != nil {
		t.Fatalf("reads fail too: %v", err)
	}
	if err := db.Ping(ctx); err == nil {
		t.Error("Ping says ready while writes fail")
	}

	if err := os.Remove(spare); err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(ctx); err != nil {
		t.Fatalf("Ping, once 4 MiB are free: %v", err)
	}
	// Half of what was freed goes to new rows, without a failure.
	for i := 0; i < (2<<20)/len(value); i++ {
		if err := write(); err != nil {
			t.Fatalf("write %d of 2 MiB after 4 MiB were freed: %v", i+1, err)
		}
	}
	if err := db.Ping(ctx); err != nil {
		t.Errorf("Ping after the writes: %v", err)
	}
}
