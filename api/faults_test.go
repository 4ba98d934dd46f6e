package api_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
	"github.com/lesspost/lesspost/repo/repotest"
)

// On a full disk a change is answered 503 unavailable with Retry-After
// (it was 500 internal), and /readyz turns to 503 though reads still work;
// once a few MB are free, both work again by themselves.
func TestFullDiskIsUnavailable(t *testing.T) {
	repotest.SQLiteOnly(t, "fills the disk of the SQLite file")
	disk := repotest.SmallDisk(t, 16<<20)
	h := newHarnessAt(t, repotest.PathIn(t, disk), func(c *serverConfig) {
		many := api.RateLimit{Requests: 1_000_000, Per: time.Hour}
		c.RateLimits.CreateGameAccount, c.RateLimits.CreateGameIP = many, many
	})
	organiser := h.login("org@example.org")
	n := 0
	create := func() response {
		n++ // new players each time: an address gets 50 emails a day that others caused
		return h.do("POST", "/v1/games", organiser, map[string]any{
			"players": []map[string]any{{"name": "Ann", "email": fmt.Sprintf("ann%d@example.org", n)},
				{"name": "Bob", "email": fmt.Sprintf("bob%d@example.org", n)}},
			"board": map[string]any{"walls": strings.Repeat("0", 60)},
		})
	}
	create().want(t, http.StatusCreated)
	// More than the WAL's limit (4 MiB) to free later; the rest filled.
	spare := filepath.Join(disk, "spare")
	if err := os.WriteFile(spare, make([]byte, 6<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	repotest.Fill(t, filepath.Join(disk, "filler"))

	r := create()
	for i := 0; r.status == http.StatusCreated && i < 1000; i++ {
		r = create()
	}
	r.want(t, http.StatusServiceUnavailable, "unavailable")
	if got := r.header.Get("Retry-After"); got != "5" {
		t.Errorf("Retry-After %q, want 5", got)
	}
	h.do("GET", "/v1/me", organiser, nil).want(t, http.StatusOK)
	h.do("GET", "/readyz", "", nil).want(t, http.StatusServiceUnavailable, "not_ready")

	if err := os.Remove(spare); err != nil {
		t.Fatal(err)
	}
	h.do("GET", "/readyz", "", nil).want(t, http.StatusOK)
	create().want(t, http.StatusCreated)
}

// A PostgreSQL database that stops answering (here a proxy that stops
// forwarding) gets requests answered 503 unavailable with Retry-After
// within a statement's timeout, or the request's, whichever is shorter
// (before, they waited as long as the freeze lasted), /readyz 503; once
// it answers again, so does the server.
func TestFrozenPostgres(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.DSN(t))
	serve := func(statement, request time.Duration) *http.Client {
		db, err := repo.OpenStoreWith(t.Context(), dsn, repo.StoreOptions{
			Postgres: postgres.Options{ConnectTimeout: 300 * time.Millisecond, StatementTimeout: statement}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		srv, err := (&serverConfig{Config: api.Config{DB: db, Secret: []byte(harnessSecret), BaseURL: "http://lesspost.test",
			Logger: slog.New(slog.DiscardHandler), RequestTimeout: request}}).newServer()
		if err != nil {
			t.Fatal(err)
		}
		ts, client := apitest.NewServer(t, srv)
		client.Transport = baseURL{ts.URL, client.Transport}
		return client
	}
	statementBound := serve(300*time.Millisecond, time.Minute)
	requestBound := serve(time.Minute, 500*time.Millisecond)
	t.Cleanup(proxy.Thaw) // before the stores close, which waits for their statements
	login := func(client *http.Client, email string) *http.Response {
		t.Helper()
		done := make(chan *http.Response, 1)
		go func() {
			res, err := client.Post("/v1/auth/login", "application/json", strings.NewReader(`{"email":"`+email+`"}`))
			if err != nil {
				t.Error(err)
			}
			done <- res
		}()
		select {
		case res := <-done:
			if res == nil {
				t.FailNow()
			}
			res.Body.Close()
			return res
		case <-time.After(time.Minute):
			t.Fatal("still no answer after a minute: the wait for the database is not bounded")
			return nil
		}
	}
	for _, client := range []*http.Client{statementBound, requestBound} {
		if res := login(client, "ann@example.org"); res.StatusCode != http.StatusAccepted {
			t.Fatalf("login: %d", res.StatusCode)
		}
	}

	proxy.Freeze()
	for name, client := range map[string]*http.Client{"statement timeout": statementBound, "request timeout": requestBound} {
		res := login(client, "bob@example.org")
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "5" {
			t.Errorf("%s: login on a frozen database: %d, Retry-After %q; want 503, 5", name, res.StatusCode, res.Header.Get("Retry-After"))
		}
	}
	if res, err := statementBound.Get("/readyz"); err != nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz on a frozen database: %v, %v; want 503", res, err)
	}

	proxy.Thaw()
	if res := login(statementBound, "bob@example.org"); res.StatusCode != http.StatusAccepted {
		t.Errorf("login after the thaw: %d", res.StatusCode)
	}
}

// baseURL sends requests for a path to the test server.
type baseURL struct {
	url  string
	next http.RoundTripper
}

func (b baseURL) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host == "" {
		u, err := url.Parse(b.url + req.URL.String())
		if err != nil {
			return nil, err
		}
		req = req.Clone(req.Context())
		req.URL, req.Host = u, u.Host
	}
	return b.next.RoundTrip(req)
}
