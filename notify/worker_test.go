package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/internal/vectors"
	"github.com/lesspost/lesspost/notify/smtptest"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// flakySender fails while down is true and records what it sends.
type flakySender struct {
	mu   sync.Mutex
	down bool
	sent []Message
	hits int
}

func (f *flakySender) Send(_ context.Context, m Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hits++
	if f.down {
		return errors.New("421 service not available")
	}
	f.sent = append(f.sent, m)
	return nil
}

func (f *flakySender) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

// counts is an Observer that counts.
type counts struct {
	mu                    sync.Mutex
	sent, failed, givenUp int
}

func (c *counts) MailSent() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent++
}

func (c *counts) MailFailed(givenUp bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failed++
	if givenUp {
		c.givenUp++
	}
}

func (c *counts) check(t *testing.T, sent, failed, givenUp int) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sent != sent || c.failed != failed || c.givenUp != givenUp {
		t.Errorf("observed %d sent, %d failed attempts, %d given up; want %d, %d, %d",
			c.sent, c.failed, c.givenUp, sent, failed, givenUp)
	}
}

func newTestWorker(t *testing.T, sender Sender, clock *time.Time) (*Worker, *sqlite.DB) {
	t.Helper()
	db, err := sqlite.Open(t.Context(), repotest.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"}
	w := NewWorker(db, sender, r, slog.New(slog.DiscardHandler), func() time.Time { return *clock })
	return w, db
}

// serviceAt is the use cases on db with the clock stopped at now.
func serviceAt(db *sqlite.DB, now time.Time) *games.Service {
	return games.NewService(games.Config{Store: db, Now: func() time.Time { return now }})
}

// accountsAt is the use cases of accounts with the clock stopped at now.
func accountsAt(db *sqlite.DB, now time.Time) *accounts.Service {
	return accounts.NewService(accounts.Config{Store: db, Now: func() time.Time { return now }})
}

// A mail that cannot be delivered is retried with growing delays, then
// given up as failed, visibly; one that can is sent once.
func TestWorkerRetriesThenGivesUp(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{down: true}
	w, db := newTestWorker(t, sender, &now)
	w.MaxAttempts, w.BaseDelay, w.MaxDelay = 4, time.Minute, 10*time.Minute
	var observed counts
	w.Observer = &observed
	ctx := t.Context()
	if err := accountsAt(db, now).RequestLogin(ctx, "ann@example.org", "en"); err != nil {
		t.Fatal(err)
	}

	var waits []time.Duration
	for attempt := 1; attempt <= 4; attempt++ {
		if n, err := w.DeliverDue(ctx); err != nil || n != 0 {
			t.Fatalf("attempt %d: sent %d, %v", attempt, n, err)
		}
		due, _ := db.DueMail(ctx, now.Add(time.Hour), 10)
		if attempt == 4 {
			if len(due) != 0 {
				t.Fatalf("still due after %d attempts: %+v", attempt, due)
			}
			break
		}
		if len(due) != 1 || due[0].Attempts != attempt {
			t.Fatalf("after attempt %d: %+v", attempt, due)
		}
		// Not due again before its backoff.
		if again, _ := w.DeliverDue(ctx); again != 0 || sender.hits != attempt {
			t.Fatalf("retried at once: %d hits", sender.hits)
		}
		next := nextAttempt(t, db, now)
		waits = append(waits, next.Sub(now))
		now = next
	}
	// Backoff: within [d/2, d] for d = 1, 2, 4 minutes.
	for i, wait := range waits {
		d := time.Minute << i
		if wait < d/2 || wait > d {
			t.Errorf("wait %d = %v, want between %v and %v", i+1, wait, d/2, d)
		}
	}
	if sender.hits != 4 {
		t.Errorf("%d attempts, want 4", sender.hits)
	}
	observed.check(t, 0, 4, 1)
}

// nextAttempt finds when the one pending mail is due next.
func nextAttempt(t *testing.T, db *sqlite.DB, now time.Time) time.Time {
	t.Helper()
	for d := time.Second; d <= 2*time.Hour; d += time.Second {
		if due, _ := db.DueMail(t.Context(), now.Add(d), 1); len(due) == 1 {
			return now.Add(d)
		}
	}
	t.Fatal("the mail is never due again")
	return time.Time{}
}

// After an outage, the worker delivers what is owed, once.
func TestWorkerRecovers(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{down: true}
	w, db := newTestWorker(t, sender, &now)
	var observed counts
	w.Observer = &observed
	ctx := t.Context()
	for _, email := range []string{"ann@example.org", "bob@example.org"} {
		if err := accountsAt(db, now).RequestLogin(ctx, email, "en"); err != nil {
			t.Fatal(err)
		}
	}
	w.DeliverDue(ctx)
	sender.setDown(false)
	now = now.Add(time.Hour)
	if n, err := w.DeliverDue(ctx); n != 2 || err != nil {
		t.Fatalf("sent %d, %v; want 2", n, err)
	}
	if n, _ := w.DeliverDue(ctx); n != 0 || len(sender.sent) != 2 {
		t.Errorf("delivered again: %d messages in all", len(sender.sent))
	}
	if sender.sent[0].MessageID == sender.sent[1].MessageID {
		t.Error("two mails with one Message-ID")
	}
	observed.check(t, 2, 2, 0)
}

// Run stops when its context ends, and Wake delivers without waiting for a poll.
func TestWorkerRunAndWake(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{}
	w, db := newTestWorker(t, sender, &now)
	w.Poll = time.Hour
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	if err := accountsAt(db, now).RequestLogin(t.Context(), "ann@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	w.Wake()
	deadline := time.Now().Add(10 * time.Second)
	for {
		sender.mu.Lock()
		n := len(sender.sent)
		sender.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Wake did not deliver")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
}

// logins queues a login email for each of n addresses.
func logins(t *testing.T, db *sqlite.DB, n int, now time.Time) {
	t.Helper()
	for i := range n {
		if err := accountsAt(db, now).RequestLogin(t.Context(), fmt.Sprintf("p%d@example.org", i), "en"); err != nil {
			t.Fatal(err)
		}
	}
}

// Mails are sent in parallel, each once. When the worker stops in the
// middle of a batch, what went out is recorded all the same, and the next
// pass sends only the rest.
func TestWorkerStopsMidBatch(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		parallel int
		stopAt   int // the send during which the worker is told to stop; 0: never
	}{
		{"one at a time", 1, 0},
		{"parallel", 8, 0},
		{"one at a time, stopped", 1, 30},
		{"parallel, stopped", 8, 30},
		{"parallel, stopped in the second batch", 8, batchSize + 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const mails = 2*batchSize + 10
			sender := &flakySender{}
			w, db := newTestWorker(t, sender, &now)
			w.Parallel = tt.parallel
			logins(t, db, mails, now)
			ctx, stop := context.WithCancel(t.Context())
			defer stop()
			var once sync.Once
			w.Sender = senderFunc(func(ctx context.Context, m Message) error {
				err := sender.Send(ctx, m)
				sender.mu.Lock()
				hits := sender.hits
				sender.mu.Unlock()
				if hits == tt.stopAt {
					once.Do(stop)
				}
				return err
			})
			n, err := w.DeliverDue(ctx)
			if tt.stopAt == 0 && (n != mails || err != nil) {
				t.Fatalf("sent %d, %v; want %d", n, err, mails)
			}
			if tt.stopAt != 0 && (n < tt.stopAt || n >= mails || err == nil) {
				t.Fatalf("stopped at %d: sent %d, %v", tt.stopAt, n, err)
			}
			due, _ := db.DueMail(t.Context(), now, 1000)
			if len(due) != mails-n {
				t.Errorf("%d sent, %d still due; want %d in all", n, len(due), mails)
			}
			if rest, err := w.DeliverDue(t.Context()); n+rest != mails || err != nil {
				t.Errorf("second pass sent %d, %v; want %d", rest, err, mails-n)
			}
			ids := map[string]bool{}
			for _, m := range sender.sent {
				ids[m.MessageID] = true
			}
			if len(sender.sent) != mails || len(ids) != mails {
				t.Errorf("%d messages sent, %d different; want %d", len(sender.sent), len(ids), mails)
			}
		})
	}
}

// Sent mail is recorded while the batch goes on, not once it is done: a
// worker that dies in the middle of a batch leaves little sent and
// unrecorded, to go out twice.
func TestWorkerRecordsAsItSends(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	const mails, stall = 10, 5
	w, db := newTestWorker(t, &flakySender{}, &now)
	w.Parallel = 1
	logins(t, db, mails, now)
	stalled, release := make(chan struct{}), make(chan struct{}, 1)
	var sends int
	w.Sender = senderFunc(func(ctx context.Context, m Message) error {
		if sends++; sends == stall {
			close(stalled)
			<-release // the worker hangs here, as if the machine died
		}
		return nil
	})
	done := make(chan error, 1)
	go func() {
		_, err := w.DeliverDue(t.Context())
		done <- err
	}()
	<-stalled
	// What went out before the stall is recorded, though the batch is not
	// done: within a few records of the store, which the test waits for.
	defer close(release)
	for give := time.Now().Add(10 * time.Second); ; {
		due, err := db.DueMail(t.Context(), now, mails)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == mails-(stall-1) {
			break
		}
		if time.Now().After(give) {
			t.Fatalf("%d mails sent, %d recorded while the batch goes on; want %d", stall-1, mails-len(due), stall-1)
		}
		time.Sleep(time.Millisecond)
	}
	release <- struct{}{}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if due, _ := db.DueMail(t.Context(), now, mails); len(due) != 0 {
		t.Errorf("%d mails still due after the batch", len(due))
	}
}

// The mails about one game to one address go out in the order they were
// queued, even when mails go out in parallel.
func TestWorkerKeepsThreadsInOrder(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{}
	w, db := newTestWorker(t, sender, &now)
	w.Parallel = 8
	queueGames(t, db, 6, 8, now) // per game and player: an invitation, then four "your turn"s
	due, err := db.DueMail(t.Context(), now, 1000)
	if err != nil {
		t.Fatal(err)
	}
	queued := map[string]int{} // Message-ID → position in the outbox
	for i, m := range due {
		queued[m.MessageID+"@less.example"] = i
	}
	w.Sender = senderFunc(func(ctx context.Context, m Message) error {
		time.Sleep(time.Duration(rand.N(500)) * time.Microsecond) // shuffle what can be shuffled
		return sender.Send(ctx, m)
	})
	if n, err := w.DeliverDue(t.Context()); n != len(due) || err != nil {
		t.Fatalf("sent %d, %v; want %d", n, err, len(due))
	}
	last := map[string]int{} // thread → position of its last message sent
	for _, m := range sender.sent {
		thread := m.To + " " + m.ThreadID
		if m.ThreadID == "" {
			thread = m.To + " " + m.MessageID // the invitation starts the thread
		}
		pos, ok := queued[m.MessageID]
		if !ok {
			t.Fatalf("sent %s, which was not queued", m.MessageID)
		}
		if prev, ok := last[thread]; ok && prev > pos {
			t.Errorf("%s: message %d of the outbox sent after message %d", thread, pos, prev)
		}
		last[thread] = pos
	}
}

type senderFunc func(context.Context, Message) error

func (f senderFunc) Send(ctx context.Context, m Message) error { return f(ctx, m) }

// unrecorded is a store that cannot record deliveries.
type unrecorded struct{ *sqlite.DB }

func (unrecorded) MarkSentBatch(context.Context, string, []domain.SentMail) error {
	return errors.New("disk I/O error")
}

// When deliveries cannot be recorded, the pass ends after the batch instead
// of sending the same mail again and again.
func TestWorkerStopsWhenRecordsFail(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{}
	w, db := newTestWorker(t, sender, &now)
	w.Store = unrecorded{db}
	logins(t, db, batchSize+10, now)
	if _, err := w.DeliverDue(t.Context()); err == nil {
		t.Error("no error")
	}
	if sender.hits != batchSize {
		t.Errorf("%d sends, want one batch of %d", sender.hits, batchSize)
	}
}

// queueGames creates games on the conformance board, each with two
// invitations, and plays turns in each, each queueing a "your turn".
func queueGames(tb testing.TB, db *sqlite.DB, nGames, turns int, now time.Time) {
	tb.Helper()
	ctx := context.Background()
	vector := vectors.Load(tb).GameCases[0]
	// The creator's account is made directly: a login mail of his own
	// would race with workers delivering while games are queued.
	var creator domain.User
	err := db.Transact(ctx, func(tx domain.StoreTx) error {
		var err error
		creator, err = tx.EnsureUser(ctx, "org@example.org", now)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range nGames {
		// The first game is Ann's and Bob's, the others their namesakes':
		// one address gets at most 50 mails a day that others caused.
		ann, bob := "ann@example.org", "bob@example.org"
		if i > 0 {
			ann, bob = fmt.Sprintf("ann%d@example.org", i), fmt.Sprintf("bob%d@example.org", i)
		}
		g, err := serviceAt(db, now).CreateGame(ctx, games.NewGameSpec{
			Players: []games.Player{{Name: "Ann", Email: ann}, {Name: "Bob", Email: bob}}, Params: less.Params{Walls: vector.Walls}.Map(),
		}, creator.ID)
		if err != nil {
			tb.Fatal(err)
		}
		for _, text := range vector.Turns[:turns] {
			_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Now: now,
				Compute: func(g games.Game) (sqlite.Change, error) {
					c := g.ToMove()
					sub, err := games.SubmitTurn(g, games.Actor{SeatColor: &c}, g.Ply(), text, now)
					return sqlite.Change{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, err
				}})
			if err != nil {
				tb.Fatalf("turn %q: %v", text, err)
			}
		}
	}
}

// discardSender sends nowhere.
type discardSender struct{}

func (discardSender) Send(context.Context, Message) error { return nil }

// BenchmarkDeliverDue measures the outbox: each op is a pass over the mail of
// 20 games with 10 turns each (240 mails, mostly "your turn" with a board
// picture), sent nowhere or to an SMTP server in this process.
func BenchmarkDeliverDue(b *testing.B) {
	senders := []struct {
		name string
		new  func(b *testing.B) Sender
	}{
		{"discard", func(*testing.B) Sender { return discardSender{} }},
		{"smtp", func(b *testing.B) Sender {
			srv := smtptest.Start(b)
			s, err := NewSMTPSender(SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: TLSNone, From: "games@less.example"})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
	}
	for _, s := range senders {
		b.Run(s.name, func(b *testing.B) {
			now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
			db, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "outbox.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { db.Close() })
			r := &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"}
			w := NewWorker(db, s.new(b), r, slog.New(slog.DiscardHandler), func() time.Time { return now })
			sent := 0
			for b.Loop() {
				b.StopTimer()
				now = now.Add(25 * time.Hour) // a new day for the mail budgets
				queueGames(b, db, 20, 10, now)
				b.StartTimer()
				n, err := w.DeliverDue(b.Context())
				if err != nil {
					b.Fatal(err)
				}
				sent += n
			}
			b.ReportMetric(float64(sent)/b.Elapsed().Seconds(), "mails/s")
		})
	}
}

// lagSender notes the worker's Lag at each mail it sends.
type lagSender struct {
	w    *Worker
	mu   sync.Mutex
	lags []time.Duration
}

func (s *lagSender) Send(context.Context, Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lags = append(s.lags, s.w.Lag())
	return nil
}

// Lag says how late the outbox is while a full batch of new mail goes out,
// and nothing once it has caught up, once the last claim is stale, or for
// mail that is only being retried.
func TestWorkerLag(t *testing.T) {
	created := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	now := created
	sender := &lagSender{}
	w, db := newTestWorker(t, sender, &now)
	sender.w = w
	ctx := t.Context()
	for i := range batchSize + 10 {
		if err := accountsAt(db, created).RequestLogin(ctx, fmt.Sprintf("p%d@example.org", i), "en"); err != nil {
			t.Fatal(err)
		}
	}
	if got := w.Lag(); got != 0 {
		t.Fatalf("before any claim: lag %v", got)
	}
	now = created.Add(3 * time.Second)
	if n, err := w.DeliverDue(ctx); err != nil || n != batchSize+10 {
		t.Fatalf("sent %d, %v", n, err)
	}
	want := func(i int) time.Duration {
		if i < batchSize {
			return 3 * time.Second // the full first batch: more was waiting
		}
		return 0 // the rest: caught up
	}
	for i, lag := range sender.lags {
		if lag != want(i) {
			t.Fatalf("mail %d was sent with lag %v, want %v", i, lag, want(i))
		}
	}
	if got := w.Lag(); got != 0 {
		t.Errorf("caught up: lag %v", got)
	}

	// A stale measure says nothing.
	w.noteLag(now, make([]domain.OutboxMail, batchSize))
	w.lag.Store(int64(time.Minute))
	if got := w.Lag(); got != time.Minute {
		t.Errorf("fresh: lag %v, want 1m", got)
	}
	now = now.Add(lagFresh + time.Second)
	if got := w.Lag(); got != 0 {
		t.Errorf("stale: lag %v, want 0", got)
	}
	// After a batch the mail server held up, a full claim says nothing
	// about the CPU.
	fresh := make([]domain.OutboxMail, batchSize)
	for i := range fresh {
		fresh[i] = domain.OutboxMail{CreatedAt: now.Add(-time.Minute)}
	}
	w.slowBatch.Store(true)
	w.noteLag(now, fresh)
	if got := w.Lag(); got != 0 {
		t.Errorf("after a slow batch: lag %v, want 0", got)
	}
	w.slowBatch.Store(false)
	w.noteLag(now, fresh)
	if got := w.Lag(); got != time.Minute {
		t.Errorf("after a good batch: lag %v, want 1m", got)
	}
	// Retries wait for their backoff, not for the CPU.
	retries := make([]domain.OutboxMail, batchSize)
	for i := range retries {
		retries[i] = domain.OutboxMail{Attempts: 1, CreatedAt: created}
	}
	w.noteLag(now, retries)
	if got := w.Lag(); got != 0 {
		t.Errorf("retries: lag %v, want 0", got)
	}
}

// recordsFail is an outbox whose records of sent mail fail, the way a
// database that restarts fails them (kept: false), or one whose answer to
// the commit is lost (kept: true).
type recordsFail struct {
	*sqlite.DB
	failing *atomic.Bool
	kept    bool
}

func (s recordsFail) MarkSentBatch(ctx context.Context, claimant string, sent []domain.SentMail) error {
	if !s.failing.Load() {
		return s.DB.MarkSentBatch(ctx, claimant, sent)
	}
	if s.kept {
		if err := s.DB.MarkSentBatch(ctx, claimant, sent); err != nil {
			return err
		}
		return domain.Unavailable(errors.New("commit transaction: unexpected EOF"))
	}
	return domain.Unavailable(errors.New("terminating connection due to administrator command (SQLSTATE 57P01)"))
}

// Mail sent that the store failed to record is recorded as soon as the
// store answers again: the later mail of its thread need not wait for the
// claim's lease to end, and nothing is sent twice when it ends.
func TestWorkerRecordsOnceTheStoreAnswers(t *testing.T) {
	for _, kept := range []bool{false, true} {
		t.Run(fmt.Sprintf("kept=%v", kept), func(t *testing.T) {
			now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
			sender := &flakySender{}
			w, db := newTestWorker(t, sender, &now)
			var failing atomic.Bool
			w.Store = recordsFail{db, &failing, kept}
			ctx := t.Context()
			login := func() { // one address: one thread
				t.Helper()
				if err := accountsAt(db, now).RequestLogin(ctx, "ann@example.org", "en"); err != nil {
					t.Fatal(err)
				}
			}
			login()
			login()
			failing.Store(true)
			if n, err := w.DeliverDue(ctx); n != 2 || err == nil {
				t.Fatalf("sent %d, %v; want 2 and an error", n, err)
			}
			failing.Store(false)
			login()
			if n, err := w.DeliverDue(ctx); n != 1 || err != nil {
				t.Errorf("once the store answers: sent %d, %v; want the third mail at once", n, err)
			}
			now = now.Add(2 * w.Lease)
			if n, err := w.DeliverDue(ctx); n != 0 || err != nil {
				t.Errorf("after the lease: sent %d, %v; want nothing again", n, err)
			}
			if ids := messageIDs(sender.sent); len(sender.sent) != 3 || len(ids) != 3 {
				t.Errorf("%d messages sent, %d different; want 3", len(sender.sent), len(ids))
			}
			if due, err := db.DueMail(ctx, now, 10); err != nil || len(due) != 0 {
				t.Errorf("%d mails still due (%v)", len(due), err)
			}
		})
	}
}

// messageIDs is the set of the messages' Message-IDs.
func messageIDs(msgs []Message) map[string]bool {
	ids := map[string]bool{}
	for _, m := range msgs {
		ids[m.MessageID] = true
	}
	return ids
}

// gamesFail is a game store whose reads fail while failing is set, as a
// database that restarts fails them.
type gamesFail struct {
	Records
	failing *atomic.Bool
}

func (s gamesFail) Game(ctx context.Context, id string) (games.Game, error) {
	if s.failing.Load() {
		return games.Game{}, domain.Unavailable(errors.New("dial tcp 127.0.0.1:5432: connect: connection refused"))
	}
	return s.Records.Game(ctx, id)
}

// A database failure while a mail is rendered is not the mail's: it spends
// no delivery attempt, and the mail is due again at once.
func TestWorkerRenderingOnAFailingStore(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{}
	w, db := newTestWorker(t, sender, &now)
	var observed counts
	w.Observer = &observed
	var failing atomic.Bool
	w.Renderer.Store = gamesFail{db, &failing}
	ctx := t.Context()
	queueGames(t, db, 1, 0, now) // two invitations
	failing.Store(true)
	if n, err := w.DeliverDue(ctx); n != 0 || !domain.IsUnavailable(err) {
		t.Fatalf("sent %d, %v; want none, and the store's error", n, err)
	}
	due, err := db.DueMail(ctx, now, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 2 || due[0].Attempts != 0 || due[1].Attempts != 0 {
		t.Fatalf("due at once: %d mails (%+v); want both invitations, no attempt spent", len(due), due)
	}
	failing.Store(false)
	if n, err := w.DeliverDue(ctx); n != 2 || err != nil {
		t.Errorf("once the store answers: sent %d, %v; want 2", n, err)
	}
	observed.check(t, 2, 0, 0)
}
