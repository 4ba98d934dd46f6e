package sqlite

import (
	"net/url"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lesspost/lesspost/migrations"
)

// Migration 0023 rebuilds the push tables to scope subscriptions: the
// subscriptions and queued deliveries that exist survive as address-wide
// ones, and deleting a subscription still takes its deliveries with it.
func TestMigration0023PushScope(t *testing.T) {
	db, err := openPool(t.Context(), filepath.Join(t.TempDir(), "test.db"),
		url.Values{"_txlock": {"immediate"}, "_pragma": {"foreign_keys(1)"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := migrate(t.Context(), db, migrationsBefore(t, "0023")); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(t.Context(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO push_subscriptions (id, owner, endpoint, p256dh, auth, created_at)
		VALUES (5, 'bob@example.org', 'https://push.example/1', x'04', x'01', 1), (6, 'bob@example.org', 'https://push.example/2', x'04', x'01', 1)`)
	exec(`INSERT INTO push_deliveries (id, subscription_id, kind, game_id, color, ply, data, event_at, next_attempt_at)
		VALUES (9, 5, 'your_turn', 'g_1', 'black', 1, '{}', 1, 1), (10, 6, 'your_turn', 'g_1', 'black', 1, '{}', 1, 1)`)
	if _, err := migrate(t.Context(), db, migrations.FS); err != nil {
		t.Fatal(err)
	}
	subs, err := queryIDs(t.Context(), db, `SELECT id || ':' || game_id || ':' || color || ':' || coalesce(link_version, 'null')
		FROM push_subscriptions ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"5:::null", "6:::null"}; !slices.Equal(subs, want) {
		t.Errorf("subscriptions after the migration: %v, want %v", subs, want)
	}
	exec(`DELETE FROM push_subscriptions WHERE id = 5`)
	ds, err := queryIDs(t.Context(), db, `SELECT id || ':' || subscription_id FROM push_deliveries ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"10:6"}; !slices.Equal(ds, want) {
		t.Errorf("deliveries after deleting subscription 5: %v, want %v", ds, want)
	}
}
