package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// a11yPage is a page the accessibility test opens: its address, what shows
// it is ready, and then steps that bring it to the states checked (each
// checked by axe under its own name).
type a11yPage struct {
	name  string
	url   func(t *testing.T) string // called when the page is opened: a sign-in link is used once
	ready string
	then  func(p *page)
}

// Every page, at a phone's size (as a phone) and a desktop's, with axe-core:
// no serious or critical violation (issue 18 item 10). The play page for
// Less with two and four players, with a piece selected, a move made, an
// illegal turn's alert and the question before resigning; Les at its setup,
// in a turn and finished (its holes shaded); the spectator's view, a
// finished game and its replay, a link without its token; the sign-in page
// asking, and listing games with the new game's form; the tournament pages
// (round robin, knockout, teams); the unsubscribe page before and after its
// button, and never-email; the rules pages of both games.
func TestPagesAreAccessible(t *testing.T) {
	h := newHarness(t)

	roundRobin := startLiveRound(t, h, "Winter Cup", "round_robin", entrants(5))
	knockout := startLiveRound(t, h, "Knockout Cup", "knockout", entrants(7))
	var teams teamTournamentJSON
	h.do("POST", "/v1/tournaments", h.login("org@example.org"), map[string]any{"name": "Pairs Cup", "format": "round_robin", "teams": true,
		"players": teamEntries(4, true), "schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 72}}).
		want(t, http.StatusCreated).decode(t, &teams)
	h.clock.Advance(time.Hour)
	h.tickAll()
	h.deliver()

	less2, ann, _ := newGame(t, h, twoPlayers(wallBoard))
	var spectated struct {
		SpectatorURL string `json:"spectator_url"`
	}
	h.do("GET", "/v1/games/"+less2, ann, nil).want(t, http.StatusOK).decode(t, &spectated)
	finished, ann2, bob2 := newGame(t, h, twoPlayers(openBoard))
	h.do("POST", "/v1/games/"+finished+"/turns", ann2, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
	h.do("POST", "/v1/games/"+finished+"/resign", bob2, nil).want(t, http.StatusOK)
	var four gameJSON
	var players []map[string]any
	for _, name := range []string{"Yan", "Bea", "Wim", "Rae"} {
		players = append(players, map[string]any{"name": name, "email": strings.ToLower(name) + "@example.org"})
	}
	h.do("POST", "/v1/games", h.login("org@example.org"), map[string]any{"players": players, "board": map[string]any{"seed": "11"}}).
		want(t, http.StatusCreated).decode(t, &four)
	_, yan := moveLink(t, only(t, h.deliver(), "yan@example.org"))
	// The organiser signs in for every game: an hour on, the limit on
	// sign-in links per address starts again.
	h.clock.Advance(time.Hour)
	les, seats := newLesGame(t, h, 9, "")
	lesCase := lesGameCase(t, true)
	lesTurn, lesTurnSeats := newLesGame(t, h, lesCase.Size, "")
	lesMover := *playLes(t, h, lesTurn, lesTurnSeats, []string{lesCase.Setup, lesCase.Choice}).ToMove
	lesOver, lesOverSeats := newLesGame(t, h, lesCase.Size, "")
	if g := playLes(t, h, lesOver, lesOverSeats, append([]string{lesCase.Setup, lesCase.Choice}, lesCase.Turns...)); g.Status != "finished" {
		t.Fatalf("the vectors' game of Les did not finish: %+v", g)
	}
	h.deliver()

	// The footer links of an invitation to a new player.
	h.do("POST", "/v1/games", h.login("org@example.org"), map[string]any{"players": []map[string]any{
		{"name": "Dee", "email": "dee@example.org"}, {"name": "Eve", "email": "eve@example.org"}}}).want(t, http.StatusCreated)
	invitation := only(t, h.deliver(), "dee@example.org")
	unsubscribe, never := h.pageURL(invitation.Unsubscribe), h.url+neverEmailLink(t, invitation)
	// A public profile: Dee's, with her game against Eve in progress.
	dee := h.login("dee@example.org")
	h.do("PUT", "/v1/me/handle", dee, map[string]any{"handle": "Dee"}).want(t, http.StatusOK)
	h.do("PATCH", "/v1/me/profile", dee, map[string]any{"country": "DE", "languages": []string{"de", "en"}, "bio": "Plays by email."}).
		want(t, http.StatusOK)

	fixed := func(url string) func(*testing.T) string { return func(*testing.T) string { return url } }
	loaded := `!document.body.classList.contains('loading')`
	pages := []a11yPage{
		{name: "login-ask", url: fixed(h.url + "/login"), ready: `!document.querySelector('#ask').hidden`},
		// Before signing in: a play link without its token.
		{name: "play-bad-link", url: fixed(h.url + "/play/" + finished), ready: `!document.getElementById('fatal').hidden`},
		{name: "login-games", url: func(t *testing.T) string {
			h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
			link := loginLinkRE.FindString(only(t, h.deliver(), "ann@example.org").Text)
			if link == "" {
				t.Fatal("no sign-in link")
			}
			return h.pageURL(link)
		}, ready: `document.querySelector('#games a')`},
		{name: "play-less-2p", url: fixed(h.url + "/play/" + less2 + "#t=" + ann), ready: loaded + ` && document.querySelector('#board .movable')`,
			then: func(p *page) {
				p.click(`[data-sq="e5"]`)
				p.waitFor("destinations", `document.querySelector('#board .dest')`)
				p.axe("play-less-2p-selected")
				p.click(`.dest[data-sq="d5"]`)
				p.waitFor("the move", `document.getElementById('notation').value === 'e5d5'`)
				p.axe("play-less-2p-moved")
				p.click("#clear")
				p.waitFor("the moves taken back", `document.getElementById('notation').value === ''`)
				p.do("type an illegal turn", chromedp.SendKeys(chromedp.CSS("#notation"), "e5e4:e4e2\n"))
				p.waitFor("the error", `!document.getElementById('alert').hidden`)
				p.axe("play-less-2p-illegal")
				p.click("#resign-ask")
				p.waitFor("the question", `!document.getElementById('resign-confirm').hidden`)
				p.axe("play-less-2p-resign")
				p.click("#resign-no")
			}},
		{name: "play-less-4p", url: fixed(h.url + "/play/" + four.ID + "#t=" + yan), ready: loaded + ` && document.querySelector('#board .movable')`},
		{name: "play-les-setup", url: fixed(h.url + "/play/" + les + "#t=" + seats["setter"]), ready: loaded + ` && document.querySelector('#board .legal')`},
		{name: "play-les-turn", url: fixed(h.url + "/play/" + lesTurn + "#t=" + lesTurnSeats[lesMover]), ready: loaded + ` && document.querySelector('#board .legal')`},
		{name: "play-les-finished", url: fixed(h.url + "/play/" + lesOver + "#t=" + lesOverSeats["chooser"]), ready: loaded + ` && !document.getElementById('result').hidden`},
		{name: "play-spectator", url: fixed(h.pageURL(spectated.SpectatorURL)), ready: loaded + ` && !document.getElementById('spectating').hidden`},
		{name: "play-finished", url: fixed(h.url + "/play/" + finished + "#t=" + ann2), ready: loaded + ` && !document.getElementById('result').hidden`,
			then: func(p *page) {
				p.click("#replay-prev")
				p.waitFor("the board at the start", `document.getElementById('replay-prev').disabled`)
				p.axe("play-finished-replay")
			}},
		{name: "tournament-round-robin", url: fixed(h.url + "/tournaments/" + roundRobin.tour.ID), ready: `document.querySelector('table.crosstable')`},
		{name: "tournament-knockout", url: fixed(h.url + "/tournaments/" + knockout.tour.ID), ready: `document.querySelector('#bracket .match')`},
		{name: "tournament-teams", url: fixed(h.url + "/tournaments/" + teams.ID), ready: `document.querySelector('table.crosstable')`},
		{name: "unsubscribe", url: fixed(unsubscribe), ready: `document.querySelector('form button')`,
			then: func(p *page) {
				p.click("form button")
				p.waitFor("the page after the button", `document.readyState === 'complete' && document.querySelector('form[action^="/resubscribe"]')`)
				p.axe("unsubscribe-done")
			}},
		{name: "never-email", url: fixed(never), ready: `document.querySelector('form button')`},
		{name: "rules-less", url: fixed(h.url + "/rules?lang=fr"), ready: `document.querySelector('h1')`},
		{name: "rules-les", url: fixed(h.url + "/rules/les?lang=de"), ready: `document.querySelector('h1')`},
		{name: "player-profile", url: fixed(h.url + "/players/Dee?lang=de"), ready: `document.querySelector('h1')`},
	}
	for _, size := range []screenSize{{390, 844, true}, {1280, 800, false}} {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			var p *page
			if size.phone {
				p = phone(t, size.width, size.height)
			} else {
				p = openBrowser(t, size.width, size.height)
			}
			for _, pg := range pages {
				p.do("open "+pg.name, chromedp.Navigate(pg.url(t)))
				p.waitFor(pg.name, pg.ready)
				p.axe(pg.name)
				if pg.then != nil {
					pg.then(p)
				}
			}
		})
	}
}

// The check can fail: on the sign-in page with an image without a text, a
// button without a name and grey text on grey added, axe finds each of
// them, as serious or critical.
func TestAxeFindsViolations(t *testing.T) {
	h := newHarness(t)
	p := openBrowser(t, 1280, 800)
	p.do("open the sign-in page", chromedp.Navigate(h.url+"/login"))
	p.waitFor("the sign-in form", `!document.querySelector('#ask').hidden`)
	// Styles set through the CSSOM: the page's CSP forbids style attributes.
	eval[any](p, `(() => {
		const main = document.querySelector('main') || document.body;
		main.insertAdjacentHTML('beforeend', '<img src="/assets/icon.svg"><button id="nameless"></button><p id="grey">unreadable</p>');
		Object.assign(document.getElementById('grey').style, {color: '#999', background: '#aaa'});
	})()`)
	got := map[string]string{}
	for _, v := range p.axeViolations() {
		got[v.ID] = v.Impact
	}
	for _, rule := range []string{"image-alt", "button-name", "color-contrast"} {
		if impact := got[rule]; impact != "serious" && impact != "critical" {
			t.Errorf("axe rule %s: impact %q, want serious or critical (all: %v)", rule, impact, got)
		}
	}
}

// A screen reader hears the game: each move made from the keyboard, a move
// taken back, the turn sent, the opponent's turn when it arrives, and the
// result, from live regions (the visually hidden #announce, the notice, the
// status line).
func TestPlayPageAnnouncesMoves(t *testing.T) {
	h := newHarness(t)
	id, ann, bob := newGame(t, h, twoPlayers(wallBoard))
	p := openBrowser(t, 1280, 800)
	p.open(h.url + "/play/" + id + "#t=" + ann)
	p.waitFor("White's pieces to be movable", `document.querySelector('#board .movable')`)

	region := eval[map[string]any](p, `(() => {
		const e = document.getElementById('announce'), r = e.getBoundingClientRect();
		return {role: e.getAttribute('role'), hidden: e.hidden || getComputedStyle(e).display === 'none', width: r.width, text: e.textContent};
	})()`)
	if region["role"] != "status" || region["hidden"] != false || region["width"].(float64) > 1 || region["text"] != "" {
		t.Fatalf("#announce is %v, want an empty, visually hidden role=status region", region)
	}
	// Each move is announced at once; the next key waits for the piece to
	// be in hand again, as a person waits for the board to show it.
	announced := func(what, want string) {
		t.Helper()
		p.waitFor(what, `document.getElementById('announce').textContent === `+jsString(want))
	}
	inHand := func(sq string) {
		t.Helper()
		p.waitFor(sq+" in hand", `document.querySelector('.sq[data-sq="`+sq+`"]').getAttribute('aria-selected') === 'true'`)
	}
	p.do("choose e5 and move it to d5 with the keyboard",
		chromedp.Focus(chromedp.CSS(`#board [tabindex="0"]`)),
		chromedp.KeyEvent(kb.ArrowDown+kb.ArrowDown+kb.ArrowDown+kb.ArrowDown),
		chromedp.KeyEvent(kb.ArrowRight+kb.ArrowRight+kb.ArrowRight+kb.ArrowRight),
		chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter))
	announced("the first move", "e5 to d5, 1 point")
	inHand("d5")
	// d5 stays in hand: on to c5, then down to c4 across no wall.
	p.do("d5 to c5", chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter))
	announced("the second move", "d5 to c5, 1 point")
	inHand("c5")
	p.do("undo", chromedp.Click(chromedp.CSS("#undo")))
	announced("the undo", "Taken back.")
	p.waitFor("the undo on the board", `document.querySelector('.piece[data-sq="d5"]') && document.getElementById('notation').value === 'e5d5'`)
	// The board's tab stop is where the keys left it, on c5.
	p.do("back to the board, down to d5", chromedp.Focus(chromedp.CSS(`#board [tabindex="0"]`)), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter))
	inHand("d5")
	p.do("to c5", chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter))
	announced("the move again", "d5 to c5, 1 point")
	inHand("c5")
	p.do("c5 to c4", chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.Enter))
	announced("the third move", "c5 to c4, 1 point")
	p.waitFor("the turn complete", `document.getElementById('meter-text').textContent === '3 of 3 points used, 0 left'`)
	p.do("submit", chromedp.Click(chromedp.CSS("#submit")))
	p.waitFor("the played notice", `!document.getElementById('notice').hidden`)
	if got := p.text("#notice"); !strings.HasPrefix(got, "White played e5d5:d5c5:c5c4.") || eval[string](p, `document.getElementById('notice').getAttribute('role')`) != "status" {
		t.Errorf("notice %q, or not a live region", got)
	}

	// Black plays over the API: the page, polling, says so, and that it is
	// White's turn again.
	black := bestOpening(t, h, id, bob)
	h.do("POST", "/v1/games/"+id+"/turns", bob, map[string]any{"turn": black, "ply": 1}).want(t, http.StatusCreated)
	p.do("show the tab again", chromedp.Evaluate[chromedp.Void](`document.dispatchEvent(new Event('visibilitychange'))`))
	announced("Black's turn", "Black played "+black+".")
	if got := p.text("#status"); !strings.HasPrefix(got, "Your turn") || eval[string](p, `document.getElementById('status').getAttribute('aria-live')`) != "polite" {
		t.Errorf("status %q, or not a live region", got)
	}
}

// In a game of Les each stone placed from the keyboard is announced.
func TestLesPageAnnouncesStones(t *testing.T) {
	h := newHarness(t)
	id, seats := newLesGame(t, h, 3, "")
	p := openBrowser(t, 1280, 800)
	p.open(h.url + "/play/" + id + "#t=" + seats["setter"])
	p.waitFor("the setup's points", `document.querySelector('#board .legal')`)
	p.do("go to a2 and place B1", chromedp.Focus(chromedp.CSS(`#board [tabindex="0"]`)),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter))
	p.waitFor("B1 announced", `document.getElementById('announce').textContent === 'Black stone on a2'`)
	p.do("undo", chromedp.Click(chromedp.CSS("#undo")))
	p.waitFor("the undo announced", `document.getElementById('announce').textContent === 'Taken back.'`)
}
