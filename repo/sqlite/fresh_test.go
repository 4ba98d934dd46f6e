package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// freshTemplate is the content of a database file that Open created and
// migrated, built once per test process: repotest.Path for this package's
// own tests, which cannot import repotest (it imports this package).
var freshTemplate = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "repo-test-")
	if err != nil {
		return nil, fmt.Errorf("template database: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	db, err := Open(context.Background(), path)
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

// freshPath returns the path of a new database file of the test's own, a copy
// of what Open makes of a new path, without migrating it again: that takes
// most of a second under the race detector. Tests about creating or migrating
// the file open a new path instead.
func freshPath(t testing.TB) string {
	t.Helper()
	b, err := freshTemplate()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, b, privateMode); err != nil {
		t.Fatalf("copy the template database: %v", err)
	}
	return path
}

// A copy of the template is, as it is handed out, what Open makes of a new
// path: the same schema, the same applied migrations, no other rows; and it
// is a private file of its own.
func TestFreshPathIsANewDatabase(t *testing.T) {
	newPath := filepath.Join(t.TempDir(), "new.db")
	if err := openTest(t, newPath).Close(); err != nil {
		t.Fatal(err)
	}
	// Described before Open sees it, which would apply what it lacks.
	fresh := freshPath(t)
	want, got := describe(t, newPath), describe(t, fresh)
	if !slices.Equal(got, want) {
		t.Errorf("a fresh copy of the template holds\n%q\nOpen on a new path makes\n%q", got, want)
	}
	if other := freshPath(t); other == fresh {
		t.Errorf("two calls gave the same file %s", fresh)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != privateMode {
		t.Errorf("the copy's mode: %v, %v; want %v", fi.Mode().Perm(), err, privateMode)
	}
}

// describe lists the schema of the database at path, its journal mode, its
// applied migrations and the number of rows of each table.
func describe(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	query := func(q string) []string {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := query(`SELECT type || ' ' || name || ' ' || tbl_name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name`)
	out = append(out, query(`PRAGMA journal_mode`)...)
	out = append(out, query(`SELECT 'migration ' || version FROM schema_migrations ORDER BY version`)...)
	for _, table := range query(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`) {
		out = append(out, query(fmt.Sprintf(`SELECT '%s: ' || count(*) || ' rows' FROM "%s"`, table, table))...)
	}
	return out
}
