package domain

import (
	"context"
	"time"
)

// RateLimiter is the port of the request rate limits (package api). It is a
// port, not memory of the server's, because a limit must hold across every
// server instance on one store: buckets kept per process would give an
// attacker the limit once per instance.
//
// Callers pass interval > 0 and tolerance >= 0 (a limit of N requests per
// period P has interval P/N and tolerance P-interval). A key's bucket that
// is full again is the same as one never used, so a store may forget it
// (see repo/port.Housekeeping's PruneRateLimits).
type RateLimiter interface {
	// TakeRequest takes one request from the bucket named key, under the generic cell rate
	// algorithm: the store keeps, per key, the time the bucket is full again (full). With
	// f = max(full, now): if f-now > tolerance it takes nothing and returns ok=false and
	// wait = f-now-tolerance; else it stores full = f+interval and returns ok=true.
	TakeRequest(ctx context.Context, key string, interval, tolerance time.Duration, now time.Time) (ok bool, wait time.Duration, err error)
	// ReturnRequest gives back a request taken (full -= interval), when a later limit refused
	// the request after all. A missing key is no error.
	ReturnRequest(ctx context.Context, key string, interval time.Duration) error
}
