package sqlite

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// A batch is one SQLite transaction with a savepoint per job: each job's
// outcome is its own, and only what the commit kept is reported as done.
func TestCommitBatch(t *testing.T) {
	errBoom := errors.New("boom")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	type job struct {
		ctx  context.Context
		fail error // returned after the insert
		bad  string
	}
	ok := job{}
	tests := []struct {
		name string
		jobs []job
		want []bool // per job: whether its row is kept
	}{
		{"one job", []job{ok}, []bool{true}},
		{"one failing job", []job{{fail: errBoom}}, []bool{false}},
		{"all succeed", []job{ok, ok, ok}, []bool{true, true, true}},
		{"a failure in the middle", []job{ok, {fail: errBoom}, ok}, []bool{true, false, true}},
		{"a panic in the middle", []job{ok, {bad: "panic"}, ok}, []bool{true, false, true}},
		{"a caller that gave up", []job{ok, {ctx: cancelled}, ok}, []bool{true, false, true}},
		{"a failing statement", []job{ok, {bad: "INSERT INTO nowhere VALUES (1)"}, ok}, []bool{true, false, true}},
		// A job that ends the transaction itself takes the others with it:
		// every job must then be told it failed.
		{"a job that rolls everything back", []job{ok, {bad: "ROLLBACK"}, ok}, []bool{false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			db := openTest(t, freshPath(t))
			var jobs []*writeJob
			for i, j := range tt.jobs {
				key := fmt.Sprint("k", i)
				jobs = append(jobs, &writeJob{ctx: cmpCtx(j.ctx, ctx), fn: func(tx *Tx) error {
					if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, 'v')`, key); err != nil {
						return err
					}
					switch j.bad {
					case "":
					case "panic":
						panic(errBoom)
					default:
						if _, err := tx.ExecContext(ctx, j.bad); err != nil {
							return err
						}
					}
					return j.fail
				}})
			}
			outcomes := db.commitBatch(jobs)
			for i, kept := range tt.want {
				_, found, err := db.Setting(ctx, fmt.Sprint("k", i))
				if err != nil {
					t.Fatal(err)
				}
				if found != kept || outcomes[i].failed() == kept {
					t.Errorf("job %d: row kept %v, outcome %+v; want kept %v and an outcome that says so", i, found, outcomes[i], kept)
				}
				if j := tt.jobs[i]; j.fail != nil && !errors.Is(outcomes[i].err, j.fail) {
					t.Errorf("job %d: error %v, want its own %v", i, outcomes[i].err, j.fail)
				}
				if tt.jobs[i].bad == "panic" && outcomes[i].panicked != errBoom {
					t.Errorf("job %d: panicked with %v, want %v", i, outcomes[i].panicked, errBoom)
				}
			}
			// The write connection is usable again.
			if err := db.SetSetting(ctx, "after", "x"); err != nil {
				t.Errorf("write after the batch: %v", err)
			}
		})
	}
}

func cmpCtx(ctx, def context.Context) context.Context {
	if ctx != nil {
		return ctx
	}
	return def
}

// A caller that gives up while its statement runs must not take the batch
// with it: SQLite rolls back the whole transaction when a write is
// interrupted.
func TestGivingUpDoesNotInterruptTheBatch(t *testing.T) {
	ctx := t.Context()
	db := openTest(t, freshPath(t))
	insert := func(key string) func(*Tx) error {
		return func(tx *Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, 'v')`, key)
			return err
		}
	}
	impatient, cancel := context.WithCancel(ctx)
	defer cancel()
	slow := func(tx *Tx) error {
		time.AfterFunc(time.Millisecond, cancel)
		// Long enough to be running when the caller gives up.
		_, err := tx.ExecContext(impatient, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
			INSERT INTO settings (key, value) SELECT 'slow' || i, 'v' FROM n`)
		return err
	}
	outcomes := db.commitBatch([]*writeJob{
		{ctx: ctx, fn: insert("before")}, {ctx: impatient, fn: slow}, {ctx: ctx, fn: insert("after")},
	})
	for i, key := range []string{"before", "slow1", "after"} {
		_, found, err := db.Setting(ctx, key)
		if err != nil || !found || outcomes[i].failed() {
			t.Errorf("job %d: row %q kept %v (%v), outcome %+v; want kept and done", i, key, found, err, outcomes[i])
		}
	}
}

// Many writers at once: each one's change is kept or not as its own
// outcome says, whichever batches they fall into.
func TestConcurrentWriters(t *testing.T) {
	ctx := t.Context()
	db := openTest(t, freshPath(t))
	const n = 200
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = db.WithTx(ctx, func(tx *Tx) error {
				if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, 'v')`, fmt.Sprint("k", i)); err != nil {
					return err
				}
				if i%3 == 0 {
					return fmt.Errorf("writer %d refuses", i)
				}
				return nil
			})
		})
	}
	wg.Wait()
	for i, err := range errs {
		_, found, rerr := db.Setting(ctx, fmt.Sprint("k", i))
		if rerr != nil {
			t.Fatal(rerr)
		}
		if want := i%3 != 0; found != want || (err == nil) != want {
			t.Errorf("writer %d: kept %v, error %v", i, found, err)
		}
	}
}

// Writes after Close fail instead of waiting forever.
func TestWriteAfterClose(t *testing.T) {
	db := openTest(t, freshPath(t))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	err := db.WithTx(t.Context(), func(*Tx) error { return nil })
	if !errors.Is(err, errClosed) {
		t.Errorf("WithTx after Close: %v, want %v", err, errClosed)
	}
}
