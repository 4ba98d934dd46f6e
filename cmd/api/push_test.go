package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/notify/smtptest"
	"github.com/lesspost/lesspost/repo/repotest"
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
