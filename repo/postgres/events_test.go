package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/postgres"
)

// connect opens a connection of its own to dsn, closed when t ends.
func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

const sqlTestEvent = `INSERT INTO events (kind, game_id, email, color, ply, data, created_at)
	VALUES ('turn_played', $1, '', 'white', 1, '{}', now())`

// reader follows every event as a stream's poller does: from after the
// last it read.
type reader struct {
	db    *postgres.DB
	after domain.EventPos
	seen  []string
}

// pollUntil polls until the reader read n events. Events wait for every
// transaction that began before theirs, also those of the other databases
// the tests run on the server at once: they come soon, not at once.
func (r *reader) pollUntil(t *testing.T, n int) {
	t.Helper()
	for r.poll(t); len(r.seen) < n; r.poll(t) {
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (r *reader) poll(t *testing.T) {
	for {
		evs, err := r.db.Events(t.Context(), domain.EventFilter{}, r.after, 50)
		if err != nil {
			t.Error(err)
			return
		}
		for _, e := range evs {
			r.seen = append(r.seen, e.GameID)
			r.after = e.Pos
		}
		if len(evs) < 50 {
			return
		}
	}
}

// An event whose transaction took its id first but commits last is still
// read by a reader that already read the events committed before it.
func TestEventCommittedLateIsRead(t *testing.T) {
	dsn, dbs := instances(t, 1)
	ctx := t.Context()
	a, b := connect(t, dsn), connect(t, dsn)
	txA, err := a.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer txA.Rollback(ctx)
	if _, err := txA.Exec(ctx, sqlTestEvent, "a"); err != nil { // the lower id
		t.Fatal(err)
	}
	if _, err := b.Exec(ctx, sqlTestEvent, "b"); err != nil { // the higher id, committed first
		t.Fatal(err)
	}
	r := &reader{db: dbs[0]}
	r.poll(t)
	if len(r.seen) != 0 {
		t.Errorf("while a is running, read %q: b must wait for a", r.seen)
	}
	if err := txA.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	r.pollUntil(t, 2)
	if fmt.Sprint(r.seen) != "[a b]" {
		t.Errorf("read %q, want [a b]", r.seen)
	}
}

// Writers on several connections commit events while a reader follows
// them: it reads every event once.
func TestEventsConcurrentWriters(t *testing.T) {
	dsn, dbs := instances(t, 2)
	const writers, each = 6, 30
	var wg sync.WaitGroup
	for w := range writers {
		conn := connect(t, dsn)
		wg.Go(func() {
			for i := range each {
				// Two events per transaction, some of them held open while
				// others commit.
				err := pgx.BeginFunc(t.Context(), conn, func(tx pgx.Tx) error {
					for k := range 2 {
						if _, err := tx.Exec(t.Context(), sqlTestEvent, fmt.Sprintf("%d-%d-%d", w, i, k)); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	r := &reader{db: dbs[1]}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		r.poll(t)
	}
	r.pollUntil(t, writers*each*2) // after the last commit; more would be read twice
	seen := map[string]int{}
	for _, id := range r.seen {
		seen[id]++
	}
	if len(r.seen) != writers*each*2 || len(seen) != writers*each*2 {
		t.Errorf("read %d events, %d distinct; want %d once each", len(r.seen), len(seen), writers*each*2)
	}
	for w := range writers {
		for i := range each {
			for k := range 2 {
				if id := fmt.Sprintf("%d-%d-%d", w, i, k); seen[id] != 1 {
					t.Errorf("event %s read %d times", id, seen[id])
				}
			}
		}
	}
}
