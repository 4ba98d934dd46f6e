package main

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/repo/sqlite"
)

// The hand-off summary reads the outbox after the run: latencies of the
// window's emails, and the backlog at each fifth of the window, which grows
// when the outbox falls behind.
func TestMailLatencyBacklog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "load.db")
	db, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	from := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	to := from.Add(10 * time.Second)
	// One email a second, each sent 3 s later: the backlog starts at 0 (no
	// earlier mail) and stays at 3 once the first ones are sent; the last
	// two are never sent.
	for i := range 10 {
		created := from.Add(time.Duration(i) * time.Second)
		var sent any
		if i < 8 {
			sent = created.Add(3 * time.Second).UnixMilli()
		}
		if _, err := raw.Exec(`INSERT INTO outbox (kind, email, game_id, color, ply, secret, locale, message_id, created_at,
			next_attempt_at, tournament_id, budgeted, detail, sent_at) VALUES ('your_turn', 'a@example.org', 'g', 'white', ?, '', 'en', ?, ?, ?, '', 0, '', ?)`,
			i, i, created.UnixMilli(), created.UnixMilli(), sent); err != nil {
			t.Fatal(err)
		}
	}
	m, err := mailLatency(t.Context(), path, from, to, 0, []string{"your_turn"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Emails != 10 || m.Sent != 8 || m.Pending != 2 || m.P50 != Duration(3*time.Second) {
		t.Errorf("summary %+v", m)
	}
	// At 0 s none is behind; at 2 s the mails of 0 and 1 s; from 4 s on
	// always three (at 10 s: the mail of 7 s, sent at that moment, and the
	// two never sent).
	want := []int{0, 2, 3, 3, 3, 3}
	if !slices.Equal(m.Backlog, want) || m.BehindAtEnd != want[5] {
		t.Errorf("backlog %v (behind at end %d), want %v", m.Backlog, m.BehindAtEnd, want)
	}
}
