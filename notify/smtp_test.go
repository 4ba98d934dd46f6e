package notify_test

import (
	"mime"
	"strings"
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
		Text: "Hello Ann,\nit is your turn.\n", HTML: `<p>Hello <b>Ann</b></p><img src="cid:board">`,
		Images:    []notify.Image{{ContentID: "board", Name: "board.png", PNG: png}},
		MessageID: "x1@less.example", ThreadID: "g_1.white@less.example",
		Unsubscribe: "https://less.example/unsubscribe?t=abc",
	}
	if err := s.Send(t.Context(), msg); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, 1, 5*time.Second)[0]
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
