package postgres_test

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
)

// Maintain analyses a table that changed a lot since it was last analysed
// (as on a server without autovacuum), and leaves alone one that did not.
func TestMaintainAnalysesStaleTables(t *testing.T) {
	ctx, dsn := t.Context(), pgtest.DSN(t)
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `INSERT INTO rate_limits (key, full_ns) SELECT 'k' || g, 0 FROM generate_series(1, 1500) g`); err != nil {
		t.Fatal(err)
	}
	// The counts reach pg_stat_user_tables when the session flushes them.
	if _, err := conn.Exec(ctx, `SELECT pg_stat_force_next_flush()`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `SELECT 1`); err != nil {
		t.Fatal(err)
	}
	analysed := func(table string) bool {
		var at *time.Time
		err := conn.QueryRow(ctx, `SELECT last_analyze FROM pg_stat_user_tables
			WHERE relname = $1`, table).Scan(&at)
		if err != nil {
			t.Fatal(err)
		}
		return at != nil
	}
	for give := time.Now().Add(10 * time.Second); !analysed("rate_limits"); {
		if time.Now().After(give) {
			t.Fatal("rate_limits, 1,500 rows since it was created, is not analysed")
		}
		if err := db.Maintain(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if analysed("outbox") {
		t.Error("the outbox, unchanged, was analysed")
	}
}
