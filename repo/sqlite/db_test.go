package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lesspost/lesspost/migrations"
)

func openTest(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOpenAppliesMigrationsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test.db")
	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no embedded migrations: %v", err)
	}
	for range 2 { // the second Open must find nothing to do
		db := openTest(t, path)
		var n int
		if err := db.read.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != len(files) {
			t.Errorf("schema_migrations has %d rows, want %d", n, len(files))
		}
		if err := db.Ping(t.Context()); err != nil {
			t.Errorf("Ping: %v", err)
		}
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
}

func TestOpenRejectsBadPath(t *testing.T) {
	for _, path := range []string{"", "a?b.db", filepath.Join(t.TempDir(), "missing", "dir", "x.db")} {
		if db, err := Open(t.Context(), path); err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded, want error", path)
		}
	}
}

func TestMigrate(t *testing.T) {
	tests := []struct {
		name    string
		files   fstest.MapFS
		wantErr bool
		tables  []string // must exist afterwards
		absent  []string // must not exist afterwards
		applied []string // reported by the first run; the second applies none
	}{
		{
			name: "several statements and files in name order",
			files: fstest.MapFS{
				"0002_b.sql": {Data: []byte(`CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a(id));`)},
				"0001_a.sql": {Data: []byte(`CREATE TABLE a (id INTEGER PRIMARY KEY); CREATE TABLE a2 (id INTEGER PRIMARY KEY);`)},
			},
			tables:  []string{"a", "a2", "b"},
			applied: []string{"0001_a.sql", "0002_b.sql"},
		},
		{
			name: "a failing file is rolled back whole, earlier ones are kept",
			files: fstest.MapFS{
				"0001_ok.sql":  {Data: []byte(`CREATE TABLE ok (id INTEGER);`)},
				"0002_bad.sql": {Data: []byte(`CREATE TABLE half (id INTEGER); CREATE TABLE broken (;`)},
			},
			wantErr: true,
			tables:  []string{"ok"},
			absent:  []string{"half"},
			applied: []string{"0001_ok.sql"},
		},
		{
			name:    "name without a version",
			files:   fstest.MapFS{"init.sql": {Data: []byte(`SELECT 1;`)}},
			wantErr: true,
		},
		{
			name: "two files with one version",
			files: fstest.MapFS{
				"0001_a.sql":  {Data: []byte(`CREATE TABLE a (id INTEGER);`)},
				"01_also.sql": {Data: []byte(`CREATE TABLE b (id INTEGER);`)},
			},
			wantErr: true,
			applied: []string{"0001_a.sql"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A bare database: the real migrations would claim version 1.
			db, err := openPool(t.Context(), filepath.Join(t.TempDir(), "test.db"), url.Values{"_txlock": {"immediate"}}, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for run := range 2 {
				applied, err := migrate(t.Context(), db, tt.files)
				if (err != nil) != tt.wantErr {
					t.Fatalf("run %d: migrate error = %v, want error: %v", run, err, tt.wantErr)
				}
				want := tt.applied
				if run > 0 {
					want = nil
				}
				if !slices.Equal(applied, want) {
					t.Errorf("run %d applied %v, want %v", run, applied, want)
				}
			}
			for _, table := range tt.tables {
				if !tableExists(t, db, table) {
					t.Errorf("table %s missing", table)
				}
			}
			for _, table := range tt.absent {
				if tableExists(t, db, table) {
					t.Errorf("table %s exists, want rolled back", table)
				}
			}
		})
	}
}

func tableExists(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, name).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n == 1
}

func TestLegacySecret(t *testing.T) {
	db := openTest(t, freshPath(t))
	ctx := t.Context()
	if _, found, err := db.LegacySecret(ctx); err != nil || found {
		t.Fatalf("LegacySecret on a fresh database: found %v, %v", found, err)
	}
	want := bytes.Repeat([]byte{7}, secretSize)
	if err := db.SetSetting(ctx, secretKey, base64.StdEncoding.EncodeToString(want)); err != nil {
		t.Fatal(err)
	}
	got, found, err := db.LegacySecret(ctx)
	if err != nil || !found || !bytes.Equal(got, want) {
		t.Fatalf("LegacySecret = %x, %v, %v; want %x", got, found, err, want)
	}
	if err := db.ForgetLegacySecret(ctx); err != nil {
		t.Fatal(err)
	}
	if _, found, err := db.LegacySecret(ctx); err != nil || found {
		t.Errorf("LegacySecret after ForgetLegacySecret: found %v, %v", found, err)
	}
	for _, corrupt := range []string{"not base64!", base64.StdEncoding.EncodeToString([]byte("short"))} {
		if err := db.SetSetting(ctx, secretKey, corrupt); err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.LegacySecret(ctx); err == nil {
			t.Errorf("LegacySecret accepted a corrupt stored secret %q", corrupt)
		}
	}
}

func TestSettings(t *testing.T) {
	ctx := t.Context()
	db := openTest(t, freshPath(t))
	if _, found, err := db.Setting(ctx, "k"); err != nil || found {
		t.Fatalf("Setting of a missing key = found %v, err %v", found, err)
	}
	for _, v := range []string{"one", "two"} {
		if err := db.SetSetting(ctx, "k", v); err != nil {
			t.Fatal(err)
		}
		got, found, err := db.Setting(ctx, "k")
		if err != nil || !found || got != v {
			t.Errorf("Setting = %q, %v, %v; want %q", got, found, err, v)
		}
	}
}

func TestWithTx(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name      string
		fn        func(*Tx) error
		wantErr   error
		wantPanic bool
		wantRow   bool
	}{
		{name: "commit", fn: func(*Tx) error { return nil }, wantRow: true},
		{name: "error rolls back", fn: func(*Tx) error { return fmt.Errorf("step: %w", errBoom) }, wantErr: errBoom},
		{name: "panic rolls back", fn: func(*Tx) error { panic(errBoom) }, wantPanic: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			db := openTest(t, freshPath(t))
			func() {
				defer func() {
					if p := recover(); (p != nil) != tt.wantPanic {
						t.Errorf("panic = %v, want panic: %v", p, tt.wantPanic)
					}
				}()
				err := db.WithTx(ctx, func(tx *Tx) error {
					if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES ('k', 'v')`); err != nil {
						t.Fatal(err)
					}
					return tt.fn(tx)
				})
				if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
					t.Errorf("WithTx error = %v, want %v", err, tt.wantErr)
				}
			}()
			if _, found, err := db.Setting(ctx, "k"); err != nil || found != tt.wantRow {
				t.Errorf("row kept = %v (err %v), want %v", found, err, tt.wantRow)
			}
			// The write connection must be usable again after a rollback or panic.
			if err := db.SetSetting(ctx, "after", "x"); err != nil {
				t.Errorf("write after WithTx: %v", err)
			}
		})
	}
}

// Concurrent writers queue on the single write connection instead of failing
// with SQLITE_BUSY, and readers run alongside them.
func TestConcurrentWritesAndReads(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, freshPath(t))
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 50 {
		wg.Go(func() { errs <- db.SetSetting(ctx, fmt.Sprint("k", i%5), fmt.Sprint(i)) })
		wg.Go(func() { _, _, err := db.Setting(ctx, "k1"); errs <- err })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestReadPoolIsReadOnly(t *testing.T) {
	db := openTest(t, freshPath(t))
	if _, err := db.read.Exec(`INSERT INTO settings (key, value) VALUES ('k', 'v')`); err == nil {
		t.Error("write through the read pool succeeded")
	}
}

// Commits leave the WAL to the background checkpoints: the database file
// takes in what was written without any writer checkpointing it.
func TestBackgroundCheckpoint(t *testing.T) {
	path := freshPath(t)
	db := openTest(t, path)
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	u := signUp(t, db, "org@example.org", t0)
	for range 20 { // far below the automatic checkpoint's 10,000 pages
		mustCreate(t, db, twoPlayerSpec("ann@example.org", "bob@example.org"), u.ID, t0)
	}
	deadline := time.Now().Add(10 * time.Second)
	for size() <= before {
		if time.Now().After(deadline) {
			t.Fatalf("the database file is still %d bytes: no checkpoint ran", before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Under a steady stream of writes, with readers always in the middle of a
// read, the WAL stays about its limit: the writer has it started over,
// where passive checkpoints alone let it grow to the automatic
// checkpoint's 40 MB (41 MB at 150 turns a second, in 15 s).
func TestWALStaysNearItsLimit(t *testing.T) {
	const limit = 256 << 10
	path := freshPath(t)
	db, err := OpenWith(t.Context(), path, Options{WALLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop()
	// Each reader holds a read transaction over a few queries, and the
	// readers overlap: there is nearly always one reading a snapshot of
	// the WAL.
	for range 2 {
		wg.Go(func() {
			for ctx.Err() == nil {
				tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
				if err != nil {
					return
				}
				for range 4 {
					var n int
					if tx.QueryRowContext(ctx, `SELECT count(*) FROM settings`).Scan(&n) != nil {
						break
					}
				}
				_ = tx.Rollback()
			}
		})
	}
	// 16 times the limit written, a 16 kB value (four pages and their
	// index's) at a time.
	value := strings.Repeat("x", 16<<10)
	var largest int64
	for i := range 16 * limit / len(value) {
		if err := db.SetSetting(t.Context(), fmt.Sprint("k", i%50), value+fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path + "-wal"); err == nil {
			largest = max(largest, fi.Size())
		}
	}
	// A try to start it over that meets a reader longer than restartWait
	// (a slow machine) waits for another limit's growth: two tries may fail.
	if largest > 3*limit {
		t.Errorf("the WAL grew to %d bytes; its limit is %d", largest, limit)
	}
	t.Logf("largest WAL: %d bytes, limit %d", largest, limit)
}
