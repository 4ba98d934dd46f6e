package notify

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/notify/smtptest"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// claimLog is an outbox that notes the outbox id of every mail claimed
// through it, by Message-ID: the ids are the outbox order.
type claimLog struct {
	domain.Outbox
	mu  *sync.Mutex
	ids map[string]int64
}

func (c claimLog) ClaimMail(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]domain.OutboxMail, error) {
	mail, err := c.Outbox.ClaimMail(ctx, claimant, now, lease, limit)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range mail {
		c.ids[m.MessageID+"@less.example"] = m.ID
	}
	return mail, err
}

// sendLog is a Sender that notes every message it delivered, in order.
type sendLog struct {
	Sender
	mu   *sync.Mutex
	sent *[]Message
}

func (s sendLog) Send(ctx context.Context, m Message) error {
	if err := s.Sender.Send(ctx, m); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	*s.sent = append(*s.sent, m)
	return nil
}

// threadOf names a message's thread: its address and its game.
func threadOf(m Message) string {
	id := m.ThreadID
	if id == "" {
		id = m.MessageID // the invitation starts the thread
	}
	game, _, _ := strings.Cut(id, ".")
	return m.To + " " + game
}

// checkThreadOrder checks that every thread's messages were delivered in
// outbox order.
func checkThreadOrder(t *testing.T, sent []Message, ids map[string]int64) {
	t.Helper()
	last := map[string]int64{}
	for _, m := range sent {
		id, ok := ids[m.MessageID]
		if !ok {
			t.Fatalf("sent %s, which nobody claimed", m.MessageID)
		}
		if prev := last[threadOf(m)]; prev > id {
			t.Errorf("%s: outbox mail %d delivered after mail %d", threadOf(m), id, prev)
		}
		last[threadOf(m)] = id
	}
}

// Two workers of two "processes" (each with its own connections to one
// database file) deliver one outbox to one SMTP server while games are
// played: every mail arrives once, and each thread in order.
func TestTwoWorkersShareTheOutbox(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	path := repotest.Path(t)
	smtp := smtptest.Start(t)
	var mu sync.Mutex
	ids := map[string]int64{}
	var sent []Message
	var dbs []*sqlite.DB
	var workers []*Worker
	for range 2 {
		db, err := sqlite.Open(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		s, err := NewSMTPSender(SMTPConfig{Host: smtp.Host, Port: smtp.Port, TLS: TLSNone, From: "games@less.example"})
		if err != nil {
			t.Fatal(err)
		}
		r := &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"}
		w := NewWorker(claimLog{db, &mu, ids}, sendLog{s, &mu, &sent}, r, slog.New(slog.DiscardHandler), func() time.Time { return now })
		w.Parallel = 4
		dbs, workers = append(dbs, db), append(workers, w)
	}

	// Games are played (through the first "process") while both deliver.
	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for _, w := range workers {
		w.Poll = 5 * time.Millisecond
		wg.Go(func() { w.Run(ctx) })
	}
	for range 4 {
		queueGames(t, dbs[0], 3, 6, now)
		workers[0].Wake()
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		due, err := dbs[1].DueMail(t.Context(), now, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mails still due after 30s", len(due))
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	wg.Wait()

	// 4×3 games of two invitations and six "your turn"s.
	const want = 4 * 3 * (2 + 6)
	got := smtp.Messages()
	seen := map[string]bool{}
	for _, m := range got {
		id := m.Header.Get("Message-Id")
		if seen[id] {
			t.Errorf("%s delivered twice", id)
		}
		seen[id] = true
	}
	if len(got) != want || len(sent) != want {
		t.Errorf("the SMTP server got %d messages, the workers sent %d; want %d", len(got), len(sent), want)
	}
	checkThreadOrder(t, sent, ids)
}

// A worker that claimed mail and died before recording anything (its
// process crashed) holds it until the lease ends; then another worker
// delivers it, each thread in order.
func TestWorkerTakesOverACrashedClaim(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{}
	w, db := newTestWorker(t, sender, &now)
	var mu sync.Mutex
	ids := map[string]int64{}
	w.Store = claimLog{db, &mu, ids}
	queueGames(t, db, 2, 4, now)
	crashed, err := db.ClaimMail(t.Context(), "crashed", now, w.Lease, batchSize)
	if err != nil || len(crashed) == 0 {
		t.Fatalf("the crashed worker claimed %d mails: %v", len(crashed), err)
	}
	for _, at := range []time.Duration{0, w.Lease - time.Millisecond} {
		now = now.Add(at)
		if n, err := w.DeliverDue(t.Context()); n != 0 || err != nil {
			t.Fatalf("%v into the lease: sent %d, %v", at, n, err)
		}
	}
	now = now.Add(time.Millisecond)
	// 2 games of two invitations and four "your turn"s.
	if n, err := w.DeliverDue(t.Context()); n != 2*(2+4) || err != nil {
		t.Fatalf("after the lease: sent %d, %v", n, err)
	}
	checkThreadOrder(t, sender.sent, ids)
}

// A mail that fails is retried before any later mail of its thread goes
// out, also when they were claimed together; other threads go on.
func TestWorkerRetryKeepsThreadOrder(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{}
	w, db := newTestWorker(t, sender, &now)
	var mu sync.Mutex
	ids := map[string]int64{}
	w.Store = claimLog{db, &mu, ids}
	w.BaseDelay = time.Minute
	queueGames(t, db, 1, 4, now) // per player: an invitation, then two "your turn"s
	var failed atomic.Bool
	w.Sender = senderFunc(func(ctx context.Context, m Message) error {
		// bob@'s invitation fails once
		if m.To == "bob@example.org" && m.ThreadID == "" && failed.CompareAndSwap(false, true) {
			return errors.New("421 try again later")
		}
		return sender.Send(ctx, m)
	})
	if n, err := w.DeliverDue(t.Context()); n != 3 || err != nil { // ann@'s thread
		t.Fatalf("first pass: sent %d, %v", n, err)
	}
	for _, m := range sender.sent {
		if m.To == "bob@example.org" {
			t.Fatalf("bob@ got %s before his invitation", m.MessageID)
		}
	}
	now = now.Add(w.MaxDelay) // after any backoff
	if n, err := w.DeliverDue(t.Context()); n != 3 || err != nil {
		t.Fatalf("after the backoff: sent %d, %v", n, err)
	}
	checkThreadOrder(t, sender.sent, ids)
}

// A worker starts no attempt after half its lease: the rest of the claim
// is released at once for any worker, never sent late beside another
// worker that claimed it after the lease.
func TestWorkerStopsAtHalfTheLease(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{}
	w, db := newTestWorker(t, sender, &now)
	w.Parallel = 1
	var mu sync.Mutex
	ids := map[string]int64{}
	claims := claimCounter{claimLog{db, &mu, ids}, new(int)}
	w.Store = claims
	logins(t, db, 5, now)
	w.Sender = senderFunc(func(ctx context.Context, m Message) error {
		now = now.Add(w.Lease/2 + time.Millisecond) // a slow mail server
		return sender.Send(ctx, m)
	})
	if n, err := w.DeliverDue(t.Context()); n != 5 || err != nil {
		t.Fatalf("sent %d, %v", n, err)
	}
	// One mail per claim: each claim's first mail ran past half its lease,
	// and the pass went on with the mail it released.
	if len(sender.sent) != 5 || *claims.n != 5 {
		t.Errorf("%d sent in %d claims, want 5 in 5", len(sender.sent), *claims.n)
	}
}

// claimCounter counts the claims that got mail.
type claimCounter struct {
	domain.Outbox
	n *int
}

func (c claimCounter) ClaimMail(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]domain.OutboxMail, error) {
	mail, err := c.Outbox.ClaimMail(ctx, claimant, now, lease, limit)
	if len(mail) > 0 {
		*c.n++
	}
	return mail, err
}
