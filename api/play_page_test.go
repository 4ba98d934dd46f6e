package api_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// openBoard is a 6x6 board without walls: every step costs 1.
var openBoard = strings.Repeat("0", 60)

// wallBoard is a 6x6 board with single and double walls (B4, row by row):
// e5 steps to e4 across a double wall (3) and to d5 across none (1).
const wallBoard = "02010" + "001200" + "10002" + "020010" + "00100" + "100002" +
	"02000" + "001100" + "10020" + "200010" + "00110"

// newGame creates a two-player game (Ann is White, Bob is Black) and returns
// its id and the seat tokens from the invitations.
func newGame(t *testing.T, h *harness, req map[string]any) (id, ann, bob string) {
	t.Helper()
	var g gameJSON
	h.do("POST", "/v1/games", h.login("org@example.org"), req).want(t, http.StatusCreated).decode(t, &g)
	mail := h.deliver()
	_, ann = moveLink(t, only(t, mail, "ann@example.org"))
	_, bob = moveLink(t, only(t, mail, "bob@example.org"))
	return g.ID, ann, bob
}

func (h *harness) game(id, token string) gameJSON {
	h.t.Helper()
	var g gameJSON
	h.do("GET", "/v1/games/"+id, token, nil).want(h.t, http.StatusOK).decode(h.t, &g)
	return g
}

// The main path: White opens the move link from her invitation, makes
// a three-point turn by clicking pieces and squares, and submits it; the
// game is stored and Black is emailed his move link.
func TestPlayPageTurnByClicking(t *testing.T) {
	h := newHarness(t)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + ann)

	if href := eval[string](p, "location.href"); strings.Contains(href, ann) || strings.Contains(href, "#") {
		t.Fatalf("the token is still in the address bar: %s", href)
	}
	if got := eval[string](p, "sessionStorage.getItem('lesspost.game."+id+"')"); got != ann {
		t.Fatal("the token is not kept in sessionStorage for the session")
	}
	if !strings.Contains(p.text("#status"), "Your turn") || !p.visible("#turn") {
		t.Fatalf("status %q; turn panel visible: %v", p.text("#status"), p.visible("#turn"))
	}

	p.click(`[data-sq="e5"]`)
	p.waitFor("e5's destinations", `document.querySelector('.dest[data-sq="e4"]')`)
	if got := p.text(`.dest[data-sq="e4"] text`); got != "1" {
		t.Errorf("cost label of e4 %q, want 1", got)
	}
	for i, sq := range []string{"e4", "d4", "c4"} {
		// After a move the piece stays in hand, so its next squares show at once.
		p.waitFor("destination "+sq, `document.querySelector('.dest[data-sq="`+sq+`"]')`)
		p.click(`.dest[data-sq="` + sq + `"]`)
		used := string(rune('1' + i))
		p.waitFor("the meter after move "+used, `document.getElementById('meter-text').textContent.startsWith('`+used+` of 3 points used')`)
	}
	saveScreenshot(t, p, "play-1280-3-moves.png")
	if got := p.text("#meter-text"); got != "3 of 3 points used, 0 left" {
		t.Errorf("meter %q", got)
	}
	if got := eval[string](p, "document.getElementById('notation').value"); got != "e5e4:e4d4:d4c4" {
		t.Errorf("notation box %q, want the moves", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#meter .used').length`); n != 3 {
		t.Errorf("%d of 3 pips used", n)
	}
	p.waitFor("Submit to be enabled", `!document.getElementById('submit').disabled`)
	p.click("#submit")
	p.waitFor("the played notice", `!document.getElementById('notice').hidden`)
	if got, want := p.text("#notice"), "White played e5e4:e4d4:d4c4. Black (Bob) plays next and has been emailed."; got != want {
		t.Errorf("notice %q, want %q", got, want)
	}
	if p.visible("#turn") || !strings.Contains(p.text("#status"), "Black (Bob) to move") {
		t.Errorf("after the turn: status %q, panel visible %v", p.text("#status"), p.visible("#turn"))
	}
	if n := eval[int](p, `document.querySelectorAll('.path-last').length`); n != 3 {
		t.Errorf("the last turn's path has %d segments, want 3", n)
	}
	if got := p.text("#history li"); !strings.Contains(got, "e5e4:e4d4:d4c4") {
		t.Errorf("history %q", got)
	}
	saveScreenshot(t, p, "play-1280-played.png")

	g := h.game(id, ann)
	white := slices.Clone(g.Pieces["white"])
	slices.Sort(white)
	if g.Ply != 1 || *g.ToMove != "black" || !slices.Equal(white, []string{"c4", "e6", "f5", "f6"}) || g.Counts["white"] != 3 {
		t.Fatalf("stored game: ply %d, to move %s, white %v, counts %v", g.Ply, *g.ToMove, white, g.Counts)
	}
	next := only(t, h.deliver(), "bob@example.org")
	if gameID, _ := moveLink(t, next); gameID != id {
		t.Fatalf("Bob's email links to game %s", gameID)
	}
}

// A turn typed in notation that breaks a rule is refused with the rule's
// number and a plain explanation, and changes nothing.
func TestPlayPageIllegalTurnShowsRule(t *testing.T) {
	h := newHarness(t)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + ann)
	p.waitFor("the turn panel", `!document.getElementById('turn').hidden`)

	p.do("type an illegal turn", chromedp.SendKeys(chromedp.CSS("#notation"), "e5e4:e4e2\n"))
	p.waitFor("the error", `!document.getElementById('alert').hidden`)
	alert := p.text("#alert")
	for _, want := range []string{"Not allowed (rule M3) in move 2", "A jump must go over a piece", "nothing_to_jump"} {
		if !strings.Contains(alert, want) {
			t.Errorf("alert %q does not say %q", alert, want)
		}
	}
	if eval[int](p, `document.querySelectorAll('#moves li').length`) != 0 ||
		!p.visible(`.piece[data-sq="e5"]`) || p.visible(`.piece[data-sq="e4"]`) {
		t.Error("the illegal turn changed the board")
	}
	if g := h.game(id, ann); g.Ply != 0 {
		t.Errorf("ply %d after an illegal attempt", g.Ply)
	}
	saveScreenshot(t, p, "play-1280-illegal.png")
	if eval[bool](p, `!document.getElementById('submit').disabled`) {
		t.Error("Submit is enabled with no moves made")
	}
}

// The spectator link shows the same page, read-only.
func TestPlayPageSpectator(t *testing.T) {
	h := newHarness(t)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	var g struct {
		SpectatorURL string `json:"spectator_url"`
	}
	h.do("GET", "/v1/games/"+id, ann, nil).want(t, http.StatusOK).decode(t, &g)
	p := openBrowser(t, 1280, 900)
	p.open(h.pageURL(g.SpectatorURL))

	if !p.visible("#spectating") || p.visible("#turn") || p.visible("#submit") {
		t.Fatalf("spectator sees the turn panel (spectating note %v)", p.visible("#spectating"))
	}
	if got := p.text("#status"); got != "White (Ann) to move" {
		t.Errorf("status %q", got)
	}
	if eval[int](p, `document.querySelectorAll('.piece').length`) != 8 {
		t.Error("the board does not show the 8 pieces")
	}
	p.click(`[data-sq="e5"]`)
	if eval[int](p, `document.querySelectorAll('#board .dest, #board .selected, #board .movable').length`) != 0 {
		t.Error("a spectator's click selected a piece")
	}
	// The help for choosing moves is the mover's, not his; the board's
	// legend (walls, the last turn) is everyone's.
	for _, sel := range []string{"#board-help", `[data-i18n="legend.cost"]`} {
		if p.visible(sel) {
			t.Errorf("the spectator sees the mover's help %s", sel)
		}
	}
	if !p.visible(`[data-i18n="legend.last"]`) || !p.visible(`[data-i18n="legend.wall"]`) {
		t.Error("the spectator does not see the board's legend")
	}
	// No goal is his, but the rules are everyone's.
	if p.visible("#goal-text") || !p.visible("#rules-link") || eval[string](p, `document.getElementById('rules-link').getAttribute('href')`) != "/rules?lang=en" {
		t.Errorf("spectator: goal shown %v, rules link shown %v", p.visible("#goal-text"), p.visible("#rules-link"))
	}
	saveScreenshot(t, p, "play-1280-spectator.png")

	// The player herself still has it.
	p.open(h.url + "/play/" + id + "#t=" + ann)
	p.waitFor("the turn panel", `!document.getElementById('turn').hidden`)
	if !p.visible("#board-help") || !p.visible(`[data-i18n="legend.cost"]`) {
		t.Error("the player lost the help for choosing moves")
	}
}

// At 360 CSS pixels (a small phone) nothing is wider than the screen, with a
// piece selected, on the two- and the four-player board.
func TestPlayPageFitsSmallPhone(t *testing.T) {
	h := newHarness(t)
	id, ann, _ := newGame(t, h, twoPlayers(wallBoard))
	p := phone(t, 360, 740)
	p.open(h.url + "/play/" + id + "#t=" + ann)
	p.waitFor("the turn panel", `!document.getElementById('turn').hidden && document.querySelector('.movable')`)
	p.click(`[data-sq="e5"]`)
	p.waitFor("destinations", `document.querySelector('#board .dest')`)
	if got := p.text(`.dest[data-sq="e4"] text`) + p.text(`.dest[data-sq="d5"] text`); got != "31" {
		t.Errorf("costs of e5e4 and e5d5 %q, want 3 (a double wall) and 1", got)
	}
	if w := eval[int](p, "document.scrollingElement.scrollWidth"); w > 360 {
		t.Errorf("two-player page is %d px wide at 360", w)
	}
	// Squares are big enough to tap (at least 40 px).
	if size := eval[float64](p, `document.querySelector('[data-sq="a1"] .bg').getBoundingClientRect().width`); size < 40 {
		t.Errorf("a square is %.0f px wide", size)
	}
	saveScreenshot(t, p, "play-360-2p.png")

	var g4 gameJSON
	players := []map[string]any{}
	for _, name := range []string{"Yan", "Bea", "Wim", "Rae"} {
		players = append(players, map[string]any{"name": name, "email": strings.ToLower(name) + "@example.org"})
	}
	h.do("POST", "/v1/games", h.login("org@example.org"), map[string]any{"players": players, "board": map[string]any{"seed": "11"}}).
		want(t, http.StatusCreated).decode(t, &g4)
	_, yan := moveLink(t, only(t, h.deliver(), "yan@example.org"))
	p.open(h.url + "/play/" + g4.ID + "#t=" + yan)
	p.waitFor("the four-player board", `document.querySelectorAll('.piece').length === 16 && document.querySelector('.movable')`)
	if w := eval[int](p, "document.scrollingElement.scrollWidth"); w > 360 {
		t.Errorf("four-player page is %d px wide at 360", w)
	}
	saveScreenshot(t, p, "play-360-4p.png")
}

// saveScreenshot keeps a picture of the page in $LESSPOST_SCREENSHOTS, for
// people judging the design; without the variable it does nothing.
func saveScreenshot(t *testing.T, p *page, name string) {
	t.Helper()
	dir := os.Getenv("LESSPOST_SCREENSHOTS")
	if dir == "" {
		return
	}
	if err := p.screenshot(filepath.Join(dir, name)); err != nil {
		t.Errorf("screenshot %s: %v", name, err)
	}
}

// The page speaks the player's language: the locale of his seat.
func TestPlayPageSpeaksPlayersLocale(t *testing.T) {
	h := newHarness(t)
	req := twoPlayers(openBoard)
	req["players"].([]map[string]any)[0]["locale"] = "de"
	id, ann, _ := newGame(t, h, req)
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + ann)

	if lang := eval[string](p, "document.documentElement.lang"); lang != "de" {
		t.Errorf("lang %q, want de", lang)
	}
	if got := p.text("#status"); got != "Du bist an der Reihe: Du spielst Weiß" {
		t.Errorf("status %q", got)
	}
	if got := p.text("#submit"); got != "Runde abschicken" {
		t.Errorf("submit button %q", got)
	}
	// The goal in words, as the invitation says it, and the rules in German.
	if got, want := p.text("#goal-text"), "Bring deine 4 Spielsteine nach a1–b2 (oben links)."; got != want || !p.visible("#goal-text") {
		t.Errorf("goal %q, want %q", got, want)
	}
	if got := eval[string](p, `document.getElementById('rules-link').getAttribute('href')`); got != "/rules?lang=de" {
		t.Errorf("rules link %q", got)
	}
	if got := p.text("#rules-link"); got != "Spielregeln" {
		t.Errorf("rules link text %q", got)
	}
	p.click(`[data-sq="e5"]`)
	p.waitFor("a destination", `document.querySelector('.dest[data-sq="e4"]')`)
	label := eval[string](p, `document.querySelector('.sq[data-sq="e4"]').getAttribute('aria-label')`)
	if !strings.Contains(label, "hierher ziehen, zählt 1 Spielzug") {
		t.Errorf("square label %q", label)
	}
	saveScreenshot(t, p, "play-1280-de.png")

	// Every language has every string of the English catalog.
	missing, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]string](`import('/assets/i18n.js').then(({catalogs}) =>
		Object.entries(catalogs).flatMap(([locale, c]) =>
			Object.keys(catalogs.en).filter((k) => !(k in c)).map((k) => locale + ': ' + k)))`, chromedp.EvalAwaitPromise))
	if err != nil || len(missing) > 0 {
		t.Errorf("strings missing from the catalogs: %v (%v)", missing, err)
	}
}

// A finished game shows its result, and nothing to play.
func TestPlayPageFinishedGame(t *testing.T) {
	h := newHarness(t)
	id, ann, bob := newGame(t, h, twoPlayers(openBoard))
	h.do("POST", "/v1/games/"+id+"/resign", bob, nil).want(t, http.StatusOK)
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + ann)
	// E8: the side that resigns loses by at least 10, whatever the totals.
	want := "White wins by 10 points. Totals: White 16, Black 16. Black resigned."
	if got := p.text("#result"); got != want {
		t.Errorf("result %q, want %q", got, want)
	}
	if got := p.text("#status"); got != "Game over: "+want || p.visible("#turn") || p.visible("#spectating") {
		t.Errorf("status %q, turn panel %v", got, p.visible("#turn"))
	}
}

// A link without a usable token says what to do instead of failing silently.
func TestPlayPageBadLink(t *testing.T) {
	h := newHarness(t)
	id, _, _ := newGame(t, h, twoPlayers(openBoard))
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id)
	if got := p.text("#fatal .text"); !strings.Contains(got, "Open this game with the link in your email") {
		t.Errorf("without a token: %q", got)
	}
	// The same page with a token in the fragment: a same-document navigation,
	// which the page answers by starting again with that token.
	p.do("open a link with a bad token", chromedp.Navigate(h.url+"/play/"+id+"#t=not-a-token"))
	p.waitFor("the error", `document.querySelector('#fatal .text').textContent.includes('not valid')`)
	if got := p.text("#fatal .text"); !strings.Contains(got, "This link is not valid or has expired") || p.visible("#game") {
		t.Errorf("with a bad token: %q", got)
	}
}

var loginLinkRE = regexp.MustCompile(`http://lesspost\.test/login#t=(\S+)`)

// The sign-in link of the login email opens the sign-in page, which lists
// the player's games; from there the play page works with the account token.
func TestLoginPageListsGamesAndPlays(t *testing.T) {
	h := newHarness(t)
	id, _, _ := newGame(t, h, twoPlayers(openBoard))
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
	m := only(t, h.deliver(), "ann@example.org")
	link := loginLinkRE.FindString(m.Text)
	if link == "" {
		t.Fatalf("no sign-in link in:\n%s", m.Text)
	}
	p := openBrowser(t, 1280, 900)
	p.do("open the sign-in link", chromedp.Navigate(h.pageURL(link)))
	p.waitFor("the games", `document.querySelector('#games a')`)
	if href := eval[string](p, "location.href"); strings.Contains(href, "#") {
		t.Fatalf("the login token is still in the address bar: %s", href)
	}
	if got := p.text("#games li"); !strings.Contains(got, "vs Bob (Black)") || !strings.Contains(got, "your turn") {
		t.Errorf("game line %q", got)
	}
	saveScreenshot(t, p, "login-1280.png")

	// The account token has expired by now: the play page renews it.
	h.clock.Advance(20 * time.Minute)
	p.click("#games a")
	p.waitFor("the play page", `location.pathname === '/play/`+id+`' && !document.body.classList.contains('loading')`)
	if !strings.Contains(p.text("#status"), "Your turn") || !p.visible("#turn") {
		t.Fatalf("with the account token: status %q", p.text("#status"))
	}
	p.click(`[data-sq="e5"]`)
	p.waitFor("a destination", `document.querySelector('.dest[data-sq="e4"]')`)

	// And so does the sign-in page, until the player signs out.
	h.clock.Advance(20 * time.Minute)
	p.open(h.url + "/login")
	p.waitFor("the games again", `document.querySelector('#games a')`)
	p.click("#sign-out")
	p.waitFor("signed out", `!sessionStorage.getItem('lesspost.account') && !sessionStorage.getItem('lesspost.refresh')`)
	p.open(h.url + "/login")
	p.waitFor("the sign-in form", `!document.querySelector('#ask').hidden`)
}

// The board works from the keyboard alone: one tab stop, arrow keys between
// squares, Enter to choose; each square says what is on it.
func TestPlayPageKeyboard(t *testing.T) {
	h := newHarness(t)
	id, ann, _ := newGame(t, h, twoPlayers(wallBoard))
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + ann)
	p.waitFor("White's pieces to be movable", `document.querySelector('#board .movable')`)

	if n := eval[int](p, `document.querySelectorAll('#board [tabindex="0"]').length`); n != 1 {
		t.Fatalf("the board has %d tab stops, want 1", n)
	}
	p.do("go to e5 and choose it",
		chromedp.Focus(chromedp.CSS(`#board [tabindex="0"]`)),
		chromedp.KeyEvent(kb.ArrowDown+kb.ArrowDown+kb.ArrowDown+kb.ArrowDown),
		chromedp.KeyEvent(kb.ArrowRight+kb.ArrowRight+kb.ArrowRight+kb.ArrowRight),
		chromedp.KeyEvent(kb.Enter))
	p.waitFor("e5 to be selected", `document.querySelector('.sq[data-sq="e5"]').getAttribute('aria-selected') === 'true'`)
	label := eval[string](p, `document.activeElement.getAttribute('aria-label')`)
	if want := "e5, White piece, target corner of Black, wall below, double wall on the left, selected"; label != want {
		t.Errorf("e5 says %q, want %q", label, want)
	}
	p.do("step to d5 and move there", chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter))
	p.waitFor("the move", `document.getElementById('meter-text').textContent.startsWith('1 of 3')`)
	if got := eval[string](p, "document.getElementById('notation').value"); got != "e5d5" {
		t.Errorf("notation %q after the keyboard move", got)
	}
	p.do("undo", chromedp.Click(chromedp.CSS("#undo")))
	p.waitFor("the undo", `document.getElementById('notation').value === '' && document.querySelector('.piece[data-sq="e5"]')`)

	// A whole turn typed in notation: checked, shown on the board, then sent
	// with Enter on the Submit button, which has the focus by then.
	p.do("type a turn", chromedp.SendKeys(chromedp.CSS("#notation"), "E5-D5, d5c5 c5c4\n"))
	p.waitFor("the checked turn", `document.activeElement === document.getElementById('submit')`)
	if got := p.text("#turn-status"); got != "e5d5:d5c5:c5c4 is legal and costs 3 points. Submit it to play it." {
		t.Errorf("after checking: %q", got)
	}
	if !p.visible(`.piece[data-sq="c4"]`) || p.text("#meter-text") != "3 of 3 points used, 0 left" {
		t.Errorf("the board does not show the typed turn (meter %q)", p.text("#meter-text"))
	}
	p.do("submit with Enter", chromedp.KeyEvent(kb.Enter))
	p.waitFor("the played notice", `!document.getElementById('notice').hidden`)
	if g := h.game(id, ann); g.Ply != 1 || g.Counts["white"] != 3 {
		t.Errorf("stored game: ply %d, counts %v", g.Ply, g.Counts)
	}
}

// A player waiting for his opponent sees the opponent's turn arrive without
// reloading the page, and can then play.
func TestPlayPageFollowsTheGame(t *testing.T) {
	h := newHarness(t)
	id, ann, bob := newGame(t, h, twoPlayers(openBoard))
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + bob)
	if got := p.text("#status"); got != "White (Ann) to move" || p.visible("#turn") {
		t.Fatalf("Bob sees %q (turn panel visible: %v)", got, p.visible("#turn"))
	}
	h.do("POST", "/v1/games/"+id+"/turns", ann, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
	// The page polls every 20 s, and at once when its tab is shown again.
	p.do("show the tab again", chromedp.Evaluate[chromedp.Void](`document.dispatchEvent(new Event('visibilitychange'))`))
	p.waitFor("Bob's turn", `document.getElementById('status').textContent.startsWith('Your turn')`)
	if !p.visible("#turn") || eval[int](p, `document.querySelectorAll('.path-last').length`) != 3 {
		t.Error("after White's turn: no turn panel, or no path of White's turn")
	}
	p.waitFor("Black's pieces to be movable", `document.querySelector('.piece[data-sq="c4"]') && document.querySelector('#board .movable')`)
}

// A piece tapped while the legal moves are still on their way (a slow
// network, a busy server) is not forgotten: its destinations show when the
// moves come. The page's fetch of /moves is held until the test lets it go.
func TestPlayPageKeepsATapWhileMovesLoad(t *testing.T) {
	h := newHarness(t)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	p := openBrowser(t, 1280, 900)
	p.beforeLoad(`(() => {
  let release;
  const gate = new Promise((r) => { release = r; });
  window.releaseMoves = () => release();
  const fetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input.url;
    if (url.includes('/moves')) await gate;
    return fetch(input, init);
  };
})();`)
	p.open(h.url + "/play/" + id + "#t=" + ann)

	p.click(`[data-sq="e5"]`)
	if eval[bool](p, `!!document.querySelector('.dest[data-sq]')`) {
		t.Fatal("destinations shown before the legal moves came")
	}
	eval[any](p, "window.releaseMoves()")
	p.waitFor("e5's destinations", `document.querySelector('.dest[data-sq="e4"]')`)
}

// The sign-in page takes the short code from the login email, typed as a
// person types it (lower case, no dash), with the address it was sent to;
// a wrong code and a code without an address are answered in words.
func TestLoginPageSignsInWithTheCode(t *testing.T) {
	h := newHarness(t)
	newGame(t, h, twoPlayers(openBoard))
	p := openBrowser(t, 390, 844)
	p.open(h.url + "/login")
	p.waitFor("the sign-in form", `!document.querySelector('#ask').hidden`)

	p.do("type a code without an address", chromedp.SendKeys(chromedp.CSS("#code"), "abcd-2345\n"))
	p.waitFor("the ask for the address", `!document.getElementById('alert').hidden`)
	if got := p.text("#alert"); got != "Enter the email address the code was sent to, above." {
		t.Errorf("a code without an address: %q", got)
	}

	p.do("ask for a login email", chromedp.SendKeys(chromedp.CSS("#email"), "ann@example.org\n"))
	p.waitFor("the notice", `!document.getElementById('notice').hidden`)
	code := loginCodeRE.FindStringSubmatch(only(t, h.deliver(), "ann@example.org").Text)
	if code == nil || len(code[1]) != 9 {
		t.Fatalf("no XXXX-XXXX code in the login email: %v", code)
	}
	clearCode := chromedp.Evaluate[chromedp.Void](`document.getElementById('code').value = ''`)
	wrong := "2222-2222"
	if code[1] == wrong {
		wrong = "3333-3333"
	}
	p.do("type a wrong code", clearCode, chromedp.SendKeys(chromedp.CSS("#code"), wrong+"\n"))
	p.waitFor("the refusal", `!document.getElementById('alert').hidden`)
	if got := p.text("#alert"); !strings.HasPrefix(got, "This code is wrong, used or expired") {
		t.Errorf("a wrong code: %q", got)
	}
	saveScreenshot(t, p, "login-code-refused-390.png")
	typed := strings.ToLower(strings.ReplaceAll(code[1], "-", ""))
	p.do("type the code", clearCode, chromedp.SendKeys(chromedp.CSS("#code"), typed+"\n"))
	p.waitFor("the games", `document.querySelector('#games a')`)
	if got := p.text("#who"); !strings.Contains(got, "ann@example.org") {
		t.Errorf("signed in as %q", got)
	}
	saveScreenshot(t, p, "login-code-390.png")
}

// The history is newest first, the turns since the player's own last one
// marked new, and the board steps back through the game (each position as
// the server replays it) and forward again; an earlier position cannot be
// played on, and the game now can.
func TestPlayPageStepsThroughTheGame(t *testing.T) {
	h := newHarness(t)
	id, ann, bob := newGame(t, h, twoPlayers(openBoard))
	for ply, turn := range []string{"e5e4:e4d4:d4c4", "a2a3:a3a4:a4a5", "f5e5:e5d5:d5c5"} {
		h.do("POST", "/v1/games/"+id+"/turns", map[bool]string{true: ann, false: bob}[ply%2 == 0],
			map[string]any{"turn": turn, "ply": ply}).want(t, http.StatusCreated)
	}
	pieces := func(n int) []string {
		var v struct {
			Pieces []struct{ Cell, Color string } `json:"pieces"`
		}
		h.do("GET", fmt.Sprintf("/v1/games/%s/view?ply=%d", id, n), bob, nil).want(t, http.StatusOK).decode(t, &v)
		var out []string
		for _, p := range v.Pieces {
			out = append(out, p.Color+" "+p.Cell)
		}
		slices.Sort(out)
		return out
	}
	onPage := func(p *page) []string {
		got := eval[[]string](p, `[...document.querySelectorAll('#board .piece')].map((e) => e.getAttribute('class').match(/piece-(\w+)/)[1] + ' ' + e.dataset.sq)`)
		slices.Sort(got)
		return got
	}

	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + bob)
	p.waitFor("the turn panel", `!document.getElementById('turn').hidden && document.querySelector('.movable')`)
	history := eval[[]string](p, `[...document.querySelectorAll('#history li')].map((li) => li.textContent)`)
	if len(history) != 3 || !strings.Contains(history[0], "f5e5:e5d5:d5c5") || !strings.Contains(history[2], "e5e4:e4d4:d4c4") {
		t.Errorf("history %q, want the newest first", history)
	}
	if got := eval[[]string](p, `[...document.querySelectorAll('#history li.new')].map((li) => li.textContent)`); len(got) != 1 || !strings.Contains(got[0], "f5e5") {
		t.Errorf("turns marked new %q, want White's since Bob's turn", got)
	}
	if got := p.text("#replay-text"); got != "The board now, after 3 turns" {
		t.Errorf("replay bar %q", got)
	}

	p.click("#replay-prev")
	p.waitFor("the board after turn 2", `document.getElementById('replay-text').textContent === 'The board after turn 2 of 3'`)
	if got, want := onPage(p), pieces(2); !slices.Equal(got, want) {
		t.Errorf("the board after turn 2 shows %v, want %v", got, want)
	}
	if slices.Equal(pieces(2), pieces(3)) {
		t.Fatal("the positions are the same: the test proves nothing")
	}
	// Looking back, nothing can be moved: a tap brings the game back, and
	// selects nothing.
	if n := eval[int](p, `document.querySelectorAll('#board .dest, #board .selected, #board .movable').length`); n != 0 {
		t.Errorf("%d pieces selectable on an earlier position", n)
	}
	p.click(`[data-sq="a5"]`)
	p.waitFor("the game now", `document.getElementById('replay-text').textContent === 'The board now, after 3 turns'`)
	if n := eval[int](p, `document.querySelectorAll('#board .dest, #board .selected').length`); n != 0 {
		t.Errorf("the tap on an earlier position selected a piece")
	}
	// The first turn, from the history; then the start.
	p.click(`#history button[data-after="1"]`)
	p.waitFor("the board after turn 1", `document.getElementById('replay-text').textContent === 'The board after turn 1 of 3'`)
	if got, want := onPage(p), pieces(1); !slices.Equal(got, want) {
		t.Errorf("the board after turn 1 shows %v, want %v", got, want)
	}
	p.click("#replay-prev")
	p.waitFor("the start", `document.getElementById('replay-text').textContent === 'The board at the start' && document.getElementById('replay-prev').disabled`)
	if got, want := onPage(p), pieces(0); !slices.Equal(got, want) {
		t.Errorf("the start shows %v, want %v", got, want)
	}
	saveScreenshot(t, p, "play-1280-replay.png")

	p.click("#replay-latest")
	p.waitFor("the game now", `document.getElementById('replay-text').textContent === 'The board now, after 3 turns' && document.querySelector('.movable')`)
	if got, want := onPage(p), pieces(3); !slices.Equal(got, want) {
		t.Errorf("back to now shows %v, want %v", got, want)
	}
	p.click(`[data-sq="a5"]`)
	p.waitFor("a5's destinations", `document.querySelector('#board .dest')`)
}

// A player resigns from the page, only after saying yes: "keep playing"
// changes nothing; yes ends the game, says so, and the other player is
// emailed. A spectator has no such button.
func TestPlayPageResignsWithConfirmation(t *testing.T) {
	h := newHarness(t)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	h.do("POST", "/v1/games/"+id+"/turns", ann, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
	h.deliver()
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + ann) // not her turn: she may still resign
	p.waitFor("the page", `!document.body.classList.contains('loading') && !document.getElementById('resign').hidden`)
	p.click("#resign-ask")
	if got := p.text("#resign-question"); got != "Resign this game? You lose it, and this cannot be undone." {
		t.Errorf("question %q", got)
	}
	p.click("#resign-no")
	if p.visible("#resign-confirm") || h.game(id, ann).Status != "active" {
		t.Fatal("keep playing did not keep the game going")
	}
	p.click("#resign-ask")
	p.click("#resign-yes")
	p.waitFor("the notice", `document.getElementById('notice').textContent.startsWith('You resigned.')`)
	if p.visible("#resign") {
		t.Error("the resign button stays after the game ended")
	}
	g := h.game(id, ann)
	if g.Status != "finished" || g.Result == nil || g.Result.Reason != "resignation" {
		t.Fatalf("game after resigning: %s %+v", g.Status, g.Result)
	}
	only(t, h.deliver(), "bob@example.org")

	var spec struct {
		SpectatorURL string `json:"spectator_url"`
	}
	id2, ann2, _ := newGame(t, h, twoPlayers(openBoard))
	h.do("GET", "/v1/games/"+id2, ann2, nil).want(t, http.StatusOK).decode(t, &spec)
	p.open(h.pageURL(spec.SpectatorURL))
	p.waitFor("the spectator's page", `!document.body.classList.contains('loading') && !document.getElementById('spectating').hidden`)
	if p.visible("#resign") {
		t.Error("a spectator can resign")
	}
}

// From the sign-in page's list, a player starts a game against a friend
// (name, address, game, time, who moves first): the friend is invited, and
// the list tells the games apart by opponent, board, whose turn and until
// when.
func TestLoginPageStartsAGame(t *testing.T) {
	h := newHarness(t)
	newGame(t, h, twoPlayers(openBoard)) // Ann vs Bob, created by someone else
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
	link := loginLinkRE.FindString(only(t, h.deliver(), "ann@example.org").Text)
	p := openBrowser(t, 1280, 900)
	p.do("open the sign-in link", chromedp.Navigate(h.pageURL(link)))
	p.waitFor("the games", `document.querySelector('#games a') && !document.getElementById('new-game').hidden`)
	if got := p.text("#games li"); !strings.Contains(got, "vs Bob (Black)") || !strings.Contains(got, "Less 6×6") || !strings.Contains(got, "your turn") {
		t.Errorf("game line %q", got)
	}

	p.do("fill the form", chromedp.SendKeys("#my-name", "Ann"), chromedp.SendKeys("#opp-name", "Cleo"), chromedp.SendKeys("#opp-email", "cleo@example.org"),
		chromedp.SetValue("#new-time", "d3"), chromedp.SetValue("#new-seat", "second"))
	p.click("#new-submit")
	p.waitFor("the notice", `document.getElementById('notice').textContent.includes('Cleo has been emailed')`)
	p.waitFor("the new game in the list", `document.querySelectorAll('#games li').length === 2`)
	lines := eval[[]string](p, `[...document.querySelectorAll('#games li')].map((li) => li.textContent)`)
	var cleo string
	for _, l := range lines {
		if strings.Contains(l, "Cleo") {
			cleo = l
		}
	}
	// Cleo has White and moves first; the deadline is shown in the reader's time.
	if !strings.Contains(cleo, "vs Cleo (White)") || !strings.Contains(cleo, "White to move") || !strings.Contains(cleo, "until ") {
		t.Errorf("the new game's line %q (all: %q)", cleo, lines)
	}
	invitation := only(t, h.deliver(), "cleo@example.org")
	if !strings.Contains(invitation.Text, "Ann") {
		t.Errorf("Cleo's invitation does not name Ann:\n%s", invitation.Text)
	}
	saveScreenshot(t, p, "login-1280-new-game.png")
}

// After the game, "Play again" on the page starts the rematch and opens it:
// the player is on the other side, and both are invited.
func TestPlayPagePlaysAgain(t *testing.T) {
	h := newHarness(t)
	id, ann, bob := newGame(t, h, twoPlayers(wallBoard))
	h.do("POST", "/v1/games/"+id+"/resign", bob, nil).want(t, http.StatusOK)
	h.deliver()
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + ann)
	p.waitFor("the finished game", `!document.body.classList.contains('loading') && !document.getElementById('again').hidden`)
	p.click("#again-button")
	p.waitFor("the rematch", `location.pathname !== '/play/`+id+`' && !document.body.classList.contains('loading') && document.getElementById('status').textContent !== ''`)
	if got := p.text("#status"); got != "White (Bob) to move" {
		t.Errorf("status in the rematch %q, want Bob (now White) to move", got)
	}
	if p.visible("#again") || eval[string](p, "location.hash") != "" {
		t.Error("the rematch page shows Play again, or keeps the token in the address bar")
	}
	mail := h.deliver()
	if len(mail) != 2 {
		t.Errorf("%d emails, want the 2 invitations: %v", len(mail), subjects(mail))
	}
	// Bob, arriving later from his finished game, gets the same rematch.
	var r rematchJSON
	h.do("POST", "/v1/games/"+id+"/rematch", bob, nil).want(t, http.StatusOK).decode(t, &r)
	if path := eval[string](p, "location.pathname"); path != "/play/"+r.Game.ID {
		t.Errorf("the page opened %s, Bob's rematch is %s", path, r.Game.ID)
	}
}

// In the four-player game the page shows the two teams, each with its
// players and its total of moves; the reader's team and partner are named.
func TestPlayPageShowsTheTeams(t *testing.T) {
	h := newHarness(t)
	var g gameJSON
	players := []map[string]any{}
	for _, name := range []string{"Yan", "Bea", "Wim", "Rae"} {
		players = append(players, map[string]any{"name": name, "email": strings.ToLower(name) + "@example.org"})
	}
	h.do("POST", "/v1/games", h.login("org@example.org"), map[string]any{"players": players, "board": map[string]any{"seed": "11"}}).
		want(t, http.StatusCreated).decode(t, &g)
	_, wim := moveLink(t, only(t, h.deliver(), "wim@example.org"))
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + g.ID + "#t=" + wim)
	p.waitFor("the teams", `document.querySelectorAll('#seats .team').length === 2`)
	heads := eval[[]string](p, `[...document.querySelectorAll('#seats .team-head')].map((e) => e.textContent)`)
	if len(heads) != 2 || heads[0] != "Team Yellow & White · your team · 0 moves in all" || heads[1] != "Team Black & Red · 0 moves in all" {
		t.Errorf("team headings %q", heads)
	}
	if got := p.text(".team-yours"); !strings.Contains(got, "Yan (your partner)") || !strings.Contains(got, "Wim (you)") {
		t.Errorf("Wim's team reads %q", got)
	}
	saveScreenshot(t, p, "play-1280-teams.png")
}

// The game's creator, signed in, plays a finished game again from its page
// (he does not play in it): the rematch opens, and both players are invited.
func TestPlayPageCreatorPlaysAgain(t *testing.T) {
	h := newHarness(t)
	id, _, bob := newGame(t, h, twoPlayers(wallBoard))
	h.do("POST", "/v1/games/"+id+"/resign", bob, nil).want(t, http.StatusOK)
	h.deliver()
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "org@example.org"}).want(t, http.StatusAccepted)
	link := loginLinkRE.FindString(only(t, h.deliver(), "org@example.org").Text)
	p := openBrowser(t, 1280, 900)
	p.do("open the sign-in link", chromedp.Navigate(h.pageURL(link)))
	p.waitFor("the games", `document.querySelector('#games a')`)
	p.click("#games a")
	p.waitFor("the finished game", `location.pathname === '/play/`+id+`' && !document.getElementById('again').hidden`)
	p.click("#again-button")
	p.waitFor("the rematch", `location.pathname !== '/play/`+id+`' && !document.body.classList.contains('loading') && document.getElementById('status').textContent !== ''`)
	if got := p.text("#status"); got != "White (Bob) to move" {
		t.Errorf("status in the rematch %q", got)
	}
	if mail := h.deliver(); len(mail) != 2 {
		t.Errorf("%d emails, want the 2 invitations: %v", len(mail), subjects(mail))
	}
}
