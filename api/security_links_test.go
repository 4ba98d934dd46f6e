package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A leaked calendar link can be replaced: the old one is refused
// (401 link_replaced) and the new one works. Only the account may replace
// it.
func TestCalendarLinkRotation(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	old := calendarToken(t, h, s.organiser)
	h.do("GET", "/calendar.ics?t="+url.QueryEscape(old), "", nil).want(t, http.StatusOK)

	h.refused(t, http.StatusUnauthorized, "unauthorized", "POST", "/v1/me/calendar-link", "", nil)
	h.refused(t, http.StatusForbidden, "account_required", "POST", "/v1/me/calendar-link", s.white, nil)
	h.refused(t, http.StatusForbidden, "account_required", "POST", "/v1/me/calendar-link", s.watch, nil)

	var me struct {
		CalendarURL string `json:"calendar_url"`
	}
	h.do("POST", "/v1/me/calendar-link", s.organiser, nil).want(t, http.StatusOK).decode(t, &me)
	u, err := url.Parse(me.CalendarURL)
	if err != nil {
		t.Fatal(err)
	}
	fresh := u.Query().Get("t")
	if fresh == old || fresh != calendarToken(t, h, s.organiser) {
		t.Errorf("the answer's calendar_url is not the account's new link")
	}
	h.refused(t, http.StatusUnauthorized, "link_replaced", "GET", "/calendar.ics?t="+url.QueryEscape(old), "", nil)
	h.do("GET", "/calendar.ics?t="+url.QueryEscape(fresh), "", nil).want(t, http.StatusOK)
	// The account's other sessions see the new link too.
	if other := h.login("org@example.org"); calendarToken(t, h, other) != fresh {
		t.Error("another session of the account got another calendar link")
	}
}

// A leaked spectator link can be replaced by the game's players or its
// creator: older links are refused (401 link_replaced), and the new link is
// the one the answer, the game and later emails carry. Spectators, strangers
// and other games' seats cannot replace it.
func TestSpectatorLinkRotation(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	other := startGame(t, h)
	stranger := h.login("eve@example.org")
	path := "/v1/games/" + s.id + "/spectator-link"
	h.do("GET", "/v1/games/"+s.id, s.watch, nil).want(t, http.StatusOK)

	h.refused(t, http.StatusUnauthorized, "unauthorized", "POST", path, "", nil)
	h.refused(t, http.StatusForbidden, "forbidden", "POST", path, s.watch, nil)
	h.refused(t, http.StatusForbidden, "forbidden", "POST", path, stranger, nil)
	h.refused(t, http.StatusForbidden, "wrong_game", "POST", path, other.white, nil)
	h.refused(t, http.StatusForbidden, "wrong_game", "POST", path, other.watch, nil)
	h.refused(t, http.StatusNotFound, "not_found", "POST", "/v1/games/g_missing/spectator-link", s.organiser, nil)

	links := []string{s.watch}
	for _, who := range []struct{ name, token string }{{"a player", s.white}, {"the creator", s.organiser}} {
		var g struct {
			SpectatorURL string `json:"spectator_url"`
			Version      int    `json:"version"`
		}
		h.do("POST", path, who.token, nil).want(t, http.StatusOK).decode(t, &g)
		_, token, ok := strings.Cut(g.SpectatorURL, "#t=")
		if !ok || token == links[len(links)-1] {
			t.Fatalf("%s: spectator_url %q is not a new link", who.name, g.SpectatorURL)
		}
		for _, old := range links {
			h.refused(t, http.StatusUnauthorized, "link_replaced", "GET", "/v1/games/"+s.id, old, nil)
		}
		h.do("GET", "/v1/games/"+s.id, token, nil).want(t, http.StatusOK)
		var now struct {
			SpectatorURL string `json:"spectator_url"`
		}
		h.do("GET", "/v1/games/"+s.id, s.black, nil).want(t, http.StatusOK).decode(t, &now)
		if now.SpectatorURL != g.SpectatorURL {
			t.Errorf("%s: the game shows spectator_url %q, want the new %q", who.name, now.SpectatorURL, g.SpectatorURL)
		}
		links = append(links, token)
	}
	// The next email that shows the link (the result) carries the new one.
	h.do("POST", "/v1/games/"+s.id+"/resign", s.white, nil)
	match := watchLinkRE.FindStringSubmatch(only(t, h.deliver(), "bob@example.org").Text)
	if match == nil || match[1] != links[len(links)-1] {
		t.Errorf("the email after the rotation does not carry the new spectator link: %q", match)
	}
	if got := h.do("GET", "/v1/games/"+s.id, s.white, nil); got.status != http.StatusOK || !strings.Contains(string(got.body), `"finished"`) {
		t.Errorf("the game did not end by resignation: %s", got.body)
	}
}
