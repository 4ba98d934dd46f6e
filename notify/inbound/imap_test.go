package inbound_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/notify/inbound"
)

// mailbox is an in-process IMAP server (go-imap's imapmemserver) with one
// user, "play", whose INBOX a test fills as a mail server delivers.
type mailbox struct {
	addr string
	c    *imapclient.Client // the test's own session, to deliver and look
	// idling hears of each session that begins IDLE.
	idling chan struct{}
	conns  *trackingListener
}

func startIMAP(t *testing.T) *mailbox {
	t.Helper()
	mem := imapmemserver.New()
	user := imapmemserver.NewUser("play", "secret")
	if err := user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(user)
	idling := make(chan struct{}, 10)
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return watchedSession{mem.NewSession().(imapserver.SessionIMAP4rev2), idling}, nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapMove: {}, imap.CapUIDPlus: {}},
		InsecureAuth: true,
		Logger:       discardLogger{},
	})
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &trackingListener{Listener: inner}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	c, err := imapclient.DialInsecure(ln.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Login("play", "secret").Wait(); err != nil {
		t.Fatal(err)
	}
	return &mailbox{addr: ln.Addr().String(), c: c, idling: idling, conns: ln}
}

// watchedSession tells when it begins IDLE.
type watchedSession struct {
	imapserver.SessionIMAP4rev2
	idling chan<- struct{}
}

func (s watchedSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	select {
	case s.idling <- struct{}{}:
	default:
	}
	return s.SessionIMAP4rev2.Idle(w, stop)
}

// trackingListener keeps the server's side of the connections it accepts,
// so that a test can close them as a server that restarts does.
type trackingListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

// dropSessions closes the server's side of every connection but the
// test's own (the first): the IMAP server went away under its clients.
func (m *mailbox) dropSessions() {
	m.conns.mu.Lock()
	defer m.conns.mu.Unlock()
	for _, c := range m.conns.conns[1:] {
		_ = c.Close()
	}
	m.conns.conns = m.conns.conns[:1]
}

type discardLogger struct{}

func (discardLogger) Printf(string, ...any) {}

// deliver appends a message to INBOX, as the mail server does.
func (m *mailbox) deliver(t *testing.T, raw []byte) {
	t.Helper()
	cmd := m.c.Append("INBOX", int64(len(raw)), nil)
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

// count is the number of messages in a mailbox with the flag (any if "").
func (m *mailbox) count(t *testing.T, name string, flag imap.Flag) int {
	t.Helper()
	if _, err := m.c.Select(name, nil).Wait(); err != nil {
		t.Fatal(err)
	}
	criteria := &imap.SearchCriteria{}
	if flag != "" {
		criteria.Flag = []imap.Flag{flag}
	}
	data, err := m.c.UIDSearch(criteria, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return len(data.AllUIDs())
}

// poll runs a poller on the mailbox until the test ends; it calls kept
// after each pass that kept mail.
func poll(t *testing.T, box *mailbox, store domain.Inbox, processed string, noIdle bool, kept chan<- struct{}) func() {
	t.Helper()
	p := &inbound.Poller{Account: inbound.IMAPAccount{Addr: box.addr, TLS: "none", User: "play", Password: "secret", Mailbox: "INBOX"},
		ProcessedMailbox: processed, Interval: 100 * time.Millisecond, NoIdle: noIdle, Inbox: store, Accept: accept, Log: quiet(t), Now: clock,
		Stored: func() { kept <- struct{}{} }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	stop := func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
	t.Cleanup(func() {
		if ctx.Err() == nil {
			stop()
		}
	})
	return stop
}

// keys lists the dedupe keys of the mail the store keeps, claiming it.
func keys(t *testing.T, store domain.Inbox) []string {
	t.Helper()
	mail, err := store.ClaimInbound(t.Context(), "check", T0, time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range mail {
		if m.Source != inbound.SourceIMAP {
			t.Errorf("source %q", m.Source)
		}
		out = append(out, m.DedupeKey)
	}
	return out
}

// The poller keeps what it finds, and what comes while it waits in IDLE
// (imapmemserver may not announce a message appended just before IDLE
// begins, so the look every Interval stays on as a net), flags it kept, and
// puts aside what is for no reply address. Restarted, it keeps nothing
// twice, also a message it kept but could not flag before it stopped.
func TestPollerFlags(t *testing.T) {
	box := startIMAP(t)
	store, _ := openStore(t)
	box.deliver(t, message(ann, white, "i1@x", "e5e4:e4d4:d4c4"))
	box.deliver(t, message(ann, "someone@less.test", "spam@x", "buy now"))
	kept := make(chan struct{}, 10)
	stop := poll(t, box, store, "", false, kept)
	<-kept
	box.deliver(t, message(ann, "Ann <"+white+">", "i2@x", "resign")) // a name in To, as clients write it
	<-kept
	stop()
	if n := box.count(t, "INBOX", inbound.ProcessedKeyword); n != 3 {
		t.Errorf("%d messages flagged, want all 3", n)
	}
	if n := box.count(t, "INBOX", imap.FlagSeen); n != 3 {
		t.Errorf("%d messages seen, want all 3", n)
	}
	want := []string{"mid:i1@x " + white, "mid:i2@x " + white}
	if got := keys(t, store); !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}

	// As if the poller had stopped between keeping i1 and flagging it.
	if err := box.c.Store(imap.SeqSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsDel, Silent: true,
		Flags: []imap.Flag{inbound.ProcessedKeyword}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	box.deliver(t, message(ann, white, "i3@x", "resign"))
	poll(t, box, store, "", true, kept)
	<-kept
	if got := keys(t, store); !slices.Equal(got, []string{"mid:i3@x " + white}) {
		t.Errorf("after a restart, kept %q; want only the new message", got)
	}
}

// With a mailbox for processed mail, the poller moves what it kept there.
func TestPollerMoves(t *testing.T) {
	box := startIMAP(t)
	store, _ := openStore(t)
	for _, id := range []string{"j1@x", "j2@x"} {
		box.deliver(t, message(ann, white, id, "resign"))
	}
	kept := make(chan struct{}, 10)
	stop := poll(t, box, store, "Lesspost", false, kept)
	<-kept
	stop()
	if in, done := box.count(t, "INBOX", ""), box.count(t, "Lesspost", ""); in != 0 || done != 2 {
		t.Errorf("INBOX holds %d, Lesspost %d; want 0 and 2", in, done)
	}
	if got := keys(t, store); len(got) != 2 {
		t.Errorf("kept %q", got)
	}
}

// waitKept waits for a poller's pass that kept mail; a poller that never
// keeps any fails the test rather than hang it.
func waitKept(t *testing.T, kept <-chan struct{}) {
	t.Helper()
	select {
	case <-kept:
	case <-time.After(30 * time.Second):
		t.Fatal("the poller kept nothing")
	}
}

// A message over the size limit is not fetched whole: its start is kept,
// for the processor to read its header and have the seat told that it was
// too large (on the SMTP path, the sending server tells its sender). It is
// put aside like any other.
func TestPollerKeepsTheStartOfATooLargeMessage(t *testing.T) {
	box := startIMAP(t)
	store, dsn := openStore(t)
	big := message(ann, white, "big@x", "resign\n"+strings.Repeat("A picture of my board, in base64 of course.\n", 40<<10))
	box.deliver(t, big)
	box.deliver(t, message(ann, white, "small@x", "resign"))
	kept := make(chan struct{}, 10)
	stop := poll(t, box, store, "", true, kept)
	waitKept(t, kept)
	stop()
	if n := box.count(t, "INBOX", inbound.ProcessedKeyword); n != 2 {
		t.Errorf("%d messages flagged, want both", n)
	}
	mail, err := store.ClaimInbound(t.Context(), "check", T0, time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(mail) != 2 || mail[0].DedupeKey != "mid:big@x "+white || len(mail[0].Raw) != inbound.DefaultMaxBytes+1 ||
		!bytes.Equal(mail[0].Raw, big[:inbound.DefaultMaxBytes+1]) {
		t.Fatalf("kept %d messages, the first %q of %d bytes; want the start of big@x, %d bytes, and small@x",
			len(mail), keyOf(mail), len(big), inbound.DefaultMaxBytes+1)
	}
	// As if the claim had lapsed: the processor reads it.
	p := &player{}
	proc := processor(t, store, p)
	proc.Now = func() time.Time { return T0.Add(time.Hour) }
	if _, err := proc.ProcessDue(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := outcomes(t, dsn); !slices.Equal(got, []string{"refused:too_large", "played"}) {
		t.Errorf("outcomes %q, want the large message refused as too large", got)
	}
	if got := p.replies(); len(got) != 2 || got[0].From != ann || got[0].Unread != games.ReplyTooLarge {
		t.Errorf("played %+v", got)
	}
}

func keyOf(mail []domain.InboundMail) []string {
	var out []string
	for _, m := range mail {
		out = append(out, m.DedupeKey)
	}
	return out
}

// syncBuffer is a buffer for a logger's output that a test reads while the
// logger writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// When the IMAP server drops the session (a restart), the poller notices
// at once, in IDLE, not at its next look (here an hour away), and
// reconnects; the back-off between attempts starts over after every
// session that worked, so that each restart is met as fast as the first.
func TestPollerReconnectsAtOnceWhenTheServerDropsIt(t *testing.T) {
	box := startIMAP(t)
	store, _ := openStore(t)
	var logs syncBuffer
	kept := make(chan struct{}, 10)
	p := &inbound.Poller{Account: inbound.IMAPAccount{Addr: box.addr, TLS: "none", User: "play", Password: "secret", Mailbox: "INBOX"},
		Interval: time.Hour, Inbox: store, Accept: accept, Now: clock, Stored: func() { kept <- struct{}{} },
		Log: slog.New(slog.NewTextHandler(&logs, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	box.deliver(t, message(ann, white, "before@x", "resign"))
	waitKept(t, kept)
	const restarts = 3
	for i := range restarts {
		select {
		case <-box.idling:
		case <-time.After(30 * time.Second):
			t.Fatal("the poller does not wait in IDLE")
		}
		box.dropSessions()
		box.deliver(t, message(ann, white, fmt.Sprintf("after%d@x", i), "resign"))
		waitKept(t, kept)
	}
	waits := regexp.MustCompile(`msg="imap: session failed; reconnecting".* in=(\S+)`).FindAllStringSubmatch(logs.String(), -1)
	if len(waits) != restarts {
		t.Fatalf("%d reconnections logged, want %d:\n%s", len(waits), restarts, logs.String())
	}
	for i, w := range waits {
		if w[1] != waits[0][1] {
			t.Errorf("reconnection %d waited %s, the first %s: the back-off did not start over", i+1, w[1], waits[0][1])
		}
	}
}
