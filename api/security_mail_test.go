package api_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/notify"
)

// Security tests of issue 11, item 2: the server's mail cannot be aimed at
// strangers. Mail is counted where people read it: in the mailbox.

// newMailAttackHarness is a harness whose request rate limits and sender's
// limits are out of the way, so that what is tested is the limit on mail per
// recipient.
func newMailAttackHarness(t *testing.T) *harness {
	return newHarnessWith(t, func(c *serverConfig) {
		lots := api.RateLimit{Requests: 100_000, Per: time.Minute}
		c.RateLimits = api.RateLimits{Login: lots, Token: lots, CreateGameIP: lots, CreateGameAccount: lots,
			SeatLinkIP: lots, SeatLinkAccount: lots, TournamentIP: lots, TournamentAccount: lots}
		relaxedMail(c)
	})
}

var neverEmailRE = regexp.MustCompile(`http://lesspost\.test/never-email\?t=(\S+)`)

// neverEmailLink takes the "never email me again" link out of an email.
func neverEmailLink(t *testing.T, m notify.Message) string {
	t.Helper()
	match := neverEmailRE.FindStringSubmatch(m.Text)
	if match == nil {
		t.Fatalf("no never-email link in %q:\n%s", m.Subject, m.Text)
	}
	if !strings.Contains(m.HTML, `href="`+match[0]+`"`) {
		t.Errorf("the HTML part of %q lacks the never-email link %s", m.Subject, match[0])
	}
	return "/never-email?t=" + match[1]
}

// countMailTo counts the messages to addr.
func countMailTo(msgs []notify.Message, addr string) int {
	n := 0
	for _, m := range msgs {
		if m.To == addr {
			n++
		}
	}
	return n
}

// Renewing a move link emails the seat's player: 50 renewals in a row used
// to send 50 emails. Renewals are limited per caller (10 an hour) and per
// client address (20 an hour); refused ones change nothing and send nothing.
func TestSeatLinkRenewalsAreRateLimited(t *testing.T) {
	// The route's own limits, apart from the mail policy's (which a move
	// link's tenth renewal for one stranger reaches too).
	h := newHarnessWith(t, relaxedMail)
	s := startGame(t, h)
	link := "/v1/games/" + s.id + "/seats/black/link"
	for range 10 {
		h.do("POST", link, s.organiser, nil).want(t, http.StatusAccepted)
	}
	before := dbState(t, h)
	for range 40 {
		rateLimited(t, h.do("POST", link, s.organiser, nil), 360)
	}
	unchanged(t, h, before)
	if n := countMailTo(h.deliver(), "bob@example.org"); n != 10 {
		t.Errorf("bob got %d renewed links, want 10", n)
	}
	// The seat's own links are another caller (all its versions together),
	// on the same client address.
	white := "/v1/games/" + s.id + "/seats/white/link"
	token := s.white
	for range 10 {
		h.do("POST", white, token, nil).want(t, http.StatusAccepted)
		_, token = moveLink(t, only(t, h.deliver(), "ann@example.org"))
	}
	rateLimited(t, h.do("POST", white, token, nil), 360)
	// The address has used its 20: a third caller is refused too.
	rateLimited(t, h.do("POST", white, h.login("ann@example.org"), nil), 180)
}

// Creating tournaments is limited per account (5 a day) and per client
// address (10 a day): one account used to schedule 2,240 invitations in a
// second.
func TestTournamentCreationIsRateLimited(t *testing.T) {
	h := newHarness(t)
	org, other := h.login("org@example.org"), h.login("other@example.org")
	body := map[string]any{"name": "Cup", "format": "round_robin", "players": entrants(64),
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 24}}
	for range 5 {
		h.do("POST", "/v1/tournaments", org, body).want(t, http.StatusCreated)
	}
	before := dbState(t, h)
	rateLimited(t, h.do("POST", "/v1/tournaments", org, body), 24*3600/5)
	unchanged(t, h, before)
	for range 5 {
		h.do("POST", "/v1/tournaments", other, body).want(t, http.StatusCreated)
	}
	rateLimited(t, h.do("POST", "/v1/tournaments", h.login("third@example.org"), body), 24*3600/10)
}

// budgetSpent checks a 429 recipient_budget_exhausted with a Retry-After.
func budgetSpent(t *testing.T, res response, retryAfter int) {
	t.Helper()
	res.want(t, http.StatusTooManyRequests, "recipient_budget_exhausted")
	if got := res.header.Get("Retry-After"); got != fmt.Sprint(retryAfter) {
		t.Errorf("Retry-After %q, want %d", got, retryAfter)
	}
}

// However many accounts and client addresses an attacker uses, an address
// gets at most domain.DefaultMailLimits.RecipientPerDay invitations and renewed links in any 24
// hours that other people caused. Mail its owner causes himself is not
// counted, and the budget comes back as the day passes.
func TestRecipientBudget(t *testing.T) {
	h := newMailAttackHarness(t)
	const victim = "victim@example.org"
	game := func(i int) map[string]any {
		return map[string]any{"players": []map[string]any{
			{"name": "Mallory", "email": fmt.Sprintf("m%d@evil.example", i)},
			{"name": "Victim", "email": victim}}, "board": map[string]any{"walls": strings.Repeat("0", 60)}}
	}
	attackers := []string{h.login("mallory@evil.example"), h.login("trudy@evil.example")}
	half := domain.DefaultMailLimits.RecipientPerDay / 2
	var gameID string
	for i := range half {
		var g gameJSON
		h.do("POST", "/v1/games", attackers[i%2], game(i)).want(t, http.StatusCreated).decode(t, &g)
		gameID = g.ID
		h.clock.Advance(time.Minute)
	}
	for range domain.DefaultMailLimits.RecipientPerDay - half { // the last game's creator renews the victim's link
		h.do("POST", "/v1/games/"+gameID+"/seats/black/link", attackers[(half-1)%2], nil).want(t, http.StatusAccepted)
	}
	mail := h.deliver()
	if n := countMailTo(mail, victim); n != domain.DefaultMailLimits.RecipientPerDay {
		t.Fatalf("the victim got %d emails, want %d", n, domain.DefaultMailLimits.RecipientPerDay)
	}
	_, victimToken := moveLink(t, mail[len(mail)-1])

	eve := h.login("eve@evil.example")
	before := dbState(t, h)
	// The first game was created half minutes before the clock.
	wait := int((24*time.Hour - time.Duration(half)*time.Minute) / time.Second)
	budgetSpent(t, h.do("POST", "/v1/games", attackers[0], game(99)), wait)
	budgetSpent(t, h.do("POST", "/v1/games", eve, game(100)), wait)
	budgetSpent(t, h.do("POST", "/v1/games/"+gameID+"/seats/black/link", attackers[0], nil), wait)
	unchanged(t, h, before)
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("refused requests sent %v", subjects(mail))
	}

	// What the victim does himself is his own business: renewing his own
	// link, signing in, a game he creates with his own seat.
	h.do("POST", "/v1/games/"+gameID+"/seats/black/link", victimToken, nil).want(t, http.StatusAccepted)
	only(t, h.deliver(), victim)
	own := h.login(victim)
	h.do("POST", "/v1/games", own, map[string]any{"players": []map[string]any{
		{"name": "Victim", "email": "Victim@Example.org"}, {"name": "Friend", "email": "friend@example.org"}},
		"board": map[string]any{"walls": strings.Repeat("0", 60)}}).want(t, http.StatusCreated)
	only(t, h.deliver(), victim)

	// A day after the first invitation, there is room for one more.
	h.clock.Advance(time.Duration(wait) * time.Second)
	h.do("POST", "/v1/games", attackers[0], game(101)).want(t, http.StatusCreated)
	budgetSpent(t, h.do("POST", "/v1/games", attackers[0], game(102)), 60)
}

// A tournament's rounds count against each entrant's budget, but a round
// starts whatever happens: an entrant whose budget is spent gets no email,
// while the others get theirs and every game is created.
func TestTournamentRoundsRespectTheBudget(t *testing.T) {
	h := newMailAttackHarness(t)
	org := h.login("org@example.org")
	players := entrants(4)
	players[3]["email"] = "victim@example.org"
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", org, map[string]any{"name": "Cup", "format": "round_robin", "players": players,
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 24}}).
		want(t, http.StatusCreated).decode(t, &tour)
	mallory := h.login("mallory@evil.example")
	for i := range domain.DefaultMailLimits.RecipientPerDay {
		h.do("POST", "/v1/games", mallory, map[string]any{"players": []map[string]any{
			{"name": "M", "email": fmt.Sprintf("m%d@evil.example", i)}, {"name": "V", "email": "victim@example.org"}},
			"board": map[string]any{"walls": strings.Repeat("0", 60)}}).want(t, http.StatusCreated)
	}
	h.deliver()
	h.clock.Advance(time.Hour)
	h.tickAll()
	mail := h.deliver()
	if len(mail) != 3 || countMailTo(mail, "victim@example.org") != 0 {
		t.Errorf("round 1 sent %v, want an invitation to each entrant but the victim", subjects(mail))
	}
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	for _, g := range tour.Rounds[0].Games {
		if g.GameID == nil {
			t.Errorf("round 1 pairing %d has no game", g.White)
		}
	}
	for _, m := range mail {
		neverEmailLink(t, m)
	}
}

// The "never email me again" link of any email stops all mail to its
// address: what is queued is not sent, and invitations, renewals and
// tournament entries naming it are refused with address_suppressed. Login
// mail its owner asks for still comes. The GET only asks.
func TestNeverEmailAgain(t *testing.T) {
	h := newHarness(t)
	s := startGame(t, h)
	bobStop := neverEmailPath(t, h, "bob@example.org")
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
	stop := neverEmailLink(t, only(t, h.deliver(), "ann@example.org"))
	// White moves: Bob's your-turn email is queued, not yet sent.
	h.do("POST", "/v1/games/"+s.id+"/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)

	before := dbState(t, h)
	page := h.do("GET", stop, "", nil).want(t, http.StatusOK)
	if !strings.Contains(string(page.body), "Never email ann@example.org again?") {
		t.Errorf("the page does not ask:\n%s", page.body)
	}
	unchanged(t, h, before)
	h.do("POST", stop, "", nil).want(t, http.StatusOK)
	h.do("POST", stop, "", nil).want(t, http.StatusOK) // again: nothing more happens
	// Bob stops his mail too: his queued your-turn email is not sent.
	h.do("POST", bobStop, "", nil).want(t, http.StatusOK)
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("mail sent to suppressed addresses: %v", subjects(mail))
	}

	game := twoPlayers(strings.Repeat("0", 60))
	game["players"].([]map[string]any)[0]["email"] = "ANN@Example.ORG"
	game["players"].([]map[string]any)[1]["email"] = "carol@example.org"
	h.refused(t, http.StatusUnprocessableEntity, "address_suppressed", "POST", "/v1/games", s.organiser, game)
	h.refused(t, http.StatusUnprocessableEntity, "address_suppressed", "POST", "/v1/games/"+s.id+"/seats/white/link", s.organiser, nil)
	players := entrants(3)
	players[2]["email"] = "Ann@example.org"
	h.refused(t, http.StatusUnprocessableEntity, "address_suppressed", "POST", "/v1/tournaments", s.organiser, map[string]any{
		"name": "Cup", "format": "round_robin", "players": players,
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 24}})
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("refused requests sent %v", subjects(mail))
	}
	// Ann can still sign in.
	h.login("ann@example.org")

	// Only this link's own kind of token is accepted.
	unsub := regexp.MustCompile(`/unsubscribe\?t=(\S+)`).FindStringSubmatch(only(t, mailOf(t, h, "dan@example.org"), "dan@example.org").Text)
	h.refused(t, http.StatusBadRequest, "invalid_link", "POST", "/never-email?t="+unsub[1], "", nil)
	h.refused(t, http.StatusBadRequest, "invalid_link", "POST", "/never-email?t="+s.white, "", nil)
	h.do("GET", "/v1/me", strings.TrimPrefix(stop, "/never-email?t="), nil).want(t, http.StatusUnauthorized, "unauthorized")
}

// neverEmailPath gets a game email to addr and returns its never-email link.
func neverEmailPath(t *testing.T, h *harness, addr string) string {
	t.Helper()
	return neverEmailLink(t, only(t, mailOf(t, h, addr), addr))
}

// mailOf has a new game invite addr, and returns the mail it sent.
func mailOf(t *testing.T, h *harness, addr string) []notify.Message {
	t.Helper()
	h.do("POST", "/v1/games", h.login("inviter@example.org"), map[string]any{"players": []map[string]any{
		{"name": "Inviter", "email": "inviter@example.org"}, {"name": "Guest", "email": addr}},
		"board": map[string]any{"walls": strings.Repeat("0", 60)}}).want(t, http.StatusCreated)
	return h.deliver()
}

// One mailbox is one account and one seat, however its address is written.
func TestAddressesAreNormalized(t *testing.T) {
	h := newMailAttackHarness(t)
	var me1, me2 struct {
		ID    int64  `json:"id"`
		Email string `json:"email"`
	}
	ann := h.login("ann@example.org")
	h.do("GET", "/v1/me", ann, nil).want(t, http.StatusOK).decode(t, &me1)
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "Ann@Example.org"}).want(t, http.StatusAccepted)
	m := only(t, h.deliver(), "ann@example.org")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	h.do("POST", "/v1/auth/token", "", map[string]any{"token": loginTokenRE.FindStringSubmatch(m.Text)[1]}).
		want(t, http.StatusOK).decode(t, &tok)
	h.do("GET", "/v1/me", tok.AccessToken, nil).want(t, http.StatusOK).decode(t, &me2)
	if me1 != me2 {
		t.Errorf("Ann@Example.org signed in as %+v, ann@example.org as %+v", me2, me1)
	}

	// The domain is IDNA-encoded.
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "jörg@Bücher.example"}).want(t, http.StatusAccepted)
	only(t, h.deliver(), "jörg@xn--bcher-kva.example")

	org := h.login("org@example.org")
	two := func(a, b string) map[string]any {
		return map[string]any{"players": []map[string]any{{"name": "A", "email": a}, {"name": "B", "email": b}},
			"board": map[string]any{"walls": strings.Repeat("0", 60)}}
	}
	h.refused(t, http.StatusUnprocessableEntity, "duplicate_address", "POST", "/v1/games", org, two("ann@example.org", "ANN@example.org"))
	h.refused(t, http.StatusUnprocessableEntity, "duplicate_address", "POST", "/v1/games", org,
		two("bob@bücher.example", "bob@xn--bcher-kva.example"))
	h.refused(t, http.StatusUnprocessableEntity, "email_domain_literal", "POST", "/v1/games", org, two("ann@[127.0.0.1]", "bob@example.org"))
	h.refused(t, http.StatusUnprocessableEntity, "email_domain_literal", "POST", "/v1/auth/login", "", map[string]any{"email": "ann@[127.0.0.1]"})
	players := entrants(3)
	players[2]["email"] = "P0@example.org"
	h.refused(t, http.StatusUnprocessableEntity, "duplicate_address", "POST", "/v1/tournaments", org, map[string]any{
		"name": "Cup", "format": "round_robin", "players": players,
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 24}})

	// A seat written with capitals is the account's seat.
	var g gameJSON
	h.do("POST", "/v1/games", org, two("ANN@EXAMPLE.ORG", "bob@example.org")).want(t, http.StatusCreated).decode(t, &g)
	h.do("GET", "/v1/games/"+g.ID, ann, nil).want(t, http.StatusOK).decode(t, &g)
	if len(g.YourColors) != 1 || g.YourColors[0] != "white" {
		t.Errorf("ann's colours in a game inviting ANN@EXAMPLE.ORG: %v", g.YourColors)
	}
	if n := countMailTo(h.deliver(), "ann@example.org"); n != 1 {
		t.Errorf("%d invitations to ann@example.org, want 1", n)
	}
}

// An attacker who invites a stranger and then plays on gets no more mail
// through than his invitations: the turns of a game the stranger has not
// played in count against his budget, and over it they are left out (the
// turn itself is played). Once he plays a turn, the game is his, and its
// mail always comes.
func TestTurnsOfUnansweredGamesCountAgainstTheBudget(t *testing.T) {
	h := newMailAttackHarness(t)
	const victim = "victim@example.org"
	mallory := h.login("mallory@evil.example")
	game := map[string]any{"players": []map[string]any{
		{"name": "Mallory", "email": "mallory@evil.example"}, {"name": "Victim", "email": victim}},
		"board": map[string]any{"walls": strings.Repeat("0", 60)}}
	var first, last gameJSON
	for i := range domain.DefaultMailLimits.RecipientPerDay {
		var g gameJSON
		h.do("POST", "/v1/games", mallory, game).want(t, http.StatusCreated).decode(t, &g)
		if i == 0 {
			first = g
		}
		last = g
	}
	mail := h.deliver()
	if n := countMailTo(mail, victim); n != domain.DefaultMailLimits.RecipientPerDay {
		t.Fatalf("the victim got %d invitations, want %d", n, domain.DefaultMailLimits.RecipientPerDay)
	}
	var victimLink string
	for _, m := range mail {
		if id, token := moveLink(t, m); m.To == victim && id == first.ID {
			victimLink = token
		}
	}
	turn := map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}
	h.do("POST", "/v1/games/"+last.ID+"/turns", mallory, turn).want(t, http.StatusCreated)
	h.do("POST", "/v1/games/"+first.ID+"/turns", mallory, turn).want(t, http.StatusCreated)
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("turns of unanswered games over budget sent %v", subjects(mail))
	}
	// The victim answers the first game: from now on it is his.
	h.do("POST", "/v1/games/"+first.ID+"/turns", victimLink, map[string]any{"turn": "b2c2:c2d2:d2d3", "ply": 1}).
		want(t, http.StatusCreated)
	h.deliver()
	h.do("POST", "/v1/games/"+first.ID+"/turns", mallory, map[string]any{"turn": "c4c3:c3c2:c2c1", "ply": 2}).
		want(t, http.StatusCreated)
	only(t, h.deliver(), victim)
}

// A tournament's mail carries the never-email link too, byes included.
func TestTournamentMailCarriesNeverEmailLink(t *testing.T) {
	h := newHarness(t)
	org := h.login("org@example.org")
	h.do("POST", "/v1/tournaments", org, map[string]any{"name": "Cup", "format": "round_robin", "players": entrants(3),
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 24}}).want(t, http.StatusCreated)
	h.clock.Advance(time.Hour)
	h.tickAll()
	mail := h.deliver()
	byes := 0
	for _, m := range mail {
		neverEmailLink(t, m)
		if strings.Contains(m.Text, "you have a bye") {
			byes++
		}
	}
	if len(mail) != 3 || byes != 1 {
		t.Errorf("round 1 sent %v, want two invitations and a bye", subjects(mail))
	}
}
