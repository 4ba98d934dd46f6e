package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
)

// privateMode is the mode of the database and its WAL and shared-memory
// files: they hold every address and session, so only the server's user
// may read them.
const privateMode fs.FileMode = 0o600

// makePrivate creates the database file with privateMode before SQLite opens
// it, or tightens an existing one (and a WAL or shared-memory file left by a
// previous run) that others may read or write, with a warning: SQLite gives
// the WAL and shared-memory files it creates the database file's permissions,
// so the main file's mode is what protects all three. The process umask is
// not used, because it is global to the process.
func makePrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, privateMode)
	if err == nil {
		return f.Close()
	}
	if !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create database %s: %w", path, err)
	}
	for _, name := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(name)
		if errors.Is(err, fs.ErrNotExist) && name != path {
			continue
		}
		if err != nil {
			return fmt.Errorf("open database: %w", err)
		}
		if fi.Mode().Perm()&^privateMode == 0 {
			continue
		}
		if err := os.Chmod(name, privateMode); err != nil {
			return fmt.Errorf("open database: make %s private: %w", name, err)
		}
		slog.Warn("database file was readable or writable by others: made it private to the server's user",
			"file", name, "was", fi.Mode().Perm().String(), "now", privateMode.String())
	}
	return nil
}
