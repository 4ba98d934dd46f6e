package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/internal/app"
	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/notify/egress"
	"github.com/lesspost/lesspost/notify/webpush"
	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// harness runs the whole server over real HTTP on a real database (SQLite,
// or PostgreSQL with LESSPOST_TEST_STORE=postgres), with
// the outbox worker delivering into a mailbox the test reads like a person
// reads email: links are taken from the message text and followed.
type harness struct {
	t      *testing.T
	dsn    string // the database, see repotest.DSN
	db     repo.Store
	url    string
	client *http.Client
	outbox *notify.Worker
	mail   *mailbox
	clock  *clock
	links  *api.Links // to mint a seat's link where a test is not about the email
	// pushKey is the VAPID key pair the store keeps, as the server starts with.
	pushKey hooks.PushKey
	// sessions are the sessions login began, by the access token it
	// returned: that token stands for the session in do.
	sessions sync.Map // string -> *session
	// configure, if set, changes the server's configuration at each start.
	configure []func(*serverConfig)
}

// serverConfig is the server's configuration as a test sets it: the API's,
// and the use cases' (built by newServer as cmd/api builds them).
type serverConfig struct {
	api.Config
	// Now is the use cases' clock, which the API reads too; nil means
	// time.Now.
	Now           func() time.Time
	MailLimits    domain.MailLimits
	TournamentLog int
	// WebhookGuard decides which webhook and push URLs may be registered;
	// nil allows only https URLs of public addresses.
	WebhookGuard *egress.Guard
}

// uses builds the use cases on the configuration's store and clock.
func (c *serverConfig) uses() *app.Services {
	return app.New(app.Config{Store: c.DB, Now: c.Now, MailLimits: c.MailLimits, TournamentLog: c.TournamentLog,
		PushEndpointCheck: api.PushEndpointCheck(c.WebhookGuard), WebhookURLCheck: api.WebhookURLCheck(c.WebhookGuard)})
}

// newServer serves the API with use cases of its own (see uses).
func (c *serverConfig) newServer() (*api.Server, error) {
	c.App = c.uses()
	return api.New(c.Config)
}

// session is a session's current tokens. Like a good client, do renews
// the access token with the refresh token once it has expired (by the
// harness's clock, which a test moves on by days), before it sends.
type session struct {
	mu              sync.Mutex
	access, refresh string
	expires         time.Time
}

func newHarness(t *testing.T, configure ...func(*serverConfig)) *harness {
	t.Helper()
	return newHarnessAt(t, repotest.DSN(t), configure...)
}

// newHarnessAt is newHarness on the database dsn.
func newHarnessAt(t *testing.T, dsn string, configure ...func(*serverConfig)) *harness {
	t.Helper()
	runParallel(t)
	h := &harness{t: t, mail: &mailbox{}, clock: &clock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)},
		dsn: dsn, configure: configure}
	h.start()
	return h
}

// start opens the database and serves the API on it.
func (h *harness) start() {
	t := h.t
	t.Helper()
	db := repotest.OpenDSN(t, h.dsn)
	h.db = db
	h.loadPushKey()
	cfg := serverConfig{Config: api.Config{DB: db, Secret: []byte("0123456789abcdef0123456789abcdef-test"),
		BaseURL: "http://lesspost.test", Logger: slog.New(slog.DiscardHandler), PushKey: h.pushKey.Public}, Now: h.clock.Now}
	for _, c := range h.configure {
		c(&cfg)
	}
	srv, err := cfg.newServer()
	if err != nil {
		t.Fatal(err)
	}
	h.links = srv.Links()
	renderer := &notify.Renderer{Store: db, Links: srv.Links(), Host: "lesspost.test"}
	h.outbox = notify.NewWorker(db, h.mail, renderer, slog.New(slog.DiscardHandler), h.clock.Now)
	ts, client := apitest.NewServer(t, srv)
	h.url, h.client = ts.URL, client
}

// loadPushKey reads the VAPID key pair from the store, made on first use,
// as the server's start does.
func (h *harness) loadPushKey() {
	h.t.Helper()
	candidate, err := webpush.GenerateKey()
	if err != nil {
		h.t.Fatal(err)
	}
	if h.pushKey, err = h.db.PushKey(h.t.Context(), candidate, h.clock.Now()); err != nil {
		h.t.Fatal(err)
	}
}

// service is the application layer on the harness's store at now, as the
// scheduler runs it.
func (h *harness) service(now time.Time) *games.Service {
	return games.NewService(games.Config{Store: h.db, Now: func() time.Time { return now }})
}

// push is the use cases of push subscriptions on the harness's store with
// the clock stopped at now.
func (h *harness) push(now time.Time) *hooks.Push {
	return hooks.NewPush(hooks.PushConfig{Store: h.db, Now: func() time.Time { return now }})
}

// tournaments is the use cases of tournaments on the harness's store with
// the clock stopped at now.
func (h *harness) tournaments(now time.Time) *tournaments.Service {
	return tournaments.NewService(tournaments.Config{Store: h.db, Now: func() time.Time { return now }})
}

// sqlite is the store as SQLite, for a test that reaches into SQLite itself;
// on PostgreSQL the test skips.
func (h *harness) sqlite(t *testing.T, why string) *sqlite.DB {
	t.Helper()
	repotest.SQLiteOnly(t, why)
	return h.db.(*sqlite.DB)
}

// restart stops the server and starts a new one on the same database file,
// as after a crash or a deploy.
func (h *harness) restart() {
	h.t.Helper()
	if err := h.db.Close(); err != nil {
		h.t.Fatal(err)
	}
	h.start()
}

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// mailbox is a notify.Sender that keeps every message.
type mailbox struct {
	mu   sync.Mutex
	msgs []notify.Message
}

func (m *mailbox) Send(_ context.Context, msg notify.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
	return nil
}

// deliver runs the outbox once and returns the messages it sent.
func (h *harness) deliver() []notify.Message {
	h.t.Helper()
	h.mail.mu.Lock()
	before := len(h.mail.msgs)
	h.mail.mu.Unlock()
	if _, err := h.outbox.DeliverDue(h.t.Context()); err != nil {
		h.t.Fatalf("deliver mail: %v", err)
	}
	h.mail.mu.Lock()
	defer h.mail.mu.Unlock()
	return append([]notify.Message(nil), h.mail.msgs[before:]...)
}

// only returns the single message to addr among msgs.
func only(t *testing.T, msgs []notify.Message, addr string) notify.Message {
	t.Helper()
	var found []notify.Message
	for _, m := range msgs {
		if m.To == addr {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d messages to %s, want 1 (all: %v)", len(found), addr, subjects(msgs))
	}
	return found[0]
}

func subjects(msgs []notify.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.To+": "+m.Subject)
	}
	return out
}

var (
	moveLinkRE = regexp.MustCompile(`http://lesspost\.test/play/([A-Za-z0-9_]+)#t=(\S+)`)
	// loginTokenRE finds a login email's token, in its link; loginCodeRE
	// its code to type, which signs in with the address.
	loginTokenRE = regexp.MustCompile(`/login#t=(\S+)`)
	loginCodeRE  = regexp.MustCompile(`enter this code in the app: (\S+)`)
)

// moveLink takes the move link out of an email: the game id and the token.
func moveLink(t *testing.T, m notify.Message) (gameID, token string) {
	t.Helper()
	match := moveLinkRE.FindStringSubmatch(m.Text)
	if match == nil {
		t.Fatalf("no move link in %q:\n%s", m.Subject, m.Text)
	}
	return match[1], match[2]
}

// response is what a request got back.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// problem is the body of an error.
type problem struct {
	Status int     `json:"status"`
	Code   string  `json:"code"`
	Detail string  `json:"detail"`
	Rule   string  `json:"rule"`
	Index  *int    `json:"index"`
	Type   string  `json:"type"`
	Title  string  `json:"title"`
	Ref    *string `json:"rule_ref"`
}

func (r response) problem(t *testing.T) problem {
	t.Helper()
	var p problem
	r.decode(t, &p)
	return p
}

// do sends a request; body is JSON-encoded unless it is a string. A token
// login returned stands for its session's current access token.
func (h *harness) do(method, path, token string, body any, headers ...string) response {
	h.t.Helper()
	if v, ok := h.sessions.Load(token); ok {
		token = h.current(v.(*session))
	}
	return h.send(method, path, token, body, headers...)
}

// current is the session's access token, renewed if it has expired. A
// renewal refused (the session ended) leaves the old one, for the server
// to refuse.
func (h *harness) current(s *session) string {
	h.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.clock.Now().Before(s.expires) {
		return s.access
	}
	r := h.send("POST", "/v1/auth/refresh", "", map[string]any{"refresh_token": s.refresh})
	if r.status == http.StatusOK {
		var tok tokenPair
		r.decode(h.t, &tok)
		s.access, s.refresh, s.expires = tok.AccessToken, tok.RefreshToken, tok.ExpiresAt
	}
	return s.access
}

// forget makes a token login returned stand for itself: do sends it as it
// is, renewed never.
func (h *harness) forget(token string) { h.sessions.Delete(token) }

type tokenPair struct {
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token"`
	ExpiresAt    time.Time `json:"expires_at"`
}

// send sends a request as it is.
func (h *harness) send(method, path, token string, body any, headers ...string) response {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(h.t.Context(), method, h.url+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := h.client.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Type") == "text/event-stream" {
		return response{status: res.StatusCode, header: res.Header} // a stream does not end: see openStream
	}
	data, err := io.ReadAll(res.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: data}
}

// want fails the test unless the response has the status (and, for errors, the code).
func (r response) want(t *testing.T, status int, code ...string) response {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if len(code) > 0 {
		if p := r.problem(t); p.Code != code[0] {
			t.Fatalf("problem code %q, want %q: %s", p.Code, code[0], r.body)
		}
	}
	return r
}

// login signs in by email the way a person does: ask for a link, read the
// email, exchange the code. It returns the access token.
func (h *harness) login(email string) string {
	h.t.Helper()
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": email}).want(h.t, http.StatusAccepted)
	m := only(h.t, h.deliver(), email)
	match := loginCodeRE.FindStringSubmatch(m.Text)
	if match == nil {
		h.t.Fatalf("no login code in:\n%s", m.Text)
	}
	var tok tokenPair
	h.do("POST", "/v1/auth/token", "", map[string]any{"email": email, "code": match[1]}).want(h.t, http.StatusOK).decode(h.t, &tok)
	h.sessions.Store(tok.AccessToken, &session{access: tok.AccessToken, refresh: tok.RefreshToken, expires: tok.ExpiresAt})
	return tok.AccessToken
}

// gameJSON is the part of the Game schema the tests read.
type gameJSON struct {
	ID         string              `json:"id"`
	Status     string              `json:"status"`
	Ply        int                 `json:"ply"`
	ToMove     *string             `json:"to_move"`
	Pieces     map[string][]string `json:"pieces"`
	Counts     map[string]int      `json:"counts"`
	YourColors []string            `json:"your_colors"`
	Goal       string              `json:"goal"`
	Version    int                 `json:"version"`
	Board      struct {
		Size  int     `json:"size"`
		Walls string  `json:"walls"`
		Seed  *string `json:"seed"`
	} `json:"board"`
	Result *struct {
		Reason string         `json:"reason"`
		Winner *string        `json:"winner"`
		Margin int            `json:"margin"`
		Totals map[string]int `json:"totals"`
		Counts map[string]int `json:"counts"`
		Text   string         `json:"text"`
	} `json:"result"`
}

// parallel holds the tests already made parallel (a test may start a
// harness twice, and t.Parallel may be called once).
var parallel sync.Map // *testing.T -> struct{}

// runParallel lets a top-level test with a harness run beside the others:
// each has its own server, database, mailbox and clock, and most of their
// time is waiting (commits, a browser, a mail server), so the package's
// tests take a fraction of their serial time. Subtests stay serial: their
// parents may read what they did after t.Run.
func runParallel(t *testing.T) {
	if strings.Contains(t.Name(), "/") {
		return
	}
	if _, done := parallel.LoadOrStore(t, struct{}{}); !done {
		t.Parallel()
	}
}
