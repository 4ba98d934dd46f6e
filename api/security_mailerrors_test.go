package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/notify/smtptest"
)

// A mail server's reply can quote addresses (the recipient's, others' it
// suggests, its own): the game's mail list, which every player of the game
// can read, shows a code and lesspost's own sentence, never the reply.
func TestGameMailHidesMailServerReplies(t *testing.T) {
	tests := []struct {
		name       string
		refuse     func(srv *smtptest.Server)
		code, says string
	}{
		{"unknown user", func(srv *smtptest.Server) {
			srv.Refuse("bob@example.org", 550, "5.1.1 <bob@example.org>: Recipient address rejected; did you mean carol@example.net? (mx.example.org ESMTP postmaster@example.org)")
		}, "rejected", "SMTP 550 5.1.1"},
		{"greylisted", func(srv *smtptest.Server) {
			srv.Refuse("bob@example.org", 451, "4.7.1 <bob@example.org>: greylisted by mx.example.org, ask admin@example.org")
		}, "temporary_failure", "SMTP 451 4.7.1"},
		{"server down", func(srv *smtptest.Server) { srv.Close() }, "unreachable", "could not be reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			organiser := h.login("org@example.org")
			srv := smtptest.Start(t)
			sender, err := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "games@lesspost.test"})
			if err != nil {
				t.Fatal(err)
			}
			h.outbox.Sender = sender
			tt.refuse(srv)
			var g gameJSON
			h.do("POST", "/v1/games", organiser, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated).decode(t, &g)
			h.deliver()

			res := h.do("GET", "/v1/games/"+g.ID+"/mail", organiser, nil).want(t, http.StatusOK)
			if strings.Contains(string(res.body), "@") || strings.Contains(string(res.body), "example") {
				t.Errorf("the mail list shows what the mail server said:\n%s", res.body)
			}
			var list struct {
				Mail []struct {
					Color     string `json:"color"`
					Status    string `json:"status"`
					ErrorCode string `json:"error_code"`
					LastError string `json:"last_error"`
				} `json:"mail"`
			}
			res.decode(t, &list)
			for _, m := range list.Mail {
				if m.Color == "black" || tt.code == "unreachable" {
					if m.Status != "pending" || m.ErrorCode != tt.code || !strings.Contains(m.LastError, tt.says) {
						t.Errorf("%s: %+v, want code %s and %q", m.Color, m, tt.code, tt.says)
					}
				} else if m.Status != "sent" || m.ErrorCode != "" || m.LastError != "" {
					t.Errorf("%s: %+v", m.Color, m)
				}
			}
		})
	}
}
