package api_test

// The security test list, continued: the edges of HTTP (caching, the
// Authorization scheme, HEAD, cross-origin requests).

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// The bearer scheme is case-insensitive (RFC 9110 11.1); anything that is
// not a bearer token is refused with 401 and changes nothing.
func TestBearerScheme(t *testing.T) {
	h := newAttackHarness(t)
	token := h.login("ann@example.org")
	for _, header := range []string{"Bearer " + token, "bearer " + token, "BEARER " + token, "BeArEr " + token, "Bearer  " + token, " Bearer " + token + " "} {
		t.Run(header[:8], func(t *testing.T) {
			h.do("GET", "/v1/me", "", nil, "Authorization", header).want(t, http.StatusOK)
		})
	}
	for _, header := range []string{"", "Bearer", "Bearer ", "Bearer" + token, "Basic " + token, "Token " + token, token, "Bearer x" + token} {
		t.Run("refused "+header[:min(len(header), 8)], func(t *testing.T) {
			h.refused(t, http.StatusUnauthorized, "unauthorized", "PATCH", "/v1/me", "", map[string]any{"name": "Eve"}, "Authorization", header)
		})
	}
}

// Responses that carry a token or private data are never stored by a cache:
// the access token and the calendar link, the account, my games, the game
// with its spectator link, the game's mail log, and the errors on the way.
func TestPrivateResponsesAreNotStored(t *testing.T) {
	h := newAttackHarness(t)
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "org@example.org"}).want(t, http.StatusAccepted)
	code := loginTokenRE.FindStringSubmatch(only(t, h.deliver(), "org@example.org").Text)[1]
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	exchange := h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}).want(t, http.StatusOK)
	exchange.decode(t, &tok)
	org := tok.AccessToken
	var g gameJSON
	created := h.do("POST", "/v1/games", org, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated)
	created.decode(t, &g)
	game := "/v1/games/" + g.ID
	tests := []struct {
		name string
		res  response
	}{
		{"token", exchange},
		{"created game", created},
		{"me", h.do("GET", "/v1/me", org, nil).want(t, http.StatusOK)},
		{"updated me", h.do("PATCH", "/v1/me", org, map[string]any{"name": "Org"}).want(t, http.StatusOK)},
		{"my games", h.do("GET", "/v1/me/games", org, nil).want(t, http.StatusOK)},
		{"vacations", h.do("GET", "/v1/me/vacations", org, nil).want(t, http.StatusOK)},
		{"game", h.do("GET", game, org, nil).want(t, http.StatusOK)},
		{"game not modified", h.do("GET", game, org, nil, "If-None-Match", `"v1"`).want(t, http.StatusNotModified)},
		{"mail log", h.do("GET", game+"/mail", org, nil).want(t, http.StatusOK)},
		{"refused token", h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}).want(t, http.StatusUnauthorized)},
		{"refused me", h.do("GET", "/v1/me", "nonsense", nil).want(t, http.StatusUnauthorized)},
	}
	for _, tt := range tests {
		if got := tt.res.header.Values("Cache-Control"); len(got) != 1 || got[0] != "no-store" {
			t.Errorf("%s: Cache-Control %q, want no-store", tt.name, got)
		}
	}
}

// HEAD answers wherever GET does, with the same status and headers and no
// body (RFC 9110 9.3.2), and the contract's request validation applies to it
// as to GET. Every GET operation of openapi.yaml is tried, so a new one
// cannot be forgotten.
func TestHeadAnswersLikeGet(t *testing.T) {
	h := newAttackHarness(t)
	org := h.login("org@example.org")
	var g gameJSON
	h.do("POST", "/v1/games", org, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated).decode(t, &g)
	invitation := only(t, h.deliver(), "ann@example.org")
	_, white := moveLink(t, invitation)
	var me struct {
		CalendarURL string `json:"calendar_url"`
	}
	h.do("GET", "/v1/me", org, nil).want(t, http.StatusOK).decode(t, &me)
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", org, map[string]any{"name": "Spring", "format": "round_robin", "players": entrants(2),
		"schedule": map[string]any{"starts": []time.Time{h.clock.Now().Add(time.Hour)}, "round_hours": 24}}).want(t, http.StatusCreated).decode(t, &tour)
	var hook struct {
		ID int64 `json:"id"`
	}
	h.do("POST", "/v1/me/webhooks", org, map[string]any{"url": "https://93.184.215.14/hook", "event_types": []string{"your_turn"}}).
		want(t, http.StatusCreated).decode(t, &hook)
	webhook := fmt.Sprintf("/v1/me/webhooks/%d", hook.ID)
	local := func(u string) string { return strings.TrimPrefix(u, "http://lesspost.test") }
	if invitation.Unsubscribe == "" {
		t.Fatal("the invitation has no unsubscribe link")
	}

	game := "/v1/games/" + g.ID
	requests := map[string]struct {
		path, token string
		status      int // of GET
	}{ // by the contract's path
		"/healthz":                          {"/healthz", "", http.StatusOK},
		"/readyz":                           {"/readyz", "", http.StatusOK},
		"/openapi.yaml":                     {"/openapi.yaml", "", http.StatusOK},
		"/v1/me":                            {"/v1/me", org, http.StatusOK},
		"/v1/me/games":                      {"/v1/me/games?limit=5", org, http.StatusOK},
		"/v1/me/vacations":                  {"/v1/me/vacations", org, http.StatusOK},
		"/v1/me/tokens":                     {"/v1/me/tokens", org, http.StatusOK},
		"/v1/me/webhooks":                   {"/v1/me/webhooks", org, http.StatusOK},
		"/v1/me/webhooks/{id}":              {webhook, org, http.StatusOK},
		"/v1/me/webhooks/{id}/deliveries":   {webhook + "/deliveries?limit=5", org, http.StatusOK},
		"/v1/games/{id}":                    {game, white, http.StatusOK},
		"/v1/games/{id}/moves":              {game + "/moves?from=e5", white, http.StatusOK},
		"/v1/games/{id}/turns":              {game + "/turns", white, http.StatusOK},
		"/v1/games/{id}/view":               {game + "/view", white, http.StatusOK},
		"/v1/games/{id}/record":             {game + "/record", white, http.StatusOK},
		"/v1/games/{id}/mail":               {game + "/mail", org, http.StatusOK},
		"/v1/games/{id}/events":             {game + "/events", white, http.StatusOK},
		"/v1/me/events":                     {"/v1/me/events", org, http.StatusOK},
		"/v1/tournaments/{id}":              {"/v1/tournaments/" + tour.ID, "", http.StatusOK},
		"/v1/tournaments":                   {"/v1/tournaments", org, http.StatusOK},
		"/v1/tournaments/{id}/standings":    {"/v1/tournaments/" + tour.ID + "/standings", "", http.StatusOK},
		"/tournaments/{id}":                 {"/tournaments/" + tour.ID, "", http.StatusOK},
		"/calendar.ics":                     {local(me.CalendarURL), "", http.StatusOK},
		"/unsubscribe":                      {local(invitation.Unsubscribe), "", http.StatusOK},
		"/never-email":                      {neverEmailLink(t, invitation), "", http.StatusOK},
		"/play/{id}":                        {"/play/" + g.ID, "", http.StatusOK},
		"/login":                            {"/login", "", http.StatusOK},
		"/rules":                            {"/rules?lang=de", "", http.StatusOK},
		"/rules/les":                        {"/rules/les", "", http.StatusOK},
		"/assets/{file}":                    {"/assets/play.js", "", http.StatusOK},
		"/sw.js":                            {"/sw.js", "", http.StatusOK},
		"/v1/push/key":                      {"/v1/push/key", "", http.StatusOK},
		"/v1/me/push-subscriptions":         {"/v1/me/push-subscriptions", white, http.StatusOK},
		"/v1/me/profile":                    {"/v1/me/profile", org, http.StatusOK},
		"/v1/players/{handle}":              {"/v1/players/nobody", "", http.StatusNotFound},
		"/players/{handle}":                 {"/players/nobody", "", http.StatusNotFound},
		"bad parameter (validated as GET)":  {"/v1/me/games?cursor=" + strings.Repeat("x", 201), org, http.StatusBadRequest},
		"no token (refused as GET)":         {"/v1/me", "", http.StatusUnauthorized},
		"unknown game (not found like GET)": {"/v1/games/g_nothing", org, http.StatusNotFound},

		"/v1/tournaments/{id}/records": {"/v1/tournaments/" + tour.ID + "/records", "", http.StatusOK},
		// Not one of the tournament's games: not found (its own redirect).
		"/tournaments/{id}/games/{game}/watch": {"/tournaments/" + tour.ID + "/games/" + g.ID + "/watch", "", http.StatusNotFound},

		// Nobody has the handle: not found (its own redirect).
		"/players/{handle}/games/{game}/watch": {"/players/nobody/games/" + g.ID + "/watch", "", http.StatusNotFound},
	}
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range c.Doc.Paths.Map() {
		if _, ok := requests[path]; item.Get != nil && !ok {
			t.Errorf("GET %s: no request in this test; add one", path)
		}
	}
	for name, r := range requests {
		t.Run(name, func(t *testing.T) {
			get := h.do("GET", r.path, r.token, nil).want(t, r.status)
			head := h.do("HEAD", r.path, r.token, nil)
			if head.status != get.status {
				t.Fatalf("HEAD %s: status %d, GET %d", r.path, head.status, get.status)
			}
			if len(head.body) != 0 {
				t.Errorf("HEAD %s has a body: %.80q", r.path, head.body)
			}
			for _, k := range slices.Sorted(maps.Keys(get.header)) {
				switch k {
				case "Date", "X-Request-Id":
					continue
				case "Content-Length": // net/http announces it for HEAD only when it is known in time
					if v := head.header.Get(k); v == "" || v == get.header.Get(k) {
						continue
					}
				}
				if !slices.Equal(head.header[k], get.header[k]) {
					t.Errorf("HEAD %s: %s %q, GET %q", r.path, k, head.header[k], get.header[k])
				}
			}
			for k := range head.header {
				if _, ok := get.header[k]; !ok && k != "Content-Length" {
					t.Errorf("HEAD %s: %s %q, absent from GET", r.path, k, head.header[k])
				}
			}
		})
	}
}

// corsHeaders are the response's CORS headers.
func corsHeaders(r response) map[string]string {
	out := map[string]string{}
	for k := range r.header {
		if strings.HasPrefix(k, "Access-Control-") {
			out[k] = strings.Join(r.header[k], ", ")
		}
	}
	return out
}

// CORS is off unless origins are configured: no response carries a CORS
// header, so no page of another origin can read an answer.
func TestCORSOffByDefault(t *testing.T) {
	h := newAttackHarness(t)
	token := h.login("ann@example.org")
	for _, r := range []response{
		h.do("GET", "/v1/me", token, nil, "Origin", "https://app.example.org"),
		h.do("OPTIONS", "/v1/me", "", nil, "Origin", "https://app.example.org", "Access-Control-Request-Method", "GET",
			"Access-Control-Request-Headers", "authorization"),
	} {
		if got := corsHeaders(r); len(got) != 0 {
			t.Errorf("CORS headers %v, want none", got)
		}
		if slices.Contains(r.header.Values("Vary"), "Origin") {
			t.Errorf("Vary %q", r.header.Values("Vary"))
		}
	}
}

// With --cors-origins, pages of those origins, and only those, may call the
// API with a bearer token and read the answers, errors included; cookies
// (credentials) are never allowed.
func TestCORS(t *testing.T) {
	const app = "https://app.example.org"
	h := newHarnessWith(t, func(c *serverConfig) { c.CORSOrigins = []string{app, "http://localhost:5173"} })
	token := h.login("ann@example.org")
	expose := "ETag, Location, Retry-After, Idempotent-Replayed, WWW-Authenticate, X-Request-Id, Content-Disposition"
	allowHeaders := "Authorization, Content-Type, Idempotency-Key, If-None-Match, X-Request-Id"
	preflight := func(origin, path, method string) response {
		return h.do("OPTIONS", path, "", nil, "Origin", origin, "Access-Control-Request-Method", method,
			"Access-Control-Request-Headers", "authorization,content-type,idempotency-key")
	}
	tests := []struct {
		name   string
		res    response
		status int
		want   map[string]string
	}{
		{"request", h.do("GET", "/v1/me", token, nil, "Origin", app), http.StatusOK,
			map[string]string{"Access-Control-Allow-Origin": app, "Access-Control-Expose-Headers": expose}},
		{"the other origin", h.do("GET", "/v1/me", token, nil, "Origin", "http://localhost:5173"), http.StatusOK,
			map[string]string{"Access-Control-Allow-Origin": "http://localhost:5173", "Access-Control-Expose-Headers": expose}},
		{"an error is readable", h.do("GET", "/v1/me", "", nil, "Origin", app), http.StatusUnauthorized,
			map[string]string{"Access-Control-Allow-Origin": app, "Access-Control-Expose-Headers": expose}},
		{"invalid request is readable", h.do("GET", "/v1/me/games?limit=0", token, nil, "Origin", app), http.StatusBadRequest,
			map[string]string{"Access-Control-Allow-Origin": app, "Access-Control-Expose-Headers": expose}},
		{"preflight", preflight(app, "/v1/games/g_x/turns", "POST"), http.StatusNoContent, map[string]string{
			"Access-Control-Allow-Origin": app, "Access-Control-Allow-Methods": "OPTIONS, GET, HEAD, POST",
			"Access-Control-Allow-Headers": allowHeaders, "Access-Control-Max-Age": "600"}},
		{"preflight of an account route", preflight(app, "/v1/me", "PATCH"), http.StatusNoContent, map[string]string{
			"Access-Control-Allow-Origin": app, "Access-Control-Allow-Methods": "OPTIONS, GET, HEAD, PATCH",
			"Access-Control-Allow-Headers": allowHeaders, "Access-Control-Max-Age": "600"}},
		{"request of another origin", h.do("GET", "/v1/me", token, nil, "Origin", "https://evil.example"), http.StatusOK, map[string]string{}},
		{"a subdomain is another origin", h.do("GET", "/v1/me", token, nil, "Origin", "https://x.app.example.org"), http.StatusOK, map[string]string{}},
		{"another scheme is another origin", h.do("GET", "/v1/me", token, nil, "Origin", "http://app.example.org"), http.StatusOK, map[string]string{}},
		{"the null origin", h.do("GET", "/v1/me", token, nil, "Origin", "null"), http.StatusOK, map[string]string{}},
		{"preflight of another origin", preflight("https://evil.example", "/v1/me", "PATCH"), http.StatusNoContent, map[string]string{}},
		{"no origin", h.do("GET", "/v1/me", token, nil), http.StatusOK, map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.res.status != tt.status {
				t.Errorf("status %d, want %d: %s", tt.res.status, tt.status, tt.res.body)
			}
			if got := corsHeaders(tt.res); !maps.Equal(got, tt.want) {
				t.Errorf("CORS headers\n%v\nwant\n%v", got, tt.want)
			}
			if !slices.Contains(tt.res.header.Values("Vary"), "Origin") {
				t.Errorf("Vary %q lacks Origin: caches would mix the answers of origins", tt.res.header.Values("Vary"))
			}
		})
	}
	// A preflight changes nothing; the request it clears does the work.
	before := dbState(t, h)
	preflight(app, "/v1/me", "PATCH").want(t, http.StatusNoContent)
	unchanged(t, h, before)
}
