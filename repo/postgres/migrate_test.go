package postgres_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
)

// emptyDatabase is a database with no schema at all: the fresh database of
// an operator's first start.
func emptyDatabase(t *testing.T) string {
	t.Helper()
	dsn := pgtest.DSN(t)
	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(t.Context()))
	if _, err := conn.Exec(t.Context(), `DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
		t.Fatal(err)
	}
	return dsn
}

// Instances that start together on a fresh database migrate it once: one
// applies the schema, the others wait for it and find nothing to do.
func TestOpenMigratesOnceWhenStartedTogether(t *testing.T) {
	dsn := emptyDatabase(t)
	const instances = 4
	var wg sync.WaitGroup
	errs := make([]error, instances)
	for i := range instances {
		wg.Go(func() {
			db, err := postgres.Open(t.Context(), dsn)
			if err == nil {
				err = db.Ping(t.Context())
				db.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
		}
	}
	all, err := postgres.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(t.Context()))
	var n int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(all) {
		t.Errorf("schema_migrations has %d rows (%v), want %d", n, err, len(all))
	}
	if applied, err := postgres.Migrate(t.Context(), dsn); err != nil || len(applied) != 0 {
		t.Errorf("Migrate on a migrated database applied %v, %v; want nothing", applied, err)
	}
}

// Migrate reports what it applied; a database migrated by a newer lesspost
// is refused, untouched.
func TestMigrate(t *testing.T) {
	dsn := emptyDatabase(t)
	applied, err := postgres.Migrate(t.Context(), dsn)
	all, _ := postgres.Migrations()
	if err != nil || len(applied) != len(all) || applied[0] != "0001_schema.sql" {
		t.Fatalf("Migrate = %v, %v; want all of %d", applied, err, len(all))
	}
	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(t.Context()))
	if _, err := conn.Exec(t.Context(), `INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_future.sql')`); err != nil {
		t.Fatal(err)
	}
	if _, err := postgres.Open(t.Context(), dsn); err == nil || !strings.Contains(err.Error(), "9999_future.sql") {
		t.Errorf("Open of a newer schema: %v, want a refusal naming the migration", err)
	}
}
