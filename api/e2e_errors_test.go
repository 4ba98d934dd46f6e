package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// started is a fresh two-player game on an empty board with each seat's link.
type started struct {
	id, white, black, watch, organiser string
	version                            int
}

var watchLinkRE = regexp.MustCompile(`The game for spectators:\nhttp://lesspost\.test/play/[A-Za-z0-9_]+#t=(\S+)`)

func startGame(t *testing.T, h *harness) started {
	t.Helper()
	s := started{organiser: h.login("org@example.org")}
	var g gameJSON
	h.do("POST", "/v1/games", s.organiser, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated).decode(t, &g)
	mail := h.deliver()
	ann := only(t, mail, "ann@example.org")
	s.id, s.white = moveLink(t, ann)
	_, s.black = moveLink(t, only(t, mail, "bob@example.org"))
	s.watch = watchLinkRE.FindStringSubmatch(ann.Text)[1]
	s.version = g.Version
	return s
}

// Every refusal has the right status and code, and changes nothing.
func TestRefusalsChangeNothing(t *testing.T) {
	h := newHarness(t)
	s := startGame(t, h)
	other := startGame(t, h)
	stranger := h.login("eve@example.org")
	forged := signed(t, []byte("another-secret-another-secret-32b"), jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "lesspost", "use": "seat", "gid": s.id, "col": "white", "ver": 1, "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()})
	none := signed(t, jwt.UnsafeAllowNoneSignatureType, jwt.SigningMethodNone, jwt.MapClaims{
		"iss": "lesspost", "use": "seat", "gid": s.id, "col": "white", "ver": 1, "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()})
	turnPath := "/v1/games/" + s.id + "/turns"
	legal := map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}

	tests := []struct {
		name   string
		method string
		path   string
		token  string
		body   any
		status int
		code   string
		rule   string
		index  int
	}{
		{"no token", "POST", turnPath, "", legal, 401, "unauthorized", "", 0},
		{"garbage token", "POST", turnPath, "not.a.jwt", legal, 401, "unauthorized", "", 0},
		{"forged signature", "POST", turnPath, forged, legal, 401, "unauthorized", "", 0},
		{"alg none", "POST", turnPath, none, legal, 401, "unauthorized", "", 0},
		{"not your turn", "POST", turnPath, s.black, legal, 403, "not_your_turn", "", 0},
		{"seat of another game", "POST", turnPath, other.white, legal, 403, "wrong_game", "", 0},
		{"stranger", "POST", turnPath, stranger, legal, 403, "forbidden", "", 0},
		{"creator who does not play", "POST", turnPath, s.organiser, legal, 403, "forbidden", "", 0},
		{"spectator", "POST", turnPath, s.watch, legal, 403, "forbidden", "", 0},
		{"stranger reads", "GET", "/v1/games/" + s.id, stranger, nil, 403, "forbidden", "", 0},
		{"stale ply", "POST", turnPath, s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 3}, 409, "stale_ply", "", 0},
		{"illegal jump", "POST", turnPath, s.white, map[string]any{"turn": "e5e4:e4e2", "ply": 0}, 422, "illegal_turn", "nothing_to_jump", 1},
		{"incomplete", "POST", turnPath, s.white, map[string]any{"turn": "e5e4", "ply": 0}, 422, "illegal_turn", "incomplete", -1},
		{"syntax", "POST", turnPath, s.white, map[string]any{"turn": "e5--e4", "ply": 0}, 422, "illegal_turn", "syntax", -1},
		{"off board", "POST", turnPath, s.white, map[string]any{"turn": "f6f7", "ply": 0}, 422, "illegal_turn", "off_board", 0},
		{"no ply", "POST", turnPath, s.white, map[string]any{"turn": "e5e4:e4d4:d4c4"}, 400, "invalid_request", "", 0},
		{"unknown field", "POST", turnPath, s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0, "force": true}, 400, "invalid_request", "", 0},
		{"malformed JSON", "POST", turnPath, s.white, `{"turn": `, 400, "invalid_request", "", 0},
		{"body too large", "POST", turnPath, s.white, `{"turn": "` + strings.Repeat("e", 70<<10) + `", "ply": 0}`, 413, "body_too_large", "", 0},
		{"unknown game", "GET", "/v1/games/g_nosuchgame", s.organiser, nil, 404, "not_found", "", 0},
		{"seat token as account", "GET", "/v1/me", s.white, nil, 403, "account_required", "", 0},
		{"bad email", "POST", "/v1/games", s.organiser, map[string]any{"players": []map[string]any{
			{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org\r\nBcc: all@example.org"}}}, 422, "invalid_input", "", 0},
		{"name with newline", "POST", "/v1/games", s.organiser, map[string]any{"players": []map[string]any{
			{"name": "Ann\nSubject: hi", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}}}, 422, "invalid_input", "", 0},
		{"three players", "POST", "/v1/games", s.organiser, map[string]any{"players": []map[string]any{
			{"name": "A", "email": "a@example.org"}, {"name": "B", "email": "b@example.org"}, {"name": "C", "email": "c@example.org"}}}, 422, "invalid_input", "", 0},
		{"bad walls", "POST", "/v1/games", s.organiser, map[string]any{"players": []map[string]any{
			{"name": "A", "email": "a@example.org"}, {"name": "B", "email": "b@example.org"}}, "board": map[string]any{"walls": "0120"}}, 422, "invalid_input", "", 0},
		{"two pieces on a square", "POST", "/v1/games", s.organiser, map[string]any{"players": []map[string]any{
			{"name": "A", "email": "a@example.org"}, {"name": "B", "email": "b@example.org"}},
			"setup": map[string]any{"to_move": "white", "pieces": map[string]any{"white": []string{"a1", "a1", "a2", "a3"}, "black": []string{"f1", "f2", "f3", "f4"}}}}, 422, "invalid_input", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.do(tt.method, tt.path, tt.token, tt.body).want(t, tt.status)
			p := res.problem(t)
			if !strings.HasPrefix(p.Code, tt.code) && !(tt.code == "invalid_request" && p.Code == "invalid_json") {
				t.Errorf("code %q, want %q: %s", p.Code, tt.code, res.body)
			}
			if tt.rule != "" {
				if p.Rule != tt.rule {
					t.Errorf("rule %q, want %q", p.Rule, tt.rule)
				}
				if (tt.index < 0) != (p.Index == nil) || p.Index != nil && *p.Index != tt.index {
					t.Errorf("index %v, want %d", p.Index, tt.index)
				}
				if p.Detail == "" {
					t.Error("no message for people")
				}
			}
		})
	}
	var g gameJSON
	h.do("GET", "/v1/games/"+s.id, s.white, nil).want(t, http.StatusOK).decode(t, &g)
	if g.Ply != 0 || g.Version != s.version || g.Pieces["white"][0] != "e5" {
		t.Errorf("a refused request changed the game: %+v", g)
	}
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("refusals sent email: %v", subjects(mail))
	}
}

func signed(t *testing.T, key any, method jwt.SigningMethod, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExpiredTokens(t *testing.T) {
	h := newHarness(t)
	s := startGame(t, h)
	h.clock.Advance(31 * 24 * time.Hour)
	h.do("GET", "/v1/me", s.organiser, nil).want(t, http.StatusUnauthorized, "unauthorized")
	h.do("GET", "/v1/games/"+s.id, s.white, nil).want(t, http.StatusOK) // move links live longer
	h.clock.Advance(400 * 24 * time.Hour)
	h.do("GET", "/v1/games/"+s.id, s.white, nil).want(t, http.StatusUnauthorized, "unauthorized")
}

func TestLoginLinks(t *testing.T) {
	h := newHarness(t)
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "Ann@Example.ORG"}).want(t, http.StatusAccepted)
	m := only(t, h.deliver(), "ann@example.org")
	code := loginTokenRE.FindStringSubmatch(m.Text)[1]
	if !strings.Contains(m.Text, "http://lesspost.test/login#t="+code) {
		t.Errorf("no login link in:\n%s", m.Text)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		User        struct {
			Email string `json:"email"`
		} `json:"user"`
	}
	h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}).want(t, http.StatusOK).decode(t, &tok)
	if tok.User.Email != "ann@example.org" {
		t.Errorf("user %q", tok.User.Email)
	}
	h.do("POST", "/v1/auth/token", "", map[string]any{"token": code}).want(t, http.StatusUnauthorized, "login_invalid")

	// Who am I, rename, turn off reply confirmations (on for a new
	// account), log out.
	var me struct {
		Name, Locale       string
		ReplyConfirmations bool `json:"reply_confirmations"`
	}
	h.do("GET", "/v1/me", tok.AccessToken, nil).want(t, http.StatusOK).decode(t, &me)
	if !me.ReplyConfirmations {
		t.Errorf("a new account: me %+v, want reply confirmations on", me)
	}
	h.do("PATCH", "/v1/me", tok.AccessToken, map[string]any{"name": "Ann Lee", "locale": "de"}).want(t, http.StatusOK)
	h.do("PATCH", "/v1/me", tok.AccessToken, map[string]any{"reply_confirmations": false}).want(t, http.StatusOK)
	h.do("GET", "/v1/me", tok.AccessToken, nil).want(t, http.StatusOK).decode(t, &me)
	if me.Name != "Ann Lee" || me.Locale != "de" || me.ReplyConfirmations {
		t.Errorf("me %+v", me)
	}
	h.do("POST", "/v1/auth/logout", tok.AccessToken, nil).want(t, http.StatusNoContent)
	h.do("GET", "/v1/me", tok.AccessToken, nil).want(t, http.StatusUnauthorized, "unauthorized")

	// A link expires after 15 minutes.
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "bob@example.org"}).want(t, http.StatusAccepted)
	late := loginTokenRE.FindStringSubmatch(only(t, h.deliver(), "bob@example.org").Text)[1]
	h.clock.Advance(16 * time.Minute)
	h.do("POST", "/v1/auth/token", "", map[string]any{"token": late}).want(t, http.StatusUnauthorized, "login_invalid")
}

func TestLoginRateLimit(t *testing.T) {
	h := newHarness(t)
	for range 5 {
		h.do("POST", "/v1/auth/login", "", map[string]any{"email": "spam@example.org"}).want(t, http.StatusAccepted)
	}
	res := h.do("POST", "/v1/auth/login", "", map[string]any{"email": "spam@example.org"}).want(t, http.StatusTooManyRequests, "too_many_logins")
	if res.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	if n := len(h.deliver()); n != 5 {
		t.Errorf("%d login emails, want 5", n)
	}
}

// Renewing a seat's link emails the new link to the player; the old one stops working.
func TestRotateSeatLink(t *testing.T) {
	h := newHarness(t)
	s := startGame(t, h)
	h.do("POST", "/v1/games/"+s.id+"/seats/white/link", s.black, nil).want(t, http.StatusForbidden, "forbidden")
	res := h.do("POST", "/v1/games/"+s.id+"/seats/white/link", s.organiser, nil).want(t, http.StatusAccepted)
	if strings.Contains(string(res.body), "#t=") {
		t.Fatal("the creator received the new link")
	}
	m := only(t, h.deliver(), "ann@example.org")
	_, fresh := moveLink(t, m)
	h.do("GET", "/v1/games/"+s.id, s.white, nil).want(t, http.StatusUnauthorized, "link_replaced")
	h.do("POST", "/v1/games/"+s.id+"/turns", fresh, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
}

func TestReadingAGame(t *testing.T) {
	h := newHarness(t)
	s := startGame(t, h)

	res := h.do("GET", "/v1/games/"+s.id, s.watch, nil).want(t, http.StatusOK)
	etag := res.header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	h.do("GET", "/v1/games/"+s.id, s.watch, nil, "If-None-Match", etag).want(t, http.StatusNotModified)

	var moves struct {
		Left  int `json:"left"`
		Moves []struct {
			From, To string
			Cost     int
			Jump     bool
		} `json:"moves"`
	}
	h.do("GET", "/v1/games/"+s.id+"/moves?from=e5", s.white, nil).want(t, http.StatusOK).decode(t, &moves)
	if moves.Left != 3 || len(moves.Moves) != 2 { // e5 steps to d5 and e4
		t.Errorf("moves of e5: %+v", moves)
	}
	h.do("GET", "/v1/games/"+s.id+"/moves?turn=e5e4:e4d4", s.white, nil).want(t, http.StatusOK).decode(t, &moves)
	if moves.Left != 1 || len(moves.Moves) == 0 {
		t.Errorf("moves after two steps: %+v", moves)
	}
	h.do("GET", "/v1/games/"+s.id+"/moves?turn=e5e4:e4e2", s.white, nil).want(t, http.StatusUnprocessableEntity, "illegal_turn")

	var preview struct {
		Turn string `json:"turn"`
		Used int    `json:"used"`
	}
	h.do("POST", "/v1/games/"+s.id+"/preview", s.white, map[string]any{"turn": "E5-E4, e4d4 d4c4"}).want(t, http.StatusOK).decode(t, &preview)
	if preview.Turn != "e5e4:e4d4:d4c4" || preview.Used != 3 {
		t.Errorf("preview %+v", preview)
	}
	h.do("POST", "/v1/games/"+s.id+"/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
	h.deliver()
	res = h.do("GET", "/v1/games/"+s.id, s.watch, nil, "If-None-Match", etag).want(t, http.StatusOK)
	if res.header.Get("ETag") == etag {
		t.Error("ETag unchanged after a turn")
	}
}

func TestResign(t *testing.T) {
	h := newHarness(t)
	s := startGame(t, h)
	var out struct {
		Game gameJSON `json:"game"`
	}
	h.do("POST", "/v1/games/"+s.id+"/resign", s.black, nil).want(t, http.StatusOK).decode(t, &out)
	r := out.Game.Result
	if out.Game.Status != "finished" || r == nil || r.Reason != "resignation" || *r.Winner != "white" || r.Margin < 10 {
		t.Fatalf("after resigning: %+v", out.Game)
	}
	if mail := h.deliver(); len(mail) != 2 {
		t.Errorf("emails after resignation: %v", subjects(mail))
	}
	h.do("POST", "/v1/games/"+s.id+"/resign", s.white, nil).want(t, http.StatusConflict, "game_over")
}

func TestMyGames(t *testing.T) {
	h := newHarness(t)
	ann := h.login("ann@example.org")
	var ids []string
	for range 3 {
		var g gameJSON
		h.do("POST", "/v1/games", ann, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated).decode(t, &g)
		ids = append(ids, g.ID)
		h.clock.Advance(time.Minute)
	}
	type page struct {
		Games      []gameJSON `json:"games"`
		NextCursor *string    `json:"next_cursor"`
	}
	var p1, p2 page
	h.do("GET", "/v1/me/games?limit=2", ann, nil).want(t, http.StatusOK).decode(t, &p1)
	if len(p1.Games) != 2 || p1.NextCursor == nil {
		t.Fatalf("first page %+v", p1)
	}
	h.do("GET", "/v1/me/games?limit=2&cursor="+*p1.NextCursor, ann, nil).want(t, http.StatusOK).decode(t, &p2)
	if len(p2.Games) != 1 || p2.NextCursor != nil {
		t.Fatalf("second page %+v", p2)
	}
	// Ann plays White in each: all are her turn, the longest waiting first.
	got := []string{p1.Games[0].ID, p1.Games[1].ID, p2.Games[0].ID}
	if strings.Join(got, ",") != strings.Join(ids, ",") {
		t.Errorf("order %v, want %v", got, ids)
	}
	if c := p1.Games[0].YourColors; len(c) != 1 || c[0] != "white" {
		t.Errorf("your colours %v", c)
	}
	h.do("GET", "/v1/me/games?cursor=garbage", ann, nil).want(t, http.StatusUnprocessableEntity, "invalid_cursor")
}
