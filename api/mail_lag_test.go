package api_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// While the outbox is late, a turn waits before it is played, asking again
// and again, and goes ahead once the outbox has caught up; and if it never
// catches up, the turn is still played, after a bounded wait.
func TestTurnsWaitWhileMailIsLate(t *testing.T) {
	for _, c := range []struct {
		name     string
		lateFor  int64 // how many times the outbox says it is late
		minAsked int64
		maxAsked int64
	}{
		{"caught up", 0, 1, 1},
		{"late, then caught up", 5, 6, 6},
		{"late throughout", 1 << 40, 2, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			var asked atomic.Int64
			h := newHarness(t, func(cfg *serverConfig) {
				cfg.MailLag = func() time.Duration {
					if asked.Add(1) <= c.lateFor {
						return time.Second
					}
					return 0
				}
			})
			id, ann, _ := newGame(t, h, twoPlayers(openBoard))
			asked.Store(0)
			h.do("POST", "/v1/games/"+id+"/turns", ann, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
			if n := asked.Load(); n < c.minAsked || n > c.maxAsked {
				t.Errorf("asked the outbox %d times, want %d to %d", n, c.minAsked, c.maxAsked)
			}
			if g := h.game(id, ann); g.Ply != 1 {
				t.Errorf("ply %d after the turn, want 1", g.Ply)
			}
		})
	}
}

// A retry of a turn (its Idempotency-Key used before) queues no mail: it
// is answered at once with what was answered, however late the outbox.
func TestRetriesDoNotWaitForMail(t *testing.T) {
	var late atomic.Bool
	var asked atomic.Int64
	h := newHarness(t, func(cfg *serverConfig) {
		cfg.MailLag = func() time.Duration {
			if !late.Load() {
				return 0
			}
			asked.Add(1)
			return time.Hour
		}
	})
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	turn := map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}
	h.do("POST", "/v1/games/"+id+"/turns", ann, turn, "Idempotency-Key", "t-1").want(t, http.StatusCreated)
	late.Store(true)
	again := h.do("POST", "/v1/games/"+id+"/turns", ann, turn, "Idempotency-Key", "t-1").want(t, http.StatusCreated)
	if again.header.Get("Idempotent-Replayed") != "true" || asked.Load() != 0 {
		t.Errorf("the retry: replayed %q, the outbox asked %d times; want a replay without asking",
			again.header.Get("Idempotent-Replayed"), asked.Load())
	}
}
