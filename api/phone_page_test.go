package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// phone opens a browser the size of a phone, as a phone: touch, scale 2.
func phone(t *testing.T, width, height int) *page {
	t.Helper()
	p := openBrowser(t, width, height)
	p.do("emulate a phone", chromedp.EmulateViewport(int64(width), int64(height), chromedp.EmulateMobile, chromedp.EmulateScale(2)))
	return p
}

// inView says whether the element is wholly on the screen and is what a
// tap at its centre reaches (nothing covers it).
func inView(p *page, sel string) bool {
	return eval[bool](p, fmt.Sprintf(`(() => {
		const e = document.querySelector(%s);
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
		const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return hit === e || e.contains(hit);
	})()`, jsString(sel)))
}

// fitsWidth reports the page's elements that stick out of a screen of the
// width, and the page's own width if it scrolls sideways.
func fitsWidth(t *testing.T, p *page, what string, width int) {
	t.Helper()
	if w := eval[int](p, "document.scrollingElement.scrollWidth"); w > width {
		t.Errorf("%s: the page is %d px wide at %d", what, w, width)
	}
	wide := eval[[]string](p, fmt.Sprintf(`[...document.body.querySelectorAll('*')].filter((e) => {
		const r = e.getBoundingClientRect();
		return r.width > 0 && (r.right > %d + 0.5 || r.left < -0.5) && !e.closest('.scroll');
	}).map((e) => e.tagName + '#' + e.id + '.' + e.className)`, width))
	if len(wide) > 0 {
		t.Errorf("%s: outside the screen at %d px: %v", what, width, wide)
	}
}

// On a phone the board fills the screen and the turn panel is below it: once
// the turn is complete, Submit is on the screen without scrolling (a bar
// fixed to its bottom), covers none of the page's end, and sends the turn.
func TestPlayPageSubmitStaysInViewOnAPhone(t *testing.T) {
	h := newHarness(t)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	p := phone(t, 390, 844)
	p.open(h.url + "/play/" + id + "#t=" + ann)
	p.waitFor("the turn panel", `!document.getElementById('turn').hidden && document.querySelector('.movable')`)
	if inView(p, "#submit") {
		t.Fatal("Submit is on the screen before the turn: the test proves nothing at this size")
	}

	p.click(`[data-sq="e5"]`)
	for i, sq := range []string{"e4", "d4"} {
		p.waitFor("destination "+sq, `document.querySelector('.dest[data-sq="`+sq+`"]')`)
		p.click(`.dest[data-sq="` + sq + `"]`)
		used := string(rune('1' + i))
		p.waitFor("the meter after move "+used, `document.getElementById('meter-text').textContent.startsWith('`+used+` of 3')`)
	}
	if inView(p, "#submit") {
		t.Error("Submit is fixed to the screen before the turn is complete")
	}
	p.waitFor("destination c4", `document.querySelector('.dest[data-sq="c4"]')`)
	p.click(`.dest[data-sq="c4"]`)
	p.waitFor("Submit to be enabled", `!document.getElementById('submit').disabled`)
	if !inView(p, "#submit") {
		t.Fatalf("the turn is complete but Submit is off the screen (top %v, screen %v)",
			eval[float64](p, `document.getElementById('submit').getBoundingClientRect().top`), eval[int](p, "innerHeight"))
	}
	fitsWidth(t, p, "with the bar", 390)
	// Scrolled to the end, the page's last line is above the bar, not under it.
	eval[bool](p, `(scrollTo(0, document.scrollingElement.scrollHeight), true)`)
	if gap := eval[float64](p, `document.getElementById('submit-bar').getBoundingClientRect().top - document.getElementById('game-id').getBoundingClientRect().bottom`); gap < 0 {
		t.Errorf("the bar covers the end of the page by %.0f px", -gap)
	}
	saveScreenshot(t, p, "play-390-submit-bar.png")

	p.click("#submit")
	p.waitFor("the played notice", `!document.getElementById('notice').hidden`)
	if eval[bool](p, `document.body.classList.contains('turn-ready')`) || p.visible("#submit") {
		t.Error("the bar stays after the turn was sent")
	}
	if g := h.game(id, ann); g.Ply != 1 {
		t.Errorf("stored game at ply %d, want 1", g.Ply)
	}
}

// At 360 px (a small phone) no page scrolls sideways: the sign-in page
// asking for the address and the code, signed in (by a link opened in the
// same tab) with its list of games, and the unsubscribe page. (The play, Les and tournament pages have their
// own tests at this width.)
func TestPagesFitSmallPhone(t *testing.T) {
	h := newHarness(t)
	newGame(t, h, twoPlayers(openBoard))
	p := phone(t, 360, 740)

	p.open(h.url + "/login")
	p.waitFor("the sign-in form", `!document.querySelector('#ask').hidden`)
	fitsWidth(t, p, "sign-in", 360)
	saveScreenshot(t, p, "login-360.png")

	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
	m := only(t, h.deliver(), "ann@example.org")
	link := loginLinkRE.FindString(m.Text)
	if link == "" {
		t.Fatalf("no sign-in link in:\n%s", m.Text)
	}
	// The link opens in the tab already on /login: only the fragment changes,
	// which loads nothing, and the page must still sign in.
	p.do("open the sign-in link", chromedp.Navigate(h.pageURL(link)))
	p.waitFor("the games", `document.querySelector('#games a')`)
	fitsWidth(t, p, "the list of games", 360)
	saveScreenshot(t, p, "login-360-games.png")

	h.do("POST", "/v1/games", h.login("org@example.org"), twoPlayers(openBoard)).want(t, http.StatusCreated)
	unsub := only(t, h.deliver(), "ann@example.org").Unsubscribe
	if !strings.Contains(unsub, "/unsubscribe?") {
		t.Fatalf("unsubscribe link %q", unsub)
	}
	p.do("open the unsubscribe link", chromedp.Navigate(h.pageURL(unsub)))
	p.waitFor("the page", `document.readyState === 'complete' && document.body.textContent.trim() !== ''`)
	fitsWidth(t, p, "unsubscribe", 360)
	saveScreenshot(t, p, "unsubscribe-360.png")
}
