package api_test

// The security test list: each attack over real HTTP, answered with the
// right 4xx and a stable code, and no change to any data. "No change" is
// checked on the database itself: every row of every table is the same
// before and after (dbState), which also proves that no email was queued.
// The list goes on by topic in security_*_test.go: edges (HEAD, Bearer,
// caching, CORS), links (rotation), mail (mail to strangers), mailerrors,
// names (hostile display names over SMTP), secrets (key rotation) and tokens
// (the token kinds the contract declares).
//
// The behaviours these tests define where the contract leaves room:
//
//   - A JSON body is one UTF-8 JSON object. Members are matched exactly
//     (a case variant of a member is an unknown member: 400). Of duplicate
//     members the last one counts, for validation and handler alike, so a
//     second value cannot slip past validation.
//   - A JSON route refuses any Content-Type but application/json (with
//     parameters) with 400 invalid_request, as the BadRequest response of
//     openapi.yaml says; never 415.
//   - A turn text longer than the contract's 1024 characters is 400
//     invalid_request; up to that, text that is no turn is 422 illegal_turn
//     with rule syntax; a body over 64 KiB is 413 body_too_large.
//   - Names are trimmed of surrounding white space (so a trailing CR/LF goes)
//     and refused with 422 invalid_input for any control or invisible
//     character inside.

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/repo/repotest"
)

// harnessSecret is the signing secret of newHarness and newHarnessWith.
const harnessSecret = "0123456789abcdef0123456789abcdef-test"

// newHarnessWith is newHarness with a say in the server's configuration.
func newHarnessWith(t *testing.T, configure func(*serverConfig)) *harness {
	t.Helper()
	dsn := repotest.DSN(t)
	db := repotest.OpenDSN(t, dsn)
	h := &harness{t: t, dsn: dsn, db: db, mail: &mailbox{}, clock: &clock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}}
	h.loadPushKey()
	cfg := serverConfig{Config: api.Config{DB: db, Secret: []byte(harnessSecret), BaseURL: "http://lesspost.test",
		Logger: slog.New(slog.DiscardHandler), PushKey: h.pushKey.Public}, Now: h.clock.Now}
	configure(&cfg)
	srv, err := cfg.newServer()
	if err != nil {
		t.Fatal(err)
	}
	renderer := &notify.Renderer{Store: db, Links: srv.Links(), Host: "lesspost.test"}
	h.outbox = notify.NewWorker(db, h.mail, renderer, slog.New(slog.DiscardHandler), h.clock.Now)
	ts, client := apitest.NewServer(t, srv)
	h.url, h.client = ts.URL, client
	return h
}

// newAttackHarness is a harness whose rate limits are out of the way, for
// tests that send many requests about something else.
func newAttackHarness(t *testing.T) *harness {
	return newHarnessWith(t, func(c *serverConfig) {
		lots := api.RateLimit{Requests: 100_000, Per: time.Minute}
		c.RateLimits = api.RateLimits{Login: lots, Token: lots, CreateGameIP: lots, CreateGameAccount: lots}
		relaxedMail(c)
	})
}

// dbState is every table of the database with a digest of its rows, to
// prove that a request changed nothing at all. The rate limits are left
// out: a request they let through counts, whatever the handler then does.
func dbState(t *testing.T, h *harness) map[string]string {
	t.Helper()
	state := repotest.Digest(t, h.dsn)
	delete(state, "rate_limits")
	return state
}

// unchanged fails the test if the database differs from before.
func unchanged(t *testing.T, h *harness, before map[string]string) {
	t.Helper()
	after := dbState(t, h)
	for _, table := range slices.Sorted(maps.Keys(after)) {
		if before[table] != after[table] {
			t.Errorf("table %s changed: %s → %s", table, before[table], after[table])
		}
	}
	for table := range before {
		if _, ok := after[table]; !ok {
			t.Errorf("table %s is gone", table)
		}
	}
}

// rowCount counts the rows of a table.
func rowCount(t *testing.T, h *harness, table string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.Fields(dbState(t, h)[table])[0])
	if err != nil {
		t.Fatalf("table %s: %v", table, err)
	}
	return n
}

// refused sends a request that must be refused with status and code and
// must change nothing.
func (h *harness) refused(t *testing.T, status int, code, method, path, token string, body any, headers ...string) response {
	t.Helper()
	before := dbState(t, h)
	res := h.do(method, path, token, body, headers...)
	if res.status != status {
		t.Errorf("status %d, want %d: %s", res.status, status, res.body)
	} else if p := res.problem(t); code != "" && p.Code != code {
		t.Errorf("problem code %q, want %q: %s", p.Code, code, res.body)
	}
	unchanged(t, h, before)
	return res
}

// --- Tokens -----------------------------------------------------------------

// jwtParts splits a token and decodes its header and claims.
func jwtParts(t *testing.T, token string) (header, claims map[string]any, sig string) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", token)
	}
	for i, v := range []*map[string]any{&header, &claims} {
		data, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatal(err)
		}
	}
	return header, claims, parts[2]
}

// legacyLink is the JWT a move or spectator link carried before links had
// compact tokens, for what the compact token link says, signed now with
// the harness's key.
func legacyLink(t *testing.T, link string, now time.Time) string {
	t.Helper()
	parts := strings.Split(link, ".")
	claims := map[string]any{"iss": "lesspost", "iat": now.Unix(), "exp": now.Add(api.LinkTTL).Unix(), "gid": parts[1]}
	var version string
	switch {
	case parts[0] == "s" && len(parts) == 6:
		claims["use"], claims["col"], version = "seat", parts[2], parts[3]
	case parts[0] == "w" && len(parts) == 5:
		claims["use"], version = "watch", parts[2]
	default:
		t.Fatalf("not a link's compact token: %q", link)
	}
	if v, err := strconv.Atoi(version); err != nil {
		t.Fatal(err)
	} else if v != 0 {
		claims["ver"] = v // omitted when 0, as the server wrote it
	}
	header := map[string]any{"alg": "HS256", "typ": "JWT", "kid": api.KeyID([]byte(harnessSecret))}
	return forge(t, header, claims, hmacWith(sha256.New, harnessSecret))
}

// forge builds a JWT from a header and claims; sign makes the signature of
// the signing input (nil: an empty signature).
func forge(t *testing.T, header, claims map[string]any, sign func(string) string) string {
	t.Helper()
	enc := func(v any) string {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(data)
	}
	input := enc(header) + "." + enc(claims)
	if sign == nil {
		return input + "."
	}
	return input + "." + sign(input)
}

func hmacWith(newHash func() hash.Hash, key string) func(string) string {
	return func(input string) string {
		m := hmac.New(newHash, []byte(key))
		m.Write([]byte(input))
		return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
}

// withMembers returns a copy of claims with some members set (nil deletes).
func withMembers(claims map[string]any, kv ...any) map[string]any {
	out := maps.Clone(claims)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
		} else {
			out[kv[i].(string)] = kv[i+1]
		}
	}
	return out
}

// Tokens that are forged, tampered with, of the wrong algorithm, expired,
// not yet valid or from another issuer are refused with 401 on every kind
// of token, for reads and for changes alike, and change nothing. Each
// variant is first made with the real secret and the real header, to prove
// that only the one thing it changes is why it is refused.
func TestForgedTokensAreRefused(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	now := h.clock.Now()
	hs256 := hmacWith(sha256.New, harnessSecret)
	evil := "evil-evil-evil-evil-evil-evil-evil-evil"

	// What each kind of token may do, and a request it makes.
	kinds := []struct {
		name, token string
		read        [2]string // method, path: answered 200 with a good token
		change      func() (method, path string, body any)
	}{
		{"account", s.organiser, [2]string{"GET", "/v1/me"}, func() (string, string, any) {
			return "POST", "/v1/games", twoPlayers(strings.Repeat("0", 60))
		}},
		// Links carry compact tokens now (tokens_internal_test.go tries
		// those); the JWTs of links sent before still work, so they must
		// still refuse every forgery.
		{"seat", legacyLink(t, s.white, now), [2]string{"GET", "/v1/games/" + s.id}, func() (string, string, any) {
			return "POST", "/v1/games/" + s.id + "/turns", map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}
		}},
		{"spectator", legacyLink(t, s.watch, now), [2]string{"GET", "/v1/games/" + s.id}, func() (string, string, any) {
			return "GET", "/v1/games/" + s.id + "/turns", nil // a spectator changes nothing; reading is what it may do
		}},
	}
	for _, kind := range kinds {
		header, claims, sig := jwtParts(t, kind.token)
		if header["alg"] != "HS256" {
			t.Fatalf("%s token header %v", kind.name, header)
		}
		// The control: rebuilt with the real secret, the token works.
		rebuilt := forge(t, header, claims, hs256)
		h.do(kind.read[0], kind.read[1], rebuilt, nil).want(t, http.StatusOK)

		variants := []struct{ name, token string }{
			{"signed with another secret", forge(t, header, claims, hmacWith(sha256.New, evil))},
			{"claims changed, signature kept", forge(t, header, withMembers(claims, "ver", 7, "col", "black", "sub", "2"), nil) + sig},
			{"signature cut off", forge(t, header, claims, nil)},
			{"signature of another token", forge(t, header, claims, nil) + strings.Repeat("A", len(sig))},
			{"alg none", forge(t, map[string]any{"alg": "none", "typ": "JWT"}, claims, nil)},
			{"alg None", forge(t, map[string]any{"alg": "None", "typ": "JWT"}, claims, nil)},
			{"alg NONE with the real signature", forge(t, map[string]any{"alg": "NONE", "typ": "JWT"}, claims, nil) + sig},
			{"alg none, signed anyway", forge(t, map[string]any{"alg": "none"}, claims, hs256)},
			{"RS256 header, HMAC with the secret (algorithm confusion)", forge(t, map[string]any{"alg": "RS256", "typ": "JWT"}, claims, hs256)},
			{"ES256 header, HMAC with the secret", forge(t, map[string]any{"alg": "ES256", "typ": "JWT"}, claims, hs256)},
			{"HS384 with the secret", forge(t, map[string]any{"alg": "HS384", "typ": "JWT"}, claims, hmacWith(sha512.New384, harnessSecret))},
			{"HS512 with the secret", forge(t, map[string]any{"alg": "HS512", "typ": "JWT"}, claims, hmacWith(sha512.New, harnessSecret))},
			{"embedded jwk of the attacker", forge(t, map[string]any{"alg": "HS256", "typ": "JWT",
				"jwk": map[string]any{"kty": "oct", "k": base64.RawURLEncoding.EncodeToString([]byte(evil))}}, claims, hmacWith(sha256.New, evil))},
			{"kid and jku of the attacker", forge(t, map[string]any{"alg": "HS256", "kid": "../../../../dev/null",
				"jku": "https://evil.example/keys"}, claims, hmacWith(sha256.New, evil))},
			{"expired a second ago", forge(t, header, withMembers(claims, "exp", now.Add(-time.Second).Unix()), hs256)},
			{"without expiry", forge(t, header, withMembers(claims, "exp", nil), hs256)},
			{"not valid yet", forge(t, header, withMembers(claims, "nbf", now.Add(time.Hour).Unix()), hs256)},
			{"issued in the future", forge(t, header, withMembers(claims, "iat", now.Add(time.Hour).Unix()), hs256)},
			{"wrong issuer", forge(t, header, withMembers(claims, "iss", "evil"), hs256)},
			{"issuer in another case", forge(t, header, withMembers(claims, "iss", "LessPost"), hs256)},
			{"without issuer", forge(t, header, withMembers(claims, "iss", nil), hs256)},
			{"issuer as a list", forge(t, header, withMembers(claims, "iss", []string{"lesspost"}), hs256)},
			{"unknown use", forge(t, header, withMembers(claims, "use", "admin"), hs256)},
			{"without use", forge(t, header, withMembers(claims, "use", nil), hs256)},
			{"unsubscribe use", forge(t, header, withMembers(claims, "use", "unsub"), hs256)},
			{"calendar use", forge(t, header, withMembers(claims, "use", "ics"), hs256)},
			{"four segments", rebuilt + "." + sig},
			{"padded base64", strings.Replace(rebuilt, ".", "=.", 1)},
		}
		for _, v := range variants {
			t.Run(kind.name+"/"+v.name, func(t *testing.T) {
				h.refused(t, http.StatusUnauthorized, "unauthorized", kind.read[0], kind.read[1], v.token, nil)
				method, path, body := kind.change()
				h.refused(t, http.StatusUnauthorized, "unauthorized", method, path, v.token, body)
			})
		}
	}

	// Where else a token could be smuggled in: never but the Bearer header.
	for _, tt := range []struct {
		name, path string
		headers    []string
	}{
		{"token in the query", "/v1/me?access_token=" + s.organiser + "&token=" + s.organiser + "&t=" + s.organiser, nil},
		{"basic scheme", "/v1/me", []string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte("org:"+s.organiser))}},
		{"token scheme", "/v1/me", []string{"Authorization", "Token " + s.organiser}},
		{"bearer without a token", "/v1/me", []string{"Authorization", "Bearer "}},
		{"token in a cookie", "/v1/me", []string{"Cookie", "token=" + s.organiser + "; t=" + s.organiser}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h.refused(t, http.StatusUnauthorized, "unauthorized", "GET", tt.path, "", nil, tt.headers...)
		})
	}
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("refused tokens caused email: %v", subjects(mail))
	}
}

// Tokens of the other kinds lesspost signs (unsubscribe and calendar links,
// login codes) are no bearer tokens; bearer tokens are no links of those kinds.
func TestTokensOfOtherUses(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	var me struct {
		ID          int64  `json:"id"`
		CalendarURL string `json:"calendar_url"`
	}
	h.do("GET", "/v1/me", s.organiser, nil).want(t, http.StatusOK).decode(t, &me)
	u, err := url.Parse(me.CalendarURL)
	if err != nil {
		t.Fatal(err)
	}
	calendar := u.Query().Get("t")
	h.do("GET", "/calendar.ics?t="+url.QueryEscape(calendar), "", nil).want(t, http.StatusOK) // the control
	tokens, err := api.NewTokens([]byte(harnessSecret), h.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	unsub, err := tokens.Unsubscribe("org@example.org")
	if err != nil {
		t.Fatal(err)
	}
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "org@example.org"}).want(t, http.StatusAccepted)
	loginCode := loginTokenRE.FindStringSubmatch(only(t, h.deliver(), "org@example.org").Text)[1]

	for name, token := range map[string]string{"calendar token": calendar, "unsubscribe token": unsub, "login code": loginCode} {
		t.Run(name+" as bearer", func(t *testing.T) {
			h.refused(t, http.StatusUnauthorized, "unauthorized", "GET", "/v1/me", token, nil)
			h.refused(t, http.StatusUnauthorized, "unauthorized", "GET", "/v1/games/"+s.id, token, nil)
			h.refused(t, http.StatusUnauthorized, "unauthorized", "POST", "/v1/games", token, twoPlayers(strings.Repeat("0", 60)))
		})
	}
	for name, token := range map[string]string{"account token": s.organiser, "seat token": s.white, "unsubscribe token": unsub} {
		t.Run(name+" as calendar link", func(t *testing.T) {
			h.refused(t, http.StatusBadRequest, "invalid_link", "GET", "/calendar.ics?t="+url.QueryEscape(token), "", nil)
		})
	}
	for name, token := range map[string]string{"account token": s.organiser, "seat token": s.white, "calendar token": calendar} {
		t.Run(name+" as unsubscribe link", func(t *testing.T) {
			before := dbState(t, h)
			res := h.do("POST", "/unsubscribe?t="+url.QueryEscape(token), "", nil)
			if res.status != http.StatusBadRequest || res.problem(t).Code != "invalid_link" {
				t.Errorf("status %d: %s", res.status, res.body)
			}
			unchanged(t, h, before)
		})
	}
	// The login code was spent by none of this.
	h.do("POST", "/v1/auth/token", "", map[string]any{"token": loginCode}).want(t, http.StatusOK)
}

// A seat or spectator token acts only in its own game, and a seat token only
// for its seat, on every route of a game; neither acts for an account.
func TestTokensStayInTheirPlace(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	other := startGame(t, h)
	g := "/v1/games/" + s.id
	turn := map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}
	tests := []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"other game's seat reads", "GET", g, other.white, nil, 403, "wrong_game"},
		{"other game's seat lists moves", "GET", g + "/moves?from=e5", other.white, nil, 403, "wrong_game"},
		{"other game's seat reads turns", "GET", g + "/turns", other.white, nil, 403, "wrong_game"},
		{"other game's seat reads the record", "GET", g + "/record", other.white, nil, 403, "wrong_game"},
		{"other game's seat reads the mail", "GET", g + "/mail", other.white, nil, 403, "wrong_game"},
		{"other game's seat previews", "POST", g + "/preview", other.white, map[string]any{"turn": "e5e4"}, 403, "wrong_game"},
		{"other game's seat resigns", "POST", g + "/resign", other.black, map[string]any{}, 403, "wrong_game"},
		{"other game's seat renews a link", "POST", g + "/seats/white/link", other.white, nil, 403, "wrong_game"},
		{"other game's spectator reads", "GET", g, other.watch, nil, 403, "wrong_game"},
		{"other game's spectator resigns", "POST", g + "/resign", other.watch, map[string]any{}, 403, "wrong_game"},
		{"other seat renews my link", "POST", g + "/seats/white/link", s.black, nil, 403, "forbidden"},
		{"other seat plays my turn", "POST", g + "/turns", s.black, turn, 403, "not_your_turn"},
		{"spectator resigns", "POST", g + "/resign", s.watch, map[string]any{}, 403, "forbidden"},
		{"spectator renews a link", "POST", g + "/seats/white/link", s.watch, nil, 403, "forbidden"},
		{"spectator reads the mail", "GET", g + "/mail", s.watch, nil, 403, "forbidden"},
		{"seat creates a game", "POST", "/v1/games", s.white, twoPlayers(strings.Repeat("0", 60)), 403, "account_required"},
		{"spectator creates a game", "POST", "/v1/games", s.watch, twoPlayers(strings.Repeat("0", 60)), 403, "account_required"},
		{"seat renames the account", "PATCH", "/v1/me", s.white, map[string]any{"name": "Mallory"}, 403, "account_required"},
		{"spectator declares a vacation", "POST", "/v1/me/vacations", s.watch,
			map[string]any{"start": "2026-12-01T00:00:00Z", "end": "2026-12-03T00:00:00Z"}, 403, "account_required"},
		{"seat logs out", "POST", "/v1/auth/logout", s.white, nil, 403, "account_required"},
		{"seat lists games", "GET", "/v1/me/games", s.white, nil, 403, "account_required"},
		{"stranger renews a link", "POST", g + "/seats/white/link", h.login("eve@example.org"), nil, 403, "forbidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.refused(t, tt.status, tt.code, tt.method, tt.path, tt.token, tt.body)
		})
	}

	// An Idempotency-Key belongs to the seat that sent it: the other seat's
	// request with the same key and body is no retry and gets no replay.
	h.do("POST", g+"/turns", s.white, turn, "Idempotency-Key", "turn-1").want(t, http.StatusCreated)
	h.deliver()
	var played gameJSON
	h.do("GET", g, s.black, nil).want(t, http.StatusOK).decode(t, &played)
	res := h.refused(t, http.StatusConflict, "stale_ply", "POST", g+"/turns", s.black, turn, "Idempotency-Key", "turn-1")
	if res.header.Get("Idempotent-Replayed") != "" {
		t.Error("another seat got the stored answer of white's key")
	}
	// White's seat token now is the other seat's: it is not white's turn.
	h.refused(t, http.StatusForbidden, "not_your_turn", "POST", g+"/turns", s.white,
		map[string]any{"turn": "e6d6", "ply": played.Ply})
}

// Expired tokens change nothing: an account token after 15 minutes, a seat
// token after 400 days, both on the clock of the server.
func TestExpiredTokensChangeNothing(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	h.forget(s.organiser)
	h.clock.Advance(api.AccessTTL + time.Second)
	h.refused(t, http.StatusUnauthorized, "unauthorized", "POST", "/v1/games", s.organiser, twoPlayers(strings.Repeat("0", 60)))
	h.refused(t, http.StatusUnauthorized, "unauthorized", "PATCH", "/v1/me", s.organiser, map[string]any{"name": "Late"})
	h.refused(t, http.StatusUnauthorized, "unauthorized", "POST", "/v1/games/"+s.id+"/seats/white/link", s.organiser, nil)
	h.clock.Advance(api.LinkTTL)
	h.refused(t, http.StatusUnauthorized, "unauthorized", "POST", "/v1/games/"+s.id+"/turns", s.white,
		map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0})
	h.refused(t, http.StatusUnauthorized, "unauthorized", "POST", "/v1/games/"+s.id+"/resign", s.black, map[string]any{})
}

// --- Login codes ------------------------------------------------------------

// A login code is spent once, even by requests racing for it; a code used
// twice, an expired one or a guessed one creates no user and no session.
func TestLoginCodesAreSingleUse(t *testing.T) {
	h := newAttackHarness(t)
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
	code := loginTokenRE.FindStringSubmatch(only(t, h.deliver(), "ann@example.org").Text)[1]

	// race sends body from racers requests at once: one may sign in.
	race := func(body map[string]any, sessions int) {
		t.Helper()
		const racers = 8
		statuses := make([]int, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() { statuses[i] = h.do("POST", "/v1/auth/token", "", body).status })
		}
		wg.Wait()
		slices.Sort(statuses)
		if statuses[0] != http.StatusOK || statuses[1] != http.StatusUnauthorized || statuses[racers-1] != http.StatusUnauthorized {
			t.Fatalf("statuses of %d racing exchanges of %v: %v, want one 200", racers, body, statuses)
		}
		if n := rowCount(t, h, "sessions"); n != sessions {
			t.Fatalf("%d sessions, want %d", n, sessions)
		}
	}
	race(map[string]any{"token": code}, 1)

	t.Run("used twice", func(t *testing.T) {
		h.refused(t, http.StatusUnauthorized, "login_invalid", "POST", "/v1/auth/token", "", map[string]any{"token": code})
	})
	t.Run("expired", func(t *testing.T) {
		h.do("POST", "/v1/auth/login", "", map[string]any{"email": "bob@example.org"}).want(t, http.StatusAccepted)
		late := loginTokenRE.FindStringSubmatch(only(t, h.deliver(), "bob@example.org").Text)[1]
		h.clock.Advance(accounts.LoginTTL)
		h.refused(t, http.StatusUnauthorized, "login_invalid", "POST", "/v1/auth/token", "", map[string]any{"token": late})
	})
	t.Run("empty", func(t *testing.T) {
		h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "POST", "/v1/auth/token", "", map[string]any{"token": ""})
	})
	for _, guess := range []string{"0", strings.Repeat("A", 32), strings.ToUpper(code), code + " ", " " + code, code[:len(code)-1]} {
		t.Run(fmt.Sprintf("guess %q", guess), func(t *testing.T) {
			h.refused(t, http.StatusUnauthorized, "login_invalid", "POST", "/v1/auth/token", "", map[string]any{"token": guess})
		})
	}
	t.Run("longer than a code", func(t *testing.T) {
		h.refused(t, http.StatusBadRequest, "invalid_request", "POST", "/v1/auth/token", "", map[string]any{"token": strings.Repeat("A", 201)})
	})
	if n := rowCount(t, h, "users"); n != 1 {
		t.Errorf("%d users, want only ann", n)
	}

	// The code to type, raced for, is spent once too.
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
	typed := loginCodeRE.FindStringSubmatch(only(t, h.deliver(), "ann@example.org").Text)[1]
	race(map[string]any{"email": "ann@example.org", "code": typed}, 2)
}

// --- Bodies -----------------------------------------------------------------

// jsonRoutes are the operations that take a JSON body, with a valid body.
func jsonRoutes(s started) []struct {
	name, method, path, token string
	body                      map[string]any
} {
	g := "/v1/games/" + s.id
	return []struct {
		name, method, path, token string
		body                      map[string]any
	}{
		{"requestLogin", "POST", "/v1/auth/login", "", map[string]any{"email": "zed@example.org"}},
		{"exchangeLoginToken", "POST", "/v1/auth/token", "", map[string]any{"token": "abc"}},
		{"refreshToken", "POST", "/v1/auth/refresh", "", map[string]any{"refresh_token": "abc"}},
		{"updateMe", "PATCH", "/v1/me", s.organiser, map[string]any{"name": "Org"}},
		{"declareVacation", "POST", "/v1/me/vacations", s.organiser, map[string]any{"start": "2026-12-01T00:00:00Z", "end": "2026-12-03T00:00:00Z"}},
		{"createGame", "POST", "/v1/games", s.organiser, twoPlayers(strings.Repeat("0", 60))},
		{"previewTurn", "POST", g + "/preview", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4"}},
		{"submitTurn", "POST", g + "/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}},
		{"resign", "POST", g + "/resign", s.white, map[string]any{}},
	}
}

// sendRequest sends a prepared request through the checking client.
func (h *harness) sendRequest(t *testing.T, req *http.Request) response {
	t.Helper()
	res, err := h.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: data}
}

// Bodies over 64 KiB are refused with 413 on every JSON route, whether the
// length is announced or the body is streamed in chunks; bodies nested
// thousands deep are refused with 400 at once, without a panic.
func TestHostileBodies(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	big := `{"turn": "` + strings.Repeat("e", 1<<20) + `", "ply": 0}`
	for _, r := range jsonRoutes(s) {
		t.Run(r.name+"/oversized", func(t *testing.T) {
			h.refused(t, http.StatusRequestEntityTooLarge, "body_too_large", r.method, r.path, r.token, big)
		})
		t.Run(r.name+"/oversized in chunks", func(t *testing.T) {
			before := dbState(t, h)
			// A reader of unknown length: the client sends no Content-Length.
			body := io.MultiReader(strings.NewReader(`{"email": "`), strings.NewReader(strings.Repeat("a", 70<<10)), strings.NewReader(`"}`))
			req, err := http.NewRequestWithContext(t.Context(), r.method, h.url+r.path, body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			if r.token != "" {
				req.Header.Set("Authorization", "Bearer "+r.token)
			}
			res := h.sendRequest(t, req)
			if res.status != http.StatusRequestEntityTooLarge || res.problem(t).Code != "body_too_large" {
				t.Errorf("status %d: %s", res.status, res.body)
			}
			unchanged(t, h, before)
		})
		for _, nest := range []struct{ name, open, close string }{
			{"10k nested arrays", "[", "]"}, {"10k nested objects", `{"a":`, "}"},
			{"30k unclosed arrays", "[", ""},
		} {
			t.Run(r.name+"/"+nest.name, func(t *testing.T) {
				n := 10_000
				if nest.close == "" {
					n = 30_000
				}
				body := `{"turn": ` + strings.Repeat(nest.open, n) + strings.Repeat(nest.close, n) + `}`
				start := time.Now()
				res := h.refused(t, http.StatusBadRequest, "", r.method, r.path, r.token, body)
				if took := time.Since(start); took > 2*time.Second {
					t.Errorf("took %v", took)
				}
				if c := res.problem(t).Code; c != "invalid_request" && c != "invalid_json" {
					t.Errorf("code %q", c)
				}
			})
		}
	}
	// A turn text: 1 MB is over the body limit, 2 KB over the contract's
	// maximum of 1024 characters; 1000 characters of garbage are no turn.
	turns := "/v1/games/" + s.id + "/turns"
	h.refused(t, http.StatusRequestEntityTooLarge, "body_too_large", "POST", turns, s.white,
		map[string]any{"turn": strings.Repeat("e5e4:", 1<<20/5), "ply": 0})
	h.refused(t, http.StatusBadRequest, "invalid_request", "POST", turns, s.white,
		map[string]any{"turn": strings.Repeat("e5e4:", 2<<10/5), "ply": 0})
	res := h.refused(t, http.StatusUnprocessableEntity, "illegal_turn", "POST", turns, s.white,
		map[string]any{"turn": strings.Repeat("x", 1000), "ply": 0})
	if p := res.problem(t); p.Rule != "syntax" || len(p.Detail) > 300 {
		t.Errorf("rule %q, detail of %d bytes: %s", p.Rule, len(p.Detail), p.Detail)
	}
	res = h.refused(t, http.StatusUnprocessableEntity, "illegal_turn", "POST", turns, s.white,
		map[string]any{"turn": strings.Repeat("e5e4:", 200), "ply": 0})
	if p := res.problem(t); p.Rule == "" {
		t.Errorf("no rule: %s", res.body)
	}
}

// A JSON body must be one UTF-8 JSON object of the operation's schema:
// unknown members, case variants of members, and invalid UTF-8 are refused
// on every route, as is any other media type.
func TestMalformedBodies(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	for _, r := range jsonRoutes(s) {
		marshal := func(v any) string {
			data, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
		valid := marshal(r.body)
		t.Run(r.name+"/unknown member", func(t *testing.T) {
			h.refused(t, http.StatusBadRequest, "invalid_request", r.method, r.path, r.token, withMembers(r.body, "admin", true))
		})
		for name := range r.body {
			t.Run(r.name+"/member "+name+" in upper case", func(t *testing.T) {
				h.refused(t, http.StatusBadRequest, "invalid_request", r.method, r.path, r.token,
					withMembers(withMembers(r.body, name, nil), strings.ToUpper(name), r.body[name]))
			})
		}
		for _, tt := range []struct{ name, body string }{
			{"array", "[" + valid + "]"},
			{"two objects", valid + valid},
			{"string", `"` + strings.ReplaceAll(valid, `"`, `\"`) + `"`},
			{"null", "null"},
			{"trailing garbage", valid + "x"},
			{"truncated", valid[:len(valid)-1]},
		} {
			t.Run(r.name+"/"+tt.name, func(t *testing.T) {
				res := h.refused(t, http.StatusBadRequest, "", r.method, r.path, r.token, tt.body)
				if c := res.problem(t).Code; c != "invalid_request" && c != "invalid_json" {
					t.Errorf("code %q", c)
				}
			})
		}
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
			"application/xml", "application/problem+json", "application/jsonx", "text/json"} {
			t.Run(r.name+"/Content-Type "+ct, func(t *testing.T) {
				h.refused(t, http.StatusBadRequest, "invalid_request", r.method, r.path, r.token, valid, "Content-Type", ct)
			})
		}
	}
	// Nested objects of createGame are as closed as the top.
	game := twoPlayers(strings.Repeat("0", 60))
	for name, body := range map[string]map[string]any{
		"players[]": withMembers(game, "players", []map[string]any{{"name": "Ann", "email": "ann@example.org", "admin": true}, {"name": "Bob", "email": "bob@example.org"}}),
		"board":     withMembers(game, "board", map[string]any{"walls": strings.Repeat("0", 60), "owner": 1}),
		"options":   withMembers(game, "options", map[string]any{"early_stop": true, "undo": true}),
		"time":      withMembers(game, "time", map[string]any{"kind": "per_turn", "days": 3, "infinite": true}),
		"setup":     withMembers(game, "setup", map[string]any{"to_move": "white", "pieces": map[string]any{"white": []string{"e5"}, "green": []string{"a1"}}}),
	} {
		t.Run("createGame/unknown member in "+name, func(t *testing.T) {
			h.refused(t, http.StatusBadRequest, "invalid_request", "POST", "/v1/games", s.organiser, body)
		})
	}
	// The media type is matched as RFC 9110 says: parameters and case aside.
	h.do("POST", "/v1/games/"+s.id+"/preview", s.white, `{"turn":"e5e4:e4d4:d4c4"}`, "Content-Type", "Application/JSON; charset=utf-8").want(t, http.StatusOK)
}

// Of duplicate members the last counts, for validation and handler alike:
// a valid value first cannot carry an invalid one past validation, nor the
// other way round.
func TestDuplicateMembers(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	long := strings.Repeat("x", 65)
	var me struct{ Name string }
	h.do("PATCH", "/v1/me", s.organiser, `{"name":"`+long+`","name":"Ann"}`).want(t, http.StatusOK).decode(t, &me)
	if me.Name != "Ann" {
		t.Errorf("name %q, want the last value", me.Name)
	}
	h.refused(t, http.StatusBadRequest, "invalid_request", "PATCH", "/v1/me", s.organiser, `{"name":"Ann","name":"`+long+`"}`)
	h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "PATCH", "/v1/me", s.organiser, `{"name":"Ann","name":"A\nB"}`)
	h.refused(t, http.StatusBadRequest, "invalid_request", "POST", "/v1/auth/login", "", `{"email":"ann@example.org","email":"`+strings.Repeat("a", 250)+`@example.org"}`)
	turns := "/v1/games/" + s.id + "/turns"
	h.refused(t, http.StatusBadRequest, "invalid_request", "POST", turns, s.white, `{"turn":"e5e4:e4d4:d4c4","ply":0,"ply":-1}`)
	h.refused(t, http.StatusConflict, "stale_ply", "POST", turns, s.white, `{"turn":"e5e4:e4d4:d4c4","ply":0,"ply":7}`)
	h.refused(t, http.StatusUnprocessableEntity, "illegal_turn", "POST", turns, s.white, `{"turn":"e5e4:e4d4:d4c4","ply":0,"turn":"e5e3"}`)
	// Three players in the last "players" are refused; two in the last are played.
	three := `[{"name":"A","email":"a@example.org"},{"name":"B","email":"b@example.org"},{"name":"C","email":"c@example.org"}]`
	two := `[{"name":"A","email":"a@example.org"},{"name":"B","email":"b@example.org"}]`
	h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "POST", "/v1/games", s.organiser, `{"players":`+two+`,"players":`+three+`}`)
	var g gameJSON
	h.do("POST", "/v1/games", s.organiser, `{"players":`+three+`,"players":`+two+`}`).want(t, http.StatusCreated).decode(t, &g)
	if len(g.Counts) != 2 {
		t.Errorf("created %+v", g)
	}
}

// Invalid UTF-8 is refused with 400 or 422 and a code, wherever it is, and
// stores nothing: no name, address or turn comes back other than it was sent.
func TestInvalidUTF8(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	// A stray byte, an overlong "/", a UTF-16 surrogate.
	bad := []string{"Ann\xff", "\xc0\xaf", "Ann\xed\xa0\x80"}
	for _, b := range bad {
		for _, tt := range []struct {
			name, method, path, token, body string
		}{
			{"player name", "POST", "/v1/games", s.organiser,
				`{"players":[{"name":"` + b + `","email":"ann@example.org"},{"name":"Bob","email":"bob@example.org"}]}`},
			{"player email", "POST", "/v1/games", s.organiser,
				`{"players":[{"name":"Ann","email":"` + b + `@example.org"},{"name":"Bob","email":"bob@example.org"}]}`},
			{"account name", "PATCH", "/v1/me", s.organiser, `{"name":"` + b + `"}`},
			{"login email", "POST", "/v1/auth/login", "", `{"email":"` + b + `@example.org"}`},
			{"login code", "POST", "/v1/auth/token", "", `{"token":"` + b + `"}`},
			{"turn", "POST", "/v1/games/" + s.id + "/turns", s.white, `{"turn":"e5e4:` + b + `","ply":0}`},
			{"preview", "POST", "/v1/games/" + s.id + "/preview", s.white, `{"turn":"` + b + `"}`},
			{"member name", "PATCH", "/v1/me", s.organiser, `{"name` + b + `":"Ann"}`},
		} {
			t.Run(fmt.Sprintf("%s %q", tt.name, b), func(t *testing.T) {
				before := dbState(t, h)
				res := h.do(tt.method, tt.path, tt.token, tt.body)
				switch res.status {
				case http.StatusBadRequest, http.StatusUnprocessableEntity:
					if c := res.problem(t).Code; c == "" || c == "internal" {
						t.Errorf("code %q", c)
					}
				case http.StatusUnauthorized: // a login code: it matches none
					res.want(t, http.StatusUnauthorized, "login_invalid")
				default:
					t.Errorf("status %d, want 400 or 422: %.160s…", res.status, res.body)
				}
				unchanged(t, h, before)
			})
		}
	}
}

// --- Injection --------------------------------------------------------------

// validID is the contract's pattern of a game id.
var validID = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// sqlMeta are strings that break SQL built by concatenation or LIKE patterns.
var sqlMeta = []string{`'; DROP TABLE games; --`, `" OR 1=1 --`, `%`, `_`, `\`, `' OR '1'='1`, `%' OR email LIKE '%`, `1); DELETE FROM users; --`}

// SQL metacharacters in every string of every request (JSON members, query
// and path parameters, headers) are either taken verbatim or refused by
// validation; nothing breaks and every table stays.
func TestSQLMetacharacters(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	tables := slices.Sorted(maps.Keys(dbState(t, h)))
	var first gameJSON
	h.do("GET", "/v1/games/"+s.id, s.white, nil).want(t, http.StatusOK).decode(t, &first)
	g := "/v1/games/" + s.id

	for _, m := range sqlMeta {
		// Taken verbatim: names.
		t.Run(fmt.Sprintf("account name %q", m), func(t *testing.T) {
			var me struct{ Name string }
			h.do("PATCH", "/v1/me", s.organiser, map[string]any{"name": m}).want(t, http.StatusOK).decode(t, &me)
			h.do("GET", "/v1/me", s.organiser, nil).want(t, http.StatusOK).decode(t, &me)
			if me.Name != m {
				t.Errorf("name %q, want %q", me.Name, m)
			}
		})
		t.Run(fmt.Sprintf("player name %q", m), func(t *testing.T) {
			var created gameJSON
			body := map[string]any{"players": []map[string]any{{"name": m, "email": "ann@example.org"}, {"name": "Bob " + m, "email": "bob@example.org"}}}
			h.do("POST", "/v1/games", s.organiser, body).want(t, http.StatusCreated).decode(t, &created)
			var seats struct {
				Seats []struct{ Name string } `json:"seats"`
			}
			h.do("GET", "/v1/games/"+created.ID, s.organiser, nil).want(t, http.StatusOK).decode(t, &seats)
			if len(seats.Seats) != 2 || seats.Seats[0].Name != m || seats.Seats[1].Name != "Bob "+m {
				t.Errorf("seats %+v", seats.Seats)
			}
			invitation := only(t, h.deliver(), "bob@example.org")
			if !strings.Contains(invitation.Subject, m) {
				t.Errorf("subject %q does not name %q", invitation.Subject, m)
			}
		})
		// Refused by validation or by the rules, changing nothing.
		for _, tt := range []struct {
			name, method, path, token string
			body                      any
			status                    int
			code                      string
		}{
			{"login code", "POST", "/v1/auth/token", "", map[string]any{"token": m}, 401, "login_invalid"},
			{"login locale", "POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org", "locale": m}, 400, "invalid_request"},
			{"account locale", "PATCH", "/v1/me", s.organiser, map[string]any{"locale": m}, 400, "invalid_request"},
			{"player locale", "POST", "/v1/games", s.organiser, map[string]any{"players": []map[string]any{
				{"name": "A", "email": "a@example.org", "locale": m}, {"name": "B", "email": "b@example.org"}}}, 400, "invalid_request"},
			{"board seed", "POST", "/v1/games", s.organiser, withMembers(twoPlayers(""), "board", map[string]any{"seed": m}), 400, "invalid_request"},
			{"board walls", "POST", "/v1/games", s.organiser, withMembers(twoPlayers(""), "board", map[string]any{"walls": m}), 400, "invalid_request"},
			{"preset", "POST", "/v1/games", s.organiser, withMembers(twoPlayers(strings.Repeat("0", 60)), "preset", m), 400, "invalid_request"},
			{"setup square", "POST", "/v1/games", s.organiser, withMembers(twoPlayers(strings.Repeat("0", 60)), "setup", map[string]any{
				"to_move": "white", "pieces": map[string]any{"white": []string{m}, "black": []string{"a1"}}}), 400, "invalid_request"},
			{"setup to_move", "POST", "/v1/games", s.organiser, withMembers(twoPlayers(strings.Repeat("0", 60)), "setup", map[string]any{
				"to_move": m, "pieces": map[string]any{"white": []string{"e5"}, "black": []string{"a1"}}}), 400, "invalid_request"},
			{"time kind", "POST", "/v1/games", s.organiser, withMembers(twoPlayers(strings.Repeat("0", 60)), "time", map[string]any{"kind": m}), 400, "invalid_request"},
			{"time policy", "POST", "/v1/games", s.organiser, withMembers(twoPlayers(strings.Repeat("0", 60)), "time", map[string]any{
				"kind": "per_turn", "days": 3, "timeout_policy": m}), 400, "invalid_request"},
			{"vacation start", "POST", "/v1/me/vacations", s.organiser, map[string]any{"start": m, "end": "2026-12-03T00:00:00Z"}, 400, "invalid_request"},
			{"vacation end", "POST", "/v1/me/vacations", s.organiser, map[string]any{"start": "2026-12-01T00:00:00Z", "end": m}, 400, "invalid_request"},
			{"turn", "POST", g + "/turns", s.white, map[string]any{"turn": m, "ply": 0}, 422, "illegal_turn"},
			{"preview", "POST", g + "/preview", s.white, map[string]any{"turn": m}, 422, "illegal_turn"},
			{"cursor", "GET", "/v1/me/games?cursor=" + url.QueryEscape(m), s.organiser, nil, 422, "invalid_cursor"},
			{"moves from", "GET", g + "/moves?from=" + url.QueryEscape(m), s.white, nil, 400, "invalid_request"},
			{"moves turn", "GET", g + "/moves?turn=" + url.QueryEscape(m), s.white, nil, 422, "illegal_turn"},
			{"record format", "GET", g + "/record?format=" + url.QueryEscape(m), s.white, nil, 400, "invalid_request"},
			{"calendar link", "GET", "/calendar.ics?t=" + url.QueryEscape(m), "", nil, 400, "invalid_link"},
			{"unsubscribe link", "POST", "/unsubscribe?t=" + url.QueryEscape(m), "", nil, 400, "invalid_link"},
			{"game id", "GET", "/v1/games/" + url.PathEscape(m), s.organiser, nil, 400, "invalid_request"},
			{"game id of a turn", "POST", "/v1/games/" + url.PathEscape(m) + "/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}, 400, "invalid_request"},
			{"seat colour", "POST", g + "/seats/" + url.PathEscape(m) + "/link", s.organiser, nil, 400, "invalid_request"},
			{"vacation id", "DELETE", "/v1/me/vacations/" + url.PathEscape(m), s.organiser, nil, 400, "invalid_request"},
		} {
			t.Run(fmt.Sprintf("%s %q", tt.name, m), func(t *testing.T) {
				if strings.HasPrefix(tt.name, "game id") && validID.MatchString(m) {
					tt.status, tt.code = http.StatusNotFound, "not_found" // a well-formed id of no game
				}
				h.refused(t, tt.status, tt.code, tt.method, tt.path, tt.token, tt.body)
			})
		}
		t.Run(fmt.Sprintf("Idempotency-Key %q", m), func(t *testing.T) {
			if strings.Contains(m, " ") {
				h.refused(t, http.StatusBadRequest, "invalid_request", "POST", g+"/resign", s.white, map[string]any{}, "Idempotency-Key", m)
			} else {
				// A visible-ASCII key is a key like any other; see below for its matching.
				h.refused(t, http.StatusConflict, "stale_ply", "POST", g+"/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 9}, "Idempotency-Key", m)
			}
		})
	}

	// Email addresses with metacharacters are addresses like any other: the
	// login email goes to exactly that address, and the per-address limit
	// and "my games" match exactly, never as a pattern.
	for range 5 {
		h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
	}
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusTooManyRequests, "too_many_logins")
	h.deliver()
	for _, addr := range []string{"%@example.org", "_@example.org", "a_n@example.org", `%25@example.org`, "o'brien@example.org", "'--@example.org"} {
		t.Run("address "+addr, func(t *testing.T) {
			token := h.login(addr) // fails unless the email went to exactly addr
			var page struct {
				Games []gameJSON `json:"games"`
			}
			h.do("GET", "/v1/me/games", token, nil).want(t, http.StatusOK).decode(t, &page)
			if len(page.Games) != 0 {
				t.Errorf("%s sees %d games of others", addr, len(page.Games))
			}
		})
	}
	for _, addr := range []string{`'; DROP TABLE games; --@example.org`, `" OR 1=1 --@example.org`, `\@example.org`} {
		t.Run("address "+addr, func(t *testing.T) {
			h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "POST", "/v1/auth/login", "", map[string]any{"email": addr})
			h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "POST", "/v1/games", s.organiser, map[string]any{"players": []map[string]any{
				{"name": "A", "email": addr}, {"name": "B", "email": "b@example.org"}}})
		})
	}

	// An Idempotency-Key is matched exactly, never as a pattern: "%" is not
	// a retry of a request sent with another key.
	key := `k%_\'"`
	h.do("POST", g+"/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}, "Idempotency-Key", key).want(t, http.StatusCreated)
	h.deliver()
	res := h.do("POST", g+"/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}, "Idempotency-Key", key).want(t, http.StatusCreated)
	if res.header.Get("Idempotent-Replayed") != "true" {
		t.Error("the same key and request were not replayed")
	}
	for _, other := range []string{"%", "k%", "k_%", "K%_\\'\""} {
		res := h.refused(t, http.StatusConflict, "stale_ply", "POST", g+"/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}, "Idempotency-Key", other)
		if res.header.Get("Idempotent-Replayed") != "" {
			t.Errorf("key %q replayed the answer to key %q", other, key)
		}
	}

	// Every table is still there, and the first game is as it was but for the turn.
	if got := slices.Sorted(maps.Keys(dbState(t, h))); !slices.Equal(got, tables) {
		t.Errorf("tables %v, want %v", got, tables)
	}
	var after gameJSON
	h.do("GET", g, s.black, nil).want(t, http.StatusOK).decode(t, &after)
	if after.Ply != 1 || after.Version != first.Version+1 {
		t.Errorf("game %+v after one turn, was %+v", after, first)
	}
	var page struct {
		Games []gameJSON `json:"games"`
	}
	h.do("GET", "/v1/me/games?limit=100", s.organiser, nil).want(t, http.StatusOK).decode(t, &page)
	if want := 1 + len(sqlMeta); len(page.Games) != want {
		t.Errorf("organiser has %d games, want %d", len(page.Games), want)
	}
}

// Names with CR, LF or any other control or invisible character inside are
// refused with 422 wherever a name is given; surrounding white space,
// CR/LF included, is trimmed.
func TestControlCharactersInNames(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	for _, name := range []string{"Ann\rBcc: x", "Ann\r\nSubject: hi", "Ann\nLee", "Ann\tLee", "Ann\x00", "Ann\x1b[31m", "Ann\x7f",
		"Ann\u0085Lee", "Ann\u2028Lee", "Ann\u2029Lee", "Ann\u202eeL", "Ann\u200bLee", "Ann\ufeffLee", "Ann\u00adLee", "\u2066Ann\u2069"} {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "PATCH", "/v1/me", s.organiser, map[string]any{"name": name})
			h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "POST", "/v1/games", s.organiser, map[string]any{"players": []map[string]any{
				{"name": name, "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}}})
		})
	}
	for _, email := range []string{"ann@example.org\r\nBcc: all@example.org", "ann@exam\nple.org", "ann\x00@example.org", "ann@example.org\u2028"} {
		t.Run(fmt.Sprintf("%q", email), func(t *testing.T) {
			h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "POST", "/v1/auth/login", "", map[string]any{"email": email})
		})
	}
	var me struct{ Name string }
	h.do("PATCH", "/v1/me", s.organiser, map[string]any{"name": "\r\n Ann Lee\t\r\n"}).want(t, http.StatusOK).decode(t, &me)
	if me.Name != "Ann Lee" {
		t.Errorf("name %q, want it trimmed", me.Name)
	}
}

// An Idempotency-Key with anything but visible ASCII is refused with 400.
// CR, LF, NUL and DEL cannot even be sent by a well-behaved client: over a
// raw connection, net/http refuses the request before lesspost sees it
// (a bare LF ends the header line, making the rest another header).
func TestIdempotencyKeyCharacters(t *testing.T) {
	h := newAttackHarness(t)
	s := startGame(t, h)
	turns := "/v1/games/" + s.id + "/turns"
	turn := map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}
	for _, key := range []string{"a b", "a\tb", "é", "key\xff", strings.Repeat("k", 256)} {
		t.Run(fmt.Sprintf("%q", key), func(t *testing.T) {
			h.refused(t, http.StatusBadRequest, "invalid_request", "POST", turns, s.white, turn, "Idempotency-Key", key)
		})
	}
	for _, key := range []string{"a\rb", "a\x00b", "a\x7fb", "a\r\n\r\n"} {
		t.Run(fmt.Sprintf("raw %q", key), func(t *testing.T) {
			before := dbState(t, h)
			conn, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			body := `{"turn":"e5e4:e4d4:d4c4","ply":0}`
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: lesspost.test\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
				"Idempotency-Key: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", turns, s.white, key, len(body), body)
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest {
				t.Errorf("status %d, want 400", res.StatusCode)
			}
			unchanged(t, h, before)
		})
	}
}

// --- Rate limits ------------------------------------------------------------

func loginFrom(h *harness, email, ip string) response {
	h.t.Helper()
	var headers []string
	if ip != "" {
		headers = []string{"X-Forwarded-For", ip}
	}
	return h.do("POST", "/v1/auth/login", "", map[string]any{"email": email}, headers...)
}

// rateLimited checks a 429 rate_limited with Retry-After in seconds.
func rateLimited(t *testing.T, res response, retryAfter int) {
	t.Helper()
	res.want(t, http.StatusTooManyRequests, "rate_limited")
	if got := res.header.Get("Retry-After"); got != strconv.Itoa(retryAfter) {
		t.Errorf("Retry-After %q, want %d", got, retryAfter)
	}
}

// With the default limits, one address may ask for 10 login emails at once,
// then one a minute; after 10 quiet minutes, 10 again. Refused requests send
// nothing.
func TestLoginRateLimitPerIP(t *testing.T) {
	h := newHarness(t)
	for i := range 10 {
		loginFrom(h, fmt.Sprintf("p%d@example.org", i), "").want(t, http.StatusAccepted)
	}
	before := dbState(t, h)
	rateLimited(t, loginFrom(h, "late@example.org", ""), 60)
	rateLimited(t, loginFrom(h, "late@example.org", ""), 60)
	unchanged(t, h, before)
	if n := len(h.deliver()); n != 10 {
		t.Errorf("%d login emails, want 10", n)
	}
	h.clock.Advance(59 * time.Second)
	rateLimited(t, loginFrom(h, "late@example.org", ""), 1)
	h.clock.Advance(time.Second)
	loginFrom(h, "late@example.org", "").want(t, http.StatusAccepted)
	rateLimited(t, loginFrom(h, "later@example.org", ""), 60)
	h.clock.Advance(10 * time.Minute)
	for i := range 10 {
		loginFrom(h, fmt.Sprintf("q%d@example.org", i), "").want(t, http.StatusAccepted)
	}
	rateLimited(t, loginFrom(h, "later@example.org", ""), 60)
}

// Behind a trusted proxy the client's address is the proxy's last entry of
// X-Forwarded-For: addresses have their own limits, and entries a client
// adds in front change nothing. Without a trusted proxy the header is ignored.
func TestRateLimitsPerAddress(t *testing.T) {
	limits := api.RateLimits{Login: api.RateLimit{Requests: 2, Per: time.Hour}}
	t.Run("behind a proxy", func(t *testing.T) {
		h := newHarnessWith(t, func(c *serverConfig) { c.RateLimits, c.TrustedProxies = limits, 1 })
		loginFrom(h, "a@example.org", "198.51.100.1").want(t, http.StatusAccepted)
		loginFrom(h, "b@example.org", "6.6.6.6, 198.51.100.1").want(t, http.StatusAccepted)
		rateLimited(t, loginFrom(h, "c@example.org", "7.7.7.7, 198.51.100.1"), 1800)
		rateLimited(t, loginFrom(h, "c@example.org", "198.51.100.1"), 1800)
		loginFrom(h, "c@example.org", "198.51.100.2").want(t, http.StatusAccepted)
		loginFrom(h, "d@example.org", "2001:db8::1").want(t, http.StatusAccepted)
		loginFrom(h, "e@example.org", "2001:db8::2").want(t, http.StatusAccepted)
		rateLimited(t, loginFrom(h, "f@example.org", "2001:db8::ffff:1"), 1800) // the same /64
		loginFrom(h, "f@example.org", "2001:db8:0:1::1").want(t, http.StatusAccepted)
	})
	t.Run("header not trusted", func(t *testing.T) {
		h := newHarnessWith(t, func(c *serverConfig) { c.RateLimits = limits })
		loginFrom(h, "a@example.org", "198.51.100.1").want(t, http.StatusAccepted)
		loginFrom(h, "b@example.org", "198.51.100.2").want(t, http.StatusAccepted)
		rateLimited(t, loginFrom(h, "c@example.org", "198.51.100.3"), 1800)
	})
}

// Exchanging login codes is limited per address, which makes guessing slow;
// a refused exchange does not spend the code.
func TestTokenRateLimit(t *testing.T) {
	h := newHarnessWith(t, func(c *serverConfig) {
		c.RateLimits.Token = api.RateLimit{Requests: 5, Per: 10 * time.Minute}
	})
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
	code := loginTokenRE.FindStringSubmatch(only(t, h.deliver(), "ann@example.org").Text)[1]
	for i := range 5 {
		h.do("POST", "/v1/auth/token", "", map[string]any{"token": fmt.Sprint("guess", i)}).want(t, http.StatusUnauthorized, "login_invalid")
	}
	before := dbState(t, h)
	rateLimited(t, h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}), 120)
	unchanged(t, h, before)
	h.clock.Advance(2 * time.Minute)
	h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}).want(t, http.StatusOK)
}

// Creating games is limited per account and per address. The limits do not
// leak: another account on the same address goes on, and an account's
// refused requests use up nothing of its address's allowance. Two sessions
// of one account share its limit.
func TestCreateGameRateLimits(t *testing.T) {
	h := newHarnessWith(t, func(c *serverConfig) {
		c.RateLimits.CreateGameAccount = api.RateLimit{Requests: 3, Per: time.Hour}
		c.RateLimits.CreateGameIP = api.RateLimit{Requests: 5, Per: time.Hour}
	})
	ann, ann2, bob := h.login("ann@example.org"), h.login("ann@example.org"), h.login("bob@example.org")
	game := twoPlayers(strings.Repeat("0", 60))
	h.do("POST", "/v1/games", ann, game).want(t, http.StatusCreated)
	h.do("POST", "/v1/games", ann2, game).want(t, http.StatusCreated)
	h.do("POST", "/v1/games", ann, game).want(t, http.StatusCreated)
	h.deliver()
	before := dbState(t, h)
	for range 10 {
		rateLimited(t, h.do("POST", "/v1/games", ann2, game), 1200)
	}
	unchanged(t, h, before)
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("refused games sent email: %v", subjects(mail))
	}
	h.do("POST", "/v1/games", bob, game).want(t, http.StatusCreated)
	h.do("POST", "/v1/games", bob, game).want(t, http.StatusCreated)
	rateLimited(t, h.do("POST", "/v1/games", bob, game), 720) // the address's 5 are used
	// Invalid tokens count against the address only.
	h.clock.Advance(time.Hour)
	for range 5 {
		h.do("POST", "/v1/games", "not.a.token", game).want(t, http.StatusUnauthorized)
	}
	rateLimited(t, h.do("POST", "/v1/games", bob, game), 720)
	h.clock.Advance(12 * time.Minute)
	h.do("POST", "/v1/games", ann, game).want(t, http.StatusCreated)
}
