package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify"
)

// What a tournament's players are told: the invitation gives the round's
// deadline, the opponent of a player who withdraws learns that he
// withdrew, and in the next round the player whose opponent is gone gets
// an email too.
func TestTournamentMailAfterWithdrawal(t *testing.T) {
	h := newHarness(t)
	tour, _ := startSpring(t, h)
	deadline := tour.Rounds[0].Deadline.UTC().Format("2006-01-02 15:04 UTC")
	for _, m := range h.deliver() {
		if !strings.Contains(m.Text, deadline) || !strings.Contains(m.Text, "adjudicated") {
			t.Errorf("the invitation to %s does not say the round ends at %s:\n%s", m.To, deadline, m.Text)
		}
	}

	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	opponentIn := func(round int) string {
		for _, g := range tour.Rounds[round].Games {
			switch {
			case g.White == 1 && g.Black != nil:
				return fmt.Sprintf("p%d@example.org", *g.Black)
			case g.Black != nil && *g.Black == 1:
				return fmt.Sprintf("p%d@example.org", g.White)
			}
		}
		t.Fatalf("p1 is not paired in round %d", round+1)
		return ""
	}
	first := opponentIn(0)
	p1 := h.login("p1@example.org")
	h.do("POST", "/v1/tournaments/"+tour.ID+"/withdraw", p1, map[string]any{}).want(t, http.StatusOK)
	over := only(t, h.deliver(), first)
	if !strings.Contains(over.Text, "withdrew from the tournament") || strings.Contains(over.Text, "resigned") {
		t.Errorf("the result email to p1's opponent:\n%s", over.Text)
	}

	h.clock.Advance(48 * time.Hour)
	h.tickAll()
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	second := opponentIn(1)
	var round2 []notify.Message // round 1's results come too, and its unplayed game's double forfeit
	var to []string
	for _, m := range h.deliver() {
		if strings.Contains(m.Text, "round 2") && !strings.HasSuffix(m.Subject, "round 1 was not played") {
			round2, to = append(round2, m), append(to, m.To)
		}
	}
	if len(round2) != 3 {
		t.Errorf("round 2 emails to %v, want one to each of the 3 players left", to)
	}
	if m := only(t, round2, second); !strings.Contains(m.Text, "P1 has withdrawn") || !strings.Contains(m.Text, "counts as a win") {
		t.Errorf("p1's round 2 opponent is told:\n%s", m.Text)
	}
}

// A game still running at the round's deadline, with a move made, is
// adjudicated, and its result email says so.
func TestAdjudicatedResultSaysSo(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Quick", "format": "round_robin", "players": entrants(2),
		"schedule": map[string]any{"starts": []time.Time{start}, "round_hours": 24}}).want(t, http.StatusCreated)
	h.clock.Advance(time.Hour)
	h.tickAll()
	for _, m := range h.deliver() {
		if strings.Contains(m.Text, "You play White") {
			id, white := moveLink(t, m)
			h.do("POST", "/v1/games/"+id+"/turns", white, map[string]any{"turn": bestOpening(t, h, id, white), "ply": 0}).want(t, http.StatusCreated)
		}
	}
	h.deliver()
	h.clock.Advance(24 * time.Hour)
	h.tickAll()
	var results []notify.Message // the games' results; the final standings come too
	for _, m := range h.deliver() {
		if strings.HasPrefix(m.Subject, "Less: ") {
			results = append(results, m)
		}
	}
	for _, email := range []string{"p0@example.org", "p1@example.org"} {
		if m := only(t, results, email); !strings.Contains(m.Text, "adjudicated at the end of the round") {
			t.Errorf("the result email to %s:\n%s", email, m.Text)
		}
	}
}

// A game nobody moved in by the round's deadline is a double forfeit, not
// an adjudicated draw: the tournament shows it 0–0 (unplayed, both lose
// it), its players are told so by the tournament's mail and get no game
// result, the results and the page mark it, and the records leave it out.
func TestUnplayedGameIsADoubleForfeit(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Quick", "format": "round_robin", "players": entrants(2),
		"schedule": map[string]any{"starts": []time.Time{start}, "round_hours": 24}}).want(t, http.StatusCreated).decode(t, &tour)
	path := "/v1/tournaments/" + tour.ID
	h.clock.Advance(time.Hour)
	h.tickAll()
	h.deliver()
	h.clock.Advance(24 * time.Hour)
	h.tickAll()
	var got struct {
		Status string `json:"status"`
		Rounds []struct {
			Games []struct {
				Unplayed bool `json:"unplayed"`
				Result   *struct {
					WhiteScore float64 `json:"white_score"`
					BlackScore float64 `json:"black_score"`
					Margin     int     `json:"margin"`
					Forfeit    bool    `json:"forfeit"`
				} `json:"result"`
			} `json:"games"`
		} `json:"rounds"`
		Standings []struct {
			Points float64 `json:"points"`
			Played int     `json:"played"`
			Lost   int     `json:"lost"`
			Drawn  int     `json:"drawn"`
		} `json:"standings"`
		Log []struct {
			Action string `json:"action"`
			Detail string `json:"detail"`
		} `json:"log"`
	}
	h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, &got)
	g := got.Rounds[0].Games[0]
	if r := g.Result; !g.Unplayed || r == nil || r.WhiteScore != 0 || r.BlackScore != 0 || r.Margin != 0 || !r.Forfeit {
		t.Errorf("the game nobody moved in: unplayed %v, result %+v; want a double forfeit", g.Unplayed, r)
	}
	for _, s := range got.Standings {
		if s.Points != 0 || s.Played != 1 || s.Lost != 1 || s.Drawn != 0 {
			t.Errorf("a player of the unplayed game stands %+v; want a game played and lost", s)
		}
	}
	if n := len(got.Log); got.Status != "finished" || n == 0 || got.Log[n-1].Action != "unplayed" || !strings.Contains(got.Log[n-1].Detail, "P0 – P1 of round 1 had no move") {
		t.Errorf("the tournament is %s, its log %+v; want it to end with the double forfeit", got.Status, got.Log)
	}
	mail := h.deliver()
	for _, email := range []string{"p0@example.org", "p1@example.org"} {
		var subjects []string
		for _, m := range mail {
			if m.To != email {
				continue
			}
			subjects = append(subjects, m.Subject)
			switch {
			case strings.HasPrefix(m.Subject, "Less: "):
				t.Errorf("the unplayed game's own result was mailed to %s:\n%s", email, m.Text)
			case strings.HasSuffix(m.Subject, "final standings") && !strings.Contains(m.Text, "P0 – P1: 0–0 (no move by the deadline: a double forfeit)"):
				t.Errorf("the final standings to %s:\n%s", email, m.Text)
			}
		}
		if !slices.Contains(subjects, "Quick: your game of round 1 was not played") || !slices.Contains(subjects, "Quick: final standings") {
			t.Errorf("%s is mailed %q", email, subjects)
		}
	}
	page := string(h.do("GET", "/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).body)
	if !strings.Contains(page, "no move by the deadline: a double forfeit") || !strings.Contains(page, "Not played") || strings.Contains(page, "/watch") {
		t.Errorf("the page does not mark the unplayed game (or links it to watch):\n%s", page)
	}
	if records := h.do("GET", path+"/records", "", nil).want(t, http.StatusOK).body; len(records) != 0 {
		t.Errorf("the records hold the unplayed game:\n%s", records)
	}
}
