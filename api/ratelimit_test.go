package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/repo"
)

// login asks srv for a login email, and says the status.
func login(t *testing.T, srv *Server, email string) int {
	t.Helper()
	ts, client := apitest.NewServer(t, srv)
	res, err := client.Post(ts.URL+"/v1/auth/login", "application/json", strings.NewReader(`{"email":"`+email+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// Two servers on one store share each limit: once one has let a client's
// burst through, the other refuses it too.
func TestLimitsSharedByServers(t *testing.T) {
	db := testDB(t)
	var servers []*Server
	for range 2 {
		s, err := New(withUses(Config{DB: db, Secret: testSecret, Logger: slog.New(slog.DiscardHandler),
			RateLimits: RateLimits{Login: RateLimit{Requests: 3, Per: time.Hour}}}))
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, s)
	}
	for i := range 3 {
		if got := login(t, servers[0], fmt.Sprintf("p%d@example.org", i)); got != http.StatusAccepted {
			t.Fatalf("login %d on the first server: %d", i+1, got)
		}
	}
	if got := login(t, servers[1], "late@example.org"); got != http.StatusTooManyRequests {
		t.Fatalf("the second server answered %d once the first had used the burst, want 429", got)
	}
}

// failingLimits is a store whose rate limits cannot be read.
type failingLimits struct{ repo.Store }

func (failingLimits) TakeRequest(context.Context, string, time.Duration, time.Duration, time.Time) (bool, time.Duration, error) {
	return false, 0, errors.New("disk on fire")
}

// A limit the store cannot check lets nothing through: a 500, and no mail.
func TestLimitStoreError(t *testing.T) {
	db := testDB(t)
	s, err := New(withUses(Config{DB: failingLimits{db}, Secret: testSecret, Logger: slog.New(slog.DiscardHandler)}))
	if err != nil {
		t.Fatal(err)
	}
	if got := login(t, s, "ann@example.org"); got != http.StatusInternalServerError {
		t.Fatalf("login with a failing limit: %d, want 500", got)
	}
	if b, err := db.Backlog(t.Context(), time.Now()); err != nil || b.MailPending != 0 {
		t.Fatalf("backlog %+v, %v: mail was queued", b, err)
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
