package repotest_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// A copy of the template is, as it is handed out, what sqlite.Open makes of a
// new path: the same schema, the same applied migrations, no other rows; and
// it is a private file of its own.
func TestPathIsANewDatabase(t *testing.T) {
	newPath := filepath.Join(t.TempDir(), "new.db")
	db, err := sqlite.Open(t.Context(), newPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Described before sqlite.Open sees it, which would apply what it lacks.
	fresh := repotest.Path(t)
	want, got := describe(t, newPath), describe(t, fresh)
	if !slices.Equal(got, want) {
		t.Errorf("a copy of the template holds\n%q\nsqlite.Open on a new path makes\n%q", got, want)
	}
	if other := repotest.Path(t); other == fresh {
		t.Errorf("two calls gave the same file %s", fresh)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the copy's mode: %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}

// describe lists the schema of the database at path, its journal mode, its
// applied migrations and the number of rows of each table.
func describe(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", path) // the driver repo registers
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
