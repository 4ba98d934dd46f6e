package main

import (
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/smtptest"
	"github.com/lesspost/lesspost/notify/webpush/pushtest"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// Push is off without --vapid-subject. With it, the servers on one
// database, started together, offer one VAPID key, and a restart keeps it.
func TestPushKeyShared(t *testing.T) {
	mail := smtptest.Start(t)
	dsn := repotest.DSN(t)
	keys := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(keys, []byte(strings.Repeat("k", 32)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	off := startServer(t, dsn, mail.Addr, "--secret-file", keys)
	var problem struct{ Code string }
	off.call("GET", "/v1/push/key", "", nil, http.StatusNotFound, &problem)
	if problem.Code != "push_disabled" || !strings.Contains(off.logs.String(), "push notifications off") {
		t.Errorf("without a subject: %+v", problem)
	}
	off.stop()

	flags := []string{"--secret-file", keys, "--vapid-subject", "mailto:ops@lesspost.test"}
	type keyJSON struct {
		ApplicationServerKey string `json:"application_server_key"`
	}
	var a, b, again keyJSON
	first, second := startServer(t, dsn, mail.Addr, flags...), startServer(t, dsn, mail.Addr, flags...)
	first.call("GET", "/v1/push/key", "", nil, http.StatusOK, &a)
	second.call("GET", "/v1/push/key", "", nil, http.StatusOK, &b)
	if len(a.ApplicationServerKey) != 87 || a != b {
		t.Fatalf("the instances offer %q and %q", a.ApplicationServerKey, b.ApplicationServerKey)
	}
	if !strings.Contains(first.logs.String(), a.ApplicationServerKey) {
		t.Errorf("the log does not name the public key")
	}
	first.stop()
	second.stop()
	restarted := startServer(t, dsn, mail.Addr, flags...)
	restarted.call("GET", "/v1/push/key", "", nil, http.StatusOK, &again)
	if again != a {
		t.Errorf("after a restart the key is %q, was %q", again.ApplicationServerKey, a.ApplicationServerKey)
	}
}

// With push on, a push service on loopback (as any private address a
// browser might hand it) is refused at subscribe; one stored before that
// check existed is refused by the egress guard when the server sends it
// the messages its events queue: the attempt is logged and counted, and
// the message waits for its retry.
func TestPushSentThroughTheGuard(t *testing.T) {
	smtp := smtptest.Start(t)
	dbPath := filepath.Join(t.TempDir(), "lesspost.db")
	s := startServer(t, dbPath, smtp.Addr, "--vapid-subject", "mailto:ops@lesspost.test",
		"--metrics-addr", "127.0.0.1:0")
	url := "http://" + logged(t, s.logs, "metrics listening")["addr"].(string) + "/metrics"
	var key struct {
		ApplicationServerKey string `json:"application_server_key"`
	}
	s.call("GET", "/v1/push/key", "", nil, http.StatusOK, &key)
	public, err := base64.RawURLEncoding.DecodeString(key.ApplicationServerKey)
	if err != nil {
		t.Fatal(err)
	}
	service := pushtest.New(t, nil)
	sub := service.Subscribe(public).Subscription()
	token := s.login(smtp, "ann@example.org")
	var problem struct{ Code string }
	s.call("POST", "/v1/me/push-subscriptions", token, map[string]any{"endpoint": sub.Endpoint, "keys": map[string]any{
		"p256dh": base64.RawURLEncoding.EncodeToString(sub.P256DH), "auth": base64.RawURLEncoding.EncodeToString(sub.Auth)}},
		http.StatusUnprocessableEntity, &problem)
	if problem.Code != "invalid_push_subscription" {
		t.Errorf("subscribing a loopback endpoint: %+v", problem)
	}
	db, err := sqlite.Open(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sub.Owner, sub.CreatedAt = "ann@example.org", time.Now()
	if err := db.Transact(t.Context(), func(tx domain.StoreTx) error {
		_, _, err := tx.(hooks.PushTx).SavePushSubscription(t.Context(), sub)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	s.call("POST", "/v1/games", token, map[string]any{
		"players": []map[string]any{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}},
		"board":   map[string]any{"walls": strings.Repeat("0", 60)},
	}, http.StatusCreated, nil)

	failed := logged(t, s.logs, "push delivery failed, will retry")
	if e, _ := failed["error"].(string); !strings.Contains(e, "not a public address") || failed["kind"] != "invitation" {
		t.Errorf("logged %v, want Ann's invitation refused by the guard", failed)
	}
	waitFor(t, func() bool { return value(scrape(t, url), "lesspost_push_failed_attempts_total", nil) == 1 })
	m := scrape(t, url)
	if got := value(m, "lesspost_push_given_up_total", nil) + value(m, "lesspost_push_delivered_total", nil); got != 0 {
		t.Errorf("given up or delivered: %v", got)
	}
	if got := service.Received(); len(got) != 0 {
		t.Errorf("the push service on loopback received %d messages", len(got))
	}
}

// --egress-allow-private lets push services be plain http on a closed
// network, as its help says: the server takes such a subscription and
// sends it the messages of its events.
func TestPushToPlainHTTPWithEgressAllowPrivate(t *testing.T) {
	smtp := smtptest.Start(t)
	s := startServer(t, filepath.Join(t.TempDir(), "lesspost.db"), smtp.Addr, "--vapid-subject", "mailto:ops@lesspost.test",
		"--egress-allow-private")
	var key struct {
		ApplicationServerKey string `json:"application_server_key"`
	}
	s.call("GET", "/v1/push/key", "", nil, http.StatusOK, &key)
	public, err := base64.RawURLEncoding.DecodeString(key.ApplicationServerKey)
	if err != nil {
		t.Fatal(err)
	}
	service := pushtest.NewPlain(t, nil)
	sub := service.Subscribe(public).Subscription()
	if !strings.HasPrefix(sub.Endpoint, "http://") {
		t.Fatalf("the endpoint %s is not plain http", sub.Endpoint)
	}
	token := s.login(smtp, "ann@example.org")
	s.call("POST", "/v1/me/push-subscriptions", token, map[string]any{"endpoint": sub.Endpoint, "keys": map[string]any{
		"p256dh": base64.RawURLEncoding.EncodeToString(sub.P256DH), "auth": base64.RawURLEncoding.EncodeToString(sub.Auth)}},
		http.StatusCreated, nil)
	s.call("POST", "/v1/games", token, map[string]any{
		"players": []map[string]any{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}},
		"board":   map[string]any{"walls": strings.Repeat("0", 60)},
	}, http.StatusCreated, nil)
	waitFor(t, func() bool { return len(service.Received()) == 1 })
	if m := service.Received()[0]; !strings.Contains(string(m.Payload), "invitation") {
		t.Errorf("the push service received %s, want Ann's invitation", m.Payload)
	}
}
