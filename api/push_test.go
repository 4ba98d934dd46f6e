package api_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/egress"
	"github.com/lesspost/lesspost/notify/webpush"
	"github.com/lesspost/lesspost/notify/webpush/pushtest"
)

// subscriptionJSON is what a browser's PushSubscription.toJSON() gives.
func subscriptionJSON(b *pushtest.Browser) map[string]any {
	sub := b.Subscription()
	return map[string]any{"endpoint": sub.Endpoint, "expirationTime": nil, "keys": map[string]any{
		"p256dh": base64.RawURLEncoding.EncodeToString(sub.P256DH), "auth": base64.RawURLEncoding.EncodeToString(sub.Auth)}}
}

type pushSubscriptionJSON struct {
	ID             int64      `json:"id"`
	Endpoint       string     `json:"endpoint"`
	ExpirationTime *time.Time `json:"expiration_time"`
	CreatedAt      time.Time  `json:"created_at"`
	GameID         string     `json:"game_id"` // "" for null
}

// spectatorURL is the game's spectator link, as a player reads it.
func (h *harness) spectatorURL(id, token string) string {
	h.t.Helper()
	var g struct {
		SpectatorURL string `json:"spectator_url"`
	}
	h.do("GET", "/v1/games/"+id, token, nil).want(h.t, http.StatusOK).decode(h.t, &g)
	return g.SpectatorURL
}

func (h *harness) pushSubscriptions(token string) []pushSubscriptionJSON {
	h.t.Helper()
	var list struct{ Subscriptions []pushSubscriptionJSON }
	h.do("GET", "/v1/me/push-subscriptions", token, nil).want(h.t, http.StatusOK).decode(h.t, &list)
	return list.Subscriptions
}

// The play page's path: the key, then a subscription made with a move
// link, which the account of the seat's address shares; a message sent to
// it arrives decrypted; a push service's "gone" deletes it.
func TestPushSubscriptionLifecycle(t *testing.T) {
	h := newHarness(t, allowPrivate)
	id, ann, bob := newGame(t, h, twoPlayers(openBoard))
	var key struct {
		ApplicationServerKey string `json:"application_server_key"`
	}
	h.do("GET", "/v1/push/key", "", nil).want(t, http.StatusOK).decode(t, &key)
	if key.ApplicationServerKey != base64.RawURLEncoding.EncodeToString(h.pushKey.Public) {
		t.Fatalf("key %q is not the stored one", key.ApplicationServerKey)
	}
	service := pushtest.New(t, nil)
	browser := service.Subscribe(h.pushKey.Public)

	var created, again pushSubscriptionJSON
	h.do("POST", "/v1/me/push-subscriptions", ann, subscriptionJSON(browser)).want(t, http.StatusCreated).decode(t, &created)
	h.do("POST", "/v1/me/push-subscriptions", ann, subscriptionJSON(browser)).want(t, http.StatusOK).decode(t, &again)
	if created.ID == 0 || again.ID != created.ID || created.Endpoint != browser.Endpoint || created.ExpirationTime != nil ||
		!created.CreatedAt.Equal(h.clock.Now()) {
		t.Fatalf("created %+v, again %+v", created, again)
	}
	account := h.login("ann@example.org")
	if got := h.pushSubscriptions(account); len(got) != 1 || got[0] != created {
		t.Errorf("Ann's account lists %+v; want the subscription her move link made", got)
	}
	if got := h.pushSubscriptions(bob); len(got) != 0 {
		t.Errorf("Bob's seat lists %+v", got)
	}
	h.do("DELETE", fmt.Sprintf("/v1/me/push-subscriptions/%d", created.ID), bob, nil).want(t, http.StatusNotFound, "not_found")
	if raw := h.do("GET", "/v1/me/push-subscriptions", ann, nil).body; strings.Contains(string(raw), "p256dh") || strings.Contains(string(raw), "auth") {
		t.Errorf("the list shows the keys: %s", raw)
	}

	// What the integrator's delivery does with an event for Ann.
	svc := h.push(h.clock.Now())
	subs, err := svc.PushSubscriptionsOf(t.Context(), "ann@example.org")
	if err != nil || len(subs) != 1 {
		t.Fatalf("subscriptions of Ann: %v, %v", subs, err)
	}
	sender, err := webpush.NewSender(webpush.Config{Key: h.pushKey, Subject: "mailto:ops@lesspost.test", Client: service.Client()})
	if err != nil {
		t.Fatal(err)
	}
	payload, ok, err := webpush.Payload(domain.Event{Kind: domain.EventYourTurn, GameID: id, Email: "ann@example.org", Color: "white"}, "de",
		"http://lesspost.test/play/"+id)
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	if res, err := sender.Send(t.Context(), subs[0], payload, time.Hour); err != nil || res.Outcome != webpush.Delivered {
		t.Fatalf("Send = %+v, %v (refused: %q)", res, err, service.Refused())
	}
	var msg webpush.Message
	if got := service.Received(); len(got) != 1 || json.Unmarshal(got[0].Payload, &msg) != nil || msg.Title != "Du bist am Zug" || msg.GameID != id {
		t.Fatalf("received %+v (%+v)", got, msg)
	}
	service.Unsubscribe(browser)
	res, _ := sender.Send(t.Context(), subs[0], payload, time.Hour)
	if res.Outcome != webpush.Gone {
		t.Fatalf("after the browser unsubscribed: %+v", res)
	}
	if n, err := svc.ForgetPushEndpoint(t.Context(), subs[0].Endpoint); n != 1 || err != nil {
		t.Errorf("ForgetPushEndpoint = %d, %v", n, err)
	}
	if got := h.pushSubscriptions(ann); len(got) != 0 {
		t.Errorf("after gone: %+v", got)
	}

	// Turned off on the page: deleted once.
	h.do("POST", "/v1/me/push-subscriptions", account, subscriptionJSON(browser)).want(t, http.StatusCreated).decode(t, &created)
	h.do("DELETE", fmt.Sprintf("/v1/me/push-subscriptions/%d", created.ID), account, nil).want(t, http.StatusNoContent)
	h.do("DELETE", fmt.Sprintf("/v1/me/push-subscriptions/%d", created.ID), account, nil).want(t, http.StatusNotFound, "not_found")
}

// The service worker moves a subscription the browser renewed, with the
// old one's auth secret and no token.
func TestPushRenewal(t *testing.T) {
	h := newHarness(t, allowPrivate)
	_, ann, _ := newGame(t, h, twoPlayers(openBoard))
	service := pushtest.New(t, nil)
	old, renewed := service.Subscribe(h.pushKey.Public), service.Subscribe(h.pushKey.Public)
	h.do("POST", "/v1/me/push-subscriptions", ann, subscriptionJSON(old)).want(t, http.StatusCreated)
	oldAuth := base64.RawURLEncoding.EncodeToString(old.Subscription().Auth)
	wrongAuth := base64.RawURLEncoding.EncodeToString(renewed.Subscription().Auth)
	h.do("POST", "/v1/push/renewals", "", map[string]any{"old_endpoint": old.Endpoint, "old_auth": wrongAuth,
		"subscription": subscriptionJSON(renewed)}).want(t, http.StatusNotFound, "not_found")
	h.do("POST", "/v1/push/renewals", "", map[string]any{"old_endpoint": old.Endpoint, "old_auth": oldAuth,
		"subscription": map[string]any{"endpoint": "ftp://insecure.example/x", "keys": subscriptionJSON(renewed)["keys"]}}).
		want(t, http.StatusUnprocessableEntity, hooks.CodeInvalidPushSubscription)
	h.do("POST", "/v1/push/renewals", "", map[string]any{"old_endpoint": old.Endpoint, "old_auth": oldAuth,
		"subscription": subscriptionJSON(renewed)}).want(t, http.StatusNoContent)
	if got := h.pushSubscriptions(ann); len(got) != 1 || got[0].Endpoint != renewed.Endpoint {
		t.Errorf("after the renewal: %+v; want the new endpoint alone", got)
	}
}

// Who may manage subscriptions: an account or a move link, with a
// personal access token's account scopes; not a spectator link, not a
// replaced move link, not nobody.
func TestPushSubscriptionCallers(t *testing.T) {
	h := newHarness(t, allowPrivate)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	service := pushtest.New(t, nil)
	body := subscriptionJSON(service.Subscribe(h.pushKey.Public))
	_, spectator, _ := strings.Cut(h.spectatorURL(id, ann), "#t=")
	account := h.login("ann@example.org")
	var readOnly, writer struct{ Token string }
	h.do("POST", "/v1/me/tokens", account, map[string]any{"name": "r", "scopes": []string{"account:read"}}).
		want(t, http.StatusCreated).decode(t, &readOnly)
	h.do("POST", "/v1/me/tokens", account, map[string]any{"name": "w", "scopes": []string{"account:write"}}).
		want(t, http.StatusCreated).decode(t, &writer)

	h.do("POST", "/v1/me/push-subscriptions", "", body).want(t, http.StatusUnauthorized, "unauthorized")
	h.do("POST", "/v1/me/push-subscriptions", spectator, body).want(t, http.StatusForbidden, hooks.CodeSeatOrAccountRequired)
	h.do("GET", "/v1/me/push-subscriptions", spectator, nil).want(t, http.StatusForbidden, hooks.CodeSeatOrAccountRequired)
	h.do("POST", "/v1/me/push-subscriptions", readOnly.Token, body).want(t, http.StatusForbidden, "insufficient_scope")
	h.do("POST", "/v1/me/push-subscriptions", writer.Token, body).want(t, http.StatusCreated)
	if got := h.pushSubscriptions(readOnly.Token); len(got) != 1 {
		t.Errorf("account:read lists %+v", got)
	}
	h.do("POST", "/v1/games/"+id+"/seats/white/link", ann, nil).want(t, http.StatusAccepted)
	h.do("GET", "/v1/me/push-subscriptions", ann, nil).want(t, http.StatusUnauthorized, domain.CodeLinkReplaced)
}

// Bad input is refused with a stable code, and nothing is kept.
func TestPushSubscriptionBadInput(t *testing.T) {
	h := newHarness(t, allowPrivate)
	_, ann, _ := newGame(t, h, twoPlayers(openBoard))
	service := pushtest.New(t, nil)
	good := subscriptionJSON(service.Subscribe(h.pushKey.Public))
	keys := good["keys"].(map[string]any)
	with := func(field string, v any) map[string]any {
		out := map[string]any{"endpoint": good["endpoint"], "expirationTime": nil, "keys": keys}
		if strings.HasPrefix(field, "keys.") {
			k := map[string]any{"p256dh": keys["p256dh"], "auth": keys["auth"]}
			k[strings.TrimPrefix(field, "keys.")] = v
			out["keys"] = k
		} else {
			out[field] = v
		}
		return out
	}
	point := make([]byte, 65) // not on the curve
	point[0] = 4
	for _, tt := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"endpoint neither https nor http", with("endpoint", "ftp://push.example/x"), 422, hooks.CodeInvalidPushSubscription},
		{"relative endpoint", with("endpoint", "/push/1"), 422, hooks.CodeInvalidPushSubscription},
		{"endpoint too long", with("endpoint", "https://push.example/"+strings.Repeat("a", 2048)), 400, "invalid_request"},
		{"no keys", map[string]any{"endpoint": good["endpoint"]}, 400, "invalid_request"},
		{"p256dh not base64url", with("keys.p256dh", "not base64!"), 422, hooks.CodeInvalidPushSubscription},
		{"p256dh short", with("keys.p256dh", base64.RawURLEncoding.EncodeToString(point[:33])), 422, hooks.CodeInvalidPushSubscription},
		{"p256dh off the curve", with("keys.p256dh", base64.RawURLEncoding.EncodeToString(point)), 422, hooks.CodeInvalidPushSubscription},
		{"auth short", with("keys.auth", "AAAA"), 422, hooks.CodeInvalidPushSubscription},
		{"expired", with("expirationTime", float64(h.clock.Now().Add(-time.Minute).UnixMilli())), 422, hooks.CodeInvalidPushSubscription},
		{"expiration no number", with("expirationTime", "tomorrow"), 400, "invalid_request"},
		{"unknown member", with("extra", 1), 400, "invalid_request"},
		{"not JSON", "{", 400, "invalid_request"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h.do("POST", "/v1/me/push-subscriptions", ann, tt.body).want(t, tt.status, tt.code)
		})
	}
	if got := h.pushSubscriptions(ann); len(got) != 0 {
		t.Errorf("bad input kept %+v", got)
	}
	h.do("DELETE", "/v1/me/push-subscriptions/0", ann, nil).want(t, http.StatusBadRequest, "invalid_request")
	h.do("DELETE", "/v1/me/push-subscriptions/x", ann, nil).want(t, http.StatusBadRequest, "invalid_request")

	// A fractional expiry (a DOMHighResTimeStamp) is taken to the millisecond.
	later := float64(h.clock.Now().Add(time.Hour).UnixMilli()) + 0.5
	var sub pushSubscriptionJSON
	h.do("POST", "/v1/me/push-subscriptions", ann, with("expirationTime", later)).want(t, http.StatusCreated).decode(t, &sub)
	if sub.ExpirationTime == nil || !sub.ExpirationTime.Equal(h.clock.Now().Add(time.Hour)) {
		t.Errorf("expiration %v", sub.ExpirationTime)
	}
}

// An address has at most hooks.MaxPushSubscriptions browsers, and one
// move link may take only hooks.MaxSeatPushSubscriptions of them.
func TestPushSubscriptionCap(t *testing.T) {
	h := newHarness(t, allowPrivate)
	_, ann, _ := newGame(t, h, twoPlayers(openBoard))
	account := h.login("ann@example.org")
	service := pushtest.New(t, nil)
	for range hooks.MaxSeatPushSubscriptions {
		h.do("POST", "/v1/me/push-subscriptions", ann, subscriptionJSON(service.Subscribe(h.pushKey.Public))).want(t, http.StatusCreated)
	}
	h.do("POST", "/v1/me/push-subscriptions", ann, subscriptionJSON(service.Subscribe(h.pushKey.Public))).
		want(t, http.StatusConflict, hooks.CodeTooManyPushSubscription)
	for range hooks.MaxPushSubscriptions - hooks.MaxSeatPushSubscriptions {
		h.do("POST", "/v1/me/push-subscriptions", account, subscriptionJSON(service.Subscribe(h.pushKey.Public))).want(t, http.StatusCreated)
	}
	h.do("POST", "/v1/me/push-subscriptions", account, subscriptionJSON(service.Subscribe(h.pushKey.Public))).
		want(t, http.StatusConflict, hooks.CodeTooManyPushSubscription)
}

// Without a VAPID key the server offers no push: every push route says so.
func TestPushDisabled(t *testing.T) {
	h := newHarness(t, allowPrivate)
	srv, err := (&serverConfig{Config: api.Config{DB: h.db, Secret: []byte(harnessSecret),
		BaseURL: "http://lesspost.test", Logger: slog.New(slog.DiscardHandler)}, Now: h.clock.Now}).newServer()
	if err != nil {
		t.Fatal(err)
	}
	ts, client := apitest.NewServer(t, srv)
	sub, _ := json.Marshal(subscriptionJSON(pushtest.New(t, nil).Subscribe(h.pushKey.Public)))
	renewal := `{"old_endpoint":"https://push.example/1","old_auth":"AAAAAAAAAAAAAAAAAAAAAA","subscription":` + string(sub) + `}`
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/v1/push/key", ""}, {"GET", "/v1/me/push-subscriptions", ""}, {"POST", "/v1/me/push-subscriptions", string(sub)},
		{"DELETE", "/v1/me/push-subscriptions/1", ""}, {"POST", "/v1/push/renewals", renewal},
	} {
		req, _ := http.NewRequest(r.method, ts.URL+r.path, strings.NewReader(r.body))
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var p problem
		_ = json.NewDecoder(res.Body).Decode(&p)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || p.Code != "push_disabled" {
			t.Errorf("%s %s = %d %s; want 404 push_disabled", r.method, r.path, res.StatusCode, p.Code)
		}
	}
}

// The service worker is served from the root, as a script that browsers
// revalidate every time; it is no asset.
func TestServiceWorkerServed(t *testing.T) {
	h := newHarness(t, allowPrivate)
	r := h.do("GET", "/sw.js", "", nil).want(t, http.StatusOK)
	if ct := r.header.Get("Content-Type"); ct != "text/javascript; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := r.header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q", cc)
	}
	if !strings.Contains(string(r.body), "addEventListener('push'") || !strings.Contains(string(r.body), "notificationclick") {
		t.Errorf("not the service worker: %.200s", r.body)
	}
	h.do("GET", "/sw.js", "", nil, "If-None-Match", r.header.Get("ETag")).want(t, http.StatusNotModified)
	h.do("GET", "/assets/sw.js", "", nil).want(t, http.StatusNotFound, "not_found")
}

// hosts is a resolver that knows a few names.
type hosts map[string]netip.Addr

func (h hosts) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := h[host]; ok {
		return []netip.Addr{a}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// Without --egress-allow-private, push endpoints of plain http, or on
// private addresses (or names that resolve to one, or to nothing), are
// refused at subscribe and at renewal, without saying what the name
// resolved to.
func TestPushEndpointsRefused(t *testing.T) {
	dns := hosts{"push.example": netip.MustParseAddr("93.184.215.14"), "intranet.example": netip.MustParseAddr("10.1.2.3")}
	h := newHarness(t, func(cfg *serverConfig) { cfg.WebhookGuard = &egress.Guard{Resolver: dns} })
	_, ann, _ := newGame(t, h, twoPlayers(openBoard))
	service := pushtest.New(t, nil)
	good := subscriptionJSON(service.Subscribe(h.pushKey.Public))
	at := func(endpoint string) map[string]any {
		return map[string]any{"endpoint": endpoint, "expirationTime": nil, "keys": good["keys"]}
	}
	h.do("POST", "/v1/me/push-subscriptions", ann, at("https://push.example/1")).want(t, http.StatusCreated)
	for _, endpoint := range []string{good["endpoint"].(string), "http://push.example/1", "https://10.0.0.5/push", "https://[::1]/push",
		"https://169.254.169.254/latest", "https://intranet.example/push", "https://nowhere.example/push"} {
		res := h.do("POST", "/v1/me/push-subscriptions", ann, at(endpoint)).
			want(t, http.StatusUnprocessableEntity, hooks.CodeInvalidPushSubscription)
		if strings.Contains(string(res.body), "10.1.2.3") {
			t.Errorf("%s: the answer tells the resolved address: %s", endpoint, res.body)
		}
		h.do("POST", "/v1/push/renewals", "", map[string]any{"old_endpoint": "https://push.example/1",
			"old_auth": good["keys"].(map[string]any)["auth"], "subscription": at(endpoint)}).
			want(t, http.StatusUnprocessableEntity, hooks.CodeInvalidPushSubscription)
	}
	if got := h.pushSubscriptions(ann); len(got) != 1 || got[0].Endpoint != "https://push.example/1" {
		t.Errorf("after the refusals: %+v", got)
	}
}
