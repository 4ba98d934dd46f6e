package repo

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// migrate applies the *.sql files of fsys that the database has not seen yet,
// in name order, each in its own transaction together with its row in
// schema_migrations, so a failed migration leaves no trace and a restart
// resumes where it stopped. The check runs inside the (IMMEDIATE) transaction,
// so two processes starting at once cannot both apply a file.
func migrate(ctx context.Context, db *sql.DB, fsys fs.FS) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
	)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	names, err := fs.Glob(fsys, "*.sql") // sorted by name
	if err != nil {
		return err
	}
	seen := make(map[int]string, len(names))
	for _, name := range names {
		version, err := migrationVersion(name)
		if err != nil {
			return err
		}
		if other, dup := seen[version]; dup {
			return fmt.Errorf("migrations %s and %s share version %d", other, name, version)
		}
		seen[version] = name
		script, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		err = withTx(ctx, db, nil, func(tx *Tx) error {
			var applied bool
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
		if err != nil {
			return fmt.Errorf("apply %s: %w", name, err)
		}
	}
	return nil
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
