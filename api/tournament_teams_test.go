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

// teamEntries are n teams: Pi with Qi, team i named "Team i" when named.
func teamEntries(n int, named bool) []map[string]any {
	var out []map[string]any
	for i := range n {
		e := map[string]any{"name": fmt.Sprintf("P%d", i), "email": fmt.Sprintf("p%d@example.org", i),
			"partner": map[string]any{"name": fmt.Sprintf("Q%d", i), "email": fmt.Sprintf("q%d@example.org", i)}}
		if named {
			e["team"] = fmt.Sprintf("Team %d", i)
		}
		out = append(out, e)
	}
	return out
}

type teamTournamentJSON struct {
	tournamentJSON
	Teams   bool `json:"teams"`
	Players []struct {
		Name    string   `json:"name"`
		Members []string `json:"members"`
	} `json:"players"`
	Standings []struct {
		Name   string  `json:"name"`
		Points float64 `json:"points"`
	} `json:"standings"`
}

// Creating a team event: the entries' shape and the game are checked, and
// the JSON names each team and its members.
func TestCreateTeamTournament(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	body := func(change func(map[string]any)) map[string]any {
		b := map[string]any{"name": "Pairs", "format": "round_robin", "teams": true, "players": teamEntries(3, false),
			"schedule": map[string]any{"first_start": start, "interval_hours": 72}}
		change(b)
		return b
	}
	for _, bad := range []struct {
		name   string
		change func(map[string]any)
		status int
		code   string
	}{
		{"Les", func(b map[string]any) { b["game"] = "les" }, http.StatusUnprocessableEntity, "teams_unsupported"},
		{"no partner", func(b map[string]any) { delete(b["players"].([]map[string]any)[1], "partner") }, http.StatusUnprocessableEntity, "invalid_input"},
		{"partners without teams", func(b map[string]any) { b["teams"] = false }, http.StatusUnprocessableEntity, "invalid_input"},
		{"a partner twice", func(b map[string]any) {
			b["players"].([]map[string]any)[2]["partner"] = map[string]any{"name": "Q", "email": "q0@example.org"}
		}, http.StatusUnprocessableEntity, "duplicate_address"},
		{"his own partner", func(b map[string]any) {
			b["players"].([]map[string]any)[2]["partner"] = map[string]any{"name": "Q", "email": "p2@example.org"}
		}, http.StatusUnprocessableEntity, "duplicate_address"},
	} {
		t.Run(bad.name, func(t *testing.T) {
			h.do("POST", "/v1/tournaments", organiser, body(bad.change)).want(t, bad.status, bad.code)
		})
	}
	// A partner is a name and an address or a handle: the contract cannot
	// require one of the two (its generated clients take no such choice),
	// so the domain refuses one with neither, after the rate of creation
	// counted it (hence another organiser).
	h.do("POST", "/v1/tournaments", h.login("org3@example.org"), body(func(b map[string]any) {
		b["players"].([]map[string]any)[2]["partner"] = map[string]any{"name": "Q"}
	})).want(t, http.StatusUnprocessableEntity, "invalid_input")
	// Refusals count against the organiser's rate of creation.
	organiser = h.login("org2@example.org")
	var tour teamTournamentJSON
	h.do("POST", "/v1/tournaments", organiser, body(func(b map[string]any) {
		b["players"].([]map[string]any)[1]["team"] = "Walls"
	})).want(t, http.StatusCreated).decode(t, &tour)
	if !tour.Teams || len(tour.Players) != 3 || tour.Players[0].Name != "P0 & Q0" || tour.Players[1].Name != "Walls" ||
		!slices.Equal(tour.Players[1].Members, []string{"P1", "Q1"}) {
		t.Errorf("created %+v", tour)
	}
	// Both members find it among their tournaments.
	for _, who := range []string{"p1@example.org", "q1@example.org"} {
		var list struct {
			Tournaments []struct {
				ID      string `json:"id"`
				Playing bool   `json:"playing"`
			} `json:"tournaments"`
		}
		h.do("GET", "/v1/tournaments", h.login(who), nil).want(t, http.StatusOK).decode(t, &list)
		if len(list.Tournaments) != 1 || list.Tournaments[0].ID != tour.ID || !list.Tournaments[0].Playing {
			t.Errorf("%s's tournaments: %+v", who, list.Tournaments)
		}
	}
}

// A player signs his team up with his partner's name and address; the
// partner is told by email in his language, finds the event in his list
// and may withdraw the team before the start. The page's join form asks
// for the partner.
func TestJoinTeamTournament(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	var tour teamTournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Pairs Open", "format": "round_robin", "teams": true,
		"schedule":     map[string]any{"first_start": h.clock.Now().Add(48 * time.Hour), "interval_hours": 72},
		"registration": map[string]any{"public": true}}).want(t, http.StatusCreated).decode(t, &tour)
	h.deliver()
	page := string(h.do("GET", "/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).body)
	for _, w := range []string{`id="signup-partner-name"`, `id="signup-partner-email"`, `id="signup-team"`, "Your partner&#39;s name"} {
		if !strings.Contains(page, w) {
			t.Errorf("the join form lacks %q", w)
		}
	}
	ann := h.login("ann@example.org")
	path := "/v1/tournaments/" + tour.ID
	h.do("POST", path+"/join", ann, map[string]any{"name": "Ann"}).want(t, http.StatusUnprocessableEntity, "invalid_input")
	h.do("POST", path+"/join", ann, map[string]any{"name": "Ann", "partner": map[string]any{"name": "Ann", "email": "ann@example.org"}}).
		want(t, http.StatusUnprocessableEntity, "duplicate_address")
	h.do("POST", path+"/join", ann, map[string]any{"name": "Ann", "team": "Walls",
		"partner": map[string]any{"name": "Bob", "email": "bob@example.org", "locale": "de"}}).want(t, http.StatusOK).decode(t, &tour)
	if len(tour.Players) != 1 || tour.Players[0].Name != "Walls" || !slices.Equal(tour.Players[0].Members, []string{"Ann", "Bob"}) {
		t.Fatalf("joined: %+v", tour.Players)
	}
	mail := h.deliver()
	m := only(t, mail, "bob@example.org")
	// Bob did not sign up himself: the team's name Ann chose is not in his
	// mail (see domain.MailPolicy), its members' names are.
	if len(mail) != 1 || !strings.Contains(m.Subject, "Ann hat dich als Team angemeldet") || strings.Contains(m.Text, "Walls") ||
		!strings.Contains(m.Text, "Ann & Bob") {
		t.Errorf("the partner's mail: %v\n%s", subjects(mail), m.Text)
	}
	// Bob is entered: he cannot join again, not even with another partner.
	bob := h.login("bob@example.org")
	h.do("POST", path+"/join", bob, map[string]any{"name": "Bob", "partner": map[string]any{"name": "Cat", "email": "cat@example.org"}}).
		want(t, http.StatusConflict, "already_entered")
	var list struct {
		Tournaments []struct {
			Playing bool `json:"playing"`
		} `json:"tournaments"`
	}
	h.do("GET", "/v1/tournaments", bob, nil).want(t, http.StatusOK).decode(t, &list)
	if len(list.Tournaments) != 1 || !list.Tournaments[0].Playing {
		t.Errorf("Bob's tournaments: %+v", list.Tournaments)
	}
	h.do("POST", path+"/withdraw", bob, map[string]any{}).want(t, http.StatusOK).decode(t, &tour)
	if len(tour.Players) != 0 {
		t.Errorf("after Bob withdrew the team: %+v", tour.Players)
	}
}

// The organiser corrects and replaces a team's members, saying which.
func TestEditTeamMember(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	var tour teamTournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Pairs", "format": "round_robin", "teams": true, "players": teamEntries(2, false),
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 72}}).want(t, http.StatusCreated).decode(t, &tour)
	path := "/v1/tournaments/" + tour.ID + "/players/1"
	h.do("PATCH", path, organiser, map[string]any{"name": "Quinn", "member": "partner"}).want(t, http.StatusOK).decode(t, &tour)
	if !slices.Equal(tour.Players[1].Members, []string{"P1", "Quinn"}) || tour.Players[1].Name != "P1 & Quinn" {
		t.Errorf("after the edit: %+v", tour.Players[1])
	}
	h.do("PATCH", path, organiser, map[string]any{"email": "p0@example.org", "member": "partner", "correction": true}).want(t, http.StatusConflict, "already_entered")
	h.do("PATCH", path, organiser, map[string]any{"name": "X", "member": "third"}).want(t, http.StatusBadRequest, "invalid_request")
	h.do("POST", path+"/replace", organiser, map[string]any{"name": "Rae", "email": "rae@example.org", "member": "player", "reason": "ill"}).
		want(t, http.StatusOK).decode(t, &tour)
	if !slices.Equal(tour.Players[1].Members, []string{"Rae", "Quinn"}) {
		t.Errorf("after the replacement: %+v", tour.Players[1])
	}
}

// A round robin of four teams played to its final standings: each round
// every member is invited to his team's four-player game with his own move
// link, the Black team resigns every game, and every email is counted: the
// invitations, the games' ends, the results and the final standings to
// all eight players and the organiser. The standings, CSV, records and
// page are by team with the members shown.
func TestTeamRoundRobinE2E(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	var tour teamTournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Pairs Cup", "format": "round_robin", "teams": true,
		"players": teamEntries(4, true), "time": map[string]any{"kind": "per_turn", "days": 2},
		"schedule": map[string]any{"first_start": start, "interval_hours": 72}}).want(t, http.StatusCreated).decode(t, &tour)
	if len(tour.Rounds) != 3 {
		t.Fatalf("%d rounds, want 3", len(tour.Rounds))
	}
	h.deliver()
	members := []string{}
	for i := range 4 {
		members = append(members, fmt.Sprintf("p%d@example.org", i), fmt.Sprintf("q%d@example.org", i))
	}
	for r := range tour.Rounds {
		h.clock.Advance(tour.Rounds[r].Start.Sub(h.clock.Now()))
		h.tickAll()
		mail := h.deliver()
		if len(mail) != 8 {
			t.Fatalf("round %d: %d emails at its start, want one per member: %v", r+1, len(mail), subjects(mail))
		}
		h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
		round := tour.Rounds[r]
		games := map[string][]string{} // game → colours invited
		for _, who := range members {
			m := only(t, mail, who)
			id, _ := moveLink(t, m)
			games[id] = append(games[id], who)
		}
		if len(games) != 2 {
			t.Fatalf("round %d: invitations to %d games, want 2", r+1, len(games))
		}
		for _, g := range round.Games {
			if g.GameID == nil || len(games[*g.GameID]) != 4 {
				t.Fatalf("round %d: game %+v has invitations %v", r+1, g, games)
			}
			var game struct {
				Seats []struct {
					Color string `json:"color"`
					Name  string `json:"name"`
				} `json:"seats"`
			}
			h.do("GET", "/v1/games/"+*g.GameID, organiser, nil).want(t, http.StatusOK).decode(t, &game)
			var seats []string
			for _, s := range game.Seats {
				seats = append(seats, s.Color+":"+s.Name)
			}
			w, b := g.White, *g.Black
			want := []string{fmt.Sprintf("yellow:P%d", w), fmt.Sprintf("black:P%d", b), fmt.Sprintf("white:Q%d", w), fmt.Sprintf("red:Q%d", b)}
			if !slices.Equal(seats, want) {
				t.Errorf("round %d: seats %v, want %v", r+1, seats, want)
			}
		}
		// The Black team's first player resigns: his side loses.
		for _, m := range mail {
			if strings.Contains(m.Text, "You play Black") {
				id, token := moveLink(t, m)
				h.do("POST", "/v1/games/"+id+"/resign", token, nil).want(t, http.StatusOK)
			}
		}
		h.tickAll()
		after := h.deliver()
		kinds := map[string]int{}
		for _, m := range after {
			switch {
			case strings.Contains(m.Subject, "final standings"):
				kinds["final"]++
			case strings.Contains(m.Subject, "results of round"):
				kinds["results"]++
			case strings.HasPrefix(m.Subject, "Less: "):
				kinds["game over"]++ // the game's end, to each of its four
			default:
				kinds["other: "+m.Subject]++
			}
		}
		if kinds["game over"] != 8 || len(kinds) != 2 {
			t.Errorf("round %d: mail after play %v, want 8 games' ends and the results", r+1, kinds)
		}
		results := "results"
		if r == len(tour.Rounds)-1 {
			results = "final"
		}
		if kinds[results] != 9 {
			t.Errorf("round %d: %d %s emails, want 9 (8 members and the organiser): %v", r+1, kinds[results], results, subjects(after))
		}
		h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
		if tour.Rounds[r].Status != "closed" {
			t.Fatalf("round %d is %s after its games ended", r+1, tour.Rounds[r].Status)
		}
		if r == len(tour.Rounds)-1 {
			final := only(t, slices.DeleteFunc(after, func(m notify.Message) bool { return !strings.Contains(m.Subject, "final standings") }), "q3@example.org")
			// The organiser typed the teams in: their mail names them by
			// their members, not by the names he gave them.
			if strings.Contains(final.Text, "Team 0") || !strings.Contains(final.Text, "P0 & Q0") || !strings.Contains(final.Text, "Hello Q3") {
				t.Errorf("the final standings to Q3:\n%s", final.Text)
			}
		}
	}
	if tour.Status != "finished" {
		t.Fatalf("the event is %s", tour.Status)
	}
	// Every game was won by White: the points add up to the games, by team.
	total := 0.0
	for _, s := range tour.Standings {
		total += s.Points
		if !strings.HasPrefix(s.Name, "Team ") {
			t.Errorf("standing %+v is not by team", s)
		}
	}
	if total != 6 {
		t.Errorf("points %v add up to %v, want the 6 games", tour.Standings, total)
	}
	csv := string(h.do("GET", "/v1/tournaments/"+tour.ID+"/standings?format=csv", "", nil).want(t, http.StatusOK).body)
	if !strings.Contains(csv, ",withdrawn,member_1,member_2\n") || !strings.Contains(csv, ",Team 2,") || !strings.Contains(csv, ",P2,Q2\n") {
		t.Errorf("CSV:\n%s", csv)
	}
	records := string(h.do("GET", "/v1/tournaments/"+tour.ID+"/records?round=1", "", nil).want(t, http.StatusOK).body)
	for _, w := range []string{`[WhiteTeam "Team `, `[BlackTeam "Team `, `[Yellow "P`, `[Red "Q`} {
		if strings.Count(records, w) != 2 {
			t.Errorf("records of round 1: %d of %q, want one per game:\n%s", strings.Count(records, w), w, records)
		}
	}
	page := string(h.do("GET", "/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).body)
	for _, w := range []string{"4 teams of two", `<span class="members note">P0 &amp; Q0</span>`, "Team 3", `class="name">Team</th>`} {
		if !strings.Contains(page, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
}

// A team that joins and leaves before its partner's mail went out leaves
// nothing to tell him: the mail is dropped, not retried for an hour and then
// failed (it could not be worded for someone no longer entered).
func TestPartnerMailOfATeamThatLeft(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	var tour teamTournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Pairs Open", "format": "round_robin", "teams": true,
		"schedule":     map[string]any{"first_start": h.clock.Now().Add(48 * time.Hour), "interval_hours": 72},
		"registration": map[string]any{"public": true}}).want(t, http.StatusCreated).decode(t, &tour)
	ann := h.login("ann@example.org")
	path := "/v1/tournaments/" + tour.ID
	h.do("POST", path+"/join", ann, map[string]any{"name": "Ann", "partner": map[string]any{"name": "Bob", "email": "bob@example.org"}}).
		want(t, http.StatusOK)
	h.do("POST", path+"/withdraw", ann, map[string]any{}).want(t, http.StatusOK)
	if mail := h.deliver(); countMailTo(mail, "bob@example.org") != 0 {
		t.Errorf("Bob was told of a team that left: %v", subjects(mail))
	}
	if b, err := h.db.Backlog(t.Context(), h.clock.Now()); err != nil || b.MailPending != 0 || b.MailFailed != 0 {
		t.Errorf("mail pending %d, failed %d (%v); want it dropped", b.MailPending, b.MailFailed, err)
	}
}
