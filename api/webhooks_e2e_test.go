package api_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/vectors"
	"github.com/lesspost/lesspost/notify/egress"
	"github.com/lesspost/lesspost/notify/webhook"
)

// receiver is a webhook endpoint that keeps what it gets and answers
// status. Every message it gets must conform to the contract.
type receiver struct {
	srv    *httptest.Server
	status atomic.Int32
	mu     sync.Mutex
	got    []received
}

type received struct {
	header http.Header
	body   []byte
}

// message is a received body as a receiver reads it.
type message struct {
	Type      string          `json:"type"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.status.Store(http.StatusNoContent)
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		apitest.CheckWebhook(t, req.Header, body)
		r.mu.Lock()
		r.got = append(r.got, received{header: req.Header.Clone(), body: body})
		r.mu.Unlock()
		w.WriteHeader(int(r.status.Load()))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// take returns what arrived since the last take.
func (r *receiver) take() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.got
	r.got = nil
	return out
}

// verify checks a message's signature as a receiver does, written from the
// Standard Webhooks specification and independent of package webhook: the
// HMAC-SHA256 of id.timestamp.body under the secret's key must equal one of
// the v1 signatures, and the timestamp must be within 5 minutes of now.
func verify(secret string, m received, now time.Time) error {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return err
	}
	id, ts := m.header.Get("webhook-id"), m.header.Get("webhook-timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || id == "" {
		return fmt.Errorf("webhook-id %q, webhook-timestamp %q", id, ts)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return fmt.Errorf("timestamp %s is %v from now", ts, d)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(m.body)
	want := mac.Sum(nil)
	for _, sig := range strings.Fields(m.header.Get("webhook-signature")) {
		v, b64, ok := strings.Cut(sig, ",")
		got, err := base64.StdEncoding.DecodeString(b64)
		if ok && v == "v1" && err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return fmt.Errorf("no signature of %q matches", m.header.Get("webhook-signature"))
}

// allowPrivate lets the server register the receivers on loopback.
func allowPrivate(cfg *serverConfig) { cfg.WebhookGuard = &egress.Guard{AllowPrivate: true} }

// relaxedMail sets the mail policy's sender's limits out of the way, for
// tests that send one stranger more mail than a sender may, about
// something else (domain.MailPolicy).
func relaxedMail(cfg *serverConfig) {
	cfg.MailLimits = domain.MailLimits{PairPerDay: 100_000, CallerPerHour: 100_000, ClientPerHour: 100_000}
}

// hookWorker is a webhook worker on the harness's store and clock.
func hookWorker(h *harness, guard *egress.Guard, claimant string) *webhook.Worker {
	w := webhook.NewWorker(h.db, guard, slog.New(slog.DiscardHandler), h.clock.Now)
	w.Claimant = claimant
	return w
}

type webhookJSON struct {
	ID                      int64      `json:"id"`
	URL                     string     `json:"url"`
	EventTypes              []string   `json:"event_types"`
	Enabled                 bool       `json:"enabled"`
	DisabledReason          *string    `json:"disabled_reason"`
	PreviousSecretExpiresAt *time.Time `json:"previous_secret_expires_at"`
	Secret                  string     `json:"secret"`
}

type deliveryJSON struct {
	ID         int64   `json:"id"`
	WebhookID  string  `json:"webhook_id"`
	Type       string  `json:"type"`
	Status     string  `json:"status"`
	Attempts   int     `json:"attempts"`
	LastStatus *int    `json:"last_status"`
	LastError  *string `json:"last_error"`
	Data       struct {
		GameID *string `json:"game_id"`
	} `json:"data"`
}

func (h *harness) createWebhook(t *testing.T, token, url string, types ...string) webhookJSON {
	t.Helper()
	var w webhookJSON
	h.do("POST", "/v1/me/webhooks", token, map[string]any{"url": url, "event_types": types, "description": "test"}).
		want(t, http.StatusCreated).decode(t, &w)
	return w
}

func (h *harness) deliveries(t *testing.T, token string, id int64) []deliveryJSON {
	t.Helper()
	var page struct {
		Deliveries []deliveryJSON `json:"deliveries"`
	}
	h.do("GET", fmt.Sprintf("/v1/me/webhooks/%d/deliveries", id), token, nil).want(t, http.StatusOK).decode(t, &page)
	return page.Deliveries
}

// deliverAll runs the worker until a pass finds nothing due.
func deliverAll(t *testing.T, w *webhook.Worker) { drain(t, w.DeliverDue) }

// drain runs a worker's pass until one finds nothing due.
func drain(t *testing.T, pass func(context.Context) (int, error)) {
	t.Helper()
	for {
		n, err := pass(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

// A game's events reach each account's endpoint, only the types it wants,
// signed with its secret; pings and rotations work as documented.
func TestWebhooksDeliverSignedEvents(t *testing.T) {
	h := newHarness(t, allowPrivate)
	vector := vectors.Load(t).GameCases[0]
	annHook, bobHook := newReceiver(t), newReceiver(t)
	ann, bob := h.login("ann@example.org"), h.login("bob@example.org")
	aw := h.createWebhook(t, ann, annHook.srv.URL+"/hook", "your_turn", "game_over")
	bw := h.createWebhook(t, bob, bobHook.srv.URL+"/hook", "invitation")
	if !strings.HasPrefix(aw.Secret, "whsec_") || !aw.Enabled || !slices.Equal(aw.EventTypes, []string{"your_turn", "game_over"}) {
		t.Fatalf("created %+v", aw)
	}
	worker := hookWorker(h, &egress.Guard{AllowPrivate: true}, "w1")

	var g gameJSON
	h.do("POST", "/v1/games", ann, twoPlayers(vector.Walls)).want(t, http.StatusCreated).decode(t, &g)
	h.do("POST", "/v1/games/"+g.ID+"/turns", ann, map[string]any{"turn": vector.Turns[0], "ply": 0}).want(t, http.StatusCreated)
	h.do("POST", "/v1/games/"+g.ID+"/turns", bob, map[string]any{"turn": vector.Turns[1], "ply": 1}).want(t, http.StatusCreated)
	h.do("POST", "/v1/games/"+g.ID+"/resign", ann, map[string]any{}).want(t, http.StatusOK)
	deliverAll(t, worker)

	check := func(who string, r *receiver, secret string, want []string) []message {
		t.Helper()
		var got []string
		var msgs []message
		ids := map[string]bool{}
		for _, m := range r.take() {
			if err := verify(secret, m, h.clock.Now()); err != nil {
				t.Errorf("%s: %v", who, err)
			}
			if ids[m.header.Get("webhook-id")] {
				t.Errorf("%s: webhook-id %s twice", who, m.header.Get("webhook-id"))
			}
			ids[m.header.Get("webhook-id")] = true
			var msg message
			if err := json.Unmarshal(m.body, &msg); err != nil || m.header.Get("Content-Type") != "application/json" {
				t.Fatalf("%s: body %s (%v), Content-Type %q", who, m.body, err, m.header.Get("Content-Type"))
			}
			got = append(got, msg.Type)
			msgs = append(msgs, msg)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s received %q, want %q", who, got, want)
		}
		return msgs
	}
	for _, m := range check("ann", annHook, aw.Secret, []string{"game_over", "your_turn"}) {
		var data map[string]any
		_ = json.Unmarshal(m.Data, &data)
		if data["game_id"] != g.ID || data["color"] != "white" || !m.Timestamp.Equal(h.clock.Now()) {
			t.Errorf("ann's %s: %s at %v", m.Type, m.Data, m.Timestamp)
		}
		if m.Type == "game_over" && (data["result"] == "" || data["result"] == nil) {
			t.Errorf("game_over without a result: %s", m.Data)
		}
		if m.Type == "your_turn" && data["ply"] != float64(2) {
			t.Errorf("your_turn at ply %v, want 2", data["ply"])
		}
	}
	check("bob", bobHook, bw.Secret, []string{"invitation"})

	// The log shows both delivered, newest first; a signature with another
	// account's secret does not verify.
	log := h.deliveries(t, ann, aw.ID)
	if len(log) != 2 || log[0].Type != "game_over" || log[1].Type != "your_turn" {
		t.Fatalf("ann's log %+v", log)
	}
	for _, d := range log {
		if d.Status != "delivered" || d.Attempts != 1 || d.LastStatus == nil || *d.LastStatus != 204 || d.Data.GameID == nil {
			t.Errorf("logged %+v", d)
		}
	}
	h.do("GET", fmt.Sprintf("/v1/me/webhooks/%d/deliveries", aw.ID), bob, nil).want(t, http.StatusNotFound, "not_found")

	// A redelivery keeps its webhook-id.
	var again deliveryJSON
	h.do("POST", fmt.Sprintf("/v1/me/webhooks/%d/deliveries/%d/redeliver", aw.ID, log[1].ID), ann, nil).
		want(t, http.StatusAccepted).decode(t, &again)
	deliverAll(t, worker)
	if got := annHook.take(); len(got) != 1 || got[0].header.Get("webhook-id") != log[1].WebhookID {
		t.Errorf("redelivered %d messages, want 1 with webhook-id %s", len(got), log[1].WebhookID)
	}

	// Rotation: during the grace both secrets verify, then only the new one.
	var rotated webhookJSON
	h.do("POST", fmt.Sprintf("/v1/me/webhooks/%d/rotate-secret", aw.ID), ann, nil).want(t, http.StatusOK).decode(t, &rotated)
	if rotated.Secret == aw.Secret || rotated.PreviousSecretExpiresAt == nil ||
		!rotated.PreviousSecretExpiresAt.Equal(h.clock.Now().Add(24*time.Hour)) {
		t.Fatalf("rotated %+v", rotated)
	}
	ping := func() received {
		t.Helper()
		h.do("POST", fmt.Sprintf("/v1/me/webhooks/%d/ping", aw.ID), ann, nil).want(t, http.StatusAccepted)
		deliverAll(t, worker)
		got := annHook.take()
		if len(got) != 1 {
			t.Fatalf("%d pings arrived", len(got))
		}
		var msg message
		if err := json.Unmarshal(got[0].body, &msg); err != nil || msg.Type != "ping" || string(msg.Data) != fmt.Sprintf(`{"endpoint_id":%d}`, aw.ID) {
			t.Errorf("ping %s", got[0].body)
		}
		return got[0]
	}
	during := ping()
	if err := verify(rotated.Secret, during, h.clock.Now()); err != nil {
		t.Errorf("new secret during the grace: %v", err)
	}
	if err := verify(aw.Secret, during, h.clock.Now()); err != nil {
		t.Errorf("old secret during the grace: %v", err)
	}
	h.clock.Advance(24*time.Hour + time.Second)
	after := ping()
	if err := verify(rotated.Secret, after, h.clock.Now()); err != nil {
		t.Errorf("new secret after the grace: %v", err)
	}
	if err := verify(aw.Secret, after, h.clock.Now()); err == nil {
		t.Error("the old secret still signs after the grace")
	}
	var read webhookJSON
	h.do("GET", fmt.Sprintf("/v1/me/webhooks/%d", aw.ID), ann, nil).want(t, http.StatusOK).decode(t, &read)
	if read.PreviousSecretExpiresAt != nil || read.Secret != "" {
		t.Errorf("read after the grace: %+v", read)
	}

	// Rotating twice within the grace, as documented: the second rotation
	// retires the first one's secret for a fresh day, and the secret
	// before it stops signing at once (two are kept).
	var second, third webhookJSON
	h.do("POST", fmt.Sprintf("/v1/me/webhooks/%d/rotate-secret", aw.ID), ann, nil).want(t, http.StatusOK).decode(t, &second)
	h.clock.Advance(time.Hour)
	h.do("POST", fmt.Sprintf("/v1/me/webhooks/%d/rotate-secret", aw.ID), ann, nil).want(t, http.StatusOK).decode(t, &third)
	if third.PreviousSecretExpiresAt == nil || !third.PreviousSecretExpiresAt.Equal(h.clock.Now().Add(24*time.Hour)) {
		t.Errorf("second rotation within the grace: %+v", third)
	}
	twice := ping()
	for _, c := range []struct {
		name, secret string
		signs        bool
	}{{"newest", third.Secret, true}, {"retired by the second rotation", second.Secret, true},
		{"retired by the first rotation", rotated.Secret, false}} {
		if err := verify(c.secret, twice, h.clock.Now()); (err == nil) != c.signs {
			t.Errorf("after rotating twice, the %s secret: %v, want signing %v", c.name, err, c.signs)
		}
	}
}

// A receiver that keeps failing gets its retries, then the endpoint is
// disabled and its owner emailed once; enabling it again resumes delivery.
func TestWebhookFailingEndpointDisabled(t *testing.T) {
	h := newHarness(t, allowPrivate)
	hook := newReceiver(t)
	hook.status.Store(http.StatusServiceUnavailable)
	ann := h.login("ann@example.org")
	h.deliver() // the login mail
	w := h.createWebhook(t, ann, hook.srv.URL+"/hook", "invitation", "turn_played")
	worker := hookWorker(h, &egress.Guard{AllowPrivate: true}, "w1")
	worker.Schedule = []time.Duration{time.Minute, time.Minute}
	worker.DisableAfter = 3 * time.Minute

	h.do("POST", "/v1/games", ann, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated)
	h.deliver()
	attempts := 0
	for range 3 { // the first attempt and both retries
		deliverAll(t, worker)
		attempts += len(hook.take())
		h.clock.Advance(2 * time.Minute)
	}
	if attempts != 3 {
		t.Errorf("%d attempts, want 3", attempts)
	}
	var read webhookJSON
	h.do("GET", fmt.Sprintf("/v1/me/webhooks/%d", w.ID), ann, nil).want(t, http.StatusOK).decode(t, &read)
	if read.Enabled || read.DisabledReason == nil || !strings.Contains(*read.DisabledReason, "every delivery failed since") {
		t.Fatalf("after the schedule: %+v", read)
	}
	log := h.deliveries(t, ann, w.ID)
	if len(log) != 1 || log[0].Status != "failed" || log[0].Attempts != 3 || log[0].LastStatus == nil || *log[0].LastStatus != 503 ||
		log[0].LastError == nil || *log[0].LastError != "the endpoint answered 503" {
		t.Errorf("log %+v", log)
	}
	mail := h.deliver()
	m := only(t, mail, "ann@example.org")
	if len(mail) != 1 || m.Subject != "Your lesspost webhook endpoint was disabled" || !strings.Contains(m.Text, hook.srv.URL+"/hook") {
		t.Errorf("mail %v:\n%s", subjects(mail), m.Text)
	}
	// Disabled: nothing is queued or sent; enabled again, events flow.
	h.do("POST", "/v1/games", ann, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated)
	deliverAll(t, worker)
	if got := hook.take(); len(got) != 0 {
		t.Errorf("%d messages to a disabled endpoint", len(got))
	}
	hook.status.Store(http.StatusOK)
	h.do("PATCH", fmt.Sprintf("/v1/me/webhooks/%d", w.ID), ann, map[string]any{"enabled": true}).want(t, http.StatusOK).decode(t, &read)
	if !read.Enabled || read.DisabledReason != nil {
		t.Errorf("enabled: %+v", read)
	}
	h.do("POST", "/v1/games", ann, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated)
	deliverAll(t, worker)
	if got := hook.take(); len(got) != 1 {
		t.Errorf("%d messages after enabling, want the invitation", len(got))
	}
	for _, m := range h.deliver() { // the games' invitations, and no second notice
		if strings.Contains(m.Subject, "webhook") {
			t.Errorf("a second notice: %q", m.Subject)
		}
	}
}

// 410 Gone disables an endpoint at the first answer.
func TestWebhookGoneDisablesAtOnce(t *testing.T) {
	h := newHarness(t, allowPrivate)
	hook := newReceiver(t)
	hook.status.Store(http.StatusGone)
	ann := h.login("ann@example.org")
	h.deliver()
	w := h.createWebhook(t, ann, hook.srv.URL+"/hook", "invitation")
	h.do("POST", fmt.Sprintf("/v1/me/webhooks/%d/ping", w.ID), ann, nil).want(t, http.StatusAccepted)
	deliverAll(t, hookWorker(h, &egress.Guard{AllowPrivate: true}, "w1"))
	var read webhookJSON
	h.do("GET", fmt.Sprintf("/v1/me/webhooks/%d", w.ID), ann, nil).want(t, http.StatusOK).decode(t, &read)
	if read.Enabled || read.DisabledReason == nil || *read.DisabledReason != "the endpoint answered 410 Gone" {
		t.Errorf("after 410: %+v", read)
	}
	if mail := h.deliver(); len(mail) != 1 || mail[0].Subject != "Your lesspost webhook endpoint was disabled" {
		t.Errorf("mail %v", subjects(mail))
	}
}

// rebinding answers a public address at registration and loopback when
// the worker connects: a DNS rebinding attack on the guard.
type rebinding struct {
	mu      sync.Mutex
	answers []netip.Addr
}

func (r *rebinding) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a := r.answers[0]
	if len(r.answers) > 1 {
		r.answers = r.answers[1:]
	}
	return []netip.Addr{a}, nil
}

// Without --webhook-allow-private, private targets are refused at
// registration, and a name that resolves inside only by the time the
// worker connects is refused then: the receiver is never reached.
func TestWebhookTargetsRefused(t *testing.T) {
	dns := &rebinding{answers: []netip.Addr{netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("127.0.0.1")}}
	guard := &egress.Guard{Resolver: dns, Log: slog.New(slog.DiscardHandler)}
	h := newHarness(t, func(cfg *serverConfig) { cfg.WebhookGuard = guard })
	hook := newReceiver(t)
	ann := h.login("ann@example.org")
	for _, url := range []string{hook.srv.URL + "/hook", "https://127.0.0.1/", "https://10.0.0.1/", "https://[::1]/",
		"https://169.254.169.254/latest", "https://[fd00::1]/", "https://100.64.0.1/"} {
		h.do("POST", "/v1/me/webhooks", ann, map[string]any{"url": url, "event_types": []string{"invitation"}}).
			want(t, http.StatusUnprocessableEntity, "webhook_url_refused")
	}
	h.do("POST", "/v1/me/webhooks", ann, map[string]any{"url": "https://93.184.215.14/", "event_types": []string{"moved"}}).
		want(t, http.StatusBadRequest, "invalid_request")
	port := hook.srv.Listener.Addr().(interface{ AddrPort() netip.AddrPort }).AddrPort().Port()
	w := h.createWebhook(t, ann, fmt.Sprintf("https://rebind.example:%d/hook", port), "invitation")
	h.do("POST", fmt.Sprintf("/v1/me/webhooks/%d/ping", w.ID), ann, nil).want(t, http.StatusAccepted)
	deliverAll(t, hookWorker(h, guard, "w1"))
	if got := hook.take(); len(got) != 0 {
		t.Fatalf("the receiver on loopback was reached %d times", len(got))
	}
	log := h.deliveries(t, ann, w.ID)
	if len(log) != 1 || log[0].Status != "pending" || log[0].LastError == nil ||
		*log[0].LastError != "not sent: refused: the URL's host does not resolve, or resolves to a non-public address" ||
		log[0].LastStatus != nil {
		t.Errorf("log %+v (last error %v)", log, log[0].LastError)
	}
	// Changing the URL is checked as registering is.
	h.do("PATCH", fmt.Sprintf("/v1/me/webhooks/%d", w.ID), ann, map[string]any{"url": "http://93.184.215.14/"}).
		want(t, http.StatusUnprocessableEntity, "webhook_url_refused")
}

// dnsTable answers from a table; other names do not resolve.
type dnsTable map[string][]netip.Addr

func (d dnsTable) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := d[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// Registering a name that resolves inside is refused without saying what
// it resolves to, or whether it resolves at all: an account must not map
// the server's internal names to addresses.
func TestWebhookRefusalRevealsNoDNS(t *testing.T) {
	dns := dnsTable{"vault.corp.internal": {netip.MustParseAddr("10.20.30.40")},
		"db.corp.internal": {netip.MustParseAddr("fd12::5")}}
	h := newHarness(t, func(cfg *serverConfig) {
		cfg.WebhookGuard = &egress.Guard{Resolver: dns, Log: slog.New(slog.DiscardHandler)}
	})
	ann := h.login("ann@example.org")
	var first string
	for _, host := range []string{"vault.corp.internal", "db.corp.internal", "nowhere.corp.internal"} {
		p := h.do("POST", "/v1/me/webhooks", ann, map[string]any{"url": "https://" + host + "/hook", "event_types": []string{"invitation"}}).
			want(t, http.StatusUnprocessableEntity, "webhook_url_refused").problem(t)
		for _, secret := range []string{"corp", "10.20.30.40", "fd12"} {
			if strings.Contains(p.Detail, secret) {
				t.Errorf("%s: detail %q tells %q", host, p.Detail, secret)
			}
		}
		if first == "" {
			first = p.Detail
		} else if p.Detail != first {
			t.Errorf("%s: detail %q differs from %q", host, p.Detail, first)
		}
	}
}

// Workers of several instances on one store deliver every message once.
func TestWebhookWorkersDeliverOnce(t *testing.T) {
	h := newHarness(t, allowPrivate, relaxedMail) // Bob, who never answers, is mailed 16 times
	hook := newReceiver(t)
	ann := h.login("ann@example.org")
	h.createWebhook(t, ann, hook.srv.URL+"/hook", "invitation", "turn_played")
	const games = 8
	for range games {
		var g gameJSON
		h.do("POST", "/v1/games", ann, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated).decode(t, &g)
		h.do("POST", "/v1/games/"+g.ID+"/turns", ann, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
	}
	var wg sync.WaitGroup
	for i := range 3 {
		w := hookWorker(h, &egress.Guard{AllowPrivate: true}, fmt.Sprintf("instance-%d", i))
		w.Parallel = 2
		wg.Go(func() { deliverAll(t, w) })
	}
	wg.Wait()
	got := hook.take()
	ids := map[string]int{}
	for _, m := range got {
		ids[m.header.Get("webhook-id")]++
	}
	if len(got) != 2*games || len(ids) != 2*games {
		t.Errorf("%d messages with %d webhook-ids, want %d each once", len(got), len(ids), 2*games)
	}
}

// Pings and redeliveries make the server call out, and a stalling endpoint
// holds a delivery worker that every account shares: each is limited per
// account, and a refused one queues nothing.
func TestWebhookPingAndRedeliverRateLimited(t *testing.T) {
	h := newHarness(t, allowPrivate, func(cfg *serverConfig) {
		cfg.RateLimits.WebhookPingAccount = api.RateLimit{Requests: 3, Per: time.Hour}
		cfg.RateLimits.WebhookRedeliverAccount = api.RateLimit{Requests: 2, Per: time.Hour}
	})
	hook := newReceiver(t)
	ann, bob := h.login("ann@example.org"), h.login("bob@example.org")
	w := h.createWebhook(t, ann, hook.srv.URL+"/hook", "invitation")
	ping := fmt.Sprintf("/v1/me/webhooks/%d/ping", w.ID)
	var d deliveryJSON
	for range 3 {
		h.do("POST", ping, ann, nil).want(t, http.StatusAccepted).decode(t, &d)
	}
	rateLimited(t, h.do("POST", ping, ann, nil), 1200)
	if got := len(h.deliveries(t, ann, w.ID)); got != 3 {
		t.Errorf("%d deliveries after a refused ping, want 3", got)
	}
	// Another account has its own allowance.
	bw := h.createWebhook(t, bob, hook.srv.URL+"/hook", "invitation")
	h.do("POST", fmt.Sprintf("/v1/me/webhooks/%d/ping", bw.ID), bob, nil).want(t, http.StatusAccepted)

	redeliver := fmt.Sprintf("/v1/me/webhooks/%d/deliveries/%d/redeliver", w.ID, d.ID)
	for range 2 {
		h.do("POST", redeliver, ann, nil).want(t, http.StatusAccepted)
	}
	rateLimited(t, h.do("POST", redeliver, ann, nil), 1800)
	// The allowance comes back with time.
	h.clock.Advance(20 * time.Minute)
	h.do("POST", ping, ann, nil).want(t, http.StatusAccepted)
}

// A disabled endpoint is sent nothing: a ping or redelivery for it would
// wait unsent, and unpruned, until it is enabled. Both are refused and
// queue nothing.
func TestWebhookDisabledRefusesPingAndRedeliver(t *testing.T) {
	h := newHarness(t, allowPrivate)
	hook := newReceiver(t)
	ann := h.login("ann@example.org")
	w := h.createWebhook(t, ann, hook.srv.URL+"/hook", "invitation")
	ping := fmt.Sprintf("/v1/me/webhooks/%d/ping", w.ID)
	var d deliveryJSON
	h.do("POST", ping, ann, nil).want(t, http.StatusAccepted).decode(t, &d)
	deliverAll(t, hookWorker(h, &egress.Guard{AllowPrivate: true}, "w1"))
	hook.take()
	patch := fmt.Sprintf("/v1/me/webhooks/%d", w.ID)
	h.do("PATCH", patch, ann, map[string]any{"enabled": false}).want(t, http.StatusOK)
	redeliver := fmt.Sprintf("/v1/me/webhooks/%d/deliveries/%d/redeliver", w.ID, d.ID)
	for range 3 {
		h.do("POST", ping, ann, nil).want(t, http.StatusConflict, "webhook_disabled")
		h.do("POST", redeliver, ann, nil).want(t, http.StatusConflict, "webhook_disabled")
	}
	log := h.deliveries(t, ann, w.ID)
	if len(log) != 1 || log[0].Status != "delivered" || log[0].Attempts != 1 {
		t.Errorf("log after refused pings and redeliveries: %+v", log)
	}
	// Enabled again, both work.
	h.do("PATCH", patch, ann, map[string]any{"enabled": true}).want(t, http.StatusOK)
	h.do("POST", ping, ann, nil).want(t, http.StatusAccepted)
	h.do("POST", redeliver, ann, nil).want(t, http.StatusAccepted)
	deliverAll(t, hookWorker(h, &egress.Guard{AllowPrivate: true}, "w1"))
	if got := len(hook.take()); got != 2 {
		t.Errorf("%d messages after enabling, want the ping and the redelivery", got)
	}
}
