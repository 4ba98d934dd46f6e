package apitest

import (
	"fmt"
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
