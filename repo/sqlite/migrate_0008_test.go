package sqlite

import (
	"database/sql"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/migrations"
)

// Migration 0008 lower-cases the addresses stored before it, merging the
// accounts that become one into the oldest, with their games, tournaments,
// sessions and vacations; "my games" listings follow.
func TestMigration0008NormalizesAddresses(t *testing.T) {
	db, err := openPool(t.Context(), filepath.Join(t.TempDir(), "test.db"),
		url.Values{"_txlock": {"immediate"}, "_pragma": {"foreign_keys(1)"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := migrate(t.Context(), db, migrationsBefore(t, "0008")); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(t.Context(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO users (id, email, created_at) VALUES (1, 'Ann@example.org', 1), (2, 'ann@example.org', 2),
		(3, 'ANN@example.org', 3), (4, 'Bob@example.org', 4)`)
	const game = `INSERT INTO games (id, creator_id, size, walls, preset, early_stop, max_turns, start, position, to_move,
		counts, ply, status, version, created_at, updated_at) VALUES (?, ?, 6, '', 'classic', 0, 10, '', '', 'white', '[]', 0, 'active', 1, 1, 1)`
	exec(game, "g1", 1)
	exec(game, "g2", 2)
	exec(`INSERT INTO seats (game_id, color, seat_order, name, email, locale, token_version) VALUES
		('g1', 'white', 0, 'Ann', 'Ann@example.org', 'en', 1), ('g1', 'black', 1, 'Bob', 'BOB@Example.org', 'en', 1),
		('g2', 'white', 0, 'Bob', 'bob@example.org', 'en', 1), ('g2', 'black', 1, 'Cy', 'cy@example.org', 'en', 1)`)
	exec(`INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ('s2', 2, 1, 9), ('s3', 3, 1, 9)`)
	exec(`INSERT INTO vacations (user_id, starts_at, ends_at, created_at) VALUES (3, 1, 2, 1)`)
	exec(`INSERT INTO tournaments (id, organizer_id, name, status, data, version, created_at, updated_at)
		VALUES ('t1', 2, 'Cup', 'scheduled', ?, 1, 1, 1)`,
		`{"ID":"t1","Entrants":[{"Name":"Ann","Email":"Ann@example.org","Locale":"","Withdrawn":false},{"Name":"Bob","Email":"bob@example.org","Locale":"","Withdrawn":true}]}`)
	exec(`INSERT INTO unsubscribes (email, created_at) VALUES ('Bob@example.org', 1), ('bob@example.org', 2), ('CY@example.org', 3)`)
	exec(`INSERT INTO login_tokens (hash, email, expires_at) VALUES (x'01', 'Ann@Example.org', 1)`)
	exec(`INSERT INTO outbox (kind, email, message_id, created_at, next_attempt_at) VALUES ('login', 'Ann@Example.org', 'm1', 1, 1)`)

	if _, err := migrate(t.Context(), db, migrations.FS); err != nil {
		t.Fatal(err)
	}
	query := func(q string) []string {
		t.Helper()
		rows, err := db.QueryContext(t.Context(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var v sql.NullString
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			out = append(out, v.String)
		}
		return out
	}
	for _, tt := range []struct {
		query string
		want  []string
	}{
		// The oldest account stays; the other two spellings are merged into it.
		{`SELECT id || ' ' || email FROM users ORDER BY id`, []string{"1 ann@example.org", "4 bob@example.org"}},
		{`SELECT id || ' ' || creator_id FROM games ORDER BY id`, []string{"g1 1", "g2 1"}},
		{`SELECT id || ' ' || user_id FROM sessions ORDER BY id`, []string{"s2 1", "s3 1"}},
		{`SELECT user_id FROM vacations`, []string{"1"}},
		{`SELECT organizer_id FROM tournaments`, []string{"1"}},
		{`SELECT game_id || ' ' || email FROM seats ORDER BY game_id, seat_order`,
			[]string{"g1 ann@example.org", "g1 bob@example.org", "g2 bob@example.org", "g2 cy@example.org"}},
		{`SELECT game_id || ' ' || email FROM listings ORDER BY game_id, email`,
			[]string{"g1 ann@example.org", "g1 bob@example.org", "g2 ann@example.org", "g2 bob@example.org", "g2 cy@example.org"}},
		{`SELECT email FROM unsubscribes ORDER BY email`, []string{"bob@example.org", "cy@example.org"}},
		{`SELECT email FROM login_tokens`, []string{"ann@example.org"}},
		{`SELECT email FROM outbox`, []string{"ann@example.org"}},
		{`SELECT e.value ->> '$.Email' || ' ' || (e.value ->> '$.Withdrawn') FROM tournaments, json_each(data, '$.Entrants') e`,
			[]string{"ann@example.org 0", "bob@example.org 1"}},
	} {
		if got := query(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %s\nwant %s", tt.query, strings.Join(got, ", "), strings.Join(tt.want, ", "))
		}
	}
}
