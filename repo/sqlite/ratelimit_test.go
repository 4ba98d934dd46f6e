package sqlite

import (
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// A refused take writes nothing, so hammering a bucket that is empty does
// not keep the one writer busy with writes.
func TestRefusedTakeWritesNothing(t *testing.T) {
	db, ctx := newStore(t), t.Context()
	changes := func() int64 {
		t.Helper()
		var n int64
		if err := db.WithTx(ctx, func(tx *Tx) error {
			return tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&n)
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	take := func() bool {
		t.Helper()
		ok, _, err := db.TakeRequest(ctx, "login:ip:203.0.113.7", time.Hour, 0, t0)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	before := changes()
	if !take() {
		t.Fatal("the first take was refused")
	}
	taken := changes()
	if taken != before+1 {
		t.Fatalf("a take changed %d rows, want 1", taken-before)
	}
	for range 5 {
		if take() {
			t.Fatal("a take beyond the burst was allowed")
		}
	}
	if n := changes() - taken; n != 0 {
		t.Fatalf("refused takes changed %d rows", n)
	}
}

// BenchmarkTakeRequest takes requests through the one writer, from as many
// goroutines as there are procs: allowed takes of many keys, and refused
// takes of one key whose bucket is empty.
func BenchmarkTakeRequest(b *testing.B) {
	for _, bc := range []struct {
		name string
		key  func(i int64) string
	}{
		{"allowed", func(i int64) string { return "login:ip:" + strconv.FormatInt(i, 10) }},
		{"refused", func(int64) string { return "login:ip:hammer" }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			db, ctx := newStore(b), b.Context()
			b.SetParallelism(8) // requests wait on the writer, as in a server
			var n atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, _, err := db.TakeRequest(ctx, bc.key(n.Add(1)), time.Minute, 0, t0); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
