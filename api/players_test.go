package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/notify/smtptest"
)

// playerJSON is the part of the PublicPlayer schema the tests read.
type playerJSON struct {
	Handle    string   `json:"handle"`
	Name      string   `json:"name"`
	Country   *string  `json:"country"`
	Languages []string `json:"languages"`
	Bio       string   `json:"bio"`
	Playing   []struct {
		ID        string   `json:"id"`
		Opponents []string `json:"opponents"`
		Watch     string   `json:"watch_url"`
	} `json:"playing"`
	Finished []struct {
		ID     string  `json:"id"`
		Result *string `json:"result"`
		Watch  string  `json:"watch_url"`
	} `json:"finished"`
	FinishedHidden bool `json:"finished_hidden"`
	Stats          []struct {
		Game   string `json:"game"`
		Played int    `json:"played"`
		Won    int    `json:"won"`
		Lost   int    `json:"lost"`
	} `json:"stats"`
}

// noRedirect gets path without following a redirect.
func (h *harness) noRedirect(t *testing.T, path string) *http.Response {
	t.Helper()
	client := &http.Client{Transport: h.client.Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(t.Context(), "GET", h.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// Handles and profiles as players meet them: Ann chooses a handle and fills
// her profile; Bob invites her by handle, and the invitation reaches her
// address by real SMTP without Bob ever seeing it; her profile shows the
// game in progress, then finished with its result; a new handle leaves the
// old one leading to her.
func TestInviteByHandleEndToEnd(t *testing.T) {
	runParallel(t)
	h := newHarness(t)
	ann, bob, cara := h.login("ann@example.org"), h.login("bob@example.org"), h.login("cara@example.org")

	h.do("PATCH", "/v1/me", ann, map[string]any{"name": "Ann Smith"}).want(t, http.StatusOK)
	var prof struct {
		Handle *string `json:"handle"`
		URL    *string `json:"url"`
	}
	h.do("PUT", "/v1/me/handle", ann, map[string]any{"handle": "Ann"}).want(t, http.StatusOK).decode(t, &prof)
	if prof.Handle == nil || *prof.Handle != "Ann" || prof.URL == nil || *prof.URL != "/players/Ann" {
		t.Fatalf("after setHandle: %+v", prof)
	}
	bio := "Correspondence player <script>alert(1)</script> & friend of walls.\nSecond line."
	h.do("PATCH", "/v1/me/profile", ann, map[string]any{"country": "de", "languages": []string{"de", "EN"}, "bio": bio}).
		want(t, http.StatusOK)

	// Refusals, each with its code.
	h.do("PUT", "/v1/me/handle", bob, map[string]any{"handle": "aNN"}).want(t, http.StatusConflict, "handle_taken")
	h.do("PUT", "/v1/me/handle", bob, map[string]any{"handle": "admin"}).want(t, http.StatusUnprocessableEntity, "handle_reserved")
	h.do("PUT", "/v1/me/handle", bob, map[string]any{"handle": "less-bot-1"}).want(t, http.StatusUnprocessableEntity, "handle_reserved")
	h.do("PUT", "/v1/me/handle", bob, map[string]any{"handle": "b"}).want(t, http.StatusUnprocessableEntity, "handle_invalid")
	h.do("PUT", "/v1/me/handle", bob, map[string]any{"handle": "bob smith"}).want(t, http.StatusUnprocessableEntity, "handle_invalid")
	h.do("PATCH", "/v1/me/profile", bob, map[string]any{"bio": strings.Repeat("x", 301)}).want(t, http.StatusUnprocessableEntity, "invalid_input")
	h.do("POST", "/v1/games", bob, map[string]any{"players": []map[string]any{{"handle": "nobody"}, {"name": "Bob", "email": "bob@example.org"}}}).
		want(t, http.StatusUnprocessableEntity, "unknown_handle")
	h.do("POST", "/v1/games", bob, map[string]any{"players": []map[string]any{{"handle": "ann", "email": "x@example.org"}, {"name": "Bob", "email": "bob@example.org"}}}).
		want(t, http.StatusUnprocessableEntity, "invalid_input")
	// Two seats for one handle: refused without the address.
	res := h.do("POST", "/v1/games", bob, map[string]any{"players": []map[string]any{{"handle": "ann"}, {"handle": "ANN"}}}).
		want(t, http.StatusUnprocessableEntity, domain.CodeDuplicateAddress)
	if strings.Contains(string(res.body), "ann@example.org") {
		t.Errorf("a refusal told Bob Ann's address: %s", res.body)
	}

	// The invitation goes by real SMTP.
	srv := smtptest.Start(t)
	sender, err := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "games@lesspost.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.CloseIdleConnections()
	h.outbox.Sender = sender

	res = h.do("POST", "/v1/games", bob, map[string]any{"players": []map[string]any{{"handle": "ann"}, {"name": "Bob", "email": "bob@example.org"}},
		"board": map[string]any{"walls": strings.Repeat("0", 60)}}).want(t, http.StatusCreated)
	var g gameJSON
	res.decode(t, &g)
	if strings.Contains(string(res.body), "ann@example.org") {
		t.Errorf("the created game shows Bob Ann's address: %s", res.body)
	}
	h.deliver()
	srv.Wait(t, 2, 5*time.Second)
	invitations := srv.To("ann@example.org")
	if len(invitations) != 1 || !strings.Contains(invitations[0].Text, "You play White") || !strings.Contains(invitations[0].Text, g.ID) {
		t.Fatalf("%d invitations to Ann: %v", len(invitations), invitations)
	}
	if to := invitations[0].Header.Get("To"); !strings.Contains(to, "Ann Smith") {
		t.Errorf("the invitation is to %q; want Ann by her account's name", to)
	}
	for _, path := range []string{"/v1/games/" + g.ID, "/v1/me/games", "/v1/games/" + g.ID + "/mail"} {
		if r := h.do("GET", path, bob, nil); strings.Contains(string(r.body), "ann@example.org") {
			t.Errorf("GET %s shows Bob Ann's address: %s", path, r.body)
		}
	}

	// The profile, by API and page, without signing in.
	var p playerJSON
	h.do("GET", "/v1/players/ann", "", nil).want(t, http.StatusOK).decode(t, &p)
	if p.Handle != "Ann" || p.Name != "Ann Smith" || p.Country == nil || *p.Country != "DE" || strings.Join(p.Languages, ",") != "de,en" || p.Bio != bio {
		t.Errorf("profile: %+v", p)
	}
	if len(p.Playing) != 1 || p.Playing[0].ID != g.ID || strings.Join(p.Playing[0].Opponents, ",") != "Bob" || len(p.Finished) != 0 || len(p.Stats) != 0 {
		t.Errorf("profile's games while playing: %+v", p)
	}
	if r := h.do("GET", "/v1/players/ann", "", nil); strings.Contains(string(r.body), "@example.org") {
		t.Errorf("the profile shows an address: %s", r.body)
	}
	watch := h.noRedirect(t, p.Playing[0].Watch)
	if watch.StatusCode != http.StatusSeeOther || !strings.HasPrefix(watch.Header.Get("Location"), "/play/"+g.ID+"#t=") {
		t.Errorf("watch link: %d %q", watch.StatusCode, watch.Header.Get("Location"))
	}
	page := h.do("GET", "/players/Ann?lang=en", "", nil).want(t, http.StatusOK)
	html := string(page.body)
	for _, want := range []string{"Ann Smith", "@Ann", "&lt;script&gt;alert(1)&lt;/script&gt; &amp; friend of walls.<br>Second line.",
		"Games in progress", "against Bob", p.Playing[0].Watch} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "<script>") || strings.Contains(html, "@example.org") {
		t.Errorf("the page carries a script or an address:\n%s", html)
	}

	// Bob resigns: the game is Ann's win.
	h.do("POST", "/v1/games/"+g.ID+"/resign", bob, map[string]any{}).want(t, http.StatusOK)
	h.deliver()
	p = playerJSON{}
	h.do("GET", "/v1/players/Ann", "", nil).want(t, http.StatusOK).decode(t, &p)
	if len(p.Playing) != 0 || len(p.Finished) != 1 || p.Finished[0].ID != g.ID || p.Finished[0].Result == nil || *p.Finished[0].Result != "won" {
		t.Errorf("profile's games after the game: %+v", p)
	}
	if len(p.Stats) != 1 || p.Stats[0].Game != "less" || p.Stats[0].Played != 1 || p.Stats[0].Won != 1 || p.Stats[0].Lost != 0 {
		t.Errorf("stats: %+v", p.Stats)
	}
	if html := string(h.do("GET", "/players/ann?lang=en", "", nil).want(t, http.StatusOK).body); !strings.Contains(html, "won (") {
		t.Errorf("the page does not show the result:\n%s", html)
	}
	// Hidden finished games leave the list, not the record.
	h.do("PATCH", "/v1/me/profile", ann, map[string]any{"hide_finished": true}).want(t, http.StatusOK)
	p = playerJSON{}
	h.do("GET", "/v1/players/ann", "", nil).want(t, http.StatusOK).decode(t, &p)
	if len(p.Finished) != 0 || !p.FinishedHidden || len(p.Stats) != 1 {
		t.Errorf("hidden finished games: %+v", p)
	}
	h.do("GET", "/players/ann/games/"+g.ID+"/watch", "", nil).want(t, http.StatusNotFound)

	// A new handle: the old one redirects, and the API resolves it.
	h.do("PUT", "/v1/me/handle", ann, map[string]any{"handle": "annie"}).want(t, http.StatusOK)
	old := h.noRedirect(t, "/players/Ann?lang=de")
	if old.StatusCode != http.StatusMovedPermanently || old.Header.Get("Location") != "/players/annie?lang=de" {
		t.Errorf("the old handle's page: %d %q", old.StatusCode, old.Header.Get("Location"))
	}
	p = playerJSON{}
	h.do("GET", "/v1/players/ann", "", nil).want(t, http.StatusOK).decode(t, &p)
	if p.Handle != "annie" {
		t.Errorf("the old handle resolves to %q; want annie", p.Handle)
	}
	h.do("PUT", "/v1/me/handle", bob, map[string]any{"handle": "ann"}).want(t, http.StatusConflict, "handle_taken")
	h.do("GET", "/v1/players/nobody", "", nil).want(t, http.StatusNotFound, "not_found")
	h.do("GET", "/players/nobody", "", nil).want(t, http.StatusNotFound)

	// A tournament entry by handle.
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", bob, map[string]any{"name": "Club Cup", "format": "round_robin",
		"players":  []map[string]any{{"handle": "annie"}, {"name": "Bob", "email": "bob@example.org"}},
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 240}}).
		want(t, http.StatusCreated).decode(t, &tour)
	if r := h.do("GET", "/v1/players/annie", "", nil); !strings.Contains(string(r.body), tour.ID) {
		t.Errorf("the profile does not list the tournament %s: %s", tour.ID, r.body)
	}
	// The organiser adds a player by handle before the start: he sees the
	// address of his entrants, as with any entry.
	h.do("PUT", "/v1/me/handle", cara, map[string]any{"handle": "cara"}).want(t, http.StatusOK)
	res = h.do("POST", "/v1/tournaments/"+tour.ID+"/players", bob, map[string]any{"handle": "Cara"}).want(t, http.StatusOK)
	if !strings.Contains(string(res.body), "cara@example.org") {
		t.Errorf("the entry by handle is not Cara's: %s", res.body)
	}
	if r := h.do("GET", "/v1/players/cara", "", nil); !strings.Contains(string(r.body), tour.ID) {
		t.Errorf("Cara's profile does not list the tournament %s: %s", tour.ID, r.body)
	}
	h.do("POST", "/v1/tournaments/"+tour.ID+"/players", bob, map[string]any{"handle": "dan"}).want(t, http.StatusUnprocessableEntity, "unknown_handle")
}

// The profile page speaks each of the five languages.
func TestPlayerPageLanguages(t *testing.T) {
	runParallel(t)
	h := newHarness(t)
	ann := h.login("ann@example.org")
	h.do("PUT", "/v1/me/handle", ann, map[string]any{"handle": "ann"}).want(t, http.StatusOK)
	for lang, word := range map[string]string{"en": "Games in progress", "de": "Laufende Partien", "fr": "Parties en cours",
		"es": "Partidas en curso", "it": "Partite in corso"} {
		res := h.do("GET", "/players/ann?lang="+lang, "", nil).want(t, http.StatusOK)
		if html := string(res.body); !strings.Contains(html, word) || !strings.Contains(html, fmt.Sprintf(`<html lang="%s">`, lang)) ||
			res.header.Get("Content-Language") != lang {
			t.Errorf("%s: the page lacks %q or its language:\n%s", lang, word, html)
		}
	}
}

// Changing handle again and again holds at most three old ones: the next
// change waits, and says how long.
func TestHandleChangesAreLimited(t *testing.T) {
	runParallel(t)
	h := newHarness(t)
	zed := h.login("zed@example.org")
	for i := range 4 {
		h.do("PUT", "/v1/me/handle", zed, map[string]any{"handle": fmt.Sprintf("zed%d", i)}).want(t, http.StatusOK)
	}
	res := h.do("PUT", "/v1/me/handle", zed, map[string]any{"handle": "zed4"}).want(t, http.StatusTooManyRequests, "rate_limited")
	if res.header.Get("Retry-After") == "" {
		t.Errorf("no Retry-After: %v", res.header)
	}
	h.do("PUT", "/v1/me/handle", zed, map[string]any{"handle": "zed0"}).want(t, http.StatusOK)
}

// Invitations by handle meet the mail policy as invitations by address do:
// one account cannot mail a player more than the policy's daily limit by
// naming his handle again and again.
func TestInviteByHandleIsCapped(t *testing.T) {
	runParallel(t)
	h := newHarness(t)
	victim := h.login("victim@example.org")
	h.do("PUT", "/v1/me/handle", victim, map[string]any{"handle": "victim"}).want(t, http.StatusOK)
	mallory := h.login("mallory@evil.example")
	got, refused := 0, 0
	for range 30 {
		res := h.do("POST", "/v1/games", mallory, map[string]any{"players": []map[string]any{{"name": "Mallory", "email": "mallory@evil.example"}, {"handle": "victim"}},
			"board": map[string]any{"walls": strings.Repeat("0", 60)}})
		if res.status == http.StatusTooManyRequests {
			refused++
		}
		for _, m := range h.deliver() {
			if m.To == "victim@example.org" {
				got++
			}
		}
		h.clock.Advance(10 * time.Second)
	}
	if got == 0 || got > domain.DefaultMailLimits.PairPerDay || refused == 0 {
		t.Errorf("30 invitations by handle: %d reached the player (%d refused); want 1 to %d", got, refused, domain.DefaultMailLimits.PairPerDay)
	}
}
