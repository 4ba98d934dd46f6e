package inbound_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/notify/inbound"
	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/repotest"
)

// The reply addresses of the tests: play+<game>.<seat>.<ply>@less.test;
// anything else is unknown.
const replyDomain = "@less.test"

func seatOf(addr string) (games.Reply, error) {
	local, ok := strings.CutSuffix(strings.ToLower(addr), replyDomain)
	parts := strings.Split(strings.TrimPrefix(local, "play+"), ".")
	if !ok || !strings.HasPrefix(local, "play+") || len(parts) != 3 {
		return games.Reply{}, fmt.Errorf("%s: not a reply address", addr)
	}
	var ply int
	if _, err := fmt.Sscan(parts[2], &ply); err != nil {
		return games.Reply{}, err
	}
	return games.Reply{GameID: parts[0], Color: parts[1], Ply: ply}, nil
}

func accept(addr string) bool { _, err := seatOf(addr); return err == nil }

// player records the replies it is asked to play and answers as told.
type player struct {
	mu      sync.Mutex
	played  []games.Reply
	seen    map[string]bool // Message-IDs played: a second time is a replay
	failing int             // fail this many calls first
}

func (p *player) PlayByReply(_ context.Context, r games.Reply) (games.ReplyOutcome, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failing > 0 {
		p.failing--
		return games.ReplyOutcome{}, fmt.Errorf("the store is down")
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	p.played = append(p.played, r)
	replayed := p.seen[r.MessageID]
	p.seen[r.MessageID] = true
	if r.Unread != "" {
		return games.ReplyOutcome{Status: games.ReplyRefused, Reason: r.Unread, Replayed: replayed}, nil
	}
	return games.ReplyOutcome{Status: games.ReplyPlayed, Turn: strings.Join(r.Lines, "|"), Replayed: replayed}, nil
}

func (p *player) replies() []games.Reply {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]games.Reply(nil), p.played...)
}

// T0 is the tests' time.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func clock() time.Time { return T0 }

// quiet is a logger for tests that log nothing of interest; logs go to the
// test's output when -v.
func quiet(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// message is a reply as a mail client writes it: the new text, then the
// quote of our email under an attribution line.
func message(from, to, id, text string, header ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: Ann <%s>\r\nTo: %s\r\nSubject: Re: Your turn\r\n", from, to)
	if id != "" {
		fmt.Fprintf(&b, "Message-ID: <%s>\r\n", id)
	}
	for _, h := range header {
		b.WriteString(h + "\r\n")
	}
	if !strings.Contains(strings.Join(header, "\n"), "Content-Type") {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\n")
	}
	b.WriteString("\r\n" + strings.ReplaceAll(text, "\n", "\r\n") + "\r\n\r\n")
	if !strings.Contains(b.String(), "text/html") { // an HTML reply quotes in a <blockquote>
		b.WriteString("On Sun, 1 Mar 2026 at 12:00, Less <games@less.test> wrote:\r\n> It is your turn. Reply with your turn, e.g. e5e4:e4d4:d4c4\r\n")
	}
	return b.Bytes()
}

// processor is a processor on store with a recording player.
func processor(t *testing.T, store domain.Inbox, p *player) *inbound.Processor {
	proc := inbound.NewProcessor(store, p, seatOf, "test", quiet(t), clock)
	proc.MaxAttempts = 2
	return proc
}

// openStore is a new store for the test (SQLite, or PostgreSQL under
// LESSPOST_TEST_STORE=postgres).
func openStore(t testing.TB) (repo.Store, string) {
	dsn := repotest.DSN(t)
	return repotest.OpenDSN(t, dsn), dsn
}

// outcomes lists the outcome of every received mail, by id.
func outcomes(t *testing.T, dsn string) []string {
	t.Helper()
	rows, err := repotest.SQL(t, dsn).QueryContext(t.Context(), `SELECT COALESCE(outcome, '') FROM inbound ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// listen starts l on a loopback port until the test ends and returns its
// address and a function that kills it at once.
func listen(t testing.TB, l *inbound.Listener) (string, func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Serve(ctx, ln) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return ln.Addr().String(), stop
}
