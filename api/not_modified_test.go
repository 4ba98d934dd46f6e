package api_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// notModifiedExempt are the headers a 304 may leave out or change: the
// ones net/http drops from a 304 (it has no content), and those that
// differ per answer. A cache keeps the 200's Content-Type.
var notModifiedExempt = []string{"Content-Length", "Content-Type", "Transfer-Encoding", "Date", "X-Request-Id"}

// A 304 carries the headers of its 200 (RFC 9110 15.4.5: a cache updates
// the stored answer with them), so a revalidated copy keeps its policy,
// language and name: a 304 with the API's default-src 'none' made the
// tournament page, reloaded, lose its style sheets and script. Every
// operation the contract lets answer 304 is tried, each of its variants.
func TestNotModifiedKeepsTheHeaders(t *testing.T) {
	h := newHarness(t)
	lr := startLiveRound(t, h, "Winter Cup", "round_robin", entrants(4))
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	tour := "/tournaments/" + lr.tour.ID
	api := "/v1/tournaments/" + lr.tour.ID
	requests := map[string][]struct {
		path, token string
		headers     []string
	}{
		"getGame":              {{path: "/v1/games/" + id, token: ann}},
		"playPage":             {{path: "/play/" + id}},
		"loginPage":            {{path: "/login"}},
		"getAsset":             {{path: "/assets/play.css"}, {path: "/assets/tournament.js"}},
		"getServiceWorker":     {{path: "/sw.js"}},
		"getTournament":        {{path: api}},
		"getStandings":         {{path: api + "/standings"}, {path: api + "/standings?format=csv"}},
		"getTournamentRecords": {{path: api + "/records"}, {path: api + "/records?round=1"}},
		"standingsPage":        {{path: tour}, {path: tour, headers: []string{"Accept-Language", "de"}}, {path: tour + "?lang=fr"}},
	}
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range c.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.Responses.Status(http.StatusNotModified) == nil {
				continue
			}
			t.Run(op.OperationID, func(t *testing.T) {
				variants, ok := requests[op.OperationID]
				if !ok {
					t.Fatalf("%s %s may answer 304: add a request for %s to this test", method, path, op.OperationID)
				}
				for _, v := range variants {
					full := h.do(method, v.path, v.token, nil, v.headers...).want(t, http.StatusOK)
					etag := full.header.Get("ETag")
					if etag == "" {
						t.Fatalf("%s: no ETag", v.path)
					}
					same := h.do(method, v.path, v.token, nil, append([]string{"If-None-Match", etag}, v.headers...)...).
						want(t, http.StatusNotModified)
					if diff := headerDiff(full.header, same.header); diff != "" {
						t.Errorf("%s %v: the 304's headers differ from the 200's:\n%s", v.path, v.headers, diff)
					}
				}
			})
		}
	}
}

// headerDiff lists the headers two answers do not share, but for
// notModifiedExempt.
func headerDiff(ok, notModified http.Header) string {
	var b strings.Builder
	names := slices.Sorted(maps.Keys(ok))
	for name := range notModified {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		if slices.Contains(notModifiedExempt, name) {
			continue
		}
		if a, b2 := ok.Values(name), notModified.Values(name); !slices.Equal(a, b2) {
			fmt.Fprintf(&b, "  %s: 200 %q, 304 %q\n", name, a, b2)
		}
	}
	return b.String()
}

// The tournament page reloaded in a browser, which revalidates it (304),
// keeps its style sheets and script: the page is styled as the first
// time, and no Content-Security-Policy violation is reported.
func TestTournamentPageReloadKeepsItsStyle(t *testing.T) {
	h := newHarness(t)
	lr := startLiveRound(t, h, "Winter Cup", "round_robin", entrants(4))
	p := openBrowser(t, 1280, 800)
	p.do("open the page", chromedp.Navigate(h.url+"/tournaments/"+lr.tour.ID))
	styled := `getComputedStyle(document.querySelector('.tournament-page .status-running')).fontWeight === '600'`
	p.waitFor("the page's style", styled)
	for reload := range 2 {
		p.do("reload the page", chromedp.Reload())
		p.waitFor("the page after its reload", `document.readyState === 'complete'`)
		if !eval[bool](p, styled) {
			t.Fatalf("after reload %d the page lost its style", reload+1)
		}
	}
}
