package api

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost"
	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/internal/app"
	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/repotest"
)

// testSecret signs tokens in tests.
var testSecret = []byte("0123456789abcdef0123456789abcdef")

// testDB opens a fresh database (see repotest.DSN).
func testDB(t testing.TB) repo.Store {
	t.Helper()
	return repotest.Open(t)
}

// closedDB is a database that no longer answers.
func closedDB(t testing.TB) repo.Store {
	db := testDB(t)
	db.Close()
	return db
}

// withUses gives cfg use cases of its own on its store, built as cmd/api
// builds them (see package app).
func withUses(cfg Config) Config {
	cfg.App = app.New(app.Config{Store: cfg.DB,
		PushEndpointCheck: PushEndpointCheck(nil), WebhookURLCheck: WebhookURLCheck(nil)})
	return cfg
}

func newTestServer(t *testing.T, db repo.Store) *Server {
	t.Helper()
	s, err := New(withUses(Config{DB: db, Secret: testSecret, Logger: slog.New(slog.DiscardHandler)}))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every response, errors included, goes through apitest's client, which
// fails the test if it does not conform to openapi.yaml.
func TestEndpoints(t *testing.T) {
	tests := []struct {
		name        string
		db          repo.Store
		method      string
		path        string
		header      http.Header
		body        string
		wantStatus  int
		wantType    string // media type
		wantCode    string // problem code, for errors
		wantBody    string // exact body, if set
		wantHeaders map[string]string
	}{
		{name: "alive", method: "GET", path: "/healthz", wantStatus: 200, wantType: "application/json", wantBody: `{"status":"ok"}` + "\n"},
		{name: "ready", method: "GET", path: "/readyz", wantStatus: 200, wantType: "application/json"},
		{
			name: "not ready", db: closedDB(t), method: "GET", path: "/readyz",
			wantStatus: 503, wantType: ContentTypeProblem, wantCode: "not_ready",
		},
		{name: "contract", method: "GET", path: "/openapi.yaml", wantStatus: 200, wantType: "application/yaml", wantBody: string(lesspost.OpenAPI)},
		{name: "unknown path", method: "GET", path: "/nope?token=x", wantStatus: 404, wantType: ContentTypeProblem, wantCode: "not_found"},
		{
			name: "unknown method", method: "DELETE", path: "/healthz", wantStatus: 405, wantType: ContentTypeProblem,
			wantCode: "method_not_allowed", wantHeaders: map[string]string{"Allow": "OPTIONS, GET, HEAD"},
		},
		{
			name: "body too large", method: "POST", path: "/healthz", body: strings.Repeat("x", maxBodyBytes+1),
			wantStatus: 413, wantType: ContentTypeProblem, wantCode: "body_too_large",
		},
		{
			name: "request id kept", method: "GET", path: "/healthz", header: http.Header{"X-Request-Id": {"abc-123"}},
			wantStatus: 200, wantType: "application/json", wantHeaders: map[string]string{"X-Request-Id": "abc-123"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.db == nil {
				tt.db = testDB(t)
			}
			srv, client := apitest.NewServer(t, newTestServer(t, tt.db))
			req, err := http.NewRequestWithContext(t.Context(), tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.header {
				req.Header[k] = v
			}
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)

			if res.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d; body %s", res.StatusCode, tt.wantStatus, body)
			}
			if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, tt.wantType) {
				t.Errorf("Content-Type = %q, want %q", got, tt.wantType)
			}
			if tt.wantBody != "" && string(body) != tt.wantBody {
				t.Errorf("body = %q, want %q", body, tt.wantBody)
			}
			if tt.wantCode != "" {
				if got := problemCode(t, body); got != tt.wantCode {
					t.Errorf("code = %q, want %q", got, tt.wantCode)
				}
			}
			checkSecurityHeaders(t, res.Header)
			if res.Header.Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id")
			}
			for k, v := range tt.wantHeaders {
				if got := res.Header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func checkSecurityHeaders(t *testing.T, h http.Header) {
	t.Helper()
	for k, v := range map[string]string{
		"Referrer-Policy":         "no-referrer",
		"X-Content-Type-Options":  "nosniff",
		"X-Frame-Options":         "DENY",
		"Content-Security-Policy": CSPAPI,
	} {
		if got := h.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

func problemCode(t *testing.T, body []byte) string {
	t.Helper()
	var p struct{ Code string }
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("problem body %q: %v", body, err)
	}
	return p.Code
}

func TestRequestIDReplacedWhenUnsafe(t *testing.T) {
	for _, id := range []string{"", "has space", "line\nbreak", strings.Repeat("a", 65)} {
		got := serve(t, newTestServer(t, testDB(t)), "GET", "/healthz", http.Header{"X-Request-Id": {id}}, "")
		if rid := got.Header().Get("X-Request-Id"); rid == id || !validRequestID(rid) {
			t.Errorf("request id %q answered with %q, want a fresh one", id, rid)
		}
	}
}

// The log line names the request but leaks neither query string nor headers.
func TestRequestLog(t *testing.T) {
	var logs bytes.Buffer
	s, err := New(withUses(Config{DB: testDB(t), Secret: testSecret, Logger: slog.New(slog.NewJSONHandler(&logs, nil))}))
	if err != nil {
		t.Fatal(err)
	}
	serve(t, s, "GET", "/healthz?token=sekrit-query", http.Header{
		"Authorization": {"Bearer sekrit-header"},
		"X-Request-Id":  {"req-1"},
	}, "")

	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("log %q: %v", logs.String(), err)
	}
	for k, want := range map[string]any{"msg": "request", "method": "GET", "path": "/healthz", "status": 200.0, "request_id": "req-1"} {
		if line[k] != want {
			t.Errorf("log %s = %v, want %v", k, line[k], want)
		}
	}
	if _, ok := line["duration"]; !ok {
		t.Error("log has no duration")
	}
	if strings.Contains(logs.String(), "sekrit") {
		t.Errorf("log leaks a token: %s", logs.String())
	}
}

// ObserveRequest learns each request's route template, never its path,
// and no route for a request that matched none.
func TestObserveRequest(t *testing.T) {
	type seen struct {
		route, method string
		status        int
	}
	var got []seen
	s, err := New(withUses(Config{DB: testDB(t), Secret: testSecret, Logger: slog.New(slog.DiscardHandler), CORSOrigins: []string{"https://app.example.org"},
		ObserveRequest: func(route, method string, status int, elapsed time.Duration) {
			if elapsed <= 0 {
				t.Errorf("%s %s took %v", method, route, elapsed)
			}
			got = append(got, seen{route, method, status})
		}}))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method, target string
		header         http.Header
		want           seen
	}{
		{"GET", "/healthz", nil, seen{"/healthz", "GET", 200}},
		{"HEAD", "/healthz", nil, seen{"/healthz", "HEAD", 200}},
		{"GET", "/v1/games/g123", nil, seen{"/v1/games/:id", "GET", 401}},
		{"GET", "/v1/games/g123/nothing", nil, seen{"", "GET", 404}},
		{"GET", "/nothing", nil, seen{"", "GET", 404}},
		{"DELETE", "/v1/games/g123", nil, seen{"", "DELETE", 405}},
		{"OPTIONS", "/v1/games/g123", http.Header{"Origin": {"https://app.example.org"}, "Access-Control-Request-Method": {"GET"}},
			seen{"", "OPTIONS", 204}},
	}
	for _, tt := range tests {
		got = nil
		serve(t, s, tt.method, tt.target, tt.header, "")
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s %s: observed %+v, want %+v", tt.method, tt.target, got, tt.want)
		}
	}
}
