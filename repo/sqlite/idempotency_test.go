package sqlite

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Keys stored before migration 0007 rebuilt their table still answer.
func TestIdempotencyKeysSurviveTheirMigration(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrate(ctx, old, migrationsBefore(t, "0007")); err != nil {
		t.Fatal(err)
	}
	if _, err := old.ExecContext(ctx, `INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_at)
		VALUES ('seat:g1:white', 'k', x'01', 201, CAST('{"ok":true}' AS BLOB), 1)`); err != nil {
		t.Fatal(err)
	}
	old.Close()

	db := openTest(t, path)
	got, found, err := storedResponse(ctx, db.read, Idempotency{Scope: "seat:g1:white", Key: "k", Fingerprint: []byte{1}})
	if err != nil || !found || got.Status != 201 || string(got.Body) != `{"ok":true}` {
		t.Errorf("stored response after the migration: %+v found %v err %v", got, found, err)
	}
}

func TestExpireIdempotencyKeys(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	day := 24 * time.Hour
	for i, age := range []time.Duration{10 * day, 8 * day, 7*day + time.Minute, 6 * day, time.Hour} {
		if err := db.WithTx(ctx, func(tx *Tx) error {
			_, err := tx.ExecContext(ctx, sqlInsertIdempotency, "user:1", strings.Repeat("k", i+1), []byte{1}, 201, []byte("{}"),
				t0.Add(-age).UnixMilli())
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	cutoff := t0.Add(-7 * day)
	steps := []struct{ limit, want int }{{2, 2}, {2, 1}, {2, 0}}
	for _, st := range steps {
		if n, err := db.ExpireIdempotencyKeys(ctx, cutoff, st.limit); err != nil || n != st.want {
			t.Fatalf("ExpireIdempotencyKeys(limit %d) = %d, %v; want %d", st.limit, n, err, st.want)
		}
	}
	var left int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM idempotency_keys`).Scan(&left); err != nil || left != 2 {
		t.Errorf("%d keys left (%v), want the 2 younger than a week", left, err)
	}
}
