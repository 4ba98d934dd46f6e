package inbound_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/smtp"
	"net/textproto"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/notify/inbound"
)

const (
	ann   = "ann@example.org"
	white = "play+g1.white.4@less.test"
)

// code is the SMTP reply code of a client's error, 0 for none, -1 for an
// error that is no SMTP reply (the connection broke).
func code(err error) int {
	var e *gosmtp.SMTPError
	var te *textproto.Error // net/smtp's
	switch {
	case err == nil:
		return 0
	case errors.As(err, &e):
		return e.Code
	case errors.As(err, &te):
		return te.Code
	}
	return -1
}

// send sends one message through a go-smtp client as a mail server would,
// declaring its size if size is set, and returns the first refusal.
func send(t *testing.T, addr, from string, to []string, raw []byte, size int64) error {
	t.Helper()
	c, err := gosmtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Mail(from, &gosmtp.MailOptions{Size: size}); err != nil {
		return err
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt, nil); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(raw); err != nil {
		return err
	}
	return w.Close()
}

// What the listener takes and refuses, and what it keeps: a message to a
// reply address is kept once whatever its deliveries; nothing is taken for
// another address (no relaying); a message over the limit is refused with
// 552, before its DATA when its size is declared; a client over its rate
// is told to come back later; the null sender's message is kept as such.
func TestListener(t *testing.T) {
	store, _ := openStore(t)
	var stored atomic.Int32
	l := &inbound.Listener{Inbox: store, Accept: accept, Limiter: store, Rate: inbound.Rate{N: 6, Per: time.Hour},
		Domain: "mx.less.test", Log: quiet(t), Now: clock, Stored: func() { stored.Add(1) }}
	addr, _ := listen(t, l)
	reply := message(ann, white, "r1@example.org", "e5e4:e4d4:d4c4")
	// An attachment's base64 lines.
	huge := append(reply, bytes.Repeat([]byte(strings.Repeat("QUJD", 19)+"\r\n"), 20<<20/78)...)

	tests := []struct {
		name     string
		from     string
		to       []string
		raw      []byte
		size     int64
		wantCode int
	}{
		{name: "a reply", from: ann, to: []string{white}, raw: reply},
		{name: "the same reply again", from: ann, to: []string{white}, raw: reply},
		{name: "to another address", from: ann, to: []string{"postmaster@less.test"}, raw: reply, wantCode: 550},
		{name: "relaying", from: ann, to: []string{"bob@example.org"}, raw: reply, wantCode: 550},
		{name: "20 MB, its size declared", from: ann, to: []string{white}, raw: huge, size: int64(len(huge)), wantCode: 552},
		{name: "20 MB", from: ann, to: []string{white}, raw: huge, wantCode: 552},
		{name: "a bounce", from: "", to: []string{white}, raw: message("mailer-daemon@example.org", white, "b1@example.org", "failed")},
		{name: "over the rate", from: ann, to: []string{white}, raw: reply, wantCode: 450},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := code(send(t, addr, tt.from, tt.to, tt.raw, tt.size)); got != tt.wantCode {
				t.Errorf("answered %d, want %d", got, tt.wantCode)
			}
		})
	}
	mail, err := store.ClaimInbound(t.Context(), "check", T0, time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(mail) != 2 || !bytes.Equal(mail[0].Raw, reply) || mail[0].Recipient != white || mail[0].EnvelopeFrom != ann ||
		mail[0].Source != inbound.SourceSMTP || mail[1].EnvelopeFrom != "" {
		t.Errorf("kept %d messages: %+v; want the reply once and the bounce", len(mail), mail)
	}
	if n := stored.Load(); n != 3 {
		t.Errorf("Stored called %d times, want 3 (one a duplicate)", n)
	}
}

// A standard client (net/smtp, as swaks or a relay would) delivers to the
// listener, several recipients at once; each is kept on its own.
func TestListenerWithNetSMTP(t *testing.T) {
	store, _ := openStore(t)
	addr, _ := listen(t, &inbound.Listener{Inbox: store, Accept: accept, Log: quiet(t), Now: clock})
	black := "play+g1.black.5@less.test"
	if err := smtp.SendMail(addr, nil, ann, []string{white, black}, message(ann, white, "r2@example.org", "resign")); err != nil {
		t.Fatal(err)
	}
	mail, err := store.ClaimInbound(t.Context(), "check", T0, time.Minute, 10)
	if err != nil || len(mail) != 2 || mail[0].Recipient != white || mail[1].Recipient != black {
		t.Fatalf("kept %+v, %v; want one per recipient", mail, err)
	}
}

// crashingInbox kills the listener's process at the first message: either
// before the message is kept, or after, before the client hears 250.
type crashingInbox struct {
	domain.Inbox
	afterStore bool
	kill       func()
	dead       chan struct{} // closed when the test ends
	crashed    atomic.Bool
}

func (c *crashingInbox) StoreInbound(ctx context.Context, m domain.InboundMail) (bool, error) {
	if c.crashed.Swap(true) {
		return c.Inbox.StoreInbound(ctx, m)
	}
	if c.afterStore {
		if _, err := c.Inbox.StoreInbound(ctx, m); err != nil {
			return false, err
		}
	}
	go c.kill()
	<-c.dead // the process is gone: it never answers
	return false, errors.New("dead")
}

// The listener dies while a message comes in, before it is kept or after:
// the client hears no 250, delivers it again to the listener that took
// over on the same store, and the message is kept, and played, once.
func TestListenerKilledWhileReceiving(t *testing.T) {
	for _, afterStore := range []bool{false, true} {
		t.Run(fmt.Sprintf("kept before the crash %v", afterStore), func(t *testing.T) {
			store, _ := openStore(t)
			crashing := &crashingInbox{Inbox: store, afterStore: afterStore, dead: make(chan struct{})}
			t.Cleanup(func() { close(crashing.dead) })
			ctx, kill := context.WithCancel(context.Background())
			crashing.kill = kill
			first := &inbound.Listener{Inbox: crashing, Accept: accept, Log: quiet(t), Now: clock}
			addr := serveUntil(t, ctx, first)
			raw := message(ann, white, "r3@example.org", "e5e4:e4d4:d4c4")
			if err := send(t, addr, ann, []string{white}, raw, 0); code(err) != -1 {
				t.Fatalf("the client heard %v from a listener that died; want a broken connection", err)
			}
			second := &inbound.Listener{Inbox: store, Accept: accept, Log: quiet(t), Now: clock}
			addr, _ = listen(t, second)
			if err := send(t, addr, ann, []string{white}, raw, 0); err != nil {
				t.Fatalf("delivering again: %v", err)
			}
			p := &player{}
			if _, err := processor(t, store, p).ProcessDue(t.Context()); err != nil {
				t.Fatal(err)
			}
			if got := p.replies(); len(got) != 1 || got[0].MessageID != "r3@example.org" {
				t.Errorf("played %+v, want the reply once", got)
			}
		})
	}
}

// serveUntil serves l until ctx ends, as a process that dies: its
// connections are closed under the client.
func serveUntil(t *testing.T, ctx context.Context, l *inbound.Listener) string {
	t.Helper()
	addr, stop := listen(t, l)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return addr
}

// dialFrom opens a connection to the listener from a loopback address of
// the test's choice (127.0.0.x: another client) and returns it with its
// reader, and the first line the listener says.
func dialFrom(t *testing.T, addr, from string) (net.Conn, *bufio.Reader, string) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// A guard, not a measure: a listener that says nothing fails the test.
	if err := c.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("from %s: %v", from, err)
	}
	return c, r, line
}

// The listener holds at most MaxConnsPerClient connections from one client
// address and MaxConns in all: one over is answered 421 and closed, and a
// place closed is free again at once.
func TestListenerCapsConnections(t *testing.T) {
	store, _ := openStore(t)
	addr, _ := listen(t, &inbound.Listener{Inbox: store, Accept: accept, Log: quiet(t), Now: clock,
		MaxConns: 3, MaxConnsPerClient: 2})
	greeted := func(line string) bool { return strings.HasPrefix(line, "220 ") }
	first, firstR, line := dialFrom(t, addr, "127.0.0.1")
	if !greeted(line) {
		t.Fatalf("first connection: %q", line)
	}
	if _, _, line := dialFrom(t, addr, "127.0.0.1"); !greeted(line) {
		t.Fatalf("second connection: %q", line)
	}
	over, overR, line := dialFrom(t, addr, "127.0.0.1")
	if !strings.HasPrefix(line, "421 ") {
		t.Errorf("a third connection from one client: %q, want 421", line)
	}
	if _, err := overR.ReadString('\n'); err != io.EOF {
		t.Errorf("a connection over the cap stays open: %v", err)
	}
	over.Close()
	if _, _, line := dialFrom(t, addr, "127.0.0.2"); !greeted(line) {
		t.Fatalf("another client: %q", line)
	}
	if _, _, line := dialFrom(t, addr, "127.0.0.3"); !strings.HasPrefix(line, "421 ") {
		t.Errorf("a fourth connection in all: %q, want 421", line)
	}
	// The first client leaves; its place is free.
	fmt.Fprintf(first, "QUIT\r\n")
	if line, _ := firstR.ReadString('\n'); !strings.HasPrefix(line, "221 ") {
		t.Fatalf("QUIT: %q", line)
	}
	if _, err := firstR.ReadString('\n'); err != io.EOF {
		t.Fatalf("after QUIT: %v", err)
	}
	if _, _, line := dialFrom(t, addr, "127.0.0.3"); !greeted(line) {
		t.Errorf("a connection once one closed: %q", line)
	}
}

// A connection that says nothing for the idle timeout is closed; one that
// keeps sending a message, however slowly, is not, even when the whole
// message takes several times the timeout.
func TestListenerClosesIdleConnections(t *testing.T) {
	store, _ := openStore(t)
	const idle = time.Second
	addr, _ := listen(t, &inbound.Listener{Inbox: store, Accept: accept, Log: quiet(t), Now: clock, Timeout: idle})
	_, r, _ := dialFrom(t, addr, "127.0.0.1")
	if line, err := r.ReadString('\n'); !strings.HasPrefix(line, "421 4.4.2") {
		t.Errorf("an idle connection: %q, %v; want 421 4.4.2", line, err)
	}

	// By hand: a client library buffers what it writes of a message.
	c, r, _ := dialFrom(t, addr, "127.0.0.1")
	say := func(cmd string, want string) {
		t.Helper()
		fmt.Fprintf(c, "%s\r\n", cmd)
		for {
			line, err := r.ReadString('\n')
			if err != nil || !strings.HasPrefix(line, want) {
				t.Fatalf("%s: %q, %v; want %s", cmd, line, err, want)
			}
			if line[3] == ' ' { // the last line of a reply
				return
			}
		}
	}
	say("EHLO client.example", "250")
	say("MAIL FROM:<"+ann+">", "250")
	say("RCPT TO:<"+white+">", "250")
	say("DATA", "354")
	raw := message(ann, white, "slow@example.org", "resign")
	const pieces = 12 // each a fifth of the timeout after the last: 2.4 timeouts in all
	for i := range pieces {
		if _, err := c.Write(raw[i*len(raw)/pieces : (i+1)*len(raw)/pieces]); err != nil {
			t.Fatalf("piece %d: %v", i, err)
		}
		time.Sleep(idle / 5)
	}
	say(".", "250")
}

// sendFrom is send from a loopback address of the test's choice.
func sendFrom(t *testing.T, addr, client, from string, raw []byte) error {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(client)}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c := gosmtp.NewClient(conn)
	defer c.Close()
	if err := c.Mail(from, nil); err != nil {
		return err
	}
	if err := c.Rcpt(white, nil); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(raw); err != nil {
		return err
	}
	return w.Close()
}

// Behind a trusted relay, everyone's mail comes from one address: the rate
// counts per envelope sender there, so one sender does not use up the
// others', and the relay's connections are not capped per client. Any
// other client is counted by its address as before.
func TestListenerTrustedRelayCountsPerSender(t *testing.T) {
	store, _ := openStore(t)
	relays := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	addr, _ := listen(t, &inbound.Listener{Inbox: store, Accept: accept, Limiter: store, Rate: inbound.Rate{N: 2, Per: time.Hour},
		TrustedRelays: relays, Log: quiet(t), Now: clock})
	bob := "bob@example.org"
	for i, tt := range []struct {
		client, from string
		wantCode     int
	}{
		{"127.0.0.1", ann, 0},
		{"127.0.0.1", ann, 0},
		{"127.0.0.1", ann, 450}, // ann's rate is used up
		{"127.0.0.1", bob, 0},   // bob's is not, though the relay is the same
		{"127.0.0.2", ann, 0},   // a client of its own: its address counts
		{"127.0.0.2", bob, 0},
		{"127.0.0.2", "carol@example.org", 450},
	} {
		raw := message(tt.from, white, fmt.Sprintf("relay%d@example.org", i), "resign")
		if got := code(sendFrom(t, addr, tt.client, tt.from, raw)); got != tt.wantCode {
			t.Errorf("message %d from %s through %s: %d, want %d", i, tt.from, tt.client, got, tt.wantCode)
		}
	}
	// Two connections from the relay at once, where one client has one.
	addr, _ = listen(t, &inbound.Listener{Inbox: store, Accept: accept, TrustedRelays: relays, MaxConnsPerClient: 1,
		Log: quiet(t), Now: clock})
	dialFrom(t, addr, "127.0.0.1")
	if _, _, line := dialFrom(t, addr, "127.0.0.1"); !strings.HasPrefix(line, "220 ") {
		t.Errorf("the relay's second connection: %q", line)
	}
	dialFrom(t, addr, "127.0.0.2")
	if _, _, line := dialFrom(t, addr, "127.0.0.2"); !strings.HasPrefix(line, "421 ") {
		t.Errorf("another client's second connection: %q, want 421", line)
	}
}
