package repotest

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/repo"
)

// StoreEnv chooses the store of the tests that can run on either: "postgres"
// puts them on PostgreSQL (a new database each, see DSN); anything else, or
// nothing, on SQLite. CI runs the suite both ways.
const StoreEnv = "LESSPOST_TEST_STORE"

// Postgres says whether StoreEnv asks for PostgreSQL.
func Postgres() bool { return os.Getenv(StoreEnv) == "postgres" }

// DSN returns a new, migrated, empty database of the test's own, as
// repo.OpenStore and the server's --db take it: a SQLite file (Path), or,
// when StoreEnv asks for it, a PostgreSQL database dropped after the test.
func DSN(t testing.TB) string {
	t.Helper()
	if Postgres() {
		return postgresDSN(t)
	}
	return Path(t)
}

// Open opens a new store for the test (see DSN), closed after it.
func Open(t testing.TB) repo.Store {
	t.Helper()
	return OpenDSN(t, DSN(t))
}

// OpenDSN opens the store at dsn, closed after the test.
func OpenDSN(t testing.TB, dsn string) repo.Store {
	t.Helper()
	s, err := repo.OpenStore(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// SQL opens a plain database/sql handle on the database at dsn, beside the
// store, for tests that read (or damage) rows directly; closed after the
// test.
func SQL(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	driver, source := "sqlite", "file:"+dsn+"?"+url.Values{"_pragma": {"busy_timeout(5000)"}}.Encode()
	if repo.IsPostgres(dsn) {
		driver, source = "pgx", dsn
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Digest is every table of the database at dsn with a digest of its rows,
// to prove that something changed nothing at all.
func Digest(t testing.TB, dsn string) map[string]string {
	t.Helper()
	db := SQL(t, dsn)
	ctx := t.Context()
	list := `SELECT name FROM sqlite_master WHERE type = 'table'`
	if repo.IsPostgres(dsn) {
		list = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	tables, err := strings1(db, t, list)
	if err != nil {
		t.Fatalf("list tables: %v", err)
	}
	state := map[string]string{}
	for _, table := range tables {
		rows, err := db.QueryContext(ctx, `SELECT * FROM "`+table+`"`)
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("%q", vals))
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		slices.Sort(lines)
		sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
		state[table] = fmt.Sprintf("%d rows %x", len(lines), sum[:6])
	}
	return state
}

// strings1 runs a query whose rows are one string each.
func strings1(db *sql.DB, t testing.TB, query string) ([]string, error) {
	rows, err := db.QueryContext(t.Context(), query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// SQLiteOnly skips a test that reaches into SQLite itself when the tests
// run on PostgreSQL.
func SQLiteOnly(t testing.TB, why string) {
	t.Helper()
	if Postgres() {
		t.Skipf("SQLite only (%s); %s=postgres", why, StoreEnv)
	}
}
