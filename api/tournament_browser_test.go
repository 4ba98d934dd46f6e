package api_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// screenshotDir keeps the tournament page's screenshots for a person to
// look at (git ignores it); $LESSPOST_SCREENSHOTS overrides it.
func screenshotDir() string {
	if dir := os.Getenv("LESSPOST_SCREENSHOTS"); dir != "" {
		return dir
	}
	return filepath.Join("testdata", "screenshots")
}

// screenSize is a browser window the tournament page is tried at.
type screenSize struct {
	width, height int
	phone         bool
}

var pageSizes = []screenSize{{390, 844, true}, {360, 740, true}, {1280, 800, false}}

// openPageAt opens path at a size (a phone's emulated as one), waits for
// ready and checks that the page is no wider than the screen and that
// nothing in within sticks out of it but what is in a .scroll box.
func openPageAt(t *testing.T, h *harness, path string, size screenSize, ready, within string) *page {
	t.Helper()
	p := openBrowser(t, size.width, size.height)
	if size.phone {
		p.do("emulate a phone", chromedp.EmulateViewport(int64(size.width), int64(size.height),
			chromedp.EmulateMobile, chromedp.EmulateScale(2)))
	}
	p.do("open the page", chromedp.Navigate(h.url+path))
	p.waitFor("the page", ready)
	if w := eval[int](p, "document.scrollingElement.scrollWidth"); w > size.width {
		t.Errorf("page is %d px wide at %d", w, size.width)
	}
	// Nothing sticks out of the screen, however long a name or wide a table.
	wide := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('%s *')].filter((e) => {
		const r = e.getBoundingClientRect();
		return r.width > 0 && (r.right > %d + 0.5 || r.left < -0.5) && !e.closest('.scroll');
	}).map((e) => e.tagName + '.' + e.className)`, within, size.width))
	if len(wide) > 0 {
		t.Errorf("outside the screen at %d px: %v", size.width, wide)
	}
	return p
}

// The public page in a real browser at a phone's and a desktop's size: no
// horizontal scroll (the tables scroll in their own box), the crosstable
// shown, and a game's watch link opens its spectator view.
func TestTournamentPageInBrowser(t *testing.T) {
	h := newHarness(t)
	// Long names, one without a place to break, must not widen the page.
	players := entrants(5)
	players[1]["name"] = "Maximiliane Wolkenstein-Hohenberg-Rabenstein"
	players[3]["name"] = strings.Repeat("W", 64)
	lr := startLiveRound(t, h, "Championnat d’hiver par correspondance de la Fédération européenne de Less 2026", "round_robin", players)
	for _, size := range pageSizes {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			p := openPageAt(t, h, "/tournaments/"+lr.tour.ID, size, `document.querySelector('table.crosstable')`, "main")
			for _, sel := range []string{"table.standings", "table.crosstable", ".game .watch", `a[href$="/records"]`, `a[href$="standings?format=csv"]`} {
				if !p.visible(sel) {
					t.Errorf("%s not shown at %d px", sel, size.width)
				}
			}
			if got := eval[int](p, `document.querySelectorAll('table.crosstable tbody tr').length`); got != 5 {
				t.Errorf("crosstable has %d rows, want 5", got)
			}
			// Text is readable: no font smaller than 12 px.
			if small := eval[float64](p, `Math.min(...[...document.querySelectorAll('main *')].filter((e) => e.childElementCount === 0 && e.textContent.trim()).map((e) => parseFloat(getComputedStyle(e).fontSize)))`); small < 12 {
				t.Errorf("text as small as %.1f px", small)
			}
			if err := p.screenshot(filepath.Join(screenshotDir(), fmt.Sprintf("tournament-%dx%d.png", size.width, size.height))); err != nil {
				t.Errorf("screenshot: %v", err)
			}
		})
	}

	t.Run("watch", func(t *testing.T) {
		p := openBrowser(t, 390, 844)
		p.do("open the page", chromedp.Navigate(h.url+"/tournaments/"+lr.tour.ID))
		p.waitFor("the page", `document.querySelector('.game .watch')`)
		p.click(fmt.Sprintf(`a.watch[href$="/games/%s/watch"]`, lr.playing))
		p.waitFor("the spectator view", `location.pathname === '/play/`+lr.playing+`' && !document.body.classList.contains('loading')`)
		if !p.visible("#spectating") || p.visible("#submit") {
			t.Errorf("the watch link did not open a spectator's view (spectating note %v)", p.visible("#spectating"))
		}
		if got, want := p.text("#status"), "Black ("+lr.playingBlack+") to move"; got != want {
			t.Errorf("status %q, want %q", got, want)
		}
		if eval[string](p, "location.hash") != "" {
			t.Error("the token stays in the address bar")
		}
		if err := p.screenshot(filepath.Join(screenshotDir(), "tournament-watch-390x844.png")); err != nil {
			t.Errorf("screenshot: %v", err)
		}
	})
}

// A knockout's bracket in a real browser: rounds side by side on a desktop,
// stacked on a phone, never wider than the screen; the byes and the games
// decided marked, the later slots waiting for their matches' winners.
func TestTournamentBracketInBrowser(t *testing.T) {
	h := newHarness(t)
	players := entrants(7)
	players[2]["name"] = "Maximiliane Wolkenstein-Hohenberg-Rabenstein"
	players[5]["name"] = strings.Repeat("W", 64)
	lr := startLiveRound(t, h, "Coupe d’hiver à élimination directe 2026", "knockout", players)
	for _, size := range pageSizes {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			p := openPageAt(t, h, "/tournaments/"+lr.tour.ID, size, `document.querySelector('#bracket .match')`, "#bracket")
			if got := eval[[]int](p, `[1, 2, 3].map((n) => document.querySelectorAll('#bracket-' + n + ' .match').length)`); fmt.Sprint(got) != "[4 2 1]" {
				t.Errorf("matches by round %v, want [4 2 1]", got)
			}
			// The bye and the game Black resigned: two winners marked.
			if got := eval[int](p, `document.querySelectorAll('#bracket .slot.won').length`); got != 2 {
				t.Errorf("%d winners marked, want 2", got)
			}
			if got := p.text("#match-7"); !strings.Contains(got, "Winner of match 5") || !strings.Contains(got, "Winner of match 6") {
				t.Errorf("the final reads %q", got)
			}
			if !strings.Contains(p.text("#standings"), "Ranked by how far each player went") {
				t.Error("the standings do not say how a knockout ranks")
			}
			// Side by side from 720 px, stacked below.
			sideBySide := eval[bool](p, `(() => {
				const a = document.querySelector('#bracket-1').getBoundingClientRect(), b = document.querySelector('#bracket-2').getBoundingClientRect();
				return b.left >= a.right && Math.abs(a.top - b.top) < 1;
			})()`)
			if sideBySide == size.phone {
				t.Errorf("rounds side by side %v at %d px", sideBySide, size.width)
			}
			if small := eval[float64](p, `Math.min(...[...document.querySelectorAll('#bracket *')].filter((e) => e.childElementCount === 0 && e.textContent.trim()).map((e) => parseFloat(getComputedStyle(e).fontSize)))`); small < 12 {
				t.Errorf("text as small as %.1f px", small)
			}
			if err := p.screenshot(filepath.Join(screenshotDir(), fmt.Sprintf("tournament-bracket-%dx%d.png", size.width, size.height))); err != nil {
				t.Errorf("screenshot: %v", err)
			}
		})
	}
}

// A team event's page on a phone: the standings and the crosstable are by
// team, a named team's members under its name, the games team against
// team, and nothing widens the page however long the names.
func TestTeamTournamentPageInBrowser(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	teams := teamEntries(4, true)
	teams[0]["team"] = "Die unaufhaltsamen Wandbezwinger aus Oberammergau"
	teams[1]["partner"].(map[string]any)["name"] = strings.Repeat("W", 64)
	delete(teams[2], "team")
	var tour teamTournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Pairs Cup", "format": "round_robin", "teams": true, "players": teams,
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 72}}).want(t, http.StatusCreated).decode(t, &tour)
	h.clock.Advance(time.Hour)
	h.tickAll()
	for _, m := range h.deliver() {
		if strings.Contains(m.Text, "You play Black") {
			id, token := moveLink(t, m)
			h.do("POST", "/v1/games/"+id+"/resign", token, nil).want(t, http.StatusOK)
			break // one game decided, one playing
		}
	}
	for _, width := range []int{390, 360} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			p := phone(t, width, 844)
			p.do("open the page", chromedp.Navigate(h.url+"/tournaments/"+tour.ID))
			p.waitFor("the page", `document.querySelector('table.crosstable')`)
			if w := eval[int](p, "document.scrollingElement.scrollWidth"); w > width {
				t.Errorf("page is %d px wide at %d", w, width)
			}
			wide := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('main *')].filter((e) => {
				const r = e.getBoundingClientRect();
				return r.width > 0 && (r.right > %d + 0.5 || r.left < -0.5) && !e.closest('.scroll');
			}).map((e) => e.tagName + '.' + e.className)`, width))
			if len(wide) > 0 {
				t.Errorf("outside the screen at %d px: %v", width, wide)
			}
			names := eval[[]string](p, `[...document.querySelectorAll('table.standings tbody th.name')].map((e) => e.textContent)`)
			if len(names) != 4 || !slices.ContainsFunc(names, func(n string) bool {
				return strings.HasPrefix(n, "Die unaufhaltsamen") && strings.HasSuffix(n, "P0 & Q0")
			}) || !slices.Contains(names, "P2 & Q2") {
				t.Errorf("standings by team %q", names)
			}
			if got := eval[int](p, `document.querySelectorAll('table.crosstable tbody tr').length`); got != 4 {
				t.Errorf("crosstable has %d rows, want 4 teams", got)
			}
			if !p.visible(".members") || !p.visible(".game .watch") {
				t.Error("the members or the games are not shown")
			}
			if err := p.screenshot(filepath.Join(screenshotDir(), fmt.Sprintf("tournament-teams-%dx844.png", width))); err != nil {
				t.Errorf("screenshot: %v", err)
			}
		})
	}
}
