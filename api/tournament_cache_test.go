package api_test

import (
	"net/http"
	"testing"
)

// Every public view of a tournament has an ETag: revalidated, it answers
// 304 until the tournament or one of its games changes; each view (and
// the page in each language) has its own.
func TestTournamentViewsRevalidate(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	tour, gameID, round1 := duel(t, h, organiser)
	base := "/v1/tournaments/" + tour.ID
	views := []struct{ name, path string }{
		{"json", base},
		{"standings", base + "/standings"},
		{"csv", base + "/standings?format=csv"},
		{"records", base + "/records"},
		{"round's records", base + "/records?round=1"},
		{"page", "/tournaments/" + tour.ID + "?lang=en"},
		{"page in German", "/tournaments/" + tour.ID + "?lang=de"},
	}
	etags := map[string]string{}
	seen := map[string]string{}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			res := h.do("GET", v.path, "", nil).want(t, http.StatusOK).
				wantHeader(t, "Cache-Control", "public, no-cache")
			etag := res.header.Get("ETag")
			if other, dup := seen[etag]; dup || etag == "" {
				t.Fatalf("ETag %q, the same as %s's", etag, other)
			}
			seen[etag], etags[v.name] = v.name, etag
			h.do("GET", v.path, "", nil, "If-None-Match", etag).want(t, http.StatusNotModified).
				wantHeader(t, "ETag", etag).wantHeader(t, "Cache-Control", "public, no-cache")
			h.do("GET", v.path, "", nil, "If-None-Match", `"t000000000000000000000000", `+etag).want(t, http.StatusNotModified)
		})
	}
	// A turn changes no tournament, but its game: every view is new.
	white := []string{"p0@example.org", "p1@example.org"}[tour.Rounds[0].Games[0].White]
	_, token := moveLink(t, only(t, round1, white))
	h.do("POST", "/v1/games/"+gameID+"/turns", token, map[string]any{"ply": 0, "turn": whiteOpening(t, h, token, gameID)}).
		want(t, http.StatusCreated)
	for _, v := range views {
		res := h.do("GET", v.path, "", nil, "If-None-Match", etags[v.name]).want(t, http.StatusOK)
		if res.header.Get("ETag") == etags[v.name] {
			t.Errorf("%s: the ETag did not change with a turn", v.name)
		}
	}
	h.do("GET", "/v1/tournaments/t_none/records", "", nil, "If-None-Match", "*").want(t, http.StatusNotFound, "not_found")
}
