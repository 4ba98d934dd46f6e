package apitest

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
)

// recorder collects the failures the checker reports instead of failing.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
}

const validProblem = `{"type":"tag:x","title":"Not Found","status":404,"detail":"d","code":"not_found"}`

func TestChecker(t *testing.T) {
	tests := []struct {
		name        string
		path        string
		status      int
		contentType string
		body        string
		wantFail    bool
	}{
		{"conforming", "/healthz", 200, "application/json", `{"status":"ok"}`, false},
		{"wrong value", "/healthz", 200, "application/json", `{"status":"fine"}`, true},
		{"unknown member", "/healthz", 200, "application/json", `{"status":"ok","x":1}`, true},
		{"wrong content type", "/healthz", 200, "text/plain", `ok`, true},
		{"undocumented status", "/healthz", 418, "application/problem+json", validProblem, true},
		{"documented error", "/readyz", 503, "application/problem+json", `{"type":"t","title":"t","status":503,"detail":"d","code":"not_ready"}`, false},
		{"unknown path, problem", "/nope", 404, "application/problem+json", validProblem, false},
		{"unknown path, not a problem", "/nope", 404, "text/plain", "404 page not found", true},
		{"unknown path, problem without code", "/nope", 404, "application/problem+json", `{"type":"t","title":"t","status":404,"detail":"d"}`, true},
		{"unknown path, status mismatch", "/nope", 400, "application/problem+json", validProblem, true},
		{"unknown path, success", "/nope", 200, "application/json", `{}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			srv, client := NewServer(rec, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				if tt.status == http.StatusServiceUnavailable {
					w.Header().Set("Retry-After", "5") // the contract requires it of every 503
				}
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			}))
			res, err := client.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if got := len(rec.failed) > 0; got != tt.wantFail {
				t.Errorf("failed = %v %q, want failure: %v", got, rec.failed, tt.wantFail)
			}
		})
	}
}

// The events of a stream are checked as they are read: data that is no
// Event, an event: that is not its kind, or an event without an id fails
// the test; keep-alive comments and conforming events do not.
func TestCheckerReadsEvents(t *testing.T) {
	const turn = `{"kind":"turn_played","game_id":"g1","color":"white","ply":1,"at":"2026-11-21T12:00:00Z","turn":"e5e4"}`
	tests := []struct {
		name     string
		stream   string
		wantFail bool
	}{
		{"conforming", ": stream\n\nid: 0-1\nevent: turn_played\ndata: " + turn + "\n\n: keep-alive\n\n", false},
		{"unknown kind", "id: 0-1\nevent: nap\ndata: {\"kind\":\"nap\",\"ply\":0,\"at\":\"2026-11-21T12:00:00Z\"}\n\n", true},
		{"missing member", "id: 0-1\nevent: turn_played\ndata: {\"kind\":\"turn_played\",\"ply\":1,\"at\":\"2026-11-21T12:00:00Z\"}\n\n", true},
		{"event is not the kind", "id: 0-1\nevent: your_turn\ndata: " + turn + "\n\n", true},
		{"no id", "event: turn_played\ndata: " + turn + "\n\n", true},
		{"not JSON", "id: 0-1\nevent: turn_played\ndata: {\n\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			srv, client := NewServer(rec, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				fmt.Fprint(w, tt.stream)
			}))
			res, err := client.Get(srv.URL + "/v1/me/events")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadAll(res.Body); err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if got := len(rec.failed) > 0; got != tt.wantFail {
				t.Errorf("failed = %v %q, want failure: %v", got, rec.failed, tt.wantFail)
			}
		})
	}
}

// A webhook message is checked against createWebhook's callback: its
// headers and its body.
func TestCheckWebhook(t *testing.T) {
	header := http.Header{"Content-Type": {"application/json"}, "Webhook-Id": {"msg_1"},
		"Webhook-Timestamp": {"1790000000"}, "Webhook-Signature": {"v1,abc="}}
	ping := `{"type":"ping","timestamp":"2026-11-21T12:00:00Z","data":{"endpoint_id":1}}`
	without := func(name string) http.Header {
		h := header.Clone()
		h.Del(name)
		return h
	}
	tests := []struct {
		name     string
		header   http.Header
		body     string
		wantFail bool
	}{
		{"conforming", header, ping, false},
		{"unknown type", header, `{"type":"nap","timestamp":"2026-11-21T12:00:00Z","data":{}}`, true},
		{"missing data member", header, `{"type":"ping","timestamp":"2026-11-21T12:00:00Z","data":{}}`, true},
		{"no webhook-id", without("Webhook-Id"), ping, true},
		{"timestamp not seconds", func() http.Header { h := header.Clone(); h.Set("Webhook-Timestamp", "soon"); return h }(), ping, true},
		{"not JSON", header, `{`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			CheckWebhook(rec, tt.header, []byte(tt.body))
			if got := len(rec.failed) > 0; got != tt.wantFail {
				t.Errorf("failed = %v %q, want failure: %v", got, rec.failed, tt.wantFail)
			}
		})
	}
}
