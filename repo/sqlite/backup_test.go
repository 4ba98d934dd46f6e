package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lesspost/lesspost/domain/games"
)

// A backup taken while games are being created holds every game created
// before it started, opens as a store, is private, and leaves no temporary
// file behind.
func TestBackupWhileWriting(t *testing.T) {
	ctx := t.Context()
	path := freshPath(t)
	db := openTest(t, path)
	organiser := signUp(t, db, "org@example.org", t0)
	var (
		mu      sync.Mutex
		created []string
		n       atomic.Int64
	)
	create := func() error {
		// New addresses for every game: the same two would spend their
		// daily budget of invitations after 50 games.
		i := n.Add(1)
		players := []games.Player{{Name: "Ann", Email: fmt.Sprintf("ann%d@example.org", i)},
			{Name: "Bob", Email: fmt.Sprintf("bob%d@example.org", i)}}
		g, err := db.serviceAt(t0).CreateGame(ctx, games.NewGameSpec{Players: players}, organiser.ID)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		created = append(created, g.ID)
		return nil
	}
	for range 20 {
		if err := create(); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := create(); err != nil {
				t.Error(err)
				return
			}
		}
	})

	mu.Lock()
	before := append([]string(nil), created...)
	mu.Unlock()
	dir := t.TempDir()
	dst := filepath.Join(dir, "backup.db")
	err := Backup(ctx, path, dst, false)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}

	if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm() != privateMode {
		t.Fatalf("the copy: %v, %v", fi, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside the copy: %v", entries)
	}
	copied, err := Open(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	for _, id := range before {
		if _, err := copied.Game(ctx, id); err != nil {
			t.Errorf("game %s, created before the backup: %v", id, err)
		}
	}
	mu.Lock()
	t.Logf("%d games before the backup, %d when it ended", len(before), len(created))
	mu.Unlock()
}

// An existing file is kept unless overwriting is asked for; a database that
// is not there is not created; a copy that fails its check never takes the
// file's name. Nothing is left beside it.
func TestBackupRefuses(t *testing.T) {
	tests := []struct {
		name      string
		src       func(t testing.TB) string
		existing  bool // the destination exists
		overwrite bool
		wantErr   string // "" for none
		wantIs    error
	}{
		{name: "a new file", src: freshPath},
		{name: "an existing file", src: freshPath, existing: true, wantErr: "exists", wantIs: fs.ErrExist},
		{name: "an existing file, overwritten", src: freshPath, existing: true, overwrite: true},
		{name: "no database", src: func(t testing.TB) string { return filepath.Join(t.TempDir(), "missing.db") },
			wantErr: "no such file", wantIs: fs.ErrNotExist},
		{name: "a newer schema", src: func(t testing.TB) string {
			path := freshPath(t)
			pool, err := openWritePool(t.Context(), path, DefaultWALLimit)
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			if _, err := pool.Exec(`INSERT INTO schema_migrations (version) VALUES (9999)`); err != nil {
				t.Fatal(err)
			}
			return path
		}, wantErr: "schema version 9999"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src(t)
			dir := t.TempDir()
			dst := filepath.Join(dir, "backup.db")
			if tt.existing {
				if err := os.WriteFile(dst, []byte("older"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := Backup(t.Context(), src, dst, tt.overwrite)
			if tt.wantErr == "" && err != nil {
				t.Fatalf("Backup: %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Backup = %v, want an error saying %q", err, tt.wantErr)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("Backup = %v, want it to be %v", err, tt.wantIs)
			}
			if _, err := os.Stat(src); err != nil && tt.wantIs != fs.ErrNotExist {
				t.Errorf("the database: %v", err)
			} else if err == nil && tt.wantIs == fs.ErrNotExist {
				t.Error("the missing database was created")
			}
			data, _ := os.ReadFile(dst)
			switch {
			case err == nil && !strings.HasPrefix(string(data), "SQLite format 3\x00"):
				t.Errorf("the copy is not a database: %.20q", data)
			case err != nil && tt.existing && string(data) != "older":
				t.Errorf("the existing file was changed: %.20q", data)
			case err != nil && !tt.existing && data != nil:
				t.Error("a failed backup left a file")
			}
			entries, _ := os.ReadDir(dir)
			if want := min(1, len(data)); len(entries) != want {
				t.Errorf("files beside the copy: %v", entries)
			}
		})
	}
}
