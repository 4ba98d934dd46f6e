package api_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"

	"github.com/lesspost/lesspost/notify/webpush"
	"github.com/lesspost/lesspost/notify/webpush/pushtest"
)

// pushStub replaces, before the page's scripts run, what headless
// Chromium cannot do without a push service of Google's: the Notification
// permission prompt and PushManager's subscribe and getSubscription. The
// subscription it hands out is %s (a pushtest browser's), kept in
// localStorage as a browser keeps its own across reloads; window.__push
// records what the page asked for. The service worker is the real one.
const pushStub = `(() => {
  if (!('PushManager' in window)) return;
  const SUB = %s;
  const log = (window.__push = { asked: 0, subscribed: [], unsubscribed: 0 });
  const kept = () => JSON.parse(localStorage.getItem('stub.push') || 'null');
  const keep = (v) => (v ? localStorage.setItem('stub.push', JSON.stringify(v)) : localStorage.removeItem('stub.push'));
  const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const bytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  Object.defineProperty(Notification, 'permission', { configurable: true, get: () => localStorage.getItem('stub.permission') || 'default' });
  Notification.requestPermission = async () => {
    log.asked++;
    localStorage.setItem('stub.permission', 'granted');
    return 'granted';
  };
  const subscription = (s) => ({
    endpoint: s.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: bytes(s.key).buffer },
    getKey: (name) => bytes(s.keys[name]).buffer,
    toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: s.keys }),
    unsubscribe: async () => {
      keep(null);
      log.unsubscribed++;
      return true;
    },
  });
  PushManager.prototype.getSubscription = async function () {
    const s = kept();
    return s ? subscription(s) : null;
  };
  PushManager.prototype.subscribe = async function (options) {
    const s = { ...SUB, key: b64(options.applicationServerKey) };
    log.subscribed.push({ userVisibleOnly: options.userVisibleOnly, key: s.key });
    keep(s);
    return subscription(s);
  };
})();`

// beforeLoad runs script in every document the tab opens, before its own.
func (p *page) beforeLoad(script string) {
	p.t.Helper()
	p.do("add a script", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	}))
}

// The toggle: hidden until asked, permission asked on the click only, a
// subscription made with userVisibleOnly and the server's key and kept by
// the server for the seat's address and this game (a message sent to it
// arrives), the state shown again after a reload, and turning it off
// deletes it on the server but keeps the browser's subscription, which may
// serve the player's other games. Headless Chromium has no push service, so
// PushManager and the permission are stubbed (pushStub); the service
// worker is the real /sw.js, registered with the site's scope.
func TestPlayPagePushToggle(t *testing.T) {
	h := newHarness(t, allowPrivate)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	service := pushtest.New(t, nil)
	b := service.Subscribe(h.pushKey.Public)
	sub, _ := json.Marshal(subscriptionJSON(b))
	p := openBrowser(t, 1280, 900)
	p.beforeLoad(fmt.Sprintf(pushStub, sub))
	p.open(h.url + "/play/" + id + "#t=" + ann)

	p.waitFor("the push toggle", `!document.getElementById('push').hidden`)
	p.do("wait for the service worker", chromedp.Evaluate[chromedp.Void](
		`navigator.serviceWorker.ready.then((r) => { window.__sw = r.active.scriptURL + ' ' + r.scope; })`))
	p.waitFor("the service worker to be active", `window.__sw`)
	if got, want := eval[string](p, `window.__sw`), h.url+"/sw.js "+h.url+"/"; got != want {
		t.Errorf("service worker %q; want %q", got, want)
	}
	if got := p.text(`label.push-toggle`); !strings.Contains(got, "Notify me when it’s my turn in this game") {
		t.Errorf("toggle label %q", got)
	}
	if eval[bool](p, `document.getElementById('push-toggle').checked`) || eval[int](p, `window.__push.asked`) != 0 {
		t.Fatal("the toggle is on, or permission was asked, before any click")
	}

	p.click("#push-toggle")
	p.waitFor("notifications on", `document.getElementById('push-status').textContent.includes('Notifications for this game are on')`)
	if !eval[bool](p, `document.getElementById('push-toggle').checked`) || eval[int](p, `window.__push.asked`) != 1 {
		t.Error("the toggle is off after turning it on, or permission was not asked once")
	}
	var subscribed []struct {
		UserVisibleOnly bool   `json:"userVisibleOnly"`
		Key             string `json:"key"`
	}
	if err := json.Unmarshal([]byte(eval[string](p, `JSON.stringify(window.__push.subscribed)`)), &subscribed); err != nil ||
		len(subscribed) != 1 || !subscribed[0].UserVisibleOnly || subscribed[0].Key != base64.RawURLEncoding.EncodeToString(h.pushKey.Public) {
		t.Errorf("subscribe was called with %+v (%v); want userVisibleOnly and the server's key, once", subscribed, err)
	}
	list := h.pushSubscriptions(ann)
	if len(list) != 1 || list[0].Endpoint != b.Endpoint {
		t.Fatalf("the server keeps %+v", list)
	}
	// The page handed over the browser's keys: a message sent with them arrives.
	subs, err := h.push(h.clock.Now()).PushSubscriptionsOf(t.Context(), "ann@example.org")
	if err != nil || len(subs) != 1 {
		t.Fatal(subs, err)
	}
	sender, err := webpush.NewSender(webpush.Config{Key: h.pushKey, Subject: "mailto:ops@lesspost.test", Client: service.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := sender.Send(t.Context(), subs[0], []byte(`{"title":"x"}`), time.Minute); err != nil || res.Outcome != webpush.Delivered {
		t.Fatalf("Send = %+v, %v", res, err)
	}

	// After a reload (the link's token is kept for the tab) the toggle says on.
	p.open(h.url + "/play/" + id)
	p.waitFor("the push toggle after a reload", `!document.getElementById('push').hidden`)
	p.waitFor("the toggle on after a reload", `document.getElementById('push-toggle').checked`)

	p.click("#push-toggle")
	p.waitFor("notifications off", `!document.getElementById('push-toggle').checked && !document.getElementById('push-toggle').disabled`)
	if list := h.pushSubscriptions(ann); len(list) != 0 {
		t.Errorf("the server still keeps %+v", list)
	}
	if n := eval[int](p, `window.__push.unsubscribed`); n != 0 {
		t.Errorf("the browser's subscription was ended %d times; a move link must leave it to the player's other games", n)
	}
	if got := p.text("#push-status"); got != "" {
		t.Errorf("status after turning off %q", got)
	}
}

// A spectator is offered no notifications.
func TestPlayPagePushNotForSpectators(t *testing.T) {
	h := newHarness(t, allowPrivate)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	p := openBrowser(t, 1280, 900)
	p.open(h.pageURL(h.spectatorURL(id, ann)))
	p.waitFor("the spectator note", `!document.getElementById('spectating').hidden`)
	if !eval[bool](p, `document.getElementById('push').hidden`) {
		t.Error("a spectator is offered notifications")
	}
}

// The real service worker shows a push message as a notification: its
// title, text and tag, and the page it opens, kept to this site.
func TestServiceWorkerShowsNotification(t *testing.T) {
	h := newHarness(t, allowPrivate)
	id, ann, _ := newGame(t, h, twoPlayers(openBoard))
	p := openBrowser(t, 1280, 900)
	ctx, cancel := context.WithTimeout(p.ctx, browserTimeout)
	defer cancel()
	if _, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted, Origin: h.url,
	}); err != nil {
		t.Fatalf("grant notifications: %v", err)
	}
	regs := make(chan serviceworker.RegistrationID, 16)
	p.do("watch service workers", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		events := chromedp.Events(p.ctx, serviceworker.WorkerRegistrationUpdated)
		go func() {
			for ev, err := range events {
				if err != nil {
					return
				}
				for _, r := range ev.Registrations {
					if r.ScopeURL == h.url+"/" && !r.IsDeleted {
						regs <- r.RegistrationID
					}
				}
			}
		}()
		_, err := chromedp.Call(ctx, serviceworker.Enable, struct{}{})
		return err
	}))
	p.open(h.url + "/play/" + id + "#t=" + ann)
	p.do("wait for the service worker", chromedp.Evaluate[chromedp.Void](
		`navigator.serviceWorker.ready.then(() => { window.__ready = true; })`))
	p.waitFor("the service worker to be active", `window.__ready`)
	var reg serviceworker.RegistrationID
	select {
	case reg = <-regs:
	case <-time.After(browserTimeout):
		t.Fatal("no service worker registration for the site's scope")
	}
	for _, tt := range []struct {
		msg  webpush.Message
		want string // title|body|tag|url
	}{
		{webpush.Message{Kind: "your_turn", GameID: id, Title: "Your turn", Body: "It is your turn in game x.", URL: h.url + "/play/" + id, Tag: "lesspost-" + id},
			"Your turn|It is your turn in game x.|lesspost-" + id + "|" + h.url + "/play/" + id},
		{webpush.Message{Kind: "game_over", Title: "Elsewhere", URL: "https://evil.example/play", Tag: "t2"},
			"Elsewhere||t2|" + h.url + "/login"},
	} {
		data, _ := json.Marshal(tt.msg)
		// DevTools sometimes drops a message delivered while Chromium is
		// starting or stopping the worker (seen on a loaded machine): a
		// message not shown within a few seconds is delivered again. What
		// is tested is what the worker shows, not DevTools' delivery.
		deadline := time.Now().Add(browserTimeout)
		for {
			p.do("push a message", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := chromedp.Call(ctx, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
					Origin: h.url, RegistrationID: reg, Data: string(data)})
				return err
			}))
			if p.shown(tt.want, 3*time.Second) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no notification %q; shown: %s", tt.want, eval[string](p, `JSON.stringify(window.__shown || [])`))
			}
			t.Logf("%s not shown yet: delivering it again", tt.msg.Tag)
		}
	}
}

// shown waits up to d for a notification of the site's service worker
// whose title|body|tag|url is want. Each look asks the worker again.
func (p *page) shown(want string, d time.Duration) bool {
	p.t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if eval[bool](p, `(navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((ns) => {
			window.__shown = ns.map((n) => [n.title, n.body, n.tag, n.data.url].join('|'));
		}), (window.__shown || []).includes(`+jsString(want)+`))`) {
			return true
		}
	}
	return false
}
