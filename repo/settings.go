package repo

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
)

// secretKey names the setting that holds the token signing secret.
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

// EnsureSecret returns the stored token signing secret, generating and storing
// a random one on first use. The secret must never be logged.
func (db *DB) EnsureSecret(ctx context.Context) ([]byte, error) {
	var secret []byte
	// One transaction: two processes starting on a fresh file agree on one secret.
	err := db.WithTx(ctx, func(tx *Tx) error {
		var stored string
		err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, secretKey).Scan(&stored)
		switch {
		case err == nil:
			secret, err = base64.StdEncoding.DecodeString(stored)
			if err != nil || len(secret) < secretSize {
				// Do not wrap err: it could quote part of the secret.
				return errors.New("stored secret is corrupt")
			}
			return nil
		case errors.Is(err, sql.ErrNoRows):
			secret = make([]byte, secretSize)
			rand.Read(secret) // never fails, see crypto/rand.Read
			return setSetting(ctx, tx, secretKey, base64.StdEncoding.EncodeToString(secret))
		default:
			return err
		}
	})
	if err != nil {
		return nil, fmt.Errorf("ensure signing secret: %w", err)
	}
	return secret, nil
}
