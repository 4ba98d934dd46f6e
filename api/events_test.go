package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/vectors"
)

// sseEvent is one event of a stream, as a client reads it.
type sseEvent struct {
	id, kind string
	data     struct {
		GameID string `json:"game_id"`
		Color  string `json:"color"`
		Ply    int    `json:"ply"`
		Turn   string `json:"turn"`
		Result string `json:"result"`
		// ResultLine is a game's result in words, or what changed in a
		// tournament.
		ResultLine string `json:"result_line"`
		Tournament string `json:"tournament_id"`
	}
}

func (e sseEvent) String() string {
	return fmt.Sprintf("%s %s ply %d", e.kind, e.data.Color, e.data.Ply)
}

// stream is an open event stream, read by a goroutine of its own.
type stream struct {
	events chan sseEvent
	close  context.CancelFunc
}

// openStream opens an event stream of base+path with token, resuming after
// lastID unless it is "", and reads its events until close.
func openStream(t *testing.T, client *http.Client, base, path, token, lastID string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, "GET", base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type"))
	}
	s := &stream{events: make(chan sseEvent), close: cancel}
	t.Cleanup(cancel)
	go func() {
		defer res.Body.Close()
		defer close(s.events)
		var e sseEvent
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			field, value, _ := strings.Cut(sc.Text(), ": ")
			switch field {
			case "id":
				e.id = value
			case "event":
				e.kind = value
			case "data":
				if err := json.Unmarshal([]byte(value), &e.data); err != nil {
					t.Errorf("event data %q: %v", value, err)
				}
			case "": // the end of an event, or a comment
				if e.kind != "" {
					select {
					case s.events <- e:
					case <-ctx.Done():
						return
					}
				}
				e = sseEvent{}
			}
		}
	}()
	return s
}

// next waits for the stream's next event.
func (s *stream) next(t *testing.T) sseEvent {
	t.Helper()
	select {
	case e, ok := <-s.events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return e
	case <-t.Context().Done():
		t.Fatal("no event before the test's deadline")
	}
	return sseEvent{}
}

// expect reads as many events as want names and checks them.
func (s *stream) expect(t *testing.T, want ...string) []sseEvent {
	t.Helper()
	var got []sseEvent
	for range want {
		got = append(got, s.next(t))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	return got
}

// A player follows his events while a game is played over HTTP, goes
// away, and on his return gets exactly what he missed, then the new ones;
// a spectator reads the game's own events from the start.
func TestEventStreamFollowsAGame(t *testing.T) {
	h := newHarness(t)
	vector := vectors.Load(t).GameCases[0]
	org, bob := h.login("org@example.org"), h.login("bob@example.org")

	live := openStream(t, h.client, h.url, "/v1/me/events", bob, "")
	var g gameJSON
	h.do("POST", "/v1/games", org, twoPlayers(vector.Walls)).want(t, http.StatusCreated).decode(t, &g)
	seats := map[string]string{"white": h.seatToken(g.ID, "white"), "black": h.seatToken(g.ID, "black")}
	play := func(i int) {
		t.Helper()
		h.do("POST", "/v1/games/"+g.ID+"/turns", seats[[]string{"white", "black"}[i%2]],
			map[string]any{"turn": vector.Turns[i], "ply": i}).want(t, http.StatusCreated)
	}

	first := live.expect(t, "invitation black ply 0")
	if first[0].data.GameID != g.ID {
		t.Errorf("the invitation is to %s, want %s", first[0].data.GameID, g.ID)
	}
	play(0)
	seen := live.expect(t, "turn_played white ply 1", "your_turn black ply 1")
	if seen[0].data.Turn == "" {
		t.Error("turn_played without its turn")
	}
	live.close()

	play(1)
	play(2)
	back := openStream(t, h.client, h.url, "/v1/me/events", bob, seen[1].id)
	back.expect(t, "turn_played black ply 2", "turn_played white ply 3", "your_turn black ply 3")
	play(3)
	back.expect(t, "turn_played black ply 4")

	// Any id given out is a place in the one order of events: after Bob's
	// invitation, the game's own stream has every turn.
	watch := openStream(t, h.client, h.url, "/v1/games/"+g.ID+"/events", seats["white"], first[0].id)
	watch.expect(t, "turn_played white ply 1", "turn_played black ply 2", "turn_played white ply 3", "turn_played black ply 4")
	h.do("POST", "/v1/games/"+g.ID+"/resign", seats["white"], map[string]any{}).want(t, http.StatusOK)
	if over := watch.next(t); over.kind != "game_over" || over.data.Result == "" {
		t.Errorf("after the resignation: %v %+v", over, over.data)
	}
	back.expect(t, "game_over black ply 4")
}

// Every kind of credential holds a bounded number of streams, and so does
// every client address whatever its credentials: each stream is a
// connection and a file held open. A refusal is 429 rate_limited with
// Retry-After; a stream that ends frees its place.
func TestEventStreamLimits(t *testing.T) {
	h := newHarness(t, func(cfg *serverConfig) {
		cfg.StreamLimits = api.StreamLimits{Credential: 2, IP: 7}
		cfg.TrustedProxies = 1 // so that a test can come from another address
	})
	s := startGame(t, h)
	org := s.organiser
	pat := h.personalToken(org, "games:read")
	refused := func(path, token, why string) {
		t.Helper()
		r := h.do("GET", path, token, nil).want(t, http.StatusTooManyRequests, "rate_limited")
		if r.header.Get("Retry-After") == "" {
			t.Errorf("%s: a refusal without Retry-After", why)
		}
	}
	game := "/v1/games/" + s.id + "/events"

	// An account's personal access tokens and sign-in tokens share its two.
	patStream := openStream(t, h.client, h.url, "/v1/me/events", pat, "")
	openStream(t, h.client, h.url, game, pat, "")
	refused("/v1/me/events", pat, "a third stream of a personal access token")
	refused("/v1/me/events", org, "a sign-in token of an account whose personal access tokens hold its streams")
	// A seat's move link, a game's spectator link.
	for _, token := range []string{s.white, s.watch} {
		openStream(t, h.client, h.url, game, token, "")
		openStream(t, h.client, h.url, game, token, "")
		refused(game, token, "a third stream of a game link")
	}
	// Six open: the address has one more, whoever asks.
	zoe := h.login("zoe@example.org")
	openStream(t, h.client, h.url, "/v1/me/events", zoe, "")
	refused("/v1/me/events", zoe, "a stream of an address at its limit")
	h.do("GET", "/v1/me/events", zoe, nil, "X-Forwarded-For", "203.0.113.9").want(t, http.StatusOK)

	// A stream that ends gives its place back (once the server has seen it
	// go).
	patStream.close()
	zoePAT := h.personalToken(zoe, "games:read")
	for h.do("GET", "/v1/me/events", zoePAT, nil).status != http.StatusOK {
		select {
		case <-t.Context().Done():
			t.Fatal("the address's place never came back")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// A client away longer than events are kept cannot get what it missed:
// resuming after an event that was pruned is answered 410 cursor_expired
// (read the games again, then follow the stream without an id), not with a
// stream that leaves out what is gone; an id still kept resumes as ever.
func TestEventStreamAfterRetention(t *testing.T) {
	h := newHarness(t)
	s := startGame(t, h)
	watch := openStream(t, h.client, h.url, "/v1/games/"+s.id+"/events", s.watch, "")
	h.do("POST", "/v1/games/"+s.id+"/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
	turn := watch.expect(t, "turn_played white ply 1")[0]
	h.clock.Advance(domain.EventRetention + time.Hour)
	h.do("POST", "/v1/games/"+s.id+"/resign", s.black, map[string]any{}).want(t, http.StatusOK)
	end := watch.next(t)
	watch.close()
	if _, err := h.db.PruneEvents(t.Context(), h.clock.Now().Add(-domain.EventRetention), 100); err != nil {
		t.Fatal(err)
	}

	for _, path := range []string{"/v1/games/" + s.id + "/events", "/v1/me/events"} {
		token := map[bool]string{true: s.watch, false: s.organiser}[strings.HasPrefix(path, "/v1/games/")]
		h.do("GET", path, token, nil, "Last-Event-ID", turn.id).want(t, http.StatusGone, "cursor_expired")
		h.do("GET", path+"?last_event_id="+turn.id, token, nil).want(t, http.StatusGone, "cursor_expired")
	}
	if end.kind != "game_over" {
		t.Fatalf("after the resignation: %v", end)
	}
	openStream(t, h.client, h.url, "/v1/games/"+s.id+"/events", s.watch, end.id) // kept: it opens
}

// An event committed through one server reaches a stream held on another
// server on the same store.
func TestEventStreamAcrossInstances(t *testing.T) {
	h := newHarness(t)
	other, err := (&serverConfig{Config: api.Config{DB: h.db, Secret: []byte("0123456789abcdef0123456789abcdef-test"),
		BaseURL: "http://lesspost.test", Logger: slog.New(slog.DiscardHandler)}, Now: h.clock.Now}).newServer()
	if err != nil {
		t.Fatal(err)
	}
	ts, client := apitest.NewServer(t, other)
	s := startGame(t, h)
	events := openStream(t, client, ts.URL, "/v1/games/"+s.id+"/events", s.watch, "")
	h.do("POST", "/v1/games/"+s.id+"/turns", s.white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
	events.expect(t, "turn_played white ply 1")
}

// Ids that this server did not give out are refused before the stream
// starts, and an account's open streams are capped.
func TestEventStreamRefusals(t *testing.T) {
	h := newHarness(t)
	ann := h.login("ann@example.org")
	h.do("GET", "/v1/me/events", ann, nil, "Last-Event-ID", "yesterday").want(t, http.StatusUnprocessableEntity, "invalid_cursor")
	h.do("GET", "/v1/me/events?last_event_id=12", ann, nil).want(t, http.StatusUnprocessableEntity, "invalid_cursor")
	// Well-formed, but never given out: before the first event, after the
	// last, of a transaction still to come. Taken, each would make a
	// stream that waits for events that never come, or skips some.
	s := startGame(t, h)
	for _, id := range []string{"0-0", "0-999999", "999999999999-1", "999999999999-999999"} {
		for _, path := range []string{"/v1/me/events", "/v1/games/" + s.id + "/events"} {
			token := map[bool]string{true: ann, false: s.watch}[path == "/v1/me/events"]
			h.do("GET", path, token, nil, "Last-Event-ID", id).want(t, http.StatusUnprocessableEntity, "invalid_cursor")
			h.do("GET", path+"?last_event_id="+id, token, nil).want(t, http.StatusUnprocessableEntity, "invalid_cursor")
		}
	}
	for range api.DefaultStreamLimits.Credential {
		openStream(t, h.client, h.url, "/v1/me/events", ann, "")
	}
	h.do("GET", "/v1/me/events", ann, nil).want(t, http.StatusTooManyRequests, "rate_limited")
}
