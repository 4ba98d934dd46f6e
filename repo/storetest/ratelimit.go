package storetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// RateLimitStore is a domain.RateLimiter that forgets full buckets, as
// port.Housekeeping's PruneRateLimits does.
type RateLimitStore interface {
	domain.RateLimiter
	PruneRateLimits(ctx context.Context, now time.Time, limit int) (int, error)
}

// rlStep is one call in a rate-limit case, at T0+at: a take (want ok and
// wait), a return, or a prune of at most limit keys (want n pruned).
type rlStep struct {
	do    string // "take", "return" or "prune"
	at    time.Duration
	key   string
	times int // repeat the step; 0 is once
	ok    bool
	wait  time.Duration
	limit int
	n     int
}

// The limits of the cases: 3 requests per 30 minutes, and 1 per hour.
const (
	rlInterval, rlTolerance = 10 * time.Minute, 20 * time.Minute
	rlOnePerHour            = time.Hour
)

func take(at time.Duration, key string, ok bool, wait time.Duration) rlStep {
	return rlStep{do: "take", at: at, key: key, ok: ok, wait: wait}
}

// RunRateLimiter runs the contract of domain.RateLimiter (with its pruning)
// against stores made by newStore, each empty.
func RunRateLimiter(t *testing.T, newStore func(t *testing.T) RateLimitStore) {
	ok := func(at time.Duration, key string) rlStep { return take(at, key, true, 0) }
	tests := []struct {
		name                string
		interval, tolerance time.Duration
		steps               []rlStep
	}{
		{"burst then refused", rlInterval, rlTolerance, []rlStep{
			ok(0, "a"), ok(0, "a"), ok(0, "a"),
			take(0, "a", false, 10*time.Minute),
			ok(0, "b"), // another key has its own bucket
		}},
		{"refill", rlInterval, rlTolerance, []rlStep{
			ok(0, "a"), ok(0, "a"), ok(0, "a"),
			take(9*time.Minute, "a", false, time.Minute),
			ok(10*time.Minute, "a"),
			take(10*time.Minute, "a", false, 10*time.Minute),
			// A whole period of quiet gives the whole burst, and no more.
			ok(40*time.Minute, "a"), ok(40*time.Minute, "a"), ok(40*time.Minute, "a"),
			take(40*time.Minute, "a", false, 10*time.Minute),
			ok(5*time.Hour, "a"), ok(5*time.Hour, "a"), ok(5*time.Hour, "a"),
			take(5*time.Hour, "a", false, 10*time.Minute),
		}},
		{"refusals take nothing", rlInterval, rlTolerance, []rlStep{
			ok(0, "a"), ok(0, "a"), ok(0, "a"),
			{do: "take", at: time.Minute, key: "a", times: 50, wait: 9 * time.Minute},
			take(5*time.Minute, "a", false, 5*time.Minute),
			ok(10*time.Minute, "a"),
		}},
		{"no tolerance", rlOnePerHour, 0, []rlStep{
			ok(0, "a"),
			take(time.Second, "a", false, time.Hour-time.Second),
			ok(time.Hour, "a"),
		}},
		{"return", rlInterval, rlTolerance, []rlStep{
			ok(0, "a"), ok(0, "a"), ok(0, "a"),
			{do: "return", key: "a"},
			ok(0, "a"),
			take(0, "a", false, 10*time.Minute),
			// A missing key is no error, and gives nothing beyond the burst.
			{do: "return", key: "new"},
			ok(0, "new"), ok(0, "new"), ok(0, "new"),
			take(0, "new", false, 10*time.Minute),
		}},
		{"prune", rlInterval, rlTolerance, []rlStep{
			ok(0, "a"), ok(0, "b"), ok(0, "c"), // full at 10m
			ok(0, "d"), ok(0, "d"), ok(0, "d"), // full at 30m
			{do: "prune", at: 10*time.Minute - 1, limit: 10, n: 0},
			{do: "prune", at: 10 * time.Minute, limit: 2, n: 2},
			{do: "prune", at: 10 * time.Minute, limit: 2, n: 1},
			{do: "prune", at: 10 * time.Minute, limit: 2, n: 0},
			// d kept its bucket: one request refilled, then refused.
			ok(10*time.Minute, "d"),
			take(10*time.Minute, "d", false, 10*time.Minute),
			// A pruned key starts full.
			ok(10*time.Minute, "a"), ok(10*time.Minute, "a"), ok(10*time.Minute, "a"),
			take(10*time.Minute, "a", false, 10*time.Minute),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ctx := newStore(t), t.Context()
			for i, st := range tt.steps {
				now := T0.Add(st.at)
				for range max(st.times, 1) {
					switch st.do {
					case "take":
						ok, wait, err := s.TakeRequest(ctx, st.key, tt.interval, tt.tolerance, now)
						if err != nil || ok != st.ok || wait != st.wait {
							t.Fatalf("step %d: take %s at +%v = %v, %v, %v; want %v, %v",
								i, st.key, st.at, ok, wait, err, st.ok, st.wait)
						}
					case "return":
						if err := s.ReturnRequest(ctx, st.key, tt.interval); err != nil {
							t.Fatalf("step %d: return %s: %v", i, st.key, err)
						}
					case "prune":
						if n, err := s.PruneRateLimits(ctx, now, st.limit); err != nil || n != st.n {
							t.Fatalf("step %d: prune at +%v = %d, %v; want %d", i, st.at, n, err, st.n)
						}
					}
				}
			}
		})
	}
	t.Run("concurrent takers never exceed the burst", func(t *testing.T) {
		testConcurrentTakers(t, newStore(t))
	})
}

// testConcurrentTakers has 8 takers race for one key's burst of 40, all at
// one instant: exactly 40 are let through.
func testConcurrentTakers(t *testing.T, s RateLimitStore) {
	const burst, takers, each = 40, 8, 10
	interval := time.Hour / burst
	var allowed atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, takers)
	for g := range takers {
		wg.Go(func() {
			for range each {
				ok, _, err := s.TakeRequest(t.Context(), "shared", interval, time.Hour-interval, T0)
				if err != nil {
					errs <- fmt.Errorf("taker %d: %w", g, err)
					return
				}
				if ok {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := allowed.Load(); n != burst {
		t.Fatalf("%d requests let through for one key, want exactly %d", n, burst)
	}
}
