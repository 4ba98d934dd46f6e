package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeNow is a settable clock for limiter tests.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeNow() *fakeNow { return &fakeNow{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)} }

func (f *fakeNow) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeNow) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

// The allowance: Requests at once, then one per Per/Requests; after Per of
// quiet, the whole allowance again.
func TestLimiterAllowance(t *testing.T) {
	clock := newFakeNow()
	l := newLimiter(RateLimit{Requests: 10, Per: 10 * time.Minute}, 100, clock.Now)
	for i := range 10 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("request %d refused", i+1)
		}
	}
	ok, wait := l.allow("a")
	if ok || wait != time.Minute {
		t.Fatalf("11th request: ok %v, wait %v; want refused, 1m", ok, wait)
	}
	if ok, _ := l.allow("b"); !ok {
		t.Fatal("another key was refused")
	}
	clock.Advance(59 * time.Second)
	if ok, wait := l.allow("a"); ok || wait != time.Second {
		t.Fatalf("after 59s: ok %v, wait %v; want refused, 1s", ok, wait)
	}
	clock.Advance(time.Second)
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("refused after waiting as told")
	}
	if ok, _ := l.allow("a"); ok {
		t.Fatal("a second request allowed after one minute's refill")
	}
	clock.Advance(10 * time.Minute)
	for i := range 10 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("after the period, request %d refused", i+1)
		}
	}
	if ok, _ := l.allow("a"); ok {
		t.Fatal("the allowance grew beyond Requests")
	}
}

// Refused requests take nothing: hammering does not push the wait further.
func TestLimiterRefusalsAreFree(t *testing.T) {
	clock := newFakeNow()
	l := newLimiter(RateLimit{Requests: 2, Per: time.Hour}, 100, clock.Now)
	l.allow("a")
	l.allow("a")
	for range 1000 {
		l.allow("a")
	}
	if _, wait := l.allow("a"); wait != 30*time.Minute {
		t.Fatalf("wait %v after hammering, want 30m", wait)
	}
	l.undo("a")
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("undo did not give the request back")
	}
}

func TestLimiterForgetsIdleKeys(t *testing.T) {
	clock := newFakeNow()
	l := newLimiter(RateLimit{Requests: 5, Per: time.Minute}, 1000, clock.Now)
	for i := range 500 {
		l.allow(fmt.Sprint("k", i))
	}
	if n := l.size(); n != 500 {
		t.Fatalf("%d keys, want 500", n)
	}
	clock.Advance(time.Minute)
	l.allow("fresh")
	if n := l.size(); n != 1 {
		t.Fatalf("%d keys after every bucket refilled, want 1", n)
	}
}

// Memory is bounded even when every key is busy; the keys that go are the
// ones closest to a full bucket, so a hammering key keeps its record.
func TestLimiterMaxKeys(t *testing.T) {
	clock := newFakeNow()
	const maxKeys = 64
	l := newLimiter(RateLimit{Requests: 3, Per: time.Hour}, maxKeys, clock.Now)
	for range 3 {
		l.allow("hammer")
	}
	for i := range 10 * maxKeys {
		l.allow(fmt.Sprint("k", i))
		if n := l.size(); n > maxKeys {
			t.Fatalf("%d keys, bound %d", n, maxKeys)
		}
	}
	if ok, _ := l.allow("hammer"); ok {
		t.Fatal("eviction reset the key that had used its whole allowance")
	}
}

func TestLimiterConcurrent(t *testing.T) {
	clock := newFakeNow()
	l := newLimiter(RateLimit{Requests: 100, Per: time.Hour}, 10, clock.Now)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				if ok, _ := l.allow("shared"); ok {
					allowed.Add(1)
				}
				l.allow(fmt.Sprint("own", g, i)) // churn the key table
			}
		})
	}
	wg.Wait()
	if n := allowed.Load(); n != 100 {
		t.Fatalf("%d requests allowed for one key, want exactly 100", n)
	}
}

func TestDefaultRateLimits(t *testing.T) {
	got := RateLimits{Login: RateLimit{Requests: 3}, Token: RateLimit{Per: time.Minute}}.withDefaults()
	want := DefaultRateLimits
	want.Login.Requests = 3
	want.Token.Per = time.Minute
	if got != want {
		t.Errorf("withDefaults = %+v, want %+v", got, want)
	}
	if (RateLimits{}).withDefaults() != DefaultRateLimits {
		t.Error("the zero RateLimits are not the defaults")
	}
}

func TestClientKey(t *testing.T) {
	tests := []struct {
		name    string
		remote  string
		xff     []string
		proxies int
		want    string
	}{
		{"IPv4 peer", "203.0.113.7:5555", nil, 0, "203.0.113.7"},
		{"IPv6 peer is its /64", "[2001:db8:1:2:3:4:5:6]:443", nil, 0, "2001:db8:1:2::/64"},
		{"IPv4-mapped IPv6 peer", "[::ffff:203.0.113.7]:1", nil, 0, "203.0.113.7"},
		{"zone dropped", "[fe80::1%eth0]:1", nil, 0, "fe80::/64"},
		{"header ignored without trusted proxies", "203.0.113.7:1", []string{"198.51.100.1"}, 0, "203.0.113.7"},
		{"one proxy: the last entry", "10.0.0.1:1", []string{"6.6.6.6, 198.51.100.1"}, 1, "198.51.100.1"},
		{"two proxies: the second from the right", "10.0.0.1:1", []string{"6.6.6.6, 198.51.100.1", "10.0.0.2"}, 2, "198.51.100.1"},
		{"fewer entries than proxies", "10.0.0.1:1", []string{"198.51.100.1"}, 3, "198.51.100.1"},
		{"entry with a port", "10.0.0.1:1", []string{"198.51.100.1:8080"}, 1, "198.51.100.1"},
		{"IPv6 entry in brackets", "10.0.0.1:1", []string{"[2001:db8::1]"}, 1, "2001:db8::/64"},
		{"garbage entry: the peer", "10.0.0.1:1", []string{"unknown"}, 1, "10.0.0.1"},
		{"no header: the peer", "10.0.0.1:1", nil, 1, "10.0.0.1"},
		{"not an IP peer", "@", nil, 0, "@"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = tt.remote
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := clientKey(r, tt.proxies); got != tt.want {
				t.Errorf("clientKey = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRateLimitText(t *testing.T) {
	for text, want := range map[string]RateLimit{
		"10/10m": {10, 10 * time.Minute}, "60/1h": {60, time.Hour}, "5/90s": {5, 90 * time.Second},
		"3/36h": {3, 36 * time.Hour}, "1/1m30s": {1, 90 * time.Second},
	} {
		var got RateLimit
		if err := got.UnmarshalText([]byte(text)); err != nil || got != want {
			t.Errorf("UnmarshalText(%q) = %+v, %v; want %+v", text, got, err, want)
		}
		var back RateLimit
		if err := back.UnmarshalText([]byte(got.String())); err != nil || back != want {
			t.Errorf("%q does not read back: %+v, %v", got.String(), back, err)
		}
	}
	if got := DefaultRateLimits.Login.String(); got != "10/10m" {
		t.Errorf("String = %q", got)
	}
	for _, bad := range []string{"", "10", "0/1h", "-1/1h", "x/1h", "10/", "10/0s", "10/-1m", "10/soon", "1.5/1h"} {
		var r RateLimit
		if err := r.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) = %+v, want an error", bad, r)
		}
	}
}
