package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/notify/smtptest"
)

// A player's name is written into the To header of every email to his
// seat: names with quotes, commas, angle brackets or encoded-word look-alikes
// must neither break the mail (every email to that seat used to fail for a
// name with `"`) nor add a recipient. Through the API and real SMTP.
func TestHostileNamesReachOnlyTheirSeat(t *testing.T) {
	names := []string{
		`Robert "Bobby" Smith`,
		`Eve <eve@evil.example>, mallory@evil.example`,
		`=?utf-8?q?victim=40evil.example?=`,
		`back\slash "`,
	}
	h := newHarness(t)
	organiser := h.login("org@example.org")
	srv := smtptest.Start(t)
	sender, err := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "games@lesspost.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.CloseIdleConnections()
	h.outbox.Sender = sender
	for i, name := range names {
		body := map[string]any{"players": []map[string]any{{"name": name, "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}},
			"board": map[string]any{"walls": strings.Repeat("0", 60)}}
		h.do("POST", "/v1/games", organiser, body).want(t, http.StatusCreated)
		h.deliver()
		got := srv.Wait(t, 2*(i+1), 5*time.Second)
		var ann []*smtptest.Mail
		for _, m := range got[2*i:] {
			if len(m.To) != 1 || (m.To[0] != "ann@example.org" && m.To[0] != "bob@example.org") {
				t.Errorf("%q: an email went to %v", name, m.To)
			}
			if m.To[0] == "ann@example.org" {
				ann = append(ann, m)
			}
		}
		if len(ann) != 1 {
			t.Fatalf("%q: %d invitations to ann@example.org", name, len(ann))
		}
		to, err := ann[0].Header.AddressList("To")
		if err != nil || len(to) != 1 || to[0].Address != "ann@example.org" || to[0].Name != name {
			t.Errorf("%q: To %q parses as %v, %v", name, ann[0].Header.Get("To"), to, err)
		}
	}
	if bad := srv.To("eve@evil.example"); len(bad)+len(srv.To("mallory@evil.example"))+len(srv.To("victim@evil.example")) != 0 {
		t.Errorf("mail to an address inside a name: %d", len(bad))
	}
}
