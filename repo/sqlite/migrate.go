package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/lesspost/lesspost/migrations"
)

// Migrated is what a migration run did.
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

// Migrate brings the SQLite database at path (created if missing) to the
// current schema, as Open does, and reports what it applied. On an error,
// Applied still names the migrations that were applied before it.
func Migrate(ctx context.Context, path string) (Migrated, error) {
	if path == "" || strings.Contains(path, "?") {
		return Migrated{}, fmt.Errorf("migrate database: invalid path %q", path)
	}
	if err := makePrivate(path); err != nil {
		return Migrated{}, err
	}
	pool, err := openWritePool(ctx, path, DefaultWALLimit)
	if err != nil {
		return Migrated{}, err
	}
	defer pool.Close()
	var m Migrated
	if m.Applied, err = migrate(ctx, pool, migrations.FS); err != nil {
		return m, fmt.Errorf("migrate database %s: %w", path, err)
	}
	if m.Version, err = schemaVersion(ctx, pool); err != nil {
		return m, fmt.Errorf("migrate database %s: %w", path, err)
	}
	m.Known = SchemaVersion()
	return m, pool.Close()
}

// SchemaVersion is the version of this binary's newest migration: the
// schema it reads and writes.
func SchemaVersion() int {
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(names) == 0 {
		panic(fmt.Sprintf("migrations: none embedded (%v)", err)) // a broken build
	}
	v, err := migrationVersion(names[len(names)-1])
	if err != nil {
		panic(err)
	}
	return v
}

// schemaVersion reads the version of the newest migration applied to db.
func schemaVersion(ctx context.Context, db *sql.DB) (int, error) {
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return int(v.Int64), nil
}

// migrate applies the *.sql files of fsys that the database has not seen yet,
// in name order, each in its own transaction together with its row in
// schema_migrations, so a failed migration leaves no trace and a restart
// resumes where it stopped. The check runs inside the (IMMEDIATE) transaction,
// so two processes starting at once cannot both apply a file. It returns the
// names of the files it applied.
func migrate(ctx context.Context, db *sql.DB, fsys fs.FS) ([]string, error) {
	if err := whileBusy(ctx, func() error {
		_, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    INTEGER PRIMARY KEY,
			applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
		)`)
		return err
	}); err != nil {
		return nil, fmt.Errorf("create schema_migrations: %w", err)
	}
	names, err := fs.Glob(fsys, "*.sql") // sorted by name
	if err != nil {
		return nil, err
	}
	var done []string
	seen := make(map[int]string, len(names))
	for _, name := range names {
		version, err := migrationVersion(name)
		if err != nil {
			return done, err
		}
		if other, dup := seen[version]; dup {
			return done, fmt.Errorf("migrations %s and %s share version %d", other, name, version)
		}
		seen[version] = name
		script, err := fs.ReadFile(fsys, name)
		if err != nil {
			return done, err
		}
		var applied bool
		err = whileBusy(ctx, func() error {
			return withTx(ctx, db, nil, func(tx *Tx) error {
				if err := tx.QueryRowContext(ctx,
					`SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?)`, version,
				).Scan(&applied); err != nil || applied {
					return err
				}
				if _, err := tx.ExecContext(ctx, string(script)); err != nil {
					return err
				}
				_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (?)`, version)
				return err
			})
		})
		if err != nil {
			return done, fmt.Errorf("apply %s: %w", name, err)
		}
		if !applied {
			done = append(done, name)
		}
	}
	return done, nil
}

// migrationVersion reads the version from a name like "0002_games.sql".
func migrationVersion(name string) (int, error) {
	digits, _, _ := strings.Cut(name, "_")
	version, err := strconv.Atoi(digits)
	if err != nil || version <= 0 {
		return 0, fmt.Errorf("migration %s: name must start with a positive number and '_'", name)
	}
	return version, nil
}
