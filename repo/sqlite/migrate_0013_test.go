package sqlite

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/migrations"
)

// Migration 0013 keeps time banks by seat in turn order instead of by Less's
// colour number: four-player banks are reordered, two-player ones are not.
func TestMigration0013BanksBySeat(t *testing.T) {
	db, err := openPool(t.Context(), filepath.Join(t.TempDir(), "test.db"),
		url.Values{"_txlock": {"immediate"}, "_pragma": {"foreign_keys(1)"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := migrate(t.Context(), db, migrationsBefore(t, "0013")); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(t.Context(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	h := int64(time.Hour)
	// Banks by colour number: white 1h, black 2h, yellow 3h, red 4h.
	byColor := `{"Control":{"Kind":"bank"},"Banks":[` + jsonInts(h, 2*h, 3*h, 4*h) + `],"Streak":[0,0]}`
	exec(`INSERT INTO users (id, email, created_at) VALUES (1, 'ann@example.org', 1)`)
	const game = `INSERT INTO games (id, creator_id, ruleset, state, to_move, ply, status, version, created_at, updated_at, clock)
		VALUES (?, 1, 'less', ?, 'white', 0, 'active', 1, 1, 1, ?)`
	exec(game, "four", `{"size":8}`, byColor)
	exec(game, "two", `{"size":6}`, `{"Control":{"Kind":"bank"},"Banks":[`+jsonInts(h, 2*h, 0, 0)+`],"Streak":[0,0]}`)
	exec(game, "none", `{"size":8}`, `{}`)
	if _, err := migrate(t.Context(), db, migrations.FS); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		id   string
		want [4]time.Duration
	}{
		{"four", [4]time.Duration{3 * time.Hour, 2 * time.Hour, time.Hour, 4 * time.Hour}}, // yellow, black, white, red
		{"two", [4]time.Duration{time.Hour, 2 * time.Hour}},                                // white, black
		{"none", [4]time.Duration{}},
	} {
		var clock string
		if err := db.QueryRowContext(t.Context(), `SELECT clock FROM games WHERE id = ?`, tt.id).Scan(&clock); err != nil {
			t.Fatal(err)
		}
		var c games.Clock
		if err := json.Unmarshal([]byte(clock), &c); err != nil {
			t.Fatalf("%s: clock %s: %v", tt.id, clock, err)
		}
		if c.Banks != tt.want {
			t.Errorf("%s: banks %v, want %v (clock %s)", tt.id, c.Banks, tt.want, clock)
		}
	}
}

func jsonInts(xs ...int64) string {
	b, _ := json.Marshal(xs)
	return string(b[1 : len(b)-1])
}
