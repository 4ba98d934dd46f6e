package api_test

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/notify/smtptest"
)

// controlJSON is the part of the Tournament schema the control tests read.
type controlJSON struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Players []struct {
		Name      string `json:"name"`
		Withdrawn bool   `json:"withdrawn"`
		Annulled  bool   `json:"annulled"`
	} `json:"players"`
	Rounds []struct {
		Number   int       `json:"number"`
		Start    time.Time `json:"start"`
		Deadline time.Time `json:"deadline"`
		Status   string    `json:"status"`
		Games    []struct {
			White    int       `json:"white"`
			Black    *int      `json:"black"`
			GameID   *string   `json:"game_id"`
			Deadline time.Time `json:"deadline"`
			Annulled bool      `json:"annulled"`
			Overrode bool      `json:"overridden"`
			Result   *struct {
				WhiteScore float64 `json:"white_score"`
				Margin     int     `json:"margin"`
				Forfeit    bool    `json:"forfeit"`
			} `json:"result"`
		} `json:"games"`
	} `json:"rounds"`
	Standings []struct {
		Player    int     `json:"player"`
		Points    float64 `json:"points"`
		Played    int     `json:"played"`
		Withdrawn bool    `json:"withdrawn"`
	} `json:"standings"`
	Registration *struct {
		Open       bool `json:"open"`
		Public     bool `json:"public"`
		MaxPlayers *int `json:"max_players"`
	} `json:"registration"`
	PausedAt *time.Time `json:"paused_at"`
	Log      []struct {
		At time.Time `json:"at"`
		By struct {
			Role string  `json:"role"`
			Name *string `json:"name"`
		} `json:"by"`
		Action string  `json:"action"`
		Detail string  `json:"detail"`
		Reason *string `json:"reason"`
	} `json:"log"`
}

func (c *controlJSON) standing(player int) (points float64, played int) {
	for _, s := range c.Standings {
		if s.Player == player {
			return s.Points, s.Played
		}
	}
	return -1, -1
}

func (c *controlJSON) lastLog(t *testing.T, action string) string {
	t.Helper()
	if len(c.Log) == 0 || c.Log[len(c.Log)-1].Action != action {
		t.Fatalf("the log ends with %+v, want %s", c.Log, action)
	}
	e := c.Log[len(c.Log)-1]
	if e.Reason != nil {
		return e.Detail + " / " + *e.Reason
	}
	return e.Detail
}

var inviteRE = regexp.MustCompile(`#invite=(\S+)$`)

// invite opens (or re-opens) registration and returns the invite token.
func invite(t *testing.T, h *harness, organiser, id string, body map[string]any) string {
	t.Helper()
	var out struct {
		InviteURL string `json:"invite_url"`
	}
	// A new link needs a key: a retry without one would revoke the link.
	h.do("POST", "/v1/tournaments/"+id+"/registration", organiser, body, "Idempotency-Key", rand.Text()).want(t, http.StatusOK).decode(t, &out)
	m := inviteRE.FindStringSubmatch(out.InviteURL)
	if m == nil || !strings.HasPrefix(out.InviteURL, "http://lesspost.test/tournaments/"+id+"#") {
		t.Fatalf("invite link %q", out.InviteURL)
	}
	return m[1]
}

// smtpMail delivers the outbox through real SMTP and returns what arrived.
type smtpMail struct {
	h    *harness
	srv  *smtptest.Server
	seen int
}

func useSMTP(t *testing.T, h *harness) *smtpMail {
	srv := smtptest.Start(t)
	sender, err := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "games@lesspost.test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sender.CloseIdleConnections)
	h.outbox.Sender = sender
	return &smtpMail{h: h, srv: srv}
}

// deliver runs the outbox and returns the mail that arrived, checking
// that there are want messages.
func (s *smtpMail) deliver(t *testing.T, want int, step string) []*smtptest.Mail {
	t.Helper()
	if _, err := s.h.outbox.DeliverDue(t.Context()); err != nil {
		t.Fatalf("%s: deliver: %v", step, err)
	}
	// The SMTP server keeps a message before it answers the DATA command,
	// so what was delivered has arrived.
	all := s.srv.Messages()
	got := all[s.seen:]
	s.seen = len(all)
	if len(got) != want {
		var to []string
		for _, m := range got {
			to = append(to, fmt.Sprintf("%v: %s", m.To, m.Header.Get("Subject")))
		}
		t.Fatalf("%s: %d emails, want %d: %v", step, len(got), want, to)
	}
	return got
}

func mailTo(t *testing.T, mails []*smtptest.Mail, addr string) *smtptest.Mail {
	t.Helper()
	var found []*smtptest.Mail
	for _, m := range mails {
		if len(m.To) == 1 && m.To[0] == addr {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d emails to %s, want 1", len(found), addr)
	}
	return found[0]
}

// resignBlack resigns a game with the move link of its Black player's
// invitation among mails.
func (h *harness) resignBlack(t *testing.T, mails []*smtptest.Mail, gameID string, black int) {
	t.Helper()
	m := mailTo(t, mails, fmt.Sprintf("p%d@example.org", black))
	id, token := moveLink(t, notify.Message{Subject: m.Header.Get("Subject"), Text: m.Text})
	if id != gameID {
		t.Fatalf("p%d's invitation is to %s, want %s", black, id, gameID)
	}
	h.do("POST", "/v1/games/"+id+"/resign", token, nil).want(t, http.StatusOK)
}

// An organiser runs a round robin from open registration to the final
// standings: players join by the invite link, a round is postponed, a
// player withdraws under the annul policy, a result is overridden, and the
// standings are live throughout. Every email is counted at a real SMTP
// server: the rounds' invitations and byes, each round's results to its
// players and the organiser, the changes the players must know, the
// organiser's record of an override, and the final standings. The
// players' calendars show the rounds' ends.
func TestTournamentFromRegistrationToFinalStandings(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	players := make([]string, 5)
	for i := range players {
		players[i] = h.login(fmt.Sprintf("p%d@example.org", i))
	}
	mail := useSMTP(t, h)

	first := h.clock.Now().Add(48 * time.Hour)
	var tour controlJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Autumn", "format": "round_robin",
		"schedule":     map[string]any{"first_start": first, "interval_hours": 72, "round_hours": 48},
		"registration": map[string]any{"max_players": 4}}).want(t, http.StatusCreated).decode(t, &tour)
	if tour.Registration == nil || !tour.Registration.Open || len(tour.Players) != 0 {
		t.Fatalf("a new tournament with registration: %+v, players %v", tour.Registration, tour.Players)
	}
	id := tour.ID
	path := "/v1/tournaments/" + id
	old := invite(t, h, organiser, id, map[string]any{"max_players": 4})
	names := []string{"Ann", "Bob", "Cid", "Dee"}
	for i := range 3 {
		h.do("POST", path+"/join", players[i], map[string]any{"invite": old, "name": names[i]}).want(t, http.StatusOK)
	}
	h.do("POST", path+"/join", players[0], map[string]any{"invite": old, "name": "Ann"}).want(t, http.StatusConflict, "already_entered")
	h.do("POST", path+"/join", players[3], map[string]any{"name": "Dee"}).want(t, http.StatusForbidden, "invite_invalid")
	// A re-issued link replaces the old one.
	fresh := invite(t, h, organiser, id, map[string]any{"max_players": 4, "new_link": true})
	h.do("POST", path+"/join", players[3], map[string]any{"invite": old, "name": "Dee"}).want(t, http.StatusForbidden, "invite_invalid")
	h.do("POST", path+"/join", players[3], map[string]any{"invite": fresh, "name": "Dee"}).want(t, http.StatusOK)
	h.do("POST", path+"/join", players[4], map[string]any{"invite": fresh, "name": "Eve"}).want(t, http.StatusConflict, "tournament_full")
	// Bob withdraws before the start and leaves the list, then comes back.
	// His joining and leaving cancel out in the log.
	h.do("POST", path+"/withdraw", players[1], map[string]any{}).want(t, http.StatusOK).decode(t, &tour)
	if len(tour.Players) != 3 || tour.lastLog(t, "joined") != "Dee joined" {
		t.Fatalf("after Bob left: %v, log %+v", tour.Players, tour.Log)
	}
	h.do("POST", path+"/join", players[1], map[string]any{"invite": fresh, "name": "Bob"}).want(t, http.StatusOK).decode(t, &tour)
	// Entrants are numbered by joining: p0, p2, p3, p1.
	email := map[int]string{}
	for i, p := range tour.Players {
		for j, n := range names {
			if n == p.Name {
				email[i] = fmt.Sprintf("p%d@example.org", j)
			}
		}
	}

	// The account's lists.
	var list struct {
		Tournaments []struct {
			ID         string `json:"id"`
			Organising bool   `json:"organising"`
			Playing    bool   `json:"playing"`
			Joinable   bool   `json:"joinable"`
		} `json:"tournaments"`
	}
	h.do("GET", "/v1/tournaments", organiser, nil).want(t, http.StatusOK).decode(t, &list)
	if len(list.Tournaments) != 1 || !list.Tournaments[0].Organising || list.Tournaments[0].Playing {
		t.Errorf("the organiser's list: %+v", list.Tournaments)
	}
	h.do("GET", "/v1/tournaments", players[2], nil).want(t, http.StatusOK).decode(t, &list)
	if len(list.Tournaments) != 1 || !list.Tournaments[0].Playing || list.Tournaments[0].Organising {
		t.Errorf("a player's list: %+v", list.Tournaments)
	}
	h.do("GET", "/v1/tournaments", players[4], nil).want(t, http.StatusOK).decode(t, &list)
	if len(list.Tournaments) != 0 {
		t.Errorf("an outsider sees an invitation-only event: %+v", list.Tournaments)
	}
	mail.deliver(t, 0, "sign-up")

	// Round 1: registration closes, the round robin of 4 gets its 3 rounds.
	h.clock.Advance(first.Sub(h.clock.Now()))
	h.tickAll()
	round1 := mail.deliver(t, 4, "round 1 starts")
	for _, addr := range email {
		if m := mailTo(t, round1, addr); !strings.Contains(m.Text, "round 1") {
			t.Errorf("the round 1 email to %s:\n%s", addr, m.Text)
		}
	}
	h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, &tour)
	if len(tour.Rounds) != 3 || tour.Registration.Open || tour.Rounds[0].Status != "running" {
		t.Fatalf("after the start: %d rounds, registration %+v", len(tour.Rounds), tour.Registration)
	}
	h.do("POST", path+"/join", players[4], map[string]any{"invite": fresh, "name": "Eve"}).want(t, http.StatusConflict, "registration_closed")
	// A player's calendar has the end of each round to come.
	var me struct {
		CalendarURL string `json:"calendar_url"`
	}
	h.do("GET", "/v1/me", players[2], nil).want(t, http.StatusOK).decode(t, &me)
	feed, err := url.Parse(me.CalendarURL)
	if err != nil {
		t.Fatal(err)
	}
	ics := strings.ReplaceAll(string(h.do("GET", "/calendar.ics?"+feed.RawQuery, "", nil).want(t, http.StatusOK).body), "\r\n ", "")
	for r := range 3 {
		end := tour.Rounds[r].Deadline.UTC().Format("20060102T150405Z")
		if !strings.Contains(ics, fmt.Sprintf("UID:%s-r%d@", id, r+1)) || !strings.Contains(ics, "DTEND:"+end) ||
			!strings.Contains(ics, fmt.Sprintf("SUMMARY:Autumn: round %d ends", r+1)) {
			t.Errorf("the calendar lacks the end of round %d (%s):\n%s", r+1, end, ics)
		}
	}

	// Live standings: a result counts as its game ends, before the round closes.
	a, b := tour.Rounds[0].Games[0], tour.Rounds[0].Games[1]
	winner := a.White
	h.resignBlack(t, round1, *a.GameID, entrantNumber(t, email, *a.Black))
	mail.deliver(t, 2, "game A ends")
	h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, &tour)
	if r := tour.Rounds[0].Games[0].Result; r == nil || r.WhiteScore != 1 || tour.Rounds[0].Status != "running" {
		t.Fatalf("game A's result before the scheduler ran: %+v, round %s", r, tour.Rounds[0].Status)
	}
	if points, played := tour.standing(winner); points != 1 || played != 1 {
		t.Errorf("the winner of game A stands at %v points, %d played", points, played)
	}
	h.tickAll()
	mail.deliver(t, 0, "scheduler after game A")

	// The organiser postpones round 2 by a day: round 3 moves too.
	start2, start3 := tour.Rounds[1].Start, tour.Rounds[2].Start
	h.do("POST", path+"/rounds/2/postpone", organiser, map[string]any{"hours": 24, "reason": "club holiday"}, "Idempotency-Key", "pp-1").
		want(t, http.StatusOK).decode(t, &tour)
	if !tour.Rounds[1].Start.Equal(start2.Add(24*time.Hour)) || !tour.Rounds[2].Start.Equal(start3.Add(24*time.Hour)) {
		t.Errorf("after postponing: round 2 starts %v, round 3 %v", tour.Rounds[1].Start, tour.Rounds[2].Start)
	}
	if got := tour.lastLog(t, "round_postponed"); !strings.Contains(got, "round 2 was postponed by 1 day:") || !strings.HasSuffix(got, "club holiday") {
		t.Errorf("the log says %q", got)
	}
	h.do("POST", path+"/rounds/2/postpone", players[0], map[string]any{"hours": 24, "reason": "me"}).want(t, http.StatusForbidden, "forbidden")
	h.do("POST", path+"/rounds/2/postpone", organiser, map[string]any{"hours": 24, "reason": ""}, "Idempotency-Key", "pp-2").
		want(t, http.StatusUnprocessableEntity, "invalid_input")
	for _, m := range mail.deliver(t, 4, "postponement") { // to each player still in
		if subject := m.Header.Get("Subject"); subject != "Autumn: a change by the organiser" || !strings.Contains(m.Text, "club holiday") {
			t.Errorf("the postponement's email to %v: %s\n%s", m.To, subject, m.Text)
		}
	}

	// The winner of game A withdraws having played 1 of 3 rounds: under the
	// annul policy none of his games count, his win in game A included.
	h.do("POST", path+"/withdraw", organiser, map[string]any{"player": winner, "policy": "annul", "reason": "moved abroad"}).
		want(t, http.StatusOK).decode(t, &tour)
	if !tour.Players[winner].Withdrawn || !tour.Players[winner].Annulled {
		t.Fatalf("the withdrawn player: %+v", tour.Players[winner])
	}
	if got := tour.lastLog(t, "withdrawn"); !strings.Contains(got, "after 1 of 3 rounds; all his games are annulled") {
		t.Errorf("the log says %q", got)
	}
	if points, played := tour.standing(winner); points != 0 || played != 0 {
		t.Errorf("after annulling, the withdrawn player stands at %v points, %d played", points, played)
	}
	if _, played := tour.standing(*a.Black); played != 0 {
		t.Errorf("his opponent in game A still has %d games played", played)
	}
	if m := mail.deliver(t, 1, "withdrawal after his game ended")[0]; m.To[0] != email[winner] || !strings.Contains(m.Text, "the organiser withdrew you") {
		t.Errorf("the withdrawal's email to %v:\n%s", m.To, m.Text)
	}

	// Game B ends; round 1 closes. The organiser makes it a draw.
	h.resignBlack(t, round1, *b.GameID, entrantNumber(t, email, *b.Black))
	mail.deliver(t, 2, "game B ends")
	h.tickAll()
	closed := mail.deliver(t, 4, "round 1 closes") // its players still in, and the organiser
	if m := mailTo(t, closed, "org@example.org"); m.Header.Get("Subject") != "Autumn: results of round 1" || !strings.Contains(m.Text, "The standings after round 1:") {
		t.Errorf("the organiser's round 1 email: %s\n%s", m.Header.Get("Subject"), m.Text)
	}
	override := map[string]any{"white_score": 0.5, "margin": 0, "reason": "the resignation was a misclick, both agree to a draw"}
	h.do("POST", path+"/rounds/1/games/1/result", organiser, override, "Idempotency-Key", "draw-b").want(t, http.StatusOK).decode(t, &tour)
	if tour.Rounds[0].Status != "closed" || !tour.Rounds[0].Games[1].Overrode {
		t.Fatalf("round 1 %s, game B %+v", tour.Rounds[0].Status, tour.Rounds[0].Games[1])
	}
	logged := len(tour.Log)
	again := h.do("POST", path+"/rounds/1/games/1/result", organiser, override, "Idempotency-Key", "draw-b").want(t, http.StatusOK)
	again.decode(t, &tour)
	if again.header.Get("Idempotent-Replayed") != "true" || len(tour.Log) != logged {
		t.Errorf("a retried override was applied again: %d log entries, want %d", len(tour.Log), logged)
	}
	for _, p := range []int{b.White, *b.Black} {
		if points, played := tour.standing(p); points != 0.5 || played != 1 {
			t.Errorf("player %d after the override: %v points, %d played", p, points, played)
		}
	}
	overridden := mail.deliver(t, 3, "override") // game B's players, and the organiser's record
	if m := mailTo(t, overridden, "org@example.org"); !strings.Contains(m.Text, "misclick") {
		t.Errorf("the organiser's record of the override:\n%s", m.Text)
	}
	// Each names the game and its new result.
	set := "set the result of the game " + tour.Players[b.White].Name + " – " + tour.Players[*b.Black].Name + " of round 1 to ½–½ (a draw)"
	for _, m := range overridden {
		if !strings.Contains(strings.Join(strings.Fields(m.Text), " "), set) {
			t.Errorf("the override's email to %v does not say %q:\n%s", m.To, set, m.Text)
		}
	}

	// Round 2 waits for its postponed start.
	h.clock.Advance(start2.Sub(h.clock.Now()))
	h.tickAll()
	mail.deliver(t, 0, "round 2's first start")
	h.clock.Advance(24 * time.Hour)
	h.tickAll()
	round2 := mail.deliver(t, 3, "round 2 starts") // one game, and the withdrawn player's opponent told he has none
	playRoundOf(t, h, &tour, path, 1, round2, email, winner)
	mail.deliver(t, 2, "round 2's game ends")
	h.tickAll()
	mail.deliver(t, 4, "round 2 closes")

	h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, &tour)
	h.clock.Advance(tour.Rounds[2].Start.Sub(h.clock.Now()))
	h.tickAll()
	round3 := mail.deliver(t, 3, "round 3 starts")
	playRoundOf(t, h, &tour, path, 2, round3, email, winner)
	mail.deliver(t, 2, "round 3's game ends")
	h.tickAll()
	final := mail.deliver(t, 5, "the end") // every entrant, the withdrawn too, and the organiser
	if m := mailTo(t, final, email[winner]); m.Header.Get("Subject") != "Autumn: final standings" || !strings.Contains(m.Text, "(withdrawn)") {
		t.Errorf("the final standings to the withdrawn player: %s\n%s", m.Header.Get("Subject"), m.Text)
	}

	h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, &tour)
	if tour.Status != "finished" {
		t.Fatalf("the tournament is %s after its last round", tour.Status)
	}
	total := 0.0
	for _, s := range tour.Standings {
		total += s.Points
		if s.Player == winner && (s.Points != 0 || s.Played != 0 || !s.Withdrawn) {
			t.Errorf("the withdrawn player's final standing: %+v", s)
		}
	}
	// Three games count: game B (a draw) and the one game of rounds 2 and 3.
	if total != 3 {
		t.Errorf("the final standings hand out %v points, want 3: %+v", total, tour.Standings)
	}
	if n := len(mail.srv.Messages()); n != 39 {
		t.Errorf("%d emails in all, want 39", n)
	}
	var actions []string
	for _, e := range tour.Log {
		actions = append(actions, e.Action)
	}
	want := "registration_opened joined joined registration_opened joined joined registration_closed round_postponed withdrawn result_overridden"
	if got := strings.Join(actions, " "); got != want {
		t.Errorf("the log:\n%s\nwant\n%s", got, want)
	}
}

// entrantNumber is the entrant of an address.
func entrantNumber(t *testing.T, email map[int]string, entrant int) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscanf(email[entrant], "p%d@example.org", &n); err != nil {
		t.Fatalf("entrant %d: %v", entrant, err)
	}
	return n
}

// playRoundOf checks a round's mail (the withdrawn player's opponent is
// told he has no game, and that nothing counts) and resigns its one game.
func playRoundOf(t *testing.T, h *harness, tour *controlJSON, path string, round int, mails []*smtptest.Mail, email map[int]string, out int) {
	t.Helper()
	h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, tour)
	for _, g := range tour.Rounds[round].Games {
		switch {
		case g.White == out || *g.Black == out:
			other := g.White
			if other == out {
				other = *g.Black
			}
			m := mailTo(t, mails, email[other])
			if !strings.Contains(m.Text, "none of his games count") {
				t.Errorf("round %d: the withdrawn player's opponent is told:\n%s", round+1, m.Text)
			}
			if g.GameID != nil || g.Result == nil {
				t.Errorf("round %d: the withdrawn player's pairing %+v", round+1, g)
			}
		default:
			h.resignBlack(t, mails, *g.GameID, entrantNumber(t, email, *g.Black))
		}
	}
}

// After the last round the final standings are mailed; the organiser can
// then no longer set or annul a result (409 tournament_over): the event,
// its standings and its log stay as they were sent, and nobody is mailed.
func TestOverrideAfterTheEndIsRefused(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	var tour controlJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Final", "format": "round_robin", "players": entrants(2),
		"schedule": map[string]any{"starts": []time.Time{start}, "round_hours": 24}}).want(t, http.StatusCreated).decode(t, &tour)
	path := "/v1/tournaments/" + tour.ID
	h.clock.Advance(time.Hour)
	h.tickAll()
	h.playRound(h.deliver())
	h.tickAll()
	final := 0
	for _, m := range h.deliver() {
		if strings.HasSuffix(m.Subject, "final standings") {
			final++
		}
	}
	if final != 3 {
		t.Fatalf("%d final standings emails, want one to each player and the organiser", final)
	}
	var before controlJSON
	res := h.do("GET", path, "", nil).want(t, http.StatusOK)
	res.decode(t, &before)
	body := res.body
	if before.Status != "finished" {
		t.Fatalf("the tournament is %s after its only round", before.Status)
	}
	h.do("POST", path+"/rounds/1/games/0/result", organiser, map[string]any{"white_score": 0, "margin": -3, "reason": "a late complaint"}).
		want(t, http.StatusConflict, "tournament_over")
	h.do("POST", path+"/rounds/1/games/0/result", organiser, map[string]any{"annul": true, "reason": "a late complaint"}).
		want(t, http.StatusConflict, "tournament_over")
	if after := h.do("GET", path, "", nil).want(t, http.StatusOK).body; string(after) != string(body) {
		t.Errorf("the finished tournament changed:\n%s\nwas\n%s", after, body)
	}
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("a refused override mailed %v", subjects(mail))
	}
}

// The log stays bounded. A player who joins and leaves before the start
// 240 times leaves no trace in it, and the tournament's JSON and page stay
// as small as before; the organiser's actions past the bound (200 entries
// by default) keep the newest entries, and the JSON and the page say how
// many older ones are no longer kept.
func TestTournamentLogStaysBounded(t *testing.T) {
	h := newHarness(t, relaxedMail) // 220 changes that mail the players, within minutes
	organiser := h.login("org@example.org")
	ann, bob := h.login("p0@example.org"), h.login("p1@example.org")
	var tour controlJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Open", "format": "swiss", "rounds": 1,
		"schedule":     map[string]any{"first_start": h.clock.Now().Add(48 * time.Hour), "interval_hours": 24},
		"registration": map[string]any{"public": true}}).want(t, http.StatusCreated).decode(t, &tour)
	path := "/v1/tournaments/" + tour.ID
	h.do("POST", path+"/join", ann, map[string]any{"name": "Ann"}).want(t, http.StatusOK)
	size := func(p string) int { return len(h.do("GET", p, "", nil).want(t, http.StatusOK).body) }
	jsonBefore, pageBefore := size(path), size("/tournaments/"+tour.ID)
	for range 240 {
		h.do("POST", path+"/join", bob, map[string]any{"name": "Bob"}).want(t, http.StatusOK)
		h.do("POST", path+"/withdraw", bob, map[string]any{}).want(t, http.StatusOK)
	}
	h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, &tour)
	if len(tour.Log) != 1 || len(tour.Players) != 1 {
		t.Errorf("after 240 joins and leaves: %d entries, %d players", len(tour.Log), len(tour.Players))
	}
	// The same, but for its version's place in the ETag and the like.
	if j, p := size(path), size("/tournaments/"+tour.ID); j > jsonBefore+50 || p > pageBefore+50 {
		t.Errorf("after 240 joins and leaves the JSON is %d bytes (was %d), the page %d (was %d)", j, jsonBefore, p, pageBefore)
	}

	for i := range 110 {
		h.do("POST", path+"/pause", organiser, map[string]any{"reason": fmt.Sprint("pause ", i)}).want(t, http.StatusOK)
		h.do("POST", path+"/resume", organiser, map[string]any{}).want(t, http.StatusOK)
	}
	var bounded struct {
		Log []struct {
			Action string  `json:"action"`
			Reason *string `json:"reason"`
		} `json:"log"`
		LogDropped int `json:"log_dropped"`
	}
	h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, &bounded)
	if len(bounded.Log) != 200 || bounded.LogDropped != 21 {
		t.Fatalf("after 221 entries: %d kept, %d dropped; want 200 and 21", len(bounded.Log), bounded.LogDropped)
	}
	// Ann's joining and the first 10 pauses and resumptions are gone.
	if first := bounded.Log[0]; first.Action != "paused" || first.Reason == nil || *first.Reason != "pause 10" {
		t.Errorf("the oldest entry kept: %+v", first)
	}
	if page := string(h.do("GET", "/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).body); !strings.Contains(page, "The 21 oldest entries are no longer kept.") {
		t.Error("the page does not say that older entries are no longer kept")
	}
}
