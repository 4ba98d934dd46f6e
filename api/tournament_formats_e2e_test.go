package api_test

import (
	"net/http"
	"testing"
	"time"
)

// A round's own time control: the tournament shows it, and the round's
// games are created with it; the other rounds play under the
// tournament's.
func TestRoundTimeControls(t *testing.T) {
	h := newHarness(t)
	start := h.clock.Now().Add(time.Hour)
	body := map[string]any{"name": "Finals", "format": "swiss", "rounds": 2, "players": entrants(4),
		"time":        map[string]any{"kind": "per_turn", "days": 2},
		"round_times": []any{nil, map[string]any{"kind": "per_turn", "days": 5}},
		"schedule":    map[string]any{"first_start": start, "interval_hours": 24 * 30}}
	organiser := h.login("org@example.org")
	for _, bad := range []struct {
		name       string
		roundTimes any
		status     int
		code       string
	}{
		{"more than rounds", []any{nil, nil, nil}, http.StatusUnprocessableEntity, "invalid_input"},
		{"days and hours", []any{nil, map[string]any{"kind": "per_turn", "days": 1, "hours": 1}}, http.StatusUnprocessableEntity, "invalid_input"},
		{"unknown member", []any{map[string]any{"kind": "per_turn", "days": 1, "weeks": 1}}, http.StatusBadRequest, "invalid_request"},
	} {
		t.Run(bad.name, func(t *testing.T) {
			b := map[string]any{}
			for k, v := range body {
				b[k] = v
			}
			b["round_times"] = bad.roundTimes
			h.do("POST", "/v1/tournaments", organiser, b).want(t, bad.status, bad.code)
		})
	}
	tour, _ := runTournament(t, h, body, 4)
	organiser = h.login("org@example.org")
	type timeJSON struct {
		Kind  string `json:"kind"`
		Hours int    `json:"hours"`
	}
	var view struct {
		Rounds []struct {
			Time  timeJSON `json:"time"`
			Games []struct {
				GameID string `json:"game_id"`
			} `json:"games"`
		} `json:"rounds"`
	}
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &view)
	for i, want := range []int{48, 120} {
		r := view.Rounds[i]
		if r.Time.Kind != "per_turn" || r.Time.Hours != want {
			t.Errorf("round %d: time %+v, want %d hours per turn", i+1, r.Time, want)
		}
		for _, g := range r.Games {
			var game struct {
				Time timeJSON `json:"time"`
			}
			h.do("GET", "/v1/games/"+g.GameID, organiser, nil).want(t, http.StatusOK).decode(t, &game)
			if game.Time != r.Time {
				t.Errorf("round %d game %s: time %+v, want the round's %+v", i+1, g.GameID, game.Time, r.Time)
			}
		}
	}
}
