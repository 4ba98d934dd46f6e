package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// The token signing keys come from LESSPOST_SECRET or from a secret file,
// never from the command line (other users can see it) nor the database (a
// copy of it must not be enough to sign tokens). Both hold one or more keys,
// newest first, separated by white space or on lines of their own: the first
// signs, the others are only accepted for checking tokens they signed, for a
// grace period after a rotation. A key is its text, or "base64:" and the
// base64 of its bytes. In a file, lines starting with # are comments.

// base64Prefix marks a key given as the base64 of its bytes.
const base64Prefix = "base64:"

// parseKeys reads a list of keys. Its errors never quote a key.
func parseKeys(text string) ([][]byte, error) {
	var keys [][]byte
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, field := range strings.Fields(line) {
			key := []byte(field)
			if enc, ok := strings.CutPrefix(field, base64Prefix); ok {
				var err error
				if key, err = base64.StdEncoding.DecodeString(enc); err != nil {
					return nil, fmt.Errorf("line %d: a base64: key that is not base64", i+1)
				}
			}
			if len(key) < api.MinSecretLen {
				return nil, fmt.Errorf("line %d: a key shorter than %d bytes", i+1, api.MinSecretLen)
			}
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		return nil, errors.New("no key")
	}
	return keys, nil
}

// defaultSecretFile is where the server keeps the key it generates when none
// is configured: beside the database.
func defaultSecretFile(dbPath string) string { return dbPath + ".secret" }

// signingKeys returns the token signing keys, newest first: from
// LESSPOST_SECRET, else from the secret file. On a first start without
// either, it writes a new key to the default secret file (mode 0600) — or,
// for a database from before secret files, the key stored in the database,
// so that links already sent keep working. Whatever the source, a key left
// in the database is then deleted. The log says what happened but never
// shows a key.
func signingKeys(ctx context.Context, cfg Config, store repo.Store, log *slog.Logger) ([][]byte, error) {
	db, onSQLite := store.(*sqlite.DB)
	if !onSQLite {
		// A PostgreSQL store never held a key; the configuration gives them
		// (see Config.validate).
		return configuredKeys(ctx, cfg, nil, log)
	}
	keys, err := configuredKeys(ctx, cfg, db, log)
	if err != nil {
		return nil, err
	}
	_, found, err := db.LegacySecret(ctx)
	if err != nil || !found {
		return keys, err
	}
	if err := db.ForgetLegacySecret(ctx); err != nil {
		return nil, err
	}
	log.Info("deleted the signing secret stored in the database by an earlier version")
	return keys, nil
}

func configuredKeys(ctx context.Context, cfg Config, db *sqlite.DB, log *slog.Logger) ([][]byte, error) {
	if cfg.Secret != "" {
		keys, err := parseKeys(cfg.Secret)
		if err != nil {
			return nil, fmt.Errorf("LESSPOST_SECRET: %w", err)
		}
		return keys, nil
	}
	path := cfg.SecretFile
	if path == "" {
		path = defaultSecretFile(cfg.DB)
		legacy, found, err := db.LegacySecret(ctx)
		if err != nil {
			return nil, err
		}
		key, what := []byte(base64.RawURLEncoding.EncodeToString(randomKey())), "generated a token signing secret"
		if found {
			key, what = []byte(base64Prefix+base64.StdEncoding.EncodeToString(legacy)), "moved the token signing secret out of the database"
		}
		created, err := createSecretFile(path, key)
		if err != nil {
			return nil, err
		}
		if created {
			log.Info(what+"; keep the file private and back it up with the database", "file", path)
		}
	}
	return readSecretFile(path, log)
}

func randomKey() []byte {
	b := make([]byte, 32)
	rand.Read(b) // never fails, see crypto/rand.Read
	return b
}

// readSecretFile reads the keys of a secret file, warning if others may read it.
func readSecretFile(path string, log *slog.Logger) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read secret file: %w", err)
	}
	keys, err := parseKeys(string(data))
	if err != nil {
		return nil, fmt.Errorf("secret file %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		log.Warn("the secret file is readable by other users: make it private (chmod 600)",
			"file", path, "mode", fi.Mode().Perm().String())
	}
	return keys, nil
}

// createSecretFile writes key, and a comment on rotation, to a new file of
// mode 0600 at path, unless the file exists; created says whether it did.
// The file appears whole or not at all (written aside, then linked into
// place), so a second server starting at the same time reads the same key.
func createSecretFile(path string, key []byte) (created bool, err error) {
	if _, err := os.Stat(path); err == nil {
		return false, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".secret-*")
	if err != nil {
		return false, fmt.Errorf("create secret file: %w", err)
	}
	defer os.Remove(tmp.Name())
	var b bytes.Buffer
	b.WriteString("# lesspost token signing keys, newest first: the first signs, the others still\n")
	b.WriteString("# verify what they signed. To rotate, add a new key as the first line and\n")
	b.WriteString("# restart; delete an old key when its grace period is over.\n")
	b.Write(key)
	b.WriteString("\n")
	// CreateTemp makes the file 0600.
	if _, err := tmp.Write(b.Bytes()); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write secret file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write secret file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("write secret file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil // another server was first
		}
		return false, fmt.Errorf("create secret file: %w", err)
	}
	return true, nil
}
