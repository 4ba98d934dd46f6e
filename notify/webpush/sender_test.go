package webpush_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/webpush"
	"github.com/lesspost/lesspost/notify/webpush/pushtest"
)

func newKey(t *testing.T) hooks.PushKey {
	t.Helper()
	k, err := webpush.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func newSender(t *testing.T, k hooks.PushKey, subject string, svc *pushtest.Service) *webpush.Sender {
	t.Helper()
	s, err := webpush.NewSender(webpush.Config{Key: k, Subject: subject, Client: svc.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A message reaches the browser it was encrypted for, signed with the
// server's key, with its TTL and the subject as given.
func TestSendDelivers(t *testing.T) {
	key := newKey(t)
	svc := pushtest.New(t, nil)
	for _, subject := range []string{"mailto:ops@example.org", "https://less.example.org/"} {
		t.Run(subject, func(t *testing.T) {
			b := svc.Subscribe(key.Public)
			payload := []byte(`{"kind":"your_turn","title":"Ünïcödé ✓"}`)
			res, err := newSender(t, key, subject, svc).Send(t.Context(), b.Subscription(), payload, 90*time.Minute)
			if err != nil || res.Outcome != webpush.Delivered || res.Status != http.StatusCreated {
				t.Fatalf("Send = %+v, %v; refused: %q", res, err, svc.Refused())
			}
			got := svc.Received()
			last := got[len(got)-1]
			if last.Browser != b.ID || !bytes.Equal(last.Payload, payload) || last.TTL != 5400 || last.Subject != subject {
				t.Errorf("received %+v %q; want browser %s, the payload, TTL 5400, sub %s", last, last.Payload, b.ID, subject)
			}
		})
	}
	// The biggest payload fits; one byte more is refused before sending.
	b := svc.Subscribe(key.Public)
	s := newSender(t, key, "mailto:ops@example.org", svc)
	big := bytes.Repeat([]byte("x"), webpush.MaxPayload)
	if res, err := s.Send(t.Context(), b.Subscription(), big, time.Hour); err != nil || res.Outcome != webpush.Delivered {
		t.Errorf("a payload of MaxPayload = %+v, %v", res, err)
	}
	if res, err := s.Send(t.Context(), b.Subscription(), append(big, 'x'), time.Hour); err == nil || res.Outcome != webpush.Rejected {
		t.Errorf("a payload over MaxPayload = %+v, %v; want rejected", res, err)
	}
}

// What the push service answers decides what to do with the subscription.
func TestSendOutcomes(t *testing.T) {
	key := newKey(t)
	date := time.Now().Add(10 * time.Minute).UTC().Format(http.TimeFormat)
	for _, tt := range []struct {
		name    string
		answer  *pushtest.Answer // nil: the service decides
		gone    bool             // the browser unsubscribed
		outcome webpush.Outcome
		status  int
		retry   time.Duration // at least
	}{
		{name: "accepted", outcome: webpush.Delivered, status: 201},
		{name: "queued", answer: &pushtest.Answer{Status: 202}, outcome: webpush.Delivered, status: 202},
		{name: "unsubscribed", gone: true, outcome: webpush.Gone, status: 410},
		{name: "not found", answer: &pushtest.Answer{Status: 404}, outcome: webpush.Gone, status: 404},
		{name: "too many", answer: &pushtest.Answer{Status: 429, Header: http.Header{"Retry-After": {"120"}}},
			outcome: webpush.RetryLater, status: 429, retry: 2 * time.Minute},
		{name: "unavailable until a date", answer: &pushtest.Answer{Status: 503, Header: http.Header{"Retry-After": {date}}},
			outcome: webpush.RetryLater, status: 503, retry: 9 * time.Minute},
		{name: "server error", answer: &pushtest.Answer{Status: 500}, outcome: webpush.RetryLater, status: 500},
		{name: "bad request", answer: &pushtest.Answer{Status: 400}, outcome: webpush.Rejected, status: 400},
		{name: "too large", answer: &pushtest.Answer{Status: 413}, outcome: webpush.Rejected, status: 413},
		{name: "forbidden", answer: &pushtest.Answer{Status: 403}, outcome: webpush.Rejected, status: 403},
		{name: "redirect not followed", answer: &pushtest.Answer{Status: 307, Header: http.Header{"Location": {"https://example.org/"}}},
			outcome: webpush.Rejected, status: 307},
	} {
		t.Run(tt.name, func(t *testing.T) {
			svc := pushtest.New(t, nil)
			b := svc.Subscribe(key.Public)
			if tt.gone {
				svc.Unsubscribe(b)
			}
			if tt.answer != nil {
				svc.Script(*tt.answer)
			}
			res, err := newSender(t, key, "mailto:ops@example.org", svc).Send(t.Context(), b.Subscription(), []byte("{}"), time.Hour)
			if res.Outcome != tt.outcome || res.Status != tt.status || res.RetryAfter < tt.retry || res.RetryAfter > tt.retry+2*time.Minute {
				t.Errorf("Send = %+v (%v); want %v, status %d, retry after %v", res, err, tt.outcome, tt.status, tt.retry)
			}
			if (err == nil) != (tt.outcome == webpush.Delivered) {
				t.Errorf("error %v with outcome %v", err, res.Outcome)
			}
			if err != nil && strings.Contains(err.Error(), "/push/") {
				t.Errorf("the error %q names the endpoint's secret path", err)
			}
		})
	}
}

// A push service that does not answer is tried again later.
func TestSendUnreachable(t *testing.T) {
	key := newKey(t)
	svc := pushtest.New(t, nil)
	b := svc.Subscribe(key.Public)
	sub := b.Subscription()
	sub.Endpoint = "https://127.0.0.1:1/push/1" // nothing listens on port 1
	res, err := newSender(t, key, "mailto:ops@example.org", svc).Send(t.Context(), sub, []byte("{}"), time.Hour)
	if err == nil || res.Outcome != webpush.RetryLater || res.Status != 0 {
		t.Errorf("Send to nobody = %+v, %v; want retry later", res, err)
	}
}

// The push service refuses a message signed with another key than the
// subscription's, or with a JWT it finds expired or too long-lived: the
// verifier of pushtest is not lenient.
func TestPushServiceRefuses(t *testing.T) {
	key := newKey(t)
	for _, tt := range []struct {
		name   string
		clock  time.Duration // the service's clock ahead of the sender's
		other  bool          // the browser subscribed with another server key
		reason string
	}{
		{name: "another key", other: true, reason: "not the key"},
		{name: "expired", clock: 13 * time.Hour, reason: "expired"},
		{name: "too far ahead", clock: -13 * time.Hour, reason: "more than 24 hours"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			svc := pushtest.New(t, func() time.Time { return time.Now().Add(tt.clock) })
			subKey := key.Public
			if tt.other {
				subKey = newKey(t).Public
			}
			b := svc.Subscribe(subKey)
			res, err := newSender(t, key, "mailto:ops@example.org", svc).Send(t.Context(), b.Subscription(), []byte("{}"), time.Hour)
			refused := svc.Refused()
			if res.Outcome != webpush.Rejected || res.Status != 401 || len(refused) != 1 || !strings.Contains(refused[0], tt.reason) {
				t.Errorf("Send = %+v, %v; refused %q; want 401 naming %q", res, err, refused, tt.reason)
			}
			if len(svc.Received()) != 0 {
				t.Error("the service accepted it")
			}
		})
	}
}

func TestNewSenderChecks(t *testing.T) {
	key, other := newKey(t), newKey(t)
	for _, tt := range []struct {
		name    string
		key     hooks.PushKey
		subject string
		ok      bool
	}{
		{"mailto", key, "mailto:ops@example.org", true},
		{"https", key, "https://less.example.org", true},
		{"no scheme", key, "ops@example.org", false},
		{"http", key, "http://less.example.org", false},
		{"mailto without address", key, "mailto:", false},
		{"empty", key, "", false},
		{"public key of another pair", hooks.PushKey{Private: key.Private, Public: other.Public}, "mailto:ops@example.org", false},
		{"no private key", hooks.PushKey{Public: key.Public}, "mailto:ops@example.org", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := webpush.NewSender(webpush.Config{Key: tt.key, Subject: tt.subject})
			if (err == nil) != tt.ok {
				t.Errorf("NewSender = %v; want ok %v", err, tt.ok)
			}
		})
	}
}

// BenchmarkSend measures one message end to end: encryption, the VAPID
// JWT, and the request to an in-process push service (which verifies and
// decrypts it too) over a kept-alive TLS connection.
func BenchmarkSend(b *testing.B) {
	key, err := webpush.GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	svc := pushtest.New(b, nil)
	sub := svc.Subscribe(key.Public).Subscription()
	s, err := webpush.NewSender(webpush.Config{Key: key, Subject: "mailto:ops@example.org", Client: svc.Client()})
	if err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"kind":"your_turn","game_id":"g_abcdefgh","title":"Your turn","body":"It is your turn in game abcdef.","url":"https://less.example.org/play/g_abcdefgh","tag":"lesspost-g_abcdefgh"}`)
	for b.Loop() {
		if res, err := s.Send(b.Context(), sub, payload, time.Hour); err != nil || res.Outcome != webpush.Delivered {
			b.Fatal(res, err)
		}
	}
}
