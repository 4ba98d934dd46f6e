// Package pgtest gives tests a fresh PostgreSQL database each: DSN returns
// the URL of a new database, cloned from a template that this test process
// migrated once, and dropped when the test ends.
//
// The server is the one LESSPOST_TEST_POSTGRES names (default
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable); its user must
// be allowed to create databases. Where none answers, tests skip with a
// loud message, except under CI=true, where they fail.
package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/repo/postgres"
)

// DefaultServer is the server tests use when LESSPOST_TEST_POSTGRES is unset.
const DefaultServer = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// prefix starts the names of the databases pgtest makes; the template's
// name and each test database's carry the process id, so that test binaries
// running at once never share one, and databases of processes that died
// before their cleanup are dropped by the next process.
const prefix = "lesspost_pgtest_"

var (
	setupOnce sync.Once
	setupErr  error
	template  string // the template database's name
	created   atomic.Int64
)

// Server is the URL of the test server.
func Server() string {
	if s := os.Getenv("LESSPOST_TEST_POSTGRES"); s != "" {
		return s
	}
	return DefaultServer
}

// DSN returns the postgres:// URL of a new, migrated, empty database for t,
// dropped (WITH (FORCE)) when t ends. Without a server it skips t, or fails
// it under CI=true.
func DSN(t testing.TB) string {
	t.Helper()
	setupOnce.Do(func() { setupErr = setup() })
	if setupErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pgtest: no PostgreSQL for the tests at %s: %v", redacted(Server()), setupErr)
		}
		t.Skipf("pgtest: SKIPPED, no PostgreSQL at %s (set LESSPOST_TEST_POSTGRES): %v", redacted(Server()), setupErr)
	}
	name := fmt.Sprintf("%s%d_%d", prefix, os.Getpid(), created.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := admin(ctx, `CREATE DATABASE `+name+` TEMPLATE `+template); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := admin(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	return withDatabase(Server(), name)
}

// setup drops what dead test processes left, and creates and migrates this
// process's template.
func setup() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, Server())
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT datname FROM pg_database WHERE datname LIKE $1`, prefix+"%")
	if err != nil {
		return err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, name := range names {
		if pid, ok := pidOf(name); ok && !alive(pid) {
			if _, err := conn.Exec(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
				return fmt.Errorf("drop stale %s: %w", name, err)
			}
		}
	}
	template = fmt.Sprintf("%s%d_template", prefix, os.Getpid())
	if _, err := conn.Exec(ctx, `DROP DATABASE IF EXISTS `+template+` WITH (FORCE)`); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+template); err != nil {
		return err
	}
	// Migrate closes its connection: a template must have none when cloned.
	if _, err := postgres.Migrate(ctx, withDatabase(Server(), template)); err != nil {
		return fmt.Errorf("migrate the template: %w", err)
	}
	return nil
}

// admin runs one statement on the server's own database.
func admin(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, Server())
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// pidOf reads the process id from a database name pgtest made.
func pidOf(name string) (int, bool) {
	digits, _, _ := strings.Cut(strings.TrimPrefix(name, prefix), "_")
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// alive reports whether process pid runs (on this machine: test servers
// are local).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// withDatabase is server's URL naming database name instead.
func withDatabase(server, name string) string {
	u, err := url.Parse(server)
	if err != nil {
		return server
	}
	u.Path = "/" + name
	return u.String()
}

// redacted is a URL without its password.
func redacted(server string) string {
	if u, err := url.Parse(server); err == nil {
		return u.Redacted()
	}
	return "(an unreadable URL)"
}
