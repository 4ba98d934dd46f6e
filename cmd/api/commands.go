package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// The operator's commands beside serve. Each takes the flags it uses, with
// the names and environment variables serve gives them, so that one
// environment configures them all.

// runMigrate applies the pending migrations and reports each, and the
// schema version the database is at.
func runMigrate(ctx context.Context, args []string, getenv func(string) string, logOut io.Writer) error {
	var dsn string
	flags := migrateFlags(&dsn)
	if done, err := parseCommand(flags, args, getenv, logOut); done || err != nil {
		return err
	}
	log := newLogger(logOut, slog.LevelInfo)
	m, err := repo.MigrateStore(ctx, dsn)
	for _, name := range m.Applied {
		log.Info("applied migration", "migration", name)
	}
	if err != nil {
		return err
	}
	log.Info("schema is current", "db", redactDSN(dsn), "version", m.Version, "applied", len(m.Applied))
	if m.Version > m.Known {
		log.Warn("the database was migrated by a newer lesspost: serve it with that version or a later one",
			"version", m.Version, "this_binary", m.Known)
	}
	return nil
}

// runBackup copies a SQLite database into a file (see sqlite.Backup).
func runBackup(ctx context.Context, args []string, getenv func(string) string, logOut io.Writer) error {
	var o backupOptions
	flags := backupFlags(&o)
	if done, err := parseCommand(flags, args, getenv, logOut); done || err != nil {
		return err
	}
	if o.to == "" {
		return errors.New("backup: --to: required (see --help)")
	}
	if repo.IsPostgres(o.db) {
		return errors.New("backup: --db is a PostgreSQL database: back it up with pg_dump -Fc (see README.md, Running in production)")
	}
	log := newLogger(logOut, slog.LevelInfo)
	start := time.Now()
	err := sqlite.Backup(ctx, o.db, o.to, o.force)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%w (--force overwrites it)", err)
	}
	if err != nil {
		return err
	}
	fi, err := os.Stat(o.to)
	if err != nil {
		return err
	}
	log.Info("backup written", "db", o.db, "to", o.to, "bytes", fi.Size(), "schema_version", sqlite.SchemaVersion(),
		"duration", time.Since(start).Round(time.Millisecond).String())
	return nil
}

// migrateFlags defines migrate's flags.
func migrateFlags(dsn *string) *flag.FlagSet {
	flags := commandFlags("migrate", "[--db DATABASE]",
		"Applies the pending schema migrations of the database, reports each and the schema\nversion, and exits. Run it before starting a new version of the servers.")
	dbFlag(flags, dsn)
	backByEnv(flags.Lookup("db"))
	return flags
}

// backupOptions are backup's flags.
type backupOptions struct {
	db, to string
	force  bool
}

func backupFlags(o *backupOptions) *flag.FlagSet {
	flags := commandFlags("backup", "--to FILE [--force] [--db DATABASE]",
		"Copies the SQLite database into FILE, consistently, while servers go on using it;\nchecks the copy (integrity, schema version) before it takes FILE's name. The copy\nis private to the user (0600).")
	dbFlag(flags, &o.db)
	flags.Lookup("db").Usage = "the SQLite `database` file to copy"
	backByEnv(flags.Lookup("db"))
	flags.StringVar(&o.to, "to", "", "the `file` to write the backup to (required)")
	flags.BoolVar(&o.force, "force", false, "overwrite the file if it exists")
	return flags
}

// commandFlags is the flag set of a command, with its help text.
func commandFlags(name, synopsis, what string) *flag.FlagSet {
	flags := flag.NewFlagSet("lesspost "+name, flag.ContinueOnError)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "Usage: lesspost %s %s\n\n%s\n\nFlags:\n", name, synopsis, what)
		flags.PrintDefaults()
	}
	return flags
}

// parseCommand parses a command's arguments (see parseFlags). For --help
// it prints the usage to out and reports done.
func parseCommand(flags *flag.FlagSet, args []string, getenv func(string) string, out io.Writer) (done bool, err error) {
	err = parseFlags(flags, args, getenv)
	if errors.Is(err, flag.ErrHelp) {
		flags.SetOutput(out)
		flags.Usage()
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w (see --help)", flags.Name(), err)
	}
	return false, nil
}
