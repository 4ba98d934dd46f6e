package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Backup copies the SQLite database at src into the file dst while servers
// may go on writing it. The copy is a consistent snapshot (VACUUM INTO runs
// in one read transaction, which in WAL mode blocks no writer), made into a
// temporary file beside dst, private to the user, and checked before it
// takes dst's name: its integrity, and that its schema version is this
// binary's. An existing dst is an error wrapping fs.ErrExist unless
// overwrite is set. A failed backup leaves dst as it was.
func Backup(ctx context.Context, src, dst string, overwrite bool) error {
	if src == "" || strings.Contains(src, "?") {
		return fmt.Errorf("back up: invalid database path %q", src)
	}
	// SQLite would create a missing database; a backup of nothing is a typo.
	if fi, err := os.Stat(src); err != nil {
		return fmt.Errorf("back up: %w", err)
	} else if !fi.Mode().IsRegular() {
		return fmt.Errorf("back up: %s is not a file", src)
	}
	if !overwrite {
		if _, err := os.Lstat(dst); err == nil {
			return fmt.Errorf("back up to %s: %w", dst, fs.ErrExist)
		}
	}
	// CreateTemp makes the file 0600, and VACUUM INTO writes into an empty
	// file as it finds it.
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return fmt.Errorf("back up: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // gone after the rename; cleans up after a failure
	if err := f.Close(); err != nil {
		return fmt.Errorf("back up: %w", err)
	}
	if err := vacuumInto(ctx, src, tmp); err != nil {
		return fmt.Errorf("back up %s: %w", src, err)
	}
	if err := checkCopy(ctx, tmp); err != nil {
		return fmt.Errorf("back up %s: the copy: %w", src, err)
	}
	if err := syncFile(tmp); err != nil {
		return fmt.Errorf("back up: %w", err)
	}
	if overwrite {
		err = os.Rename(tmp, dst)
	} else {
		// A link fails where dst has appeared meanwhile; a rename would
		// replace it.
		err = os.Link(tmp, dst)
	}
	if err != nil {
		return fmt.Errorf("back up to %s: %w", dst, err)
	}
	if err := syncFile(filepath.Dir(dst)); err != nil {
		return fmt.Errorf("back up to %s: %w", dst, err)
	}
	return nil
}

// vacuumInto writes a compacted copy of the database at src into the empty
// file dst.
func vacuumInto(ctx context.Context, src, dst string) error {
	pool, err := openPool(ctx, src, url.Values{"_pragma": {"busy_timeout(5000)"}}, 1)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pool.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return fmt.Errorf("vacuum into %s: %w", dst, err)
	}
	return pool.Close()
}

// checkCopy opens the database at path and checks that it is whole and at
// this binary's schema version, which is the version a restore needs.
func checkCopy(ctx context.Context, path string) error {
	pool, err := openPool(ctx, path, url.Values{"_pragma": {"query_only(1)"}}, 1)
	if err != nil {
		return err
	}
	defer pool.Close()
	rows, err := pool.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return fmt.Errorf("integrity check: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("integrity check: %s", strings.Join(problems, "; "))
	}
	v, err := schemaVersion(ctx, pool)
	if err != nil {
		return err
	}
	if v != SchemaVersion() {
		return fmt.Errorf("schema version %d, this binary's is %d: back up with the binary that serves the database", v, SchemaVersion())
	}
	return pool.Close()
}

// syncFile flushes the file or directory at path to the disk.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	return errors.Join(f.Sync(), f.Close())
}
