package api_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// signupTournament creates a round robin taking up to four players by
// invite link, with one joined, and returns its id and the invite token.
func signupTournament(t *testing.T, h *harness) (id, token string) {
	t.Helper()
	organiser := h.login("org@example.org")
	var tour controlJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Spring Open", "format": "round_robin",
		"schedule":     map[string]any{"first_start": h.clock.Now().Add(48 * time.Hour), "interval_hours": 72, "round_hours": 48},
		"registration": map[string]any{"max_players": 4}}).want(t, http.StatusCreated).decode(t, &tour)
	token = invite(t, h, organiser, tour.ID, map[string]any{"max_players": 4})
	ann := h.login("ann@example.org")
	h.do("POST", "/v1/tournaments/"+tour.ID+"/join", ann, map[string]any{"invite": token, "name": "Ann"}).want(t, http.StatusOK)
	return tour.ID, token
}

// The page says, in each language, that registration is open, until when
// and with how many places left, and lists the log newest first with who
// did what; the sign-up's words are in the page for its script.
func TestTournamentPageSignupAndLog(t *testing.T) {
	h := newHarness(t)
	id, _ := signupTournament(t, h)
	cases := []struct {
		lang string
		want []string
	}{
		{"en", []string{"Registration is open until the first round starts", "3 places left.", "Joining takes the invite link",
			"What happened", "Joined", "Registration opened", "the organiser", "Ann joined", "Email me a sign-in code", `data-err-tournament_full="The tournament is full."`}},
		{"de", []string{"Die Anmeldung ist offen bis zum Beginn der ersten Runde", "Noch 3 Plätze frei.", "Was geschah",
			"Anmeldung geöffnet", "die Turnierleitung", `<p class="log-detail">Ann ist dabei</p>`, "Anmeldecode per E-Mail schicken"}},
		{"fr", []string{"L&#39;inscription est ouverte", "3 places libres.", "Inscription ouverte", "l&#39;organisateur"}},
		{"it", []string{"L&#39;iscrizione è aperta", "3 posti liberi.", "Iscrizione aperta", "l&#39;organizzatore"}},
		{"es", []string{"La inscripción está abierta", "Quedan 3 plazas.", "Inscripción abierta", "el organizador"}},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			r := h.do("GET", "/tournaments/"+id+"?lang="+c.lang, "", nil).want(t, http.StatusOK)
			page := string(r.body)
			for _, w := range c.want {
				if !strings.Contains(page, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			// Newest first: Ann's joining before the opening of registration.
			if joined, opened := strings.Index(page, `class="what">`+whatJoined[c.lang]), strings.Index(page, `id="log-h"`); joined < opened {
				t.Errorf("the log's order: joined at %d, the log's head at %d", joined, opened)
			}
			if !strings.Contains(page, `<script type="module" src="/assets/tournament.js"></script>`) ||
				!strings.Contains(r.header.Get("Content-Security-Policy"), "script-src 'self'") {
				t.Errorf("the sign-up's script or its policy is missing (CSP %q)", r.header.Get("Content-Security-Policy"))
			}
		})
	}

	// Once the event starts, the sign-up section goes; the log stays.
	h.clock.Advance(48 * time.Hour)
	h.tickAll()
	page := string(h.do("GET", "/tournaments/"+id, "", nil).want(t, http.StatusOK).body)
	if strings.Contains(page, `id="registration"`) || !strings.Contains(page, "Registration closed") {
		t.Errorf("after the start: registration section shown %v, closing logged %v",
			strings.Contains(page, `id="registration"`), strings.Contains(page, "Registration closed"))
	}
}

var whatJoined = map[string]string{"en": "Joined", "de": "Angemeldet", "fr": "Inscription", "it": "Iscrizione", "es": "Inscripción"}

// A visitor holding the invite link joins on the page, at a phone's and a
// desktop's size: the token leaves the address bar, he gets a sign-in code
// by email and types it, gives his name and is entered; then he withdraws
// before the start, and may join again, until the organiser re-issues the
// link.
func TestTournamentSignupInBrowser(t *testing.T) {
	for _, size := range []struct {
		width, height int
		phone         bool
	}{{390, 844, true}, {1280, 800, false}} {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			h := newHarness(t)
			id, token := signupTournament(t, h)
			p := openBrowser(t, size.width, size.height)
			if size.phone {
				p.do("emulate a phone", chromedp.EmulateViewport(int64(size.width), int64(size.height),
					chromedp.EmulateMobile, chromedp.EmulateScale(2)))
			}
			p.do("open the invite link", chromedp.Navigate(h.url+"/tournaments/"+id+"#invite="+token))
			p.waitFor("the email form", `!document.getElementById('signup-email').hidden`)
			if hash := eval[string](p, "location.hash"); hash != "" {
				t.Errorf("the invite stays in the address bar: %q", hash)
			}
			if got := p.text(".reg-status"); !strings.Contains(got, "Registration is open") || !strings.Contains(got, "3 places left.") {
				t.Errorf("registration says %q", got)
			}
			if w := eval[int](p, "document.scrollingElement.scrollWidth"); w > size.width {
				t.Errorf("page is %d px wide at %d", w, size.width)
			}
			if err := p.screenshot(filepath.Join(screenshotDir(), fmt.Sprintf("tournament-signup-%dx%d.png", size.width, size.height))); err != nil {
				t.Errorf("screenshot: %v", err)
			}

			p.do("type the address", chromedp.SendKeys(chromedp.CSS("#signup-email-input"), "nia@example.org\n"))
			p.waitFor("the code form", `!document.getElementById('signup-code').hidden`)
			m := only(t, h.deliver(), "nia@example.org")
			code := loginCodeRE.FindStringSubmatch(m.Text)
			if code == nil {
				t.Fatalf("no sign-in code in:\n%s", m.Text)
			}
			p.do("type the code", chromedp.SendKeys(chromedp.CSS("#signup-code-input"), code[1]+"\n"))
			p.waitFor("the join form", `!document.getElementById('signup-join').hidden`)
			if got := p.text("#signup-who"); got != "Signed in as nia@example.org." {
				t.Errorf("the join form says %q", got)
			}
			p.do("type the name", chromedp.SendKeys(chromedp.CSS("#signup-name"), "Nia\n"))
			p.waitFor("entered", `!document.getElementById('signup-joined').hidden`)
			var tour controlJSON
			h.do("GET", "/v1/tournaments/"+id, "", nil).want(t, http.StatusOK).decode(t, &tour)
			if len(tour.Players) != 2 || tour.Players[1].Name != "Nia" {
				t.Fatalf("after joining on the page: %+v", tour.Players)
			}
			if got := p.text(".reg-status"); !strings.Contains(got, "2 places left.") {
				t.Errorf("after joining, registration says %q", got)
			}
			if got := p.text(".log li"); !strings.Contains(got, "Nia joined") {
				t.Errorf("the log's newest entry: %q", got)
			}
			if err := p.screenshot(filepath.Join(screenshotDir(), fmt.Sprintf("tournament-joined-%dx%d.png", size.width, size.height))); err != nil {
				t.Errorf("screenshot: %v", err)
			}

			// Her joining and leaving cancel out: the log (reloaded with the
			// page) no longer names her.
			p.click("#signup-withdraw")
			p.waitFor("the join form again", `!document.getElementById('signup-join').hidden && !document.body.textContent.includes('Nia joined')`)
			h.do("GET", "/v1/tournaments/"+id, "", nil).want(t, http.StatusOK).decode(t, &tour)
			if len(tour.Players) != 1 {
				t.Errorf("after withdrawing on the page: %+v", tour.Players)
			}

			// The organiser re-issues the link: the one this tab holds is
			// refused, and the page says why.
			invite(t, h, h.login("org@example.org"), id, map[string]any{"max_players": 4, "new_link": true})
			p.do("type the name again", chromedp.SendKeys(chromedp.CSS("#signup-name"), "Nia\n"))
			p.waitFor("the refusal", `!document.getElementById('signup-alert').hidden`)
			if got := p.text("#signup-alert"); got != "This invite link no longer works: ask the organiser for the new one." {
				t.Errorf("a stale invite: the page says %q", got)
			}
		})
	}
}
