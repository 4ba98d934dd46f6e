package sqlite

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
)

// secretKey names the setting where versions before secret files kept the
// generated token signing secret.
const secretKey = "signing_secret"

// secretSize is the length of a generated signing secret: 256 bits, the size
// of an HS256 key.
const secretSize = 32

// Setting returns the value stored under key; found is false if there is none.
func (db *DB) Setting(ctx context.Context, key string) (value string, found bool, err error) {
	err = db.read.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read setting %s: %w", key, err)
	}
	return value, true, nil
}

// SetSetting stores value under key, replacing any previous value.
func (db *DB) SetSetting(ctx context.Context, key, value string) error {
	err := db.WithTx(ctx, func(tx *Tx) error {
		return setSetting(ctx, tx, key, value)
	})
	if err != nil {
		return fmt.Errorf("write setting %s: %w", key, err)
	}
	return nil
}

func setSetting(ctx context.Context, tx *Tx, key, value string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// LegacySecret returns the token signing secret that versions before
// secret files generated and stored in the database, if it is still there.
// The secret must never be logged.
func (db *DB) LegacySecret(ctx context.Context) (secret []byte, found bool, err error) {
	stored, found, err := db.Setting(ctx, secretKey)
	if err != nil || !found {
		return nil, false, err
	}
	secret, err = base64.StdEncoding.DecodeString(stored)
	if err != nil || len(secret) < secretSize {
		// Do not wrap err: it could quote part of the secret.
		return nil, false, errors.New("read signing secret: the one stored in the database is corrupt")
	}
	return secret, true, nil
}

// ForgetLegacySecret deletes the signing secret stored in the database, once
// it lives elsewhere (or is no longer used): a copy of the database must not
// be enough to sign tokens.
func (db *DB) ForgetLegacySecret(ctx context.Context) error {
	err := db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM settings WHERE key = ?`, secretKey)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete stored signing secret: %w", err)
	}
	return nil
}
