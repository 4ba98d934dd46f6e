package notify_test

import (
	"fmt"
	"mime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/notify/smtptest"
)

func TestSMTPSenderDeliversEverything(t *testing.T) {
	srv := smtptest.Start(t)
	s, err := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "Less <games@less.example>"})
	if err != nil {
		t.Fatal(err)
	}
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	msg := notify.Message{
		To: "ann@example.org", ToName: `Ann "the Rook" Müller`, Subject: "Less: Ann – Bob [abcdef]",
		Text: "Hello Ann,\nit is your turn.\n.\n..a line of dots, which SMTP stuffs\n", HTML: `<p>Hello <b>Ann</b></p><img src="cid:board">`,
		Images:    []notify.Image{{ContentID: "board", Name: "board.png", PNG: png}},
		MessageID: "x1@less.example", ThreadID: "g_1.white@less.example",
		Unsubscribe: "https://less.example/unsubscribe?t=abc",
		ReplyTo:     "play+g_1.white.0.abcdefghijklmnop@less.example",
	}
	if err := s.Send(t.Context(), msg); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, 1, 5*time.Second)[0]
	if rt, err := got.Header.AddressList("Reply-To"); err != nil || len(rt) != 1 || rt[0].Address != msg.ReplyTo {
		t.Errorf("Reply-To %q → %v, %v; want %s", got.Header.Get("Reply-To"), rt, err, msg.ReplyTo)
	}
	h := got.Header
	for name, want := range map[string]string{
		"Message-Id":            "<x1@less.example>",
		"In-Reply-To":           "<g_1.white@less.example>",
		"References":            "<g_1.white@less.example>",
		"List-Unsubscribe":      "<https://less.example/unsubscribe?t=abc>",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
		"Auto-Submitted":        "auto-generated",
	} {
		if h.Get(name) != want {
			t.Errorf("%s: %q, want %q", name, h.Get(name), want)
		}
	}
	if got.Subject() != msg.Subject {
		t.Errorf("subject %q", got.Subject())
	}
	to, err := h.AddressList("To")
	name, _ := new(mime.WordDecoder).DecodeHeader(to[0].Name)
	if err != nil || len(to) != 1 || !strings.Contains(name, "Müller") || to[0].Address != msg.To {
		t.Errorf("To %q → %v, %v", h.Get("To"), to, err)
	}
	if strings.ReplaceAll(got.Text, "\r\n", "\n") != msg.Text || !strings.Contains(got.HTML, `src="cid:board"`) || string(got.Inline["board"]) != string(png) {
		t.Errorf("parts: text %q html %q inline %q", got.Text, got.HTML, got.Inline["board"])
	}
	if len(got.To) != 1 || got.To[0] != "ann@example.org" || got.From != "games@less.example" {
		t.Errorf("envelope from %q to %v", got.From, got.To)
	}
}

// A name with a line break cannot add a header: it is encoded, or refused.
func TestSMTPSenderNoHeaderInjection(t *testing.T) {
	srv := smtptest.Start(t)
	s, err := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "games@less.example"})
	if err != nil {
		t.Fatal(err)
	}
	msg := notify.Message{To: "ann@example.org", ToName: "Eve\r\nBcc: victim@example.org", Subject: "Hi\r\nBcc: victim@example.org", Text: "x", MessageID: "x2@less.example"}
	if err := s.Send(t.Context(), msg); err != nil {
		return // refused: fine
	}
	got := srv.Wait(t, 1, 5*time.Second)[0]
	if got.Header.Get("Bcc") != "" || len(got.To) != 1 {
		t.Errorf("header injected: Bcc %q, recipients %v", got.Header.Get("Bcc"), got.To)
	}
}

func TestSMTPSenderConfig(t *testing.T) {
	for _, cfg := range []notify.SMTPConfig{
		{Host: "", From: "a@b.c"},
		{Host: "mail", From: "not an address"},
		{Host: "mail", From: "a@b.c", TLS: "ssl"},
	} {
		if _, err := notify.NewSMTPSender(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

// A server that is down makes Send fail (the worker then retries).
func TestSMTPSenderServerDown(t *testing.T) {
	srv := smtptest.Start(t)
	srv.Close()
	s, _ := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "games@less.example", Timeout: 2 * time.Second})
	if err := s.Send(t.Context(), notify.Message{To: "a@example.org", Subject: "x", Text: "x", MessageID: "x3@less.example"}); err == nil {
		t.Error("Send to a closed server succeeded")
	}
}

// A connection stays open for the next message until CloseIdleConnections;
// one the server dropped meanwhile is replaced without losing the message.
func TestSMTPSenderReusesConnections(t *testing.T) {
	srv := smtptest.Start(t)
	s, err := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "games@less.example", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	send := func(t *testing.T) {
		t.Helper()
		sent++
		msg := notify.Message{To: "ann@example.org", Subject: "x", Text: "x", MessageID: fmt.Sprintf("r%d@less.example", sent)}
		if err := s.Send(t.Context(), msg); err != nil {
			t.Fatalf("message %d: %v", sent, err)
		}
	}
	steps := []struct {
		name  string
		do    func(t *testing.T)
		conns int // connections the server has seen after the step
	}{
		{"three messages", func(t *testing.T) { send(t); send(t); send(t) }, 1},
		{"closed when idle, then another", func(t *testing.T) { s.CloseIdleConnections(); send(t) }, 2},
		{"the server restarts", func(t *testing.T) {
			srv.Close()
			srv = smtptest.StartAt(t, srv.Addr)
			send(t)
			srv.Wait(t, 1, 5*time.Second)
		}, 1},
	}
	for _, step := range steps {
		step.do(t)
		if got := srv.Connections(); got != step.conns {
			t.Errorf("%s: %d connections, want %d", step.name, got, step.conns)
		}
	}
	s.CloseIdleConnections()
}

// Messages sent at the same time each go over a connection of their own.
func TestSMTPSenderConcurrent(t *testing.T) {
	srv := smtptest.Start(t)
	s, err := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "games@less.example"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.CloseIdleConnections()
	const senders, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, senders*each)
	for g := range senders {
		wg.Go(func() {
			for i := range each {
				id := fmt.Sprintf("c%d.%d@less.example", g, i)
				errs <- s.Send(t.Context(), notify.Message{To: "ann@example.org", Subject: "x", Text: id, MessageID: id})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := srv.Wait(t, senders*each, 5*time.Second)
	ids := map[string]bool{}
	for _, m := range got {
		ids[m.Header.Get("Message-Id")] = true
	}
	if len(got) != senders*each || len(ids) != senders*each {
		t.Errorf("%d messages, %d different", len(got), len(ids))
	}
	if n := srv.Connections(); n > senders {
		t.Errorf("%d connections for %d senders", n, senders)
	}
}

// To a server that offers PIPELINING, MAIL, RCPT and DATA go out at once;
// to one that does not, one by one. Either way a refused recipient fails
// its message only, and the next one goes through.
func TestSMTPSenderPipelining(t *testing.T) {
	for _, offered := range []bool{true, false} {
		t.Run(fmt.Sprintf("offered=%t", offered), func(t *testing.T) {
			srv := smtptest.Start(t)
			srv.OfferPipelining(offered)
			srv.Refuse("gone@example.org", 550, "5.1.1 no such user")
			s, err := notify.NewSMTPSender(notify.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: notify.TLSNone, From: "games@less.example"})
			if err != nil {
				t.Fatal(err)
			}
			defer s.CloseIdleConnections()
			for i, to := range []string{"ann@example.org", "gone@example.org", "bob@example.org"} {
				id := fmt.Sprintf("p%d@less.example", i)
				err := s.Send(t.Context(), notify.Message{To: to, Subject: "x", Text: id, MessageID: id})
				if refused := to == "gone@example.org"; (err != nil) != refused || refused && !strings.Contains(err.Error(), "550") {
					t.Errorf("to %s: %v", to, err)
				}
			}
			got := srv.Wait(t, 2, 5*time.Second)
			if len(got) != 2 || got[0].To[0] != "ann@example.org" || got[1].To[0] != "bob@example.org" {
				t.Errorf("received %d messages", len(got))
			}
			if pipelined := srv.Pipelined() > 0; pipelined != offered {
				t.Errorf("commands pipelined: %t, want %t", pipelined, offered)
			}
		})
	}
}
