package postgres

import (
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	schema "github.com/lesspost/lesspost/migrations/postgres"
)

// migrationLock is the advisory lock key under which migrations run, so
// that instances starting together migrate once ("lesspost" in ASCII).
const migrationLock int64 = 0x6c657373706f7374

// Migration is one embedded migration.
type Migration struct {
	Version int
	Name    string // the file name, e.g. "0001_schema.sql"
	script  string
}

// Migrations lists the embedded migrations in order.
func Migrations() ([]Migration, error) {
	names, err := fs.Glob(schema.FS, "*.sql") // sorted by name
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, name := range names {
		digits, _, _ := strings.Cut(name, "_")
		version, err := strconv.Atoi(digits)
		if err != nil || version <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive number and '_'", name)
		}
		if n := len(out); n > 0 && out[n-1].Version == version {
			return nil, fmt.Errorf("migrations %s and %s share version %d", out[n-1].Name, name, version)
		}
		script, err := fs.ReadFile(schema.FS, name)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: version, Name: name, script: string(script)})
	}
	return out, nil
}

// Migrate applies the migrations the database dsn names has not seen yet
// and returns the names of those it applied (none if it was up to date).
func Migrate(ctx context.Context, dsn string) (applied []string, err error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("migrate database: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return migrate(ctx, conn)
}

func (db *DB) migrate(ctx context.Context) error {
	// A migration may rebuild a large table, and waits for another
	// instance's: no statement deadline (see statementDeadline).
	ctx = context.WithValue(ctx, noDeadline{}, true)
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate database: %w", err)
	}
	defer conn.Release()
	_, err = migrate(ctx, conn.Conn())
	return err
}

// migrate applies the pending migrations in one transaction, holding an
// advisory lock: an instance that starts while another migrates waits, then
// finds nothing to do. Each applied file is recorded in schema_migrations. A
// database that has a migration this binary does not know (a newer
// lesspost's) is refused, untouched.
func migrate(ctx context.Context, conn *pgx.Conn) (applied []string, err error) {
	all, err := Migrations()
	if err != nil {
		return nil, err
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		// Nor a timeout of the database's (see Options.StatementTimeout).
		if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    integer PRIMARY KEY,
			name       text NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now()
		)`); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT version, name FROM schema_migrations ORDER BY version`)
		if err != nil {
			return err
		}
		seen := map[int]bool{}
		var unknown []string
		known := map[int]bool{}
		for _, m := range all {
			known[m.Version] = true
		}
		for rows.Next() {
			var version int
			var name string
			if err := rows.Scan(&version, &name); err != nil {
				return err
			}
			seen[version] = true
			if !known[version] {
				unknown = append(unknown, name)
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(unknown) > 0 {
			return fmt.Errorf("the database has migrations this lesspost does not know (%s): it is newer; run a newer lesspost",
				strings.Join(unknown, ", "))
		}
		for _, m := range all {
			if seen[m.Version] {
				continue
			}
			if _, err := tx.Exec(ctx, m.script); err != nil {
				return fmt.Errorf("apply %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
				return fmt.Errorf("apply %s: %w", m.Name, err)
			}
			applied = append(applied, m.Name)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("migrate database: %w", err)
	}
	return applied, nil
}
