package egress_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify/egress"
)

// rebinding answers a public address to its first lookup and loopback to
// every later one: what a DNS rebinding attacker's name server does.
type rebinding struct{ lookups atomic.Int32 }

func (r *rebinding) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	if r.lookups.Add(1) == 1 {
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	}
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

func TestClientRefusesRebinding(t *testing.T) {
	var reached atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached.Store(true) }))
	defer srv.Close()
	port := srv.Listener.Addr().(interface{ AddrPort() netip.AddrPort }).AddrPort().Port()
	g := &egress.Guard{Resolver: &rebinding{}, Log: slog.New(slog.DiscardHandler)}
	if err := g.CheckURL(t.Context(), "https://rebind.example/hook"); err != nil {
		t.Fatalf("registration: %v", err)
	}
	u := &url.URL{Scheme: "http", Host: "rebind.example:" + strconv.Itoa(int(port)), Path: "/hook"}
	resp, err := g.Client(5*time.Second).Post(u.String(), "application/json", nil)
	if err == nil {
		resp.Body.Close()
		t.Fatal("the request reached loopback")
	}
	if !errors.Is(err, egress.ErrRefused) {
		t.Errorf("error %v, want ErrRefused", err)
	}
	if reached.Load() {
		t.Error("the server inside was reached")
	}
}

func TestClientDialsLiteralLoopbackOnlyWhenAllowed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	for _, allow := range []bool{false, true} {
		g := &egress.Guard{AllowPrivate: allow}
		resp, err := g.Client(5 * time.Second).Get(srv.URL)
		if err == nil {
			resp.Body.Close()
		}
		if allow != (err == nil) {
			t.Errorf("allow private %v: error %v", allow, err)
		}
	}
}

func TestClientFollowsNoRedirectAndNoProxy(t *testing.T) {
	// A proxy that would answer everything: the client must not use it.
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("http_proxy", "http://127.0.0.1:1")
	var followed atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("/hook", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/inside", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/inside", func(http.ResponseWriter, *http.Request) { followed.Store(true) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	g := &egress.Guard{AllowPrivate: true}
	resp, err := g.Client(5*time.Second).Post(srv.URL+"/hook", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || followed.Load() {
		t.Errorf("status %d, followed %v: want the redirect itself, not followed", resp.StatusCode, followed.Load())
	}
}
