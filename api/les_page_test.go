package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/lesspost/lesspost/internal/vectors"
)

// The play page for games of Les: the hexagonal board drawn from GET /view
// (layout "points"), the setup, the choice and the turns made by tapping
// points, in a real browser, as the Less page is tested (play_page_test.go).

// newLesGame creates a game of Les on a board of side (Sue sets up, Cho
// chooses) and returns its id and the two seats' link tokens.
func newLesGame(t *testing.T, h *harness, side int, locale string) (id string, seats map[string]string) {
	t.Helper()
	setter := map[string]any{"name": "Sue", "email": "sue@example.org"}
	if locale != "" {
		setter["locale"] = locale
	}
	players := []map[string]any{setter, {"name": "Cho", "email": "cho@example.org"}}
	var g lesGameJSON
	h.do("POST", "/v1/games", h.login("org@example.org"), map[string]any{"game": "les", "players": players,
		"board": map[string]any{"side": side}}).want(t, http.StatusCreated).decode(t, &g)
	return g.ID, map[string]string{"setter": h.seatToken(g.ID, "setter"), "chooser": h.seatToken(g.ID, "chooser")}
}

// playLes plays plies over the API, each by the seat to move.
func playLes(t *testing.T, h *harness, id string, seats map[string]string, plies []string) lesGameJSON {
	t.Helper()
	var g lesGameJSON
	h.do("GET", "/v1/games/"+id, seats["setter"], nil).want(t, http.StatusOK).decode(t, &g)
	for _, ply := range plies {
		var played struct {
			Game lesGameJSON `json:"game"`
		}
		h.do("POST", "/v1/games/"+id+"/turns", seats[*g.ToMove], map[string]any{"turn": ply, "ply": g.Ply}).
			want(t, http.StatusCreated).decode(t, &played)
		g = played.Game
	}
	return g
}

// lesGameCase picks a game of the vectors to play to its end: the
// shortest that ends in a win (or, with win false, a draw) with holes of
// both colours, so that both are seen shaded; failing that, the shortest
// game. Another vectors file (LES_VECTORS) may have other games.
func lesGameCase(t *testing.T, win bool) vectors.LesGameCase {
	t.Helper()
	cases := vectors.LoadLes(t).GameCases
	score := func(c vectors.LesGameCase) int { // lower is better
		n := len(c.Turns)
		if win != (c.Result.Winner != nil) || len(c.Result.Holes["black"]) == 0 || len(c.Result.Holes["white"]) == 0 {
			n += 1 << 20
		}
		return n
	}
	best := cases[0]
	for _, c := range cases[1:] {
		if score(c) < score(best) {
			best = c
		}
	}
	return best
}

// checkLesResult checks the page's result line for a game of the vectors,
// played with Sue setting up and Cho choosing.
func checkLesResult(t *testing.T, game vectors.LesGameCase, got string) {
	t.Helper()
	holes := " " + lesHolesText(game)
	if game.Result.Winner == nil {
		if got != "Draw."+holes {
			t.Errorf("result %q, want %q", got, "Draw."+holes)
		}
		return
	}
	winner := map[string]string{"black": "Black", "white": "White"}[*game.Result.Winner]
	name := map[bool]string{true: "Cho", false: "Sue"}[*game.Result.Winner == game.Choice]
	if !strings.HasPrefix(got, winner+" ("+name+") wins") || !strings.HasSuffix(got, holes) {
		t.Errorf("result %q, want %s (%s) winning and %q", got, winner, name, holes)
	}
}

// points splits a ply's text into its points (LN0, as the vectors write it).
func points(ply string) []string {
	return strings.Split(ply, ":")
}

// newTab opens another tab in p's browser, with its own session storage,
// as a second player on the same computer would.
func (p *page) newTab() *page {
	p.t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx)
	p.t.Cleanup(cancel)
	tab := &page{t: p.t, ctx: ctx}
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		p.t.Fatalf("open a tab: %v", err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			tab.mu.Lock()
			tab.console = append(tab.console, m)
			tab.mu.Unlock()
		}
	}()
	p.t.Cleanup(tab.screenshotOnFailure)
	p.t.Cleanup(tab.checkConsole)
	return tab
}

// tapPoint clicks a point of the board and waits until the page has taken
// the stone (the ply so far has n stones) or refused it (an alert).
func (p *page) tapPoint(pt string, n int) {
	p.t.Helper()
	p.click(`#board [data-sq="` + pt + `"]`)
	p.waitFor(fmt.Sprintf("stone %d on %s", n, pt),
		fmt.Sprintf(`document.querySelectorAll('#moves li').length === %d || !document.getElementById('alert').hidden`, n))
	if alert := p.text("#alert"); alert != "" {
		p.t.Fatalf("tapping %s (stone %d): %s", pt, n, alert)
	}
}

// submitPly clicks Submit once it is enabled and waits for the notice of
// the ply played.
func (p *page) submitPly(what string) string {
	p.t.Helper()
	p.waitFor("Submit for "+what, `!document.getElementById('submit').disabled`)
	p.do("clear the notice", chromedp.Evaluate[chromedp.Void](`document.getElementById('notice').hidden = true`))
	p.click("#submit")
	p.waitFor("the notice of "+what, `!document.getElementById('notice').hidden`)
	if alert := p.text("#alert"); alert != "" {
		p.t.Fatalf("%s: %s", what, alert)
	}
	return p.text("#notice")
}

// awaitTurn makes the waiting tab look at the game again (as when its
// player comes back to it) and waits until it is his turn with the choices
// loaded.
func (p *page) awaitTurn(what string) {
	p.t.Helper()
	p.do("show the tab again", chromedp.Evaluate[chromedp.Void](`document.dispatchEvent(new Event('visibilitychange'))`))
	p.waitFor(what, `document.getElementById('status').textContent.startsWith('Your turn') &&
		!document.getElementById('turn').hidden && document.getElementById('hint').textContent !== ''
		&& !document.getElementById('hint').textContent.startsWith('Looking up')`)
}

// The path on the page: a whole game of Les from the vectors,
// played in two tabs by clicking, the setter's setup stone by stone (each
// step saying its rule), the chooser's colour with a button, then every
// turn point by point; the end shows the result and shades the holes.
func TestLesPagePlaysAWholeGame(t *testing.T) {
	h := newHarness(t)
	game := lesGameCase(t, false)
	t.Logf("playing a game on side %d: %d turns, result %+v", game.Size, len(game.Turns), game.Result)
	id, seats := newLesGame(t, h, game.Size, "")
	tabs := map[string]*page{"setter": openBrowser(t, 1280, 900)}
	tabs["chooser"] = tabs["setter"].newTab()
	for seat, p := range tabs {
		p.open(h.url + "/play/" + id + "#t=" + seats[seat])
	}
	sue, cho := tabs["setter"], tabs["chooser"]

	// The setup: four taps, each step with its rule.
	if got := sue.text("#status"); got != "Your turn: set up the board" {
		t.Errorf("setter's status %q", got)
	}
	if got := cho.text("#status"); got != "Sue sets up the board" || cho.visible("#turn") {
		t.Errorf("chooser's status %q, turn panel %v", got, cho.visible("#turn"))
	}
	sue.waitFor("the setup's first step", `document.querySelectorAll('#board .legal').length > 0`)
	if n, want := eval[int](sue, `document.querySelectorAll('#board .legal').length`), eval[int](sue, `document.querySelectorAll('#board .pt').length`); n != want {
		t.Errorf("B1: %d points marked, want all %d", n, want)
	}
	steps := []string{
		"B1: place a black stone on any point.",
		"W1: place a white stone touching B1.",
		"B2: place another black stone on any empty point.",
		"W2: place a white stone two steps from B2 in a straight line, with one point between them.",
	}
	for i, pt := range points(game.Setup) {
		if got := sue.text("#hint"); got != steps[i] {
			t.Errorf("setup step %d says %q, want %q", i+1, got, steps[i])
		}
		if !eval[bool](sue, `!!document.querySelector('#board .legal') && [...document.querySelectorAll('#board .pt.actionable')].some((e) => e.dataset.sq === '`+pt+`')`) {
			t.Errorf("setup step %d: %s is not marked as a legal point", i+1, pt)
		}
		sue.tapPoint(pt, i+1)
	}
	if got := sue.text("#hint"); got != "The four stones are placed: submit the setup, or undo." {
		t.Errorf("after the setup's four stones: %q", got)
	}
	if n := eval[int](sue, `document.querySelectorAll('#board .stone').length`); n != 4 {
		t.Errorf("%d stones on the board after the setup's taps, want 4", n)
	}
	if got := eval[string](sue, `[...document.querySelectorAll('#moves li')].map((e) => e.textContent).join(' ')`); !strings.HasPrefix(got, "B1 ") {
		t.Errorf("the setup's stones are listed as %q", got)
	}
	saveScreenshot(t, sue, "les-1280-setup.png")
	if got, want := sue.submitPly("the setup"), "Sue played "+game.Setup+". Cho plays next and has been emailed."; got != want {
		t.Errorf("notice %q, want %q", got, want)
	}

	// The choice: two buttons, then confirm.
	cho.awaitTurn("the chooser's turn")
	if got := cho.text("#status"); got != "Your turn: choose your colour" {
		t.Errorf("chooser's status %q", got)
	}
	if got := cho.text("#choices"); got != "Play BlackPlay White" || !cho.visible("#les-intro") {
		t.Errorf("choice buttons %q", got)
	}
	if n := eval[int](cho, `document.querySelectorAll('#board .last').length`); n != 4 {
		t.Errorf("the setup's %d stones marked as the last ply, want 4", n)
	}
	cho.click(`#choices [data-color="` + game.Choice + `"]`)
	cho.waitFor("the colour picked", `document.querySelector('#choices [aria-pressed="true"]')`)
	saveScreenshot(t, cho, "les-1280-choice.png")
	cho.submitPly("the choice")

	// The turns, point by point, in whichever tab is to move.
	var g lesGameJSON
	h.do("GET", "/v1/games/"+id, seats["setter"], nil).want(t, http.StatusOK).decode(t, &g)
	if g.Stage != "turns" {
		t.Fatalf("after the choice the game is at %q", g.Stage)
	}
	mover := *g.ToMove
	for i, ply := range game.Turns {
		p := tabs[mover]
		p.awaitTurn(fmt.Sprintf("turn %d", i+1))
		stones := points(ply)
		for k, pt := range stones {
			// Each stone goes on a point the page marks (from GET /moves),
			// with the rule for the first or the second placement said.
			hint := []string{"First stone: ", "Second stone: "}[k]
			if got := p.text("#hint"); !strings.HasPrefix(got, hint) {
				t.Errorf("turn %d, stone %d: hint %q, want %q…", i+1, k+1, got, hint)
			}
			if !p.visible(`#board .pt.actionable[data-sq="` + pt + `"]`) {
				t.Errorf("turn %d: %s is not marked as a legal point", i+1, pt)
			}
			p.tapPoint(pt, k+1)
		}
		done := "Your turn is complete: submit it, or undo."
		if len(stones) == 1 {
			done = "No point is left that touches no stone, so this one stone is your turn: submit it."
		}
		p.waitFor("the turn complete", `document.getElementById('hint').textContent === `+jsString(done))
		if i == 0 {
			saveScreenshot(t, p, "les-1280-turn.png")
		}
		p.submitPly(fmt.Sprintf("turn %d (%s)", i+1, ply))
		mover = map[string]string{"setter": "chooser", "chooser": "setter"}[mover]
	}

	h.do("GET", "/v1/games/"+id, seats["setter"], nil).want(t, http.StatusOK).decode(t, &g)
	if g.Status != "finished" || g.Ply != 2+len(game.Turns) {
		t.Fatalf("after the page's turns: status %s at ply %d", g.Status, g.Ply)
	}
	last := tabs[map[string]string{"setter": "chooser", "chooser": "setter"}[mover]]
	checkLesResult(t, game, last.text("#result"))
	holes := 0
	for _, c := range []string{"black", "white"} {
		for _, hole := range game.Result.Holes[c] {
			holes += hole[0]
		}
	}
	if n := eval[int](last, `document.querySelectorAll('#board .hole').length`); n != holes {
		t.Errorf("%d points shaded as holes, want %d", n, holes)
	}
	if last.visible("#turn") {
		t.Error("the finished game still shows the turn panel")
	}
	saveScreenshot(t, last, "les-1280-over.png")
}

// lesHolesText is the English account of the holes owned at the end of a
// game of the vectors, as the page's result line ends.
func lesHolesText(game vectors.LesGameCase) string {
	owned := func(c string) string {
		hs := game.Result.Holes[c]
		name := map[string]string{"black": "Black", "white": "White"}[c]
		if len(hs) == 0 {
			return name + " none"
		}
		sizes := make([]string, len(hs))
		for i, h := range hs {
			sizes[i] = fmt.Sprint(h[0])
		}
		word := "sizes"
		if len(hs) == 1 {
			word = "size"
		}
		return fmt.Sprintf("%s %d (%s %s)", name, len(hs), word, strings.Join(sizes, ", "))
	}
	return "Holes owned: " + owned("black") + ", " + owned("white") + "."
}

// An illegal stone is refused with its rule, tapped or typed, and changes
// nothing.
func TestLesPageIllegalPlyShowsRule(t *testing.T) {
	h := newHarness(t)
	id, seats := newLesGame(t, h, 9, "")
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + seats["setter"])
	p.waitFor("the setup's points", `document.querySelector('#board .legal')`)

	p.tapPoint("e5", 1)
	// W1 far from B1: the server says why not.
	p.click(`#board [data-sq="i9"]`)
	p.waitFor("the error", `!document.getElementById('alert').hidden`)
	alert := p.text("#alert")
	for _, want := range []string{"Not allowed (rule LS2) at stone 2", "The first white stone (W1) must touch the first black stone (B1).", "setup_not_touching"} {
		if !strings.Contains(alert, want) {
			t.Errorf("alert %q does not say %q", alert, want)
		}
	}
	if n := eval[int](p, `document.querySelectorAll('#moves li').length`); n != 1 || p.visible(`#board .stone[data-sq="i9"]`) {
		t.Errorf("the refused stone changed the ply (%d stones)", n)
	}
	if got := p.text("#hint"); got != "W1: place a white stone touching B1." {
		t.Errorf("hint after the refusal %q", got)
	}
	saveScreenshot(t, p, "les-1280-illegal.png")

	// A whole setup typed in notation, its last stone out of line.
	p.click("#clear")
	p.waitFor("the ply cleared", `document.querySelectorAll('#moves li').length === 0 && document.getElementById('hint').textContent.startsWith('B1')`)
	p.do("type an illegal setup", chromedp.SendKeys(chromedp.CSS("#notation"), "e5:e6:g3:g6\n"))
	p.waitFor("the error", `!document.getElementById('alert').hidden`)
	if alert := p.text("#alert"); !strings.Contains(alert, "Not allowed (rule LS2) at stone 4") || !strings.Contains(alert, "setup_not_in_line") {
		t.Errorf("typed setup: alert %q", alert)
	}
	// The same, legal: shown on the board, then played with Enter on Submit.
	p.do("type a legal setup", chromedp.Evaluate[chromedp.Void](`document.getElementById('notation').value = ''`),
		chromedp.SendKeys(chromedp.CSS("#notation"), "E5 e6 g3 g5\n"))
	p.waitFor("the checked setup", `document.activeElement === document.getElementById('submit')`)
	if got := p.text("#turn-status"); got != "e5:e6:g3:g5 is legal. Submit it to play it." {
		t.Errorf("after checking: %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#board .stone').length`); n != 4 || !p.visible(`#board .stone-white[data-sq="g5"]`) {
		t.Errorf("the typed setup is not on the board (%d stones)", n)
	}
	p.do("submit with Enter", chromedp.KeyEvent(kb.Enter))
	p.waitFor("the played notice", `!document.getElementById('notice').hidden`)

	// In a turn: a first stone that does not touch both colours.
	cho := p.newTab()
	cho.open(h.url + "/play/" + id + "#t=" + seats["chooser"])
	cho.waitFor("the choice", `document.querySelector('#choices [data-color="white"]')`)
	cho.click(`#choices [data-color="white"]`)
	cho.submitPly("the choice")
	p.awaitTurn("Black's first turn")
	p.click(`#board [data-sq="a1"]`)
	p.waitFor("the error", `!document.getElementById('alert').hidden`)
	if alert := p.text("#alert"); !strings.Contains(alert, "Not allowed (rule LT1) at stone 1: Your first stone must touch both a black and a white stone.") {
		t.Errorf("turn: alert %q", alert)
	}
	if g := playLes(t, h, id, seats, nil); g.Ply != 2 {
		t.Errorf("ply %d after illegal attempts", g.Ply)
	}
}

// The board works from the keyboard: one tab stop, arrows between points,
// Enter places a stone; each point says what is on it.
func TestLesPageKeyboard(t *testing.T) {
	h := newHarness(t)
	id, seats := newLesGame(t, h, 3, "")
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + seats["setter"])
	p.waitFor("the setup's points", `document.querySelector('#board .legal')`)
	if n := eval[int](p, `document.querySelectorAll('#board [tabindex="0"]').length`); n != 1 {
		t.Fatalf("the board has %d tab stops, want 1", n)
	}
	active := func() string { return eval[string](p, `document.activeElement.getAttribute('aria-label') || ''`) }

	// a1 → a2, Enter: B1. Down to b2 (of b2 and b3, the left one), Enter: W1.
	p.do("go to a2 and place B1", chromedp.Focus(chromedp.CSS(`#board [tabindex="0"]`)),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter))
	p.waitFor("B1", `document.querySelectorAll('#moves li').length === 1`)
	if got := active(); got != "a2, Black stone, placed in this turn" {
		t.Errorf("a2 says %q", got)
	}
	p.do("go down to b2 and place W1", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter))
	p.waitFor("W1", `document.querySelectorAll('#moves li').length === 2`)
	if got := active(); got != "b2, White stone, placed in this turn" {
		t.Errorf("b2 says %q", got)
	}
	// Down twice from b2 goes straight: c2, then d2 (not drifting left).
	p.do("down twice", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	if got := active(); !strings.HasPrefix(got, "d2, empty") {
		t.Errorf("two steps down from b2: %q", got)
	}
	p.do("End of the row", chromedp.KeyEvent(kb.End))
	if got := active(); got != "d4, empty, you may place here" {
		t.Errorf("End: %q", got)
	}
	if got := eval[string](p, "document.getElementById('notation').value"); got != "a2:b2" {
		t.Errorf("notation %q after the keyboard's stones", got)
	}
	p.do("undo", chromedp.Click(chromedp.CSS("#undo")))
	p.waitFor("the undo", `document.querySelectorAll('#moves li').length === 1 && !document.querySelector('#board .stone[data-sq="b2"]')`)
}

// At 360 CSS pixels (a small phone) nothing is wider than the screen, on
// the default board (side 9), at the setup, the choice and in a turn.
func TestLesPageFitsSmallPhone(t *testing.T) {
	h := newHarness(t)
	id, seats := newLesGame(t, h, 9, "")
	p := phone(t, 360, 740)
	fits := func(what string) {
		t.Helper()
		if w := eval[int](p, "document.scrollingElement.scrollWidth"); w > 360 {
			t.Errorf("%s: the page is %d px wide at 360", what, w)
		}
	}
	p.open(h.url + "/play/" + id + "#t=" + seats["setter"])
	p.waitFor("the setup's points", `document.querySelector('#board .legal')`)
	p.tapPoint("i9", 1)
	fits("setup")
	// Neighbouring points are far enough apart to tap.
	gap := eval[float64](p, `(() => { const r = (n) => document.querySelector('#board [data-sq="' + n + '"] .hit').getBoundingClientRect();
		return r('i10').x - r('i9').x; })()`)
	if gap < 18 {
		t.Errorf("neighbouring points are %.1f px apart", gap)
	}
	saveScreenshot(t, p, "les-360-setup.png")

	playLes(t, h, id, seats, []string{"e5:e6:g3:g5"})
	p.open(h.url + "/play/" + id + "#t=" + seats["chooser"])
	p.waitFor("the choice", `document.querySelector('#choices [data-color="black"]')`)
	fits("choice")
	saveScreenshot(t, p, "les-360-choice.png")

	playLes(t, h, id, seats, []string{"black"})
	p.open(h.url + "/play/" + id + "#t=" + seats["chooser"])
	p.waitFor("the first placements", `document.querySelector('#board .legal')`)
	fits("turn")
	saveScreenshot(t, p, "les-360-turn.png")
}

// The spectator link shows the board and the game, read-only.
func TestLesPageSpectator(t *testing.T) {
	h := newHarness(t)
	id, seats := newLesGame(t, h, 9, "")
	playLes(t, h, id, seats, []string{"e5:e6:g3:g5", "white"})
	var g struct {
		SpectatorURL string `json:"spectator_url"`
	}
	h.do("GET", "/v1/games/"+id, seats["setter"], nil).want(t, http.StatusOK).decode(t, &g)
	p := openBrowser(t, 1280, 900)
	p.open(h.pageURL(g.SpectatorURL))

	if !p.visible("#spectating") || p.visible("#turn") {
		t.Fatalf("spectator sees the turn panel (spectating note %v)", p.visible("#spectating"))
	}
	if got := p.text("#status"); got != "Black (Sue) to move" {
		t.Errorf("status %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#board .stone').length`); n != 4 {
		t.Errorf("the board shows %d stones, want 4", n)
	}
	if n := eval[int](p, `document.querySelectorAll('#board .pt').length`); n != 217 {
		t.Errorf("the board has %d points, want 217", n)
	}
	if got := eval[string](p, `[...document.querySelectorAll('#history li')].map((e) => e.textContent).join(' | ')`); got != "Cho chose White | Setup by Sue: e5:e6:g3:g5" {
		t.Errorf("history %q, want the newest first", got)
	}
	if got := eval[string](p, `[...document.querySelectorAll('#seats .meta')].map((e) => e.textContent).join(' | ')`); got != "sets up · Black · 2 stones | chooses · White · 2 stones" {
		t.Errorf("seats %q", got)
	}
	p.click(`#board [data-sq="f5"]`)
	if n := eval[int](p, `document.querySelectorAll('#board .legal, #board .placed').length`); n != 0 || !p.visible("#legend-les") || p.visible("#legend-less") {
		t.Error("a spectator's click placed a stone, or the legend is Less's")
	}
}

// A finished game shows its result in words and each owned hole shaded.
func TestLesPageFinishedGame(t *testing.T) {
	h := newHarness(t)
	game := lesGameCase(t, true)
	id, seats := newLesGame(t, h, game.Size, "")
	g := playLes(t, h, id, seats, append([]string{game.Setup, game.Choice}, game.Turns...))
	if g.Status != "finished" {
		t.Fatalf("the vectors' game did not finish: %+v", g)
	}
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + seats["chooser"])

	result := p.text("#result")
	checkLesResult(t, game, result)
	if got := p.text("#status"); got != "Game over: "+result || p.visible("#turn") || p.visible("#spectating") {
		t.Errorf("status %q, turn panel %v", got, p.visible("#turn"))
	}
	for _, c := range []string{"black", "white"} {
		want := 0
		for _, hole := range game.Result.Holes[c] {
			want += hole[0]
		}
		if n := eval[int](p, `document.querySelectorAll('#board .hole-`+c+`').length`); n != want {
			t.Errorf("%d points shaded as %s's holes, want %d", n, c, want)
		}
	}
	label := eval[string](p, `document.querySelector('#board .pt[aria-label*="in a hole of"]').getAttribute('aria-label')`)
	if !strings.Contains(label, "empty, in a hole of") {
		t.Errorf("a hole's point says %q", label)
	}
	saveScreenshot(t, p, "les-1280-finished.png")
}

// The page speaks the seat's language, Les's words included.
func TestLesPageSpeaksPlayersLocale(t *testing.T) {
	h := newHarness(t)
	id, seats := newLesGame(t, h, 5, "de")
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + id + "#t=" + seats["setter"])
	if got := p.text("#status"); got != "Du bist an der Reihe: Bau das Spielbrett auf" {
		t.Errorf("status %q", got)
	}
	p.waitFor("the first step", `document.getElementById('hint').textContent.startsWith('B1')`)
	if got := p.text("#hint"); got != "B1: Setz einen schwarzen Stein auf einen beliebigen Punkt." {
		t.Errorf("hint %q", got)
	}
	if got := p.text("#submit"); got != "Aufbau abschicken" {
		t.Errorf("submit button %q", got)
	}
	// The goal in words and the rules of Les, in German.
	if got, want := p.text("#goal-text"), "Besitze mehr Löcher als dein Gegner: leere Punkte, die nur deine Steine umschließen."; got != want {
		t.Errorf("goal %q, want %q", got, want)
	}
	if got := eval[string](p, `document.getElementById('rules-link').getAttribute('href')`); got != "/rules/les?lang=de" {
		t.Errorf("rules link %q", got)
	}
	// Every language has every string; the Less page's test checks it too,
	// but Les's strings are the ones that came last.
	ctx, cancel := context.WithTimeout(p.ctx, browserTimeout)
	defer cancel()
	missing, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`import('/assets/i18n.js').then(({catalogs}) =>
		Object.entries(catalogs).flatMap(([locale, c]) =>
			Object.keys(catalogs.en).filter((k) => k.startsWith('les.') && !(k in c)).map((k) => locale + ': ' + k)))`, chromedp.EvalAwaitPromise))
	if err != nil || len(missing) > 0 {
		t.Errorf("Les strings missing from the catalogs: %v (%v)", missing, err)
	}
}

// The sign-in page lists games of Les beside Less's: the seats with the
// stones they play once chosen, whose turn it is, the result in words.
func TestLesPageInTheGamesList(t *testing.T) {
	h := newHarness(t)
	game := lesGameCase(t, true)
	over, seats := newLesGame(t, h, game.Size, "")
	playLes(t, h, over, seats, append([]string{game.Setup, game.Choice}, game.Turns...))
	newLesGame(t, h, 9, "")
	h.deliver()
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "sue@example.org"}).want(t, http.StatusAccepted)
	link := loginLinkRE.FindString(only(t, h.deliver(), "sue@example.org").Text)
	if link == "" {
		t.Fatal("no sign-in link in the login email")
	}
	p := openBrowser(t, 1280, 900)
	p.do("open the sign-in link", chromedp.Navigate(h.pageURL(link)))
	p.waitFor("the two games", `document.querySelectorAll('#games li').length === 2`)
	lines := eval[[]string](p, `[...document.querySelectorAll('#games li')].map((e) => e.textContent)`)
	if lines[0] != "vs ChoLes, side 9 · your turn" {
		t.Errorf("the game at its setup: %q", lines[0])
	}
	players := fmt.Sprintf("vs Cho (%s)Les, side %d", strings.ToUpper(game.Choice[:1])+game.Choice[1:], game.Size)
	if !strings.HasPrefix(lines[1], players+" · finished: ") || !strings.HasSuffix(lines[1], lesHolesText(game)) {
		t.Errorf("the finished game: %q, want %q, finished and %q", lines[1], players, lesHolesText(game))
	}
}
