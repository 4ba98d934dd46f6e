package api_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// addressesJSON is what the tournament's JSON says of its players'
// addresses.
type addressesJSON struct {
	Players []struct {
		Name         string  `json:"name"`
		Email        *string `json:"email"`
		PartnerEmail *string `json:"partner_email"`
	} `json:"players"`
}

// shown lists the addresses a view shows, "" for each hidden one: the
// player's, then the partner's, by entrant.
func (a addressesJSON) shown() []string {
	var out []string
	for _, p := range a.Players {
		for _, e := range []*string{p.Email, p.PartnerEmail} {
			if e == nil {
				out = append(out, "")
			} else {
				out = append(out, *e)
			}
		}
	}
	return out
}

var addressRE = regexp.MustCompile(`[a-z0-9]+@example\.org`)

// The organiser sees his entrants' addresses in the tournament's JSON (its
// reading and the answers to his actions), a player only his own (in a
// team, each member his own), and nobody else any: not a stranger signed
// in, not an anonymous reader, and no other view (standings as JSON and
// CSV, records, the page, the live events) shows one to anyone, the
// organiser included. A reader's own view is kept by no shared cache.
func TestTournamentAddresses(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	p0, q1, zoe := h.login("p0@example.org"), h.login("q1@example.org"), h.login("zoe@example.org")
	start := h.clock.Now().Add(time.Hour)
	var created addressesJSON
	var tour tournamentJSON
	res := h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Pairs", "format": "round_robin", "teams": true,
		"players": teamEntries(2, false), "schedule": map[string]any{"starts": []time.Time{start}, "round_hours": 24}}).
		want(t, http.StatusCreated)
	res.decode(t, &created)
	res.decode(t, &tour)
	path := "/v1/tournaments/" + tour.ID
	all := []string{"p0@example.org", "q0@example.org", "p1@example.org", "q1@example.org"}
	if got := created.shown(); !slices.Equal(got, all) {
		t.Errorf("the organiser's new tournament shows %q, want %q", got, all)
	}
	view := func(token string) (addressesJSON, response) {
		t.Helper()
		var v addressesJSON
		res := h.do("GET", path, token, nil).want(t, http.StatusOK)
		res.decode(t, &v)
		return v, res
	}
	for _, tt := range []struct {
		who, token, cache string
		want              []string
	}{
		{"the organiser", organiser, "private, no-cache", all},
		{"a player", p0, "private, no-cache", []string{"p0@example.org", "", "", ""}},
		{"a partner", q1, "private, no-cache", []string{"", "", "", "q1@example.org"}},
		{"a stranger", zoe, "public, no-cache", []string{"", "", "", ""}},
		{"anyone", "", "public, no-cache", []string{"", "", "", ""}},
	} {
		v, res := view(tt.token)
		if got := v.shown(); !slices.Equal(got, tt.want) {
			t.Errorf("%s sees %q, want %q", tt.who, got, tt.want)
		}
		if got := res.header.Get("Cache-Control"); got != tt.cache {
			t.Errorf("%s's view is Cache-Control %q, want %q", tt.who, got, tt.cache)
		}
	}
	// Each view has its own ETag: the public one is no 304 to the
	// organiser, nor his to anyone.
	_, public := view("")
	_, own := view(organiser)
	if public.header.Get("ETag") == own.header.Get("ETag") {
		t.Error("the organiser's view has the public view's ETag")
	}
	h.do("GET", path, organiser, nil, "If-None-Match", public.header.Get("ETag")).want(t, http.StatusOK)
	h.do("GET", path, "", nil, "If-None-Match", own.header.Get("ETag")).want(t, http.StatusOK)
	h.do("GET", path, organiser, nil, "If-None-Match", own.header.Get("ETag")).want(t, http.StatusNotModified)
	// A token sent is checked: a bad one is refused, not read as none.
	h.do("GET", path, "not-a-token", nil).want(t, http.StatusUnauthorized, "unauthorized")

	// An action's answer is the organiser's view too.
	var after addressesJSON
	h.do("POST", path+"/pause", organiser, map[string]any{"reason": "holiday"}).want(t, http.StatusOK).decode(t, &after)
	if got := after.shown(); !slices.Equal(got, all) {
		t.Errorf("the organiser's pause answers %q, want %q", got, all)
	}
	h.do("POST", path+"/resume", organiser, map[string]any{}).want(t, http.StatusOK)

	// The round is played: every other view names players by name only,
	// to anyone, the organiser included.
	h.clock.Advance(time.Hour)
	h.tickAll()
	h.deliver()
	for _, token := range []string{organiser, p0, ""} {
		for _, p := range []string{path + "/standings", path + "/standings?format=csv", path + "/records", "/tournaments/" + tour.ID} {
			if found := addressRE.FindAllString(string(h.do("GET", p, token, nil).want(t, http.StatusOK).body), -1); len(found) > 0 {
				t.Errorf("GET %s shows the addresses %q", p, found)
			}
		}
	}
	for _, email := range append(all, "org@example.org") {
		evs, err := h.db.Events(t.Context(), domain.EventFilter{Email: email}, domain.EventPos{}, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			data, err := json.Marshal(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			for _, found := range addressRE.FindAllString(string(data), -1) {
				if found != email {
					t.Errorf("%s's %s event shows %s: %s", email, e.Kind, found, data)
				}
			}
		}
	}
	if n := strings.Count(string(h.do("GET", path, "", nil).want(t, http.StatusOK).body), "@"); n != 0 {
		t.Errorf("the public JSON has %d @", n)
	}
}
