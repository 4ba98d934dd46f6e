package sqlite

import (
	"net/url"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lesspost/lesspost/migrations"
)

// Migration 0021 lists the entrants of the tournaments that exist, so that
// their players find them in their lists.
func TestMigration0021TournamentPlayers(t *testing.T) {
	db, err := openPool(t.Context(), filepath.Join(t.TempDir(), "test.db"),
		url.Values{"_txlock": {"immediate"}, "_pragma": {"foreign_keys(1)"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := migrate(t.Context(), db, migrationsBefore(t, "0021")); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(t.Context(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO users (id, email, created_at) VALUES (1, 'org@example.org', 1)`)
	exec(`INSERT INTO tournaments (id, organizer_id, name, status, data, version, created_at, updated_at)
		VALUES ('t_1', 1, 'Cup', 'running', ?, 1, 1, 1)`,
		`{"Entrants":[{"Name":"Ann","Email":"ann@example.org"},{"Name":"Bob","Email":"bob@example.org","Withdrawn":true}]}`)
	exec(`INSERT INTO tournaments (id, organizer_id, name, status, data, version, created_at, updated_at)
		VALUES ('t_2', 1, 'Empty', 'scheduled', '{}', 1, 1, 1)`)
	if _, err := migrate(t.Context(), db, migrations.FS); err != nil {
		t.Fatal(err)
	}
	ids, err := queryIDs(t.Context(), db, `SELECT tournament_id || ':' || email FROM tournament_players ORDER BY email`)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"t_1:ann@example.org", "t_1:bob@example.org"}; !slices.Equal(ids, want) {
		t.Errorf("tournament_players after the migration: %v, want %v", ids, want)
	}
}
