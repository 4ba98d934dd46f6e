package main

import (
	"context"
	"database/sql"
	"encoding/base64"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http/httptest"
	"net/smtp"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/internal/app"
	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// handedOver counts, per mailbox, the messages the outbox handed to SMTP
// and SMTP accepted: what the sink must have received. (The outbox records
// a mail dropped as obsolete as sent too, so its rows cannot say.)
type handedOver struct {
	notify.Sender
	mu   sync.Mutex
	sent map[string]int
}

func (h *handedOver) Send(ctx context.Context, m notify.Message) error {
	err := h.Sender.Send(ctx, m)
	if err == nil {
		h.mu.Lock()
		h.sent[mailboxOf(m.To)]++
		h.mu.Unlock()
	}
	return err
}

// attackServer runs the API as cmd/api wires it, with its default limits,
// its outbox mailing by SMTP to the listener smtp, and a scheduler that
// starts tournament rounds (every 50 ms, not every 30 s). It returns the base
// URL, how many requests the server answered, what its outbox handed to
// SMTP, and stop, which stops the scheduler and then says whether the outbox
// has sent (or given up) all mail that is due.
func attackServer(t *testing.T, dbPath string, smtp net.Listener) (string, *atomic.Int64, *handedOver, func() bool) {
	t.Helper()
	db, err := sqlite.Open(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var outbox *notify.Worker
	var answered atomic.Int64
	uses := app.New(app.Config{Store: db, PushEndpointCheck: api.PushEndpointCheck(nil), WebhookURLCheck: api.WebhookURLCheck(nil)})
	srv, err := api.New(api.Config{Logger: log, DB: db, App: uses, Secret: []byte("0123456789abcdef0123456789abcdef"),
		BaseURL: "http://lesspost.test", MailQueued: func() { outbox.Wake() },
		ObserveRequest: func(string, string, int, time.Duration) { answered.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	addr := smtp.Addr().(*net.TCPAddr)
	sender, err := notify.NewSMTPSender(notify.SMTPConfig{Host: "127.0.0.1", Port: addr.Port, TLS: "none", From: "games@lesspost.test"})
	if err != nil {
		t.Fatal(err)
	}
	handed := &handedOver{Sender: sender, sent: map[string]int{}}
	outbox = notify.NewWorker(db, handed, &notify.Renderer{Store: db, Links: srv.Links(), Host: "lesspost.test"}, log, time.Now)
	ctx, cancel := context.WithCancel(context.Background())
	schedCtx, stopSched := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { outbox.Run(ctx) })
	var sched sync.WaitGroup
	sched.Go(func() {
		for schedCtx.Err() == nil {
			ids, err := uses.Tournaments.DueTournaments(schedCtx, 100)
			for _, id := range ids {
				if _, err := uses.Tournaments.TickTournament(schedCtx, id); err != nil && schedCtx.Err() == nil {
					t.Errorf("tick tournament %s: %v", id, err)
				}
			}
			if err != nil && schedCtx.Err() == nil {
				t.Errorf("due tournaments: %v", err)
			}
			outbox.Wake()
			sleepCtx(schedCtx, 50*time.Millisecond)
		}
	})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		stopSched()
		cancel()
		sched.Wait()
		wg.Wait()
	})
	raw, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	drained := func() bool {
		stopSched()
		sched.Wait()
		var due int
		if err := raw.QueryRow(`SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ?`,
			time.Now().UnixMilli()).Scan(&due); err != nil {
			t.Errorf("count due mail: %v", err)
			return true
		}
		return due == 0
	}
	return hs.URL, &answered, handed, drained
}

// The attack against a real server, in short: every route is tried, the
// report counts every request the server answered and, per mailbox, every
// email the server's outbox sent, and the default limits hold.
func TestAttackCounts(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "attack.db")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url, answered, handed, drained := attackServer(t, dbPath, ln)
	cfg := attackConfig{URL: url, Duration: 3 * time.Second, Attacker: "mallory@evil.example", Organiser: "org@club.example",
		Victim: "victim@example.org", Strangers: 3, Drain: time.Minute, Quiet: time.Second, Timeout: 30 * time.Second,
		smtpListener: ln, drained: drained}
	rep, err := attack(t.Context(), cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep.print(&out)
	t.Log(out.String())

	requests := 0
	for _, r := range rep.Routes {
		requests += r.Requests
		if r.Requests == 0 || r.Note != "" {
			t.Errorf("route %s: %d requests %s", r.Name, r.Requests, r.Note)
		}
	}
	if n := answered.Load(); int64(requests) != n {
		t.Errorf("the report counts %d requests, the server answered %d", requests, n)
	}
	if len(rep.Routes) != len(attackRoutes())+1 {
		t.Errorf("%d routes reported, want %d and the set-up", len(rep.Routes), len(attackRoutes()))
	}

	// What the outbox handed to SMTP, by mailbox, is what the report counts.
	handed.mu.Lock()
	sent := maps.Clone(handed.sent)
	handed.mu.Unlock()
	total := 0
	for _, n := range sent {
		total += n
	}
	if rep.Emails != total {
		t.Errorf("the report counts %d emails, the outbox sent %d", rep.Emails, total)
	}
	for box, n := range sent {
		if m := rep.mailbox(box); m == nil || m.Total != n {
			got := 0
			if m != nil {
				got = m.Total
			}
			t.Errorf("%s: the outbox sent %d emails, the report counts %d", box, n, got)
		}
	}
	victim := rep.mailbox("victim@example.org")
	if victim == nil || victim.Total < 2 || victim.Max10 != victim.Total || victim.Logins == 0 || victim.Role != "victim" || !victim.Stranger {
		t.Fatalf("the victim's mail: %+v", victim)
	}
	if own := rep.mailbox("mallory@evil.example"); own == nil || own.Stranger || own.Logins != 1 {
		t.Errorf("the attacker's own mail: %+v", own)
	}

	// The default limits hold; a bound under the victim's mail fails him.
	if err := rep.verdict(); err != nil {
		t.Errorf("verdict: %v", err)
	}
	if !strings.Contains(out.String(), "PASS") || !strings.Contains(out.String(), "PairPerDay") {
		t.Errorf("report:\n%s", out.String())
	}
	rep.Bound = victim.Total - 1
	if err := rep.verdict(); err == nil || !strings.Contains(err.Error(), "victim@example.org got") {
		t.Errorf("verdict with a bound of %d: %v", rep.Bound, err)
	}
}

// The sink finds the attacker's words in a stranger's mail however the
// message encodes them, and keeps the text of the tool's own mail only.
func TestSinkFindsWords(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sink := startCountingSink(ln, spamWords, "mallory@evil.example")
	defer sink.Close()
	// "Cheap pills" split by a soft line break, "spam.example" in base64.
	msg := "Subject: =?utf-8?q?A_change?=\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/alternative; boundary=b\r\n\r\n" +
		"--b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"The organiser says: Cheap pi=\r\nlls\r\n" +
		"--b\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		base64.StdEncoding.EncodeToString([]byte("<a href=\"http://spam.example\">here</a>")) + "\r\n--b--\r\n"
	if err := smtp.SendMail(ln.Addr().String(), nil, "games@lesspost.test",
		[]string{"S3+7@Example.net", "mallory@evil.example"}, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	got := sink.mail()
	if len(got) != 2 {
		t.Fatalf("%d mails, want one per recipient: %+v", len(got), got)
	}
	stranger, own := got[0], got[1]
	if stranger.Mailbox != "s3@example.net" || stranger.Subject != "A change" || stranger.Text != "" ||
		!slices.Equal(stranger.Words, []string{"Cheap pills", "spam.example"}) {
		t.Errorf("the stranger's mail: %+v", stranger)
	}
	if own.Mailbox != "mallory@evil.example" || !strings.Contains(own.Text, "Cheap pills") {
		t.Errorf("the attacker's own mail: %+v", own)
	}
}

// The sliding window finds the busiest 10 minutes.
func TestMostWithin(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	at := func(mins ...int) []time.Time {
		var out []time.Time
		for _, m := range mins {
			out = append(out, t0.Add(time.Duration(m)*time.Minute))
		}
		return out
	}
	for _, c := range []struct {
		times []time.Time
		want  int
	}{
		{nil, 0},
		{at(0), 1},
		{at(0, 9, 10, 11), 3},         // 10 minutes apart are two windows
		{at(30, 0, 1, 2, 25, 26), 3},  // unsorted
		{at(0, 5, 12, 14, 15, 16), 4}, // 12..16
	} {
		if got := mostWithin(c.times, 10*time.Minute); got != c.want {
			t.Errorf("mostWithin(%v) = %d, want %d", c.times, got, c.want)
		}
	}
}

// The bound follows the policy's defaults: for 10 minutes the per-stranger
// limit and an hour's sign-in links, more as the run touches more hours.
func TestAttackBound(t *testing.T) {
	l := domain.DefaultMailLimits
	if got, why := attackBound(10 * time.Minute); got != l.PairPerDay+accounts.MaxLoginsPerHour || !strings.Contains(why, "PairPerDay") {
		t.Errorf("10 minutes: %d (%s)", got, why)
	}
	if got, _ := attackBound(90 * time.Minute); got != l.PairPerDay+2*accounts.MaxLoginsPerHour {
		t.Errorf("90 minutes: %d", got)
	}
	if got, _ := attackBound(domain.BudgetWindow / time.Duration(l.PairPerDay)); got != l.PairPerDay+1+3*accounts.MaxLoginsPerHour {
		t.Errorf("one refill: %d", got)
	}
}
