// Package repo opens the store a URL names: the SQLite file at a path
// (repo/sqlite) or the PostgreSQL database of a postgres:// URL
// (repo/postgres), migrated to the current schema and behind the ports the
// server asks for (repo/port). It is the only package that knows both
// stores; only cmd and tests import it.
package repo

import (
	"context"
	"strings"

	"github.com/lesspost/lesspost/repo/port"
	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// Store is what OpenStore returns: any store (see port.Store).
type Store = port.Store

var (
	_ Store = (*sqlite.DB)(nil)
	_ Store = (*postgres.DB)(nil)
)

// IsPostgres says whether dsn names a PostgreSQL database rather than a
// SQLite file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// OpenStore opens the store dsn names: a PostgreSQL database for a
// postgres:// URL, else the SQLite file at that path. Either way the schema
// is migrated to the current version first.
func OpenStore(ctx context.Context, dsn string) (Store, error) {
	return OpenStoreWith(ctx, dsn, StoreOptions{})
}

// StoreOptions tune the store OpenStoreWith opens; each store heeds its
// own, and zero fields mean the defaults.
type StoreOptions struct {
	SQLite   sqlite.Options
	Postgres postgres.Options
}

// OpenStoreWith is OpenStore with options other than the defaults.
func OpenStoreWith(ctx context.Context, dsn string, opts StoreOptions) (Store, error) {
	if IsPostgres(dsn) {
		return postgres.OpenWith(ctx, dsn, opts.Postgres)
	}
	return sqlite.OpenWith(ctx, dsn, opts.SQLite)
}

// Migrated is what a migration run did, whichever the store.
type Migrated struct {
	// Applied names the migrations applied, in order; empty if the schema
	// was current.
	Applied []string
	// Version is the schema version the database is at afterwards: its
	// newest migration's. More than Known means a newer binary migrated
	// it.
	Version int
	// Known is the version of this binary's newest migration for the store.
	Known int
}

// MigrateStore applies the pending migrations of the store dsn names, as
// OpenStore does before it serves, and reports them (see sqlite.Migrate).
func MigrateStore(ctx context.Context, dsn string) (Migrated, error) {
	if !IsPostgres(dsn) {
		m, err := sqlite.Migrate(ctx, dsn)
		return Migrated(m), err
	}
	all, err := postgres.Migrations()
	if err != nil {
		return Migrated{}, err
	}
	// PostgreSQL refuses a schema newer than the binary's: once migrated,
	// the database is at the newest version the binary knows.
	known := all[len(all)-1].Version
	applied, err := postgres.Migrate(ctx, dsn)
	if err != nil {
		return Migrated{Applied: applied}, err
	}
	return Migrated{Applied: applied, Version: known, Known: known}, nil
}
