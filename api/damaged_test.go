package api_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/lesspost/lesspost/repo/sqlite"
)

// lockedBuffer is a log destination the server and the test share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines returns the JSON log records written so far.
func (b *lockedBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(b.buf.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, rec)
	}
	return out
}

// A row damaged in the database file is the server's fault: 500 internal
// with an ERROR log naming the request, never a 4xx that blames the client
// (the engine's "invalid board" or "illegal turn" for what it read back).
func TestDamagedRowsAreServerErrors(t *testing.T) {
	var logs lockedBuffer
	h := newHarnessWith(t, func(c *serverConfig) {
		c.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	})
	db := h.sqlite(t, "damages rows with SQLite's JSON functions")
	s := startGame(t, h)
	h.do("POST", "/v1/games/"+s.id+"/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
	g := "/v1/games/" + s.id
	tests := []struct {
		name, damage        string
		method, path, token string
		body                any
	}{
		{"walls", `UPDATE games SET state = json_set(state, '$.walls', 'not a board') WHERE id = ?`, "GET", g, s.white, nil},
		{"position", `UPDATE games SET state = json_set(state, '$.position', 'e5e5e5') WHERE id = ?`, "GET", g, s.white, nil},
		{"counts", `UPDATE games SET state = json_set(state, '$.counts', '{') WHERE id = ?`, "GET", g, s.white, nil},
		{"state", `UPDATE games SET state = '{' WHERE id = ?`, "GET", g, s.white, nil},
		{"ruleset", `UPDATE games SET ruleset = 'chess' WHERE id = ?`, "GET", g, s.white, nil},
		{"clock", `UPDATE games SET clock = 'null,' WHERE id = ?`, "GET", g, s.white, nil},
		{"seat colour", `UPDATE seats SET color = 'purple' WHERE game_id = ? AND color = 'black'`, "GET", g, s.white, nil},
		{"ply the engine refuses", `UPDATE games SET state = json_set(state, '$.ply', -1) WHERE id = ?`, "POST", g + "/resign", s.black, map[string]any{}},
		{"stored turn", `UPDATE turns SET notation = 'zz' WHERE game_id = ?`, "GET", g + "/record", s.white, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var saved map[string]any
			err := db.WithTx(t.Context(), func(tx *sqlite.Tx) error {
				// Keep the rows to put back: each case damages one thing.
				rows, err := tx.QueryContext(t.Context(), `SELECT ruleset, state, clock FROM games WHERE id = ?`, s.id)
				if err != nil {
					return err
				}
				defer rows.Close()
				rows.Next()
				var ruleset, state, clock string
				if err := rows.Scan(&ruleset, &state, &clock); err != nil {
					return err
				}
				saved = map[string]any{"ruleset": ruleset, "state": state, "clock": clock}
				rows.Close()
				_, err = tx.ExecContext(t.Context(), tt.damage, s.id)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				err := db.WithTx(t.Context(), func(tx *sqlite.Tx) error {
					if _, err := tx.ExecContext(t.Context(), `UPDATE games SET ruleset = ?, state = ?, clock = ? WHERE id = ?`,
						saved["ruleset"], saved["state"], saved["clock"], s.id); err != nil {
						return err
					}
					if _, err := tx.ExecContext(t.Context(), `UPDATE seats SET color = 'black' WHERE game_id = ? AND color = 'purple'`, s.id); err != nil {
						return err
					}
					_, err := tx.ExecContext(t.Context(), `UPDATE turns SET notation = 'e5e4:e4d4:d4c4' WHERE game_id = ?`, s.id)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}()
			res := h.refused(t, http.StatusInternalServerError, "internal", tt.method, tt.path, tt.token, tt.body)
			id := res.header.Get("X-Request-Id")
			var logged bool
			for _, rec := range logs.lines(t) {
				if rec["request_id"] == id && rec["level"] == "ERROR" && strings.Contains(rec["error"].(string), "stored data is damaged") {
					logged = true
				}
			}
			if !logged {
				t.Errorf("no ERROR log of request %s naming the damaged data", id)
			}
			if p := res.problem(t); strings.Contains(p.Detail, "board") || strings.Contains(p.Detail, "turn") {
				t.Errorf("the problem reveals what was read: %q", p.Detail)
			}
		})
	}
	// Repaired, the game works again: the damage was all the test's doing.
	h.do("GET", g, s.white, nil).want(t, http.StatusOK)
}
