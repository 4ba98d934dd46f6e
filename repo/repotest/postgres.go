package repotest

import "testing"

// postgresDSN is a new PostgreSQL database for the test.
func postgresDSN(t testing.TB) string {
	t.Helper()
	t.Fatalf("%s=postgres: the PostgreSQL store is not built yet", StoreEnv)
	return ""
}
