package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify"
)

// A round's own time control: the tournament shows it, and the round's
// games are created with it; the other rounds play under the
// tournament's.
func TestRoundTimeControls(t *testing.T) {
	h := newHarness(t)
	start := h.clock.Now().Add(time.Hour)
	body := map[string]any{"name": "Finals", "format": "swiss", "rounds": 2, "players": entrants(4),
		"time":        map[string]any{"kind": "per_turn", "days": 2},
		"round_times": map[string]any{"2": map[string]any{"kind": "per_turn", "days": 5}},
		"schedule":    map[string]any{"first_start": start, "interval_hours": 24 * 30}}
	organiser := h.login("org@example.org")
	for _, bad := range []struct {
		name       string
		roundTimes any
		status     int
		code       string
	}{
		{"no such round", map[string]any{"3": map[string]any{"kind": "per_turn", "days": 1}}, http.StatusUnprocessableEntity, "invalid_input"},
		{"round 0", map[string]any{"0": map[string]any{"kind": "per_turn", "days": 1}}, http.StatusUnprocessableEntity, "invalid_input"},
		{"no number", map[string]any{"final": map[string]any{"kind": "per_turn", "days": 1}}, http.StatusUnprocessableEntity, "invalid_input"},
		{"days and hours", map[string]any{"2": map[string]any{"kind": "per_turn", "days": 1, "hours": 1}}, http.StatusUnprocessableEntity, "invalid_input"},
		{"unknown member", map[string]any{"1": map[string]any{"kind": "per_turn", "days": 1, "weeks": 1}}, http.StatusBadRequest, "invalid_request"},
		{"null", map[string]any{"1": nil}, http.StatusBadRequest, "invalid_request"},
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

// A round of simultaneous pairs, in Less and in Les: each pairing plays
// two games on the round's board with colours reversed, each player is
// invited to both, each game scores on its own (a bye is two games won),
// and the page and the records show both games.
func TestSimultaneousPairsRound(t *testing.T) {
	for _, game := range []string{"less", "les"} {
		t.Run(game, func(t *testing.T) {
			h := newHarness(t)
			organiser := h.login("org@example.org")
			start := h.clock.Now().Add(time.Hour)
			var tour tournamentJSON
			h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Pairs Cup", "game": game, "format": "round_robin",
				"simultaneous": true, "players": entrants(3),
				"schedule": map[string]any{"first_start": start, "interval_hours": 72}}).want(t, http.StatusCreated).decode(t, &tour)
			if !tour.Simultaneous || len(tour.Rounds) != 3 {
				t.Fatalf("created %+v; want simultaneous, 3 rounds", tour)
			}
			h.clock.Advance(start.Sub(h.clock.Now()))
			h.tickAll()
			mail := h.deliver()
			h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
			r := tour.Rounds[0]
			if len(r.Games) != 4 {
				t.Fatalf("round 1: %+v; want a pair of games and a pair of byes", r.Games)
			}
			first, back := r.Games[0], r.Games[1]
			if first.Black == nil || back.Black == nil || first.White != *back.Black || back.White != *first.Black ||
				first.Board != 1 || back.Board != 1 || r.Games[2].Board != 2 || r.Games[3].Board != 2 {
				t.Fatalf("round 1: %+v; want board 1 played twice, colours reversed, the byes on board 2", r.Games)
			}
			pair := map[string]int{*first.GameID: *first.Black, *back.GameID: *back.Black} // game → Black
			// Both games on the same board: the round's layout (Less), or
			// the event's side (Les, whose board has no layout to draw).
			var boards []string
			for id := range pair {
				var g struct {
					Board json.RawMessage `json:"board"`
				}
				h.do("GET", "/v1/games/"+id, organiser, nil).want(t, http.StatusOK).decode(t, &g)
				boards = append(boards, string(g.Board))
			}
			if boards[0] != boards[1] || game == "less" && !strings.Contains(boards[0], `"seed":"`+r.BoardSeed+`"`) {
				t.Errorf("the pair's boards %s; want both the round's (seed %s)", boards, r.BoardSeed)
			}
			// Each player of the pair is invited to both games; the third
			// hears once of his bye.
			invited := map[string]int{}
			for _, m := range mail {
				invited[m.To]++
				if m.To == fmt.Sprintf("p%d@example.org", r.Games[2].White) {
					continue
				}
				id, token := moveLink(t, m)
				if black, ok := pair[id]; ok && m.To == fmt.Sprintf("p%d@example.org", black) {
					h.do("POST", "/v1/games/"+id+"/resign", token, nil).want(t, http.StatusOK)
					delete(pair, id)
				}
			}
			if len(pair) != 0 || len(invited) != 3 || invited[fmt.Sprintf("p%d@example.org", r.Games[2].White)] != 1 {
				t.Fatalf("round 1 mail %v; unresigned %v", subjects(mail), pair)
			}
			h.tickAll()
			h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
			if tour.Rounds[0].Status != "closed" {
				t.Fatalf("round 1 is %s after both games ended", tour.Rounds[0].Status)
			}
			for _, s := range tour.Standings {
				want := 1.0 // one game won with White, one lost with Black
				if s.Player == r.Games[2].White {
					want = 2
				}
				if s.Points != want {
					t.Errorf("standings %+v: player %d has %v points, want %v", tour.Standings, s.Player, s.Points, want)
				}
			}
			page := string(h.do("GET", "/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).body)
			for _, g := range []string{*first.GameID, *back.GameID} {
				if !strings.Contains(page, "/games/"+g+"/watch") {
					t.Errorf("the page does not link game %s", g)
				}
			}
			records := string(h.do("GET", "/v1/tournaments/"+tour.ID+"/records?round=1", "", nil).want(t, http.StatusOK).body)
			if n := strings.Count(records, `[Board "1"]`); n != 2 {
				t.Errorf("records of round 1 have %d games on board 1, want the pair:\n%s", n, records)
			}
		})
	}
}

// A knockout of five played to its winner: the top three seeds have byes
// in round 1, each round's winners meet in the next, the bracket in the
// tournament's JSON says who went through, and the standings rank by the
// round reached.
func TestKnockoutToItsWinner(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	body := map[string]any{"name": "Cup Final", "format": "knockout", "players": entrants(5),
		"schedule": map[string]any{"first_start": start, "interval_hours": 72}}
	bad := map[string]any{"rounds": 4}
	for k, v := range body {
		bad[k] = v
	}
	h.do("POST", "/v1/tournaments", organiser, bad).want(t, http.StatusUnprocessableEntity, "invalid_input")
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", organiser, body).want(t, http.StatusCreated).decode(t, &tour)
	if len(tour.Rounds) != 3 || tour.Bracket == nil || len(tour.Bracket) != 0 || tour.Tiebreak != "round_reached" {
		t.Fatalf("created: %d rounds, bracket %v, tiebreak %s; want 3 rounds, an empty bracket, round_reached", len(tour.Rounds), tour.Bracket, tour.Tiebreak)
	}
	// Black resigns every game: the higher seed, who has White, goes through.
	for r := range tour.Rounds {
		h.clock.Advance(tour.Rounds[r].Start.Sub(h.clock.Now()))
		h.tickAll()
		mail := h.deliver()
		if r == 1 {
			h.restart()
		}
		h.playRound(mail)
		h.tickAll()
		h.deliver()
		h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
		if tour.Rounds[r].Status != "closed" {
			t.Fatalf("round %d is %s after its games ended", r+1, tour.Rounds[r].Status)
		}
	}
	if tour.Status != "finished" {
		t.Fatalf("the knockout is %s after its final", tour.Status)
	}
	p := func(n int) *int { return &n }
	got, _ := json.Marshal(tour.Bracket)
	wantJSON, _ := json.Marshal([]bracketRoundJSON{
		{1, []matchJSON{{p(0), nil, p(0)}, {p(3), p(4), p(3)}, {p(1), nil, p(1)}, {p(2), nil, p(2)}}},
		{2, []matchJSON{{p(0), p(3), p(0)}, {p(1), p(2), p(1)}}},
		{3, []matchJSON{{p(0), p(1), p(0)}}},
	})
	if string(got) != string(wantJSON) {
		t.Errorf("bracket\n%s\nwant\n%s", got, wantJSON)
	}
	if games := len(tour.Rounds[0].Games); games != 4 {
		t.Errorf("round 1 has %d pairings, want one game and three byes", games)
	}
	ranks := map[int]int{}
	for _, s := range tour.Standings {
		ranks[s.Player] = s.Rank
	}
	if fmt.Sprint(ranks) != fmt.Sprint(map[int]int{0: 1, 1: 2, 2: 3, 3: 3, 4: 5}) {
		t.Errorf("ranks by player %v; want the champion, the finalist, the semi-finalists 3=, then 5", ranks)
	}
}

// A simultaneous knockout match left 1–1 with margins level gets a deciding
// game at once, on the same board, the lower seed White: both are invited
// with a line saying what it is, and its winner goes through.
func TestKnockoutDecidingGame(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	body := map[string]any{"name": "Cup Final", "format": "knockout", "simultaneous": true, "players": entrants(2),
		"tiebreak_hours": 48, "schedule": map[string]any{"first_start": start, "interval_hours": 72}}
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", organiser, body).want(t, http.StatusCreated).decode(t, &tour)
	if tour.KnockoutTiebreak == nil || *tour.KnockoutTiebreak != "game" {
		t.Fatalf("knockout_tiebreak %v, want game by default", tour.KnockoutTiebreak)
	}
	h.clock.Advance(tour.Rounds[0].Start.Sub(h.clock.Now()))
	h.tickAll()
	h.playRound(h.deliver()) // each resigns the game he has Black in: 1–1, margins level
	h.tickAll()
	invited := h.deliver()
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	r := tour.Rounds[0]
	if r.Status != "running" || len(r.Games) != 3 || !r.Games[2].Decider || r.Games[2].White != 1 || r.Games[2].Board != 1 {
		t.Fatalf("round 1 %+v; want a third game, the deciding game, seed 2 White on board 1, the round running", r)
	}
	if want := h.clock.Now().Add(48 * time.Hour); !r.Games[2].Deadline.Equal(want) {
		t.Errorf("the deciding game's deadline %v, want %v (tiebreak_hours after the match ended)", r.Games[2].Deadline, want)
	}
	var deciding []notify.Message // the mail of the games that ended came too
	for _, m := range invited {
		if strings.Contains(m.Text, "/play/"+*r.Games[2].GameID) {
			deciding = append(deciding, m)
		}
	}
	for _, addr := range []string{"p0@example.org", "p1@example.org"} {
		if m := only(t, deciding, addr); !strings.Contains(m.Text, "deciding game") {
			t.Errorf("the invitation to %s does not say it is a deciding game:\n%s", addr, m.Text)
		}
	}
	last := tour.Log[len(tour.Log)-1]
	if last.Action != "deciding_game" || last.Args == nil || !slices.Equal(last.Args.Players, []string{"P1", "P0"}) {
		t.Errorf("logged %+v; want the deciding game", last)
	}
	// Seed 1, Black in the deciding game, resigns: seed 2 goes through.
	h.playRound(deciding)
	h.tickAll()
	h.deliver()
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	if tour.Status != "finished" || tour.Bracket[0].Matches[0].Winner == nil || *tour.Bracket[0].Matches[0].Winner != 1 {
		t.Fatalf("status %s, bracket %+v; want finished, won by seed 2", tour.Status, tour.Bracket)
	}
	if tour.Standings[0].Player != 1 || tour.Standings[0].Rank != 1 {
		t.Errorf("standings %+v; want seed 2 first", tour.Standings)
	}
}

// The organiser sets the seeds before the start (a retry with the same
// Idempotency-Key sets them once); a player may not, and once the first
// round has started nobody may. The bracket is drawn from his order.
func TestSetSeedsE2E(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	player := h.login("p0@example.org")
	start := h.clock.Now().Add(time.Hour)
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Cup", "format": "knockout", "players": entrants(4),
		"seeding": "random", "schedule": map[string]any{"first_start": start, "interval_hours": 72}}).
		want(t, http.StatusCreated).decode(t, &tour)
	path := "/v1/tournaments/" + tour.ID + "/seeds"
	seeds := map[string]any{"order": []int{3, 1, 2, 0}, "reason": "by rating"}
	tests := []struct {
		name   string
		token  string
		body   any
		status int
		code   string
	}{
		{"a player", player, seeds, http.StatusForbidden, "forbidden"},
		{"a player missing", organiser, map[string]any{"order": []int{0, 1, 2}}, http.StatusUnprocessableEntity, "invalid_input"},
		{"a player twice", organiser, map[string]any{"order": []int{0, 1, 1, 2}}, http.StatusUnprocessableEntity, "invalid_input"},
		{"the organiser", organiser, seeds, http.StatusOK, ""},
		{"the organiser again, the same key", organiser, seeds, http.StatusOK, ""},
	}
	for _, tt := range tests {
		res := h.do("PUT", path, tt.token, tt.body, "Idempotency-Key", "seeds-1")
		if tt.code != "" {
			res.want(t, tt.status, tt.code)
			continue
		}
		res.want(t, tt.status).decode(t, &tour)
	}
	var names []string
	for _, p := range tour.Players {
		names = append(names, p.Name)
	}
	seedsSet := 0
	for _, e := range tour.Log {
		if e.Action == "seeds_set" {
			seedsSet++
		}
	}
	if !slices.Equal(names, []string{"P3", "P1", "P2", "P0"}) || seedsSet != 1 {
		t.Fatalf("players %v, %d seeds_set logged; want P3 P1 P2 P0, logged once", names, seedsSet)
	}
	h.clock.Advance(start.Sub(h.clock.Now()))
	h.tickAll()
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	if got := tour.Rounds[0].Games[0]; got.White != 0 || got.Black == nil || *got.Black != 3 {
		t.Errorf("round 1's first game %+v; want seed 1 (P3, now player 0) against seed 4", got)
	}
	if tour.Players[0].Name != "P3" {
		t.Errorf("the organiser's seeds were drawn again: %v first", tour.Players[0].Name)
	}
	h.do("PUT", path, organiser, seeds, "Idempotency-Key", "seeds-2").want(t, http.StatusConflict, "tournament_started")
}
