package repotest

import (
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver of SQL

	"github.com/lesspost/lesspost/repo/postgres/pgtest"
)

// postgresDSN is a new PostgreSQL database for the test (see pgtest.DSN).
func postgresDSN(t testing.TB) string {
	t.Helper()
	return pgtest.DSN(t)
}
