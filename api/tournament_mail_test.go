package api_test

import (
	"fmt"
	"net/http"
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
	var round2 []notify.Message // round 1's adjudicated results come too
	var to []string
	for _, m := range h.deliver() {
		if strings.Contains(m.Text, "round 2") {
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

// A game still running at the round's deadline is adjudicated, and its
// result email says so.
func TestAdjudicatedResultSaysSo(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Quick", "format": "round_robin", "players": entrants(2),
		"schedule": map[string]any{"starts": []time.Time{start}, "round_hours": 24}}).want(t, http.StatusCreated)
	h.clock.Advance(time.Hour)
	h.tickAll()
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
