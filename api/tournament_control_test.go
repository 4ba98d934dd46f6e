package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify"
)

// duel starts a one-round event of p0 and p1, 3 days a turn, and returns
// it with its game's id and the round 1 mail.
func duel(t *testing.T, h *harness, organiser string) (controlJSON, string, []notify.Message) {
	t.Helper()
	var tour controlJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Duel", "format": "round_robin", "players": entrants(2),
		"time":     map[string]any{"kind": "per_turn", "days": 3},
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 240}}).
		want(t, http.StatusCreated).decode(t, &tour)
	h.clock.Advance(time.Hour)
	h.tickAll()
	mail := h.deliver()
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	return tour, *tour.Rounds[0].Games[0].GameID, mail
}

func gameDeadline(t *testing.T, h *harness, token, id string) *time.Time {
	t.Helper()
	var g struct {
		Deadline *time.Time `json:"deadline"`
	}
	h.do("GET", "/v1/games/"+id, token, nil).want(t, http.StatusOK).decode(t, &g)
	return g.Deadline
}

// Pausing an event stops its games' deadlines (its players are told);
// resuming moves them by the pause. Only the organiser may, and not twice.
func TestPauseAndResumeTournament(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	tour, gameID, _ := duel(t, h, organiser)
	path := "/v1/tournaments/" + tour.ID
	before := gameDeadline(t, h, organiser, gameID)
	if before == nil {
		t.Fatal("a game of 3 days a turn has no deadline")
	}
	p0 := h.login("p0@example.org")
	h.do("POST", path+"/pause", p0, nil).want(t, http.StatusForbidden, "forbidden")
	h.do("POST", path+"/pause", organiser, map[string]any{"reason": "holidays"}).want(t, http.StatusOK).decode(t, &tour)
	if tour.PausedAt == nil || !strings.HasSuffix(tour.lastLog(t, "paused"), "holidays") {
		t.Fatalf("paused at %v", tour.PausedAt)
	}
	// Both players are told; the organiser typed them in, so his reason
	// is not in their mail (see domain.MailPolicy), only on the page.
	if told := h.deliver(); len(told) != 2 || !strings.Contains(told[0].Text, "paused the tournament") || strings.Contains(told[0].Text, "holidays") {
		t.Errorf("the pause's mail: %v", subjects(told))
	}
	h.do("POST", path+"/pause", organiser, nil).want(t, http.StatusConflict, "tournament_paused")
	if d := gameDeadline(t, h, organiser, gameID); d != nil {
		t.Errorf("a paused game has the deadline %v", d)
	}
	// Well past the old deadline: nothing times out, the round stays open.
	h.clock.Advance(5 * 24 * time.Hour)
	h.tickAll()
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("mail during the pause: %v", subjects(mail))
	}
	h.do("POST", path+"/resume", organiser, nil).want(t, http.StatusOK).decode(t, &tour)
	h.do("POST", path+"/resume", organiser, nil).want(t, http.StatusConflict, "tournament_not_paused")
	after := gameDeadline(t, h, organiser, gameID)
	if after == nil || !after.Equal(before.Add(5*24*time.Hour)) {
		t.Errorf("the deadline after a 5-day pause is %v, want %v", after, before.Add(5*24*time.Hour))
	}
	if tour.PausedAt != nil || tour.Rounds[0].Status != "running" {
		t.Errorf("after resuming: paused %v, round %s", tour.PausedAt, tour.Rounds[0].Status)
	}
}

// Replacing a player who has not moved gives the newcomer the seat: his
// invitation (through real SMTP) carries a link that plays, the old link
// is refused. After a move he can no longer be replaced.
func TestReplaceTournamentPlayer(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	newcomer := h.login("new@example.org")
	tour, gameID, round1 := duel(t, h, organiser)
	path := "/v1/tournaments/" + tour.ID
	black := *tour.Rounds[0].Games[0].Black
	oldMail := only(t, round1, []string{"p0@example.org", "p1@example.org"}[black])
	_, oldToken := moveLink(t, oldMail)
	mail := useSMTP(t, h)

	body := map[string]any{"name": "Nina", "email": "new@example.org", "reason": "p1 is ill"}
	h.do("POST", path+"/players/9/replace", organiser, body).want(t, http.StatusNotFound, "not_found")
	h.do("POST", path+"/players/"+itoa(int64(black))+"/replace", organiser, map[string]any{"name": "Nina", "email": "new@example.org"}).
		want(t, http.StatusUnprocessableEntity, "invalid_input")
	h.do("POST", path+"/players/"+itoa(int64(black))+"/replace", organiser, body).want(t, http.StatusOK).decode(t, &tour)
	if tour.Players[black].Name != "Nina" || !strings.Contains(tour.lastLog(t, "entrant_replaced"), "Nina replaces") {
		t.Fatalf("after the replacement: %+v", tour.Players)
	}
	got := mail.deliver(t, 2, "replacement")
	m := mailTo(t, got, "new@example.org")
	if told := mailTo(t, got, oldMail.To); !strings.Contains(told.Text, "gave your place in it to another player") {
		t.Errorf("the player put out is told:\n%s", told.Text)
	}
	id, token := moveLink(t, notify.Message{Subject: m.Header.Get("Subject"), Text: m.Text})
	if id != gameID || !strings.Contains(m.Text, "round 1") {
		t.Errorf("Nina's invitation to %s:\n%s", id, m.Text)
	}
	h.do("POST", "/v1/games/"+gameID+"/resign", oldToken, nil).want(t, http.StatusUnauthorized, "link_replaced")
	var game gameJSON
	h.do("GET", "/v1/games/"+gameID, newcomer, nil).want(t, http.StatusOK).decode(t, &game)
	if len(game.YourColors) != 1 {
		t.Errorf("Nina's account sees the game as %v", game.YourColors)
	}
	// White moves, Black (Nina) answers: now she has played.
	whiteMail := only(t, round1, []string{"p0@example.org", "p1@example.org"}[tour.Rounds[0].Games[0].White])
	_, whiteToken := moveLink(t, whiteMail)
	h.do("POST", "/v1/games/"+gameID+"/turns", whiteToken, map[string]any{"ply": 0, "turn": whiteOpening(t, h, whiteToken, gameID)}).
		want(t, http.StatusCreated)
	h.do("POST", "/v1/games/"+gameID+"/turns", token, map[string]any{"ply": 1, "turn": whiteOpening(t, h, token, gameID)}).
		want(t, http.StatusCreated)
	body["email"] = "late@example.org"
	h.do("POST", path+"/players/"+itoa(int64(black))+"/replace", organiser, body).want(t, http.StatusConflict, "already_played")
	// A correction of her name keeps her link.
	h.do("PATCH", path+"/players/"+itoa(int64(black)), organiser, map[string]any{"name": "Nina R."}).want(t, http.StatusOK).decode(t, &tour)
	if tour.Players[black].Name != "Nina R." {
		t.Errorf("after the correction: %+v", tour.Players[black])
	}
	mail.deliver(t, 2, "two turns and a correction") // the turns' mail; the correction sends none
	h.do("GET", "/v1/games/"+gameID, token, nil).want(t, http.StatusOK)
}

// A new address in a PATCH is a replacement unless the organiser declares
// it a correction: it needs a reason and a player who has not played, and
// the player put out is told in his language. A correction keeps the
// player, but only while the link evidently did not reach him (no move).
func TestEditTournamentPlayerAddress(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	var tour controlJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Duel", "format": "round_robin",
		"players":  []map[string]any{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org", "locale": "de"}},
		"time":     map[string]any{"kind": "per_turn", "days": 3},
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 240}}).
		want(t, http.StatusCreated).decode(t, &tour)
	h.clock.Advance(time.Hour)
	h.tickAll()
	round1 := h.deliver()
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	path := "/v1/tournaments/" + tour.ID + "/players/"
	gameID := *tour.Rounds[0].Games[0].GameID
	if tour.Rounds[0].Games[0].White != 0 {
		t.Fatalf("Ann is not White: %+v", tour.Rounds[0].Games[0]) // a duel's pairing is fixed
	}
	_, annToken := moveLink(t, only(t, round1, "ann@example.org"))
	_, bobToken := moveLink(t, only(t, round1, "bob@example.org"))
	mail := useSMTP(t, h)

	for _, tt := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
	}{
		{"a new address without a reason", map[string]any{"name": "Cid", "email": "cid@example.org"}, http.StatusUnprocessableEntity, "invalid_input"},
		{"a new address without the newcomer's name", map[string]any{"email": "cid@example.org", "reason": "ill"}, http.StatusUnprocessableEntity, "invalid_input"},
		{"a correction to a taken address", map[string]any{"email": "ann@example.org", "correction": true}, http.StatusConflict, "already_entered"},
	} {
		t.Run(tt.name, func(t *testing.T) { h.do("PATCH", path+"1", organiser, tt.body).want(t, tt.status, tt.code) })
	}
	// Ann's address is corrected before she moved: the same player, a new link.
	h.do("PATCH", path+"0", organiser, map[string]any{"email": "ann@example.net", "correction": true}).want(t, http.StatusOK).decode(t, &tour)
	if got := tour.lastLog(t, "entrant_edited"); got != "the address of Ann was corrected" {
		t.Errorf("logged %q", got)
	}
	m := mailTo(t, mail.deliver(t, 1, "the correction"), "ann@example.net")
	_, annToken2 := moveLink(t, notify.Message{Subject: m.Header.Get("Subject"), Text: m.Text})
	h.do("GET", "/v1/games/"+gameID, annToken, nil).want(t, http.StatusUnauthorized, "link_replaced")
	h.do("POST", "/v1/games/"+gameID+"/turns", annToken2, map[string]any{"ply": 0, "turn": whiteOpening(t, h, annToken2, gameID)}).
		want(t, http.StatusCreated)
	mail.deliver(t, 1, "Ann's turn")
	// Now her link reached her: no more corrections of her address, nor a replacement.
	h.do("PATCH", path+"0", organiser, map[string]any{"email": "ann@example.com", "correction": true}).want(t, http.StatusConflict, "already_played")
	h.do("PATCH", path+"0", organiser, map[string]any{"name": "Cid", "email": "cid@example.org", "reason": "x"}).want(t, http.StatusConflict, "already_played")

	// Bob, who has not moved, is replaced by a new address without "correction".
	h.do("PATCH", path+"1", organiser, map[string]any{"name": "Cid", "email": "cid@example.org", "reason": "Bob is ill"}).
		want(t, http.StatusOK).decode(t, &tour)
	if got := tour.lastLog(t, "entrant_replaced"); got != "Cid replaces Bob / Bob is ill" {
		t.Errorf("logged %q", got)
	}
	got := mail.deliver(t, 2, "the replacement")
	if m := mailTo(t, got, "cid@example.org"); !strings.Contains(m.Text, "round 1") {
		t.Errorf("Cid's invitation:\n%s", m.Text)
	}
	told := mailTo(t, got, "bob@example.org")
	for _, want := range []string{"einem anderen Spieler gegeben", "gemeldet warst"} {
		if !strings.Contains(told.Text, want) {
			t.Errorf("Bob's mail (in German) lacks %q:\n%s", want, told.Text)
		}
	}
	// The organiser typed Bob in: his reason stays on the page.
	if strings.Contains(told.Text, "Bob is ill") {
		t.Errorf("Bob's mail carries the organiser's words:\n%s", told.Text)
	}
	h.do("GET", "/v1/games/"+gameID, bobToken, nil).want(t, http.StatusUnauthorized, "link_replaced")
	// A repeat changes nothing: no second log line, no mail.
	logged := len(tour.Log)
	h.do("PATCH", path+"1", organiser, map[string]any{"name": "Cid"}).want(t, http.StatusOK).decode(t, &tour)
	if len(tour.Log) != logged {
		t.Errorf("a change to nothing was logged: %+v", tour.Log[logged:])
	}
	mail.deliver(t, 0, "nothing")
}

// The control actions that are not idempotent refuse to run without an
// Idempotency-Key, and a retry with one does nothing twice: no time added
// twice, no second invite link revoking the first.
func TestControlNeedsIdempotencyKey(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	tour, gameID, _ := duel(t, h, organiser)
	path := "/v1/tournaments/" + tour.ID
	more := map[string]any{"hours": 24, "reason": "storm"}
	for _, tt := range []struct{ name, path string }{
		{"extend", path + "/games/" + gameID + "/extend"},
		{"postpone", path + "/rounds/1/postpone"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h.do("POST", tt.path, organiser, more).want(t, http.StatusPreconditionRequired, "idempotency_key_required")
			var first, again controlJSON
			h.do("POST", tt.path, organiser, more, "Idempotency-Key", tt.name).want(t, http.StatusOK).decode(t, &first)
			h.do("POST", tt.path, organiser, more, "Idempotency-Key", tt.name).want(t, http.StatusOK).
				wantHeader(t, "Idempotent-Replayed", "true").decode(t, &again)
			var now controlJSON
			h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, &now)
			if len(now.Log) != len(first.Log) || len(again.Log) != len(first.Log) {
				t.Errorf("the retry acted again: %d log lines, %d after the first", len(now.Log), len(first.Log))
			}
		})
	}
	// Registration: a second event, before its start.
	var reg controlJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Open", "format": "swiss", "rounds": 1, "players": entrants(2),
		"schedule": map[string]any{"first_start": h.clock.Now().Add(48 * time.Hour), "interval_hours": 48}}).
		want(t, http.StatusCreated).decode(t, &reg)
	regPath := "/v1/tournaments/" + reg.ID + "/registration"
	var opened, retried struct {
		InviteURL string `json:"invite_url"`
	}
	h.do("POST", regPath, organiser, map[string]any{}).want(t, http.StatusOK).decode(t, &opened) // no new link: no key needed
	h.do("POST", regPath, organiser, map[string]any{"new_link": true}).want(t, http.StatusPreconditionRequired, "idempotency_key_required")
	h.do("POST", regPath, organiser, map[string]any{"new_link": true}, "Idempotency-Key", "new-1").want(t, http.StatusOK).decode(t, &opened)
	h.do("POST", regPath, organiser, map[string]any{"new_link": true}, "Idempotency-Key", "new-1").want(t, http.StatusOK).
		wantHeader(t, "Idempotent-Replayed", "true").decode(t, &retried)
	if retried.InviteURL != opened.InviteURL {
		t.Errorf("the retry answered %s, not the link it issued: %s", retried.InviteURL, opened.InviteURL)
	}
	token := inviteRE.FindStringSubmatch(opened.InviteURL)[1]
	h.do("POST", "/v1/tournaments/"+reg.ID+"/join", h.login("zed@example.org"), map[string]any{"invite": token, "name": "Zed"}).want(t, http.StatusOK)
	// Closing, retried with its key, answers as the first time did.
	h.do("DELETE", regPath, organiser, nil, "Idempotency-Key", "close-1").want(t, http.StatusOK)
	h.do("DELETE", regPath, organiser, nil, "Idempotency-Key", "close-1").want(t, http.StatusOK).wantHeader(t, "Idempotent-Replayed", "true")
}

// whiteOpening is a legal turn for the player to move: the first legal
// move the moves endpoint offers, again and again while points are left.
func whiteOpening(t *testing.T, h *harness, token, gameID string) string {
	t.Helper()
	turn := ""
	for range 3 {
		var moves struct {
			Turn  string `json:"turn"`
			Left  int    `json:"left"`
			Moves []struct {
				From string `json:"from"`
				To   string `json:"to"`
			} `json:"moves"`
		}
		h.do("GET", "/v1/games/"+gameID+"/moves?turn="+url.QueryEscape(turn), token, nil).want(t, http.StatusOK).decode(t, &moves)
		if moves.Left == 0 || len(moves.Moves) == 0 {
			break
		}
		m := moves.Moves[0]
		turn = strings.TrimPrefix(moves.Turn+":"+m.From+m.To, ":")
	}
	if turn == "" {
		t.Fatalf("no legal move in game %s", gameID)
	}
	return turn
}

// Late entries join a running Swiss event; a round robin refuses them. An
// extension moves one game's adjudication; cancelling keeps the finished
// games' results and closes the round.
func TestLateEntryExtensionAndCancel(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	var tour controlJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Open", "format": "swiss", "rounds": 3, "players": entrants(4),
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 72, "round_hours": 48}}).
		want(t, http.StatusCreated).decode(t, &tour)
	path := "/v1/tournaments/" + tour.ID
	h.clock.Advance(time.Hour)
	h.tickAll()
	round1 := h.deliver()
	h.do("POST", path+"/players", organiser, map[string]any{"name": "Late", "email": "late@example.org", "reason": "train delay"}).
		want(t, http.StatusOK).decode(t, &tour)
	if len(tour.Players) != 5 || !strings.Contains(tour.lastLog(t, "entrant_added"), "late entry") {
		t.Fatalf("after a late entry: %+v", tour.Players)
	}
	h.do("POST", path+"/players", organiser, map[string]any{"name": "Again", "email": "late@example.org"}).
		want(t, http.StatusConflict, "already_entered")

	a, b := tour.Rounds[0].Games[0], tour.Rounds[0].Games[1]
	h.do("POST", path+"/games/"+*a.GameID+"/extend", organiser, map[string]any{"hours": 24, "reason": "power cut"},
		"Idempotency-Key", "ext-1").want(t, http.StatusOK).decode(t, &tour)
	h.do("POST", path+"/games/"+*a.GameID+"/extend", organiser, map[string]any{"hours": 24, "reason": "power cut"},
		"Idempotency-Key", "ext-1").want(t, http.StatusOK).decode(t, &tour)
	if got := tour.Rounds[0].Games[0].Deadline.Sub(tour.Rounds[0].Deadline); got != 24*time.Hour {
		t.Errorf("game A is adjudicated %v after the round, want 24h (once)", got)
	}
	h.do("POST", path+"/games/g_none/extend", organiser, map[string]any{"hours": 24, "reason": "x"}, "Idempotency-Key", "ext-2").
		want(t, http.StatusNotFound, "not_found")

	// Game B ends; at the round's deadline game A is still running, not yet
	// adjudicated: the round waits for it.
	for _, m := range round1 {
		if id, token := moveLink(t, m); id == *b.GameID && strings.Contains(m.Text, "You play Black") {
			h.do("POST", "/v1/games/"+id+"/resign", token, nil).want(t, http.StatusOK)
		}
	}
	h.clock.Advance(48 * time.Hour)
	h.tickAll()
	h.do("GET", path, "", nil).want(t, http.StatusOK).decode(t, &tour)
	if tour.Rounds[0].Status != "running" || tour.Rounds[0].Games[0].Result != nil || tour.Rounds[0].Games[1].Result == nil {
		t.Fatalf("at the round's deadline: round %s, A %+v, B %+v", tour.Rounds[0].Status, tour.Rounds[0].Games[0].Result, tour.Rounds[0].Games[1].Result)
	}
	h.do("POST", path+"/cancel", organiser, map[string]any{"reason": "venue lost"}).want(t, http.StatusOK).decode(t, &tour)
	if tour.Status != "cancelled" || tour.Rounds[0].Status != "closed" || tour.Rounds[0].Games[1].Result == nil || tour.Rounds[0].Games[0].Result != nil {
		t.Errorf("after cancelling: %s, round %s, games %+v", tour.Status, tour.Rounds[0].Status, tour.Rounds[0].Games)
	}
	if !strings.HasSuffix(tour.lastLog(t, "cancelled"), "venue lost") {
		t.Errorf("the log: %+v", tour.Log)
	}
	h.do("POST", path+"/players", organiser, map[string]any{"name": "Later", "email": "later@example.org"}).
		want(t, http.StatusConflict, "tournament_over")
}

// A public registration is listed to everyone signed in, who may join
// without the link; closing it revokes the link and hides the event.
func TestPublicRegistration(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	eve := h.login("eve@example.org")
	var tour controlJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Open", "format": "swiss", "rounds": 1, "players": entrants(2),
		"schedule":     map[string]any{"first_start": h.clock.Now().Add(48 * time.Hour), "interval_hours": 72},
		"registration": map[string]any{"public": true}}).want(t, http.StatusCreated).decode(t, &tour)
	path := "/v1/tournaments/" + tour.ID
	var list struct {
		Tournaments []struct {
			ID       string `json:"id"`
			Joinable bool   `json:"joinable"`
			Players  int    `json:"players"`
		} `json:"tournaments"`
	}
	h.do("GET", "/v1/tournaments", eve, nil).want(t, http.StatusOK).decode(t, &list)
	if len(list.Tournaments) != 1 || !list.Tournaments[0].Joinable || list.Tournaments[0].Players != 2 {
		t.Fatalf("Eve's list: %+v", list.Tournaments)
	}
	h.do("POST", path+"/join", eve, map[string]any{"name": "Eve"}).want(t, http.StatusOK).decode(t, &tour)
	if len(tour.Players) != 3 || tour.lastLog(t, "joined") != "Eve joined" {
		t.Errorf("after Eve joined: %+v", tour.Players)
	}
	h.do("POST", path+"/join", eve, map[string]any{"invite": "not-a-token"}).want(t, http.StatusForbidden, "invite_invalid")
	// An account without a name gives one: the page never shows an address.
	h.do("POST", path+"/join", h.login("nameless@example.org"), map[string]any{}).want(t, http.StatusUnprocessableEntity, "invalid_input")
	h.do("DELETE", path+"/registration", organiser, nil).want(t, http.StatusOK).decode(t, &tour)
	h.do("DELETE", path+"/registration", organiser, nil).want(t, http.StatusConflict, "registration_closed")
	zed := h.login("zed@example.org")
	h.do("GET", "/v1/tournaments", zed, nil).want(t, http.StatusOK).decode(t, &list)
	if len(list.Tournaments) != 0 {
		t.Errorf("a closed registration is still listed: %+v", list.Tournaments)
	}
	h.do("POST", path+"/join", zed, map[string]any{"name": "Zed"}).want(t, http.StatusConflict, "registration_closed")
	h.do("GET", "/v1/tournaments", "", nil).want(t, http.StatusUnauthorized, "unauthorized")
}

// Each category of an account's list is bounded and paged on its own: the
// public registrations of others do not crowd out an event he plays in.
func TestTournamentListPagesByCategory(t *testing.T) {
	h := newHarness(t)
	other := h.login("other@example.org")
	zed := h.login("zed@example.org")
	// His event is the oldest of all: a bound of 2 on the merged list would drop it.
	var mine controlJSON
	h.do("POST", "/v1/tournaments", h.login("org@example.org"), map[string]any{"name": "Club", "format": "round_robin",
		"players":  []map[string]any{{"name": "Zed", "email": "zed@example.org"}, {"name": "Ann", "email": "ann@example.org"}},
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 72}}).
		want(t, http.StatusCreated).decode(t, &mine)
	h.clock.Advance(time.Second)
	var public []string
	for range 3 {
		var tour controlJSON
		h.do("POST", "/v1/tournaments", other, map[string]any{"name": "Open", "format": "swiss", "rounds": 1, "players": entrants(2),
			"schedule":     map[string]any{"first_start": h.clock.Now().Add(48 * time.Hour), "interval_hours": 72},
			"registration": map[string]any{"public": true}}).want(t, http.StatusCreated).decode(t, &tour)
		public = append([]string{tour.ID}, public...) // newest first
		h.clock.Advance(time.Second)
	}
	type listJSON struct {
		Tournaments []struct {
			ID       string `json:"id"`
			Playing  bool   `json:"playing"`
			Joinable bool   `json:"joinable"`
		} `json:"tournaments"`
		Next map[string]*string `json:"next"`
	}
	ids := func(l listJSON) []string {
		var out []string
		for _, tour := range l.Tournaments {
			out = append(out, tour.ID)
		}
		return out
	}
	var first listJSON
	h.do("GET", "/v1/tournaments?limit=2", zed, nil).want(t, http.StatusOK).decode(t, &first)
	if got, want := ids(first), []string{public[0], public[1], mine.ID}; !slices.Equal(got, want) || !first.Tournaments[2].Playing {
		t.Fatalf("the first page: %v, want %v (his own event, and two he can join)", first.Tournaments, want)
	}
	if first.Next["joinable"] == nil || first.Next["playing"] != nil || first.Next["organising"] != nil {
		t.Fatalf("the cursors of the first page: %v", first.Next)
	}
	var more listJSON
	h.do("GET", "/v1/tournaments?limit=2&category=joinable&cursor="+url.QueryEscape(*first.Next["joinable"]), zed, nil).
		want(t, http.StatusOK).decode(t, &more)
	if got := ids(more); !slices.Equal(got, public[2:]) || more.Next["joinable"] != nil || !more.Tournaments[0].Joinable {
		t.Errorf("the next page of joinable: %v (next %v), want %v", more.Tournaments, more.Next, public[2:])
	}
	var playing listJSON
	h.do("GET", "/v1/tournaments?category=playing", zed, nil).want(t, http.StatusOK).decode(t, &playing)
	if got := ids(playing); !slices.Equal(got, []string{mine.ID}) {
		t.Errorf("playing: %v", got)
	}
	for _, tt := range []struct {
		query  string
		status int
		code   string
	}{
		{"?cursor=" + url.QueryEscape(*first.Next["joinable"]), http.StatusBadRequest, "invalid_request"},
		{"?category=watching", http.StatusBadRequest, "invalid_request"},
		{"?category=joinable&cursor=bm90IG1pbmU", http.StatusUnprocessableEntity, "invalid_cursor"},
		{"?limit=201", http.StatusBadRequest, "invalid_request"},
	} {
		h.do("GET", "/v1/tournaments"+tt.query, zed, nil).want(t, tt.status, tt.code)
	}
}

// wantHeader fails the test unless the response has the header's value.
func (r response) wantHeader(t *testing.T, name, value string) response {
	t.Helper()
	if got := r.header.Get(name); got != value {
		t.Fatalf("%s: %q, want %q", name, got, value)
	}
	return r
}
