package notify

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/repo"
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

func newTestWorker(t *testing.T, sender Sender, clock *time.Time) (*Worker, *repo.DB) {
	t.Helper()
	db, err := repo.Open(t.Context(), filepath.Join(t.TempDir(), "outbox.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"}
	w := NewWorker(db, sender, r, slog.New(slog.DiscardHandler), func() time.Time { return *clock })
	return w, db
}

// A mail that cannot be delivered is retried with growing delays, then
// given up as failed, visibly; one that can is sent once.
func TestWorkerRetriesThenGivesUp(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sender := &flakySender{down: true}
	w, db := newTestWorker(t, sender, &now)
	w.MaxAttempts, w.BaseDelay, w.MaxDelay = 4, time.Minute, 10*time.Minute
	ctx := t.Context()
	if err := db.RequestLogin(ctx, "ann@example.org", "en", now); err != nil {
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
}

// nextAttempt finds when the one pending mail is due next.
func nextAttempt(t *testing.T, db *repo.DB, now time.Time) time.Time {
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
	ctx := t.Context()
	for _, email := range []string{"ann@example.org", "bob@example.org"} {
		if err := db.RequestLogin(ctx, email, "en", now); err != nil {
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
	if err := db.RequestLogin(t.Context(), "ann@example.org", "en", now); err != nil {
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
