package api

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// testContract stands in for openapi.yaml so that validation and error
// mapping can be tested before the real API has operations with input.
const testContract = `
openapi: 3.0.3
info: {title: test, version: "1"}
paths:
  /items:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [name]
              properties:
                name: {type: string, maxLength: 5}
      responses:
        "204": {description: stored}
  /items/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        "204": {description: found}
`

// newBehaviourServer serves testContract plus routes that fail in each way a
// handler can. Only the /items routes are in the contract; the others pass
// through validation, as unknown routes do.
func newBehaviourServer(t *testing.T) *Server {
	t.Helper()
	c, err := contract.Parse([]byte(testContract))
	if err != nil {
		t.Fatal(err)
	}
	s, err := newServer(withUses(Config{DB: testDB(t), Secret: testSecret, Logger: slog.New(slog.DiscardHandler)}), c)
	if err != nil {
		t.Fatal(err)
	}
	s.echo.POST("/items", func(c echo.Context) error {
		var item struct{ Name string }
		if err := json.NewDecoder(c.Request().Body).Decode(&item); err != nil {
			return err
		}
		return c.NoContent(http.StatusNoContent)
	})
	s.echo.GET("/items/:id", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
	s.echo.GET("/panic", func(echo.Context) error { panic("boom") })
	s.echo.GET("/fail", func(echo.Context) error { return errors.New("database password is hunter2") })
	s.echo.GET("/forbidden", func(echo.Context) error { return echo.ErrForbidden })
	s.echo.GET("/illegal", func(echo.Context) error {
		p := NewProblem(http.StatusUnprocessableEntity, "illegal_turn", "That piece cannot jump there.")
		p.Extensions = map[string]any{"rule": "jump", "index": 2, "code": "overridden?"}
		return p
	})
	s.echo.POST("/read", func(c echo.Context) error {
		_, err := io.ReadAll(c.Request().Body)
		return err
	})
	return s
}

func TestBehaviour(t *testing.T) {
	huge := strings.Repeat("x", maxBodyBytes+1)
	tests := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        io.Reader
		wantStatus  int
		wantCode    string
		wantDetail  string // substring of detail
		wantMembers map[string]any
	}{
		{name: "valid body", method: "POST", path: "/items", body: strings.NewReader(`{"name":"ab"}`), wantStatus: 204},
		{name: "valid path param", method: "GET", path: "/items/7", wantStatus: 204},
		{
			name: "unknown member", method: "POST", path: "/items", body: strings.NewReader(`{"name":"ab","admin":true}`),
			wantStatus: 400, wantCode: "invalid_request", wantDetail: `request body: property "admin" is unsupported`,
		},
		{
			name: "string too long", method: "POST", path: "/items", body: strings.NewReader(`{"name":"abcdef"}`),
			wantStatus: 400, wantCode: "invalid_request", wantDetail: "request body: /name: maximum string length is 5",
		},
		{
			name: "missing body", method: "POST", path: "/items",
			wantStatus: 400, wantCode: "invalid_request", wantDetail: "request body: value is required but missing",
		},
		{
			name: "not JSON", method: "POST", path: "/items", body: strings.NewReader(`{"name":`),
			wantStatus: 400, wantCode: "invalid_request", wantDetail: "request body: failed to decode request body",
		},
		{
			name: "wrong content type", method: "POST", path: "/items", contentType: "text/plain", body: strings.NewReader(`name=ab`),
			wantStatus: 400, wantCode: "invalid_request", wantDetail: "Content-Type",
		},
		{
			name: "bad path param", method: "GET", path: "/items/seven",
			wantStatus: 400, wantCode: "invalid_request", wantDetail: `path parameter "id"`,
		},
		{
			// No Content-Length: the limit bites while the validator reads.
			name: "streamed body too large", method: "POST", path: "/items", body: io.MultiReader(strings.NewReader(huge)),
			wantStatus: 413, wantCode: "body_too_large",
		},
		{
			name: "streamed body too large for a handler", method: "POST", path: "/read", body: io.MultiReader(strings.NewReader(huge)),
			wantStatus: 413, wantCode: "body_too_large",
		},
		{name: "panic", method: "GET", path: "/panic", wantStatus: 500, wantCode: "internal"},
		{name: "plain error reveals nothing", method: "GET", path: "/fail", wantStatus: 500, wantCode: "internal", wantDetail: "unexpected"},
		{name: "echo error", method: "GET", path: "/forbidden", wantStatus: 403, wantCode: "forbidden"},
		{
			name: "problem with extensions", method: "GET", path: "/illegal", wantStatus: 422, wantCode: "illegal_turn",
			wantMembers: map[string]any{
				"type": problemTypePrefix + "illegal_turn", "title": "Unprocessable Entity", "status": 422.0,
				"detail": "That piece cannot jump there.", "rule": "jump", "index": 2.0,
			},
		},
	}
	srv := httptest.NewServer(newBehaviourServer(t))
	t.Cleanup(srv.Close)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tt.method, srv.URL+tt.path, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", res.StatusCode, tt.wantStatus, body)
			}
			checkSecurityHeaders(t, res.Header)
			if tt.wantCode == "" {
				return
			}
			if ct := res.Header.Get("Content-Type"); ct != ContentTypeProblem {
				t.Errorf("Content-Type = %q, want %q", ct, ContentTypeProblem)
			}
			var p map[string]any
			if err := json.Unmarshal(body, &p); err != nil {
				t.Fatalf("body %s: %v", body, err)
			}
			if p["code"] != tt.wantCode {
				t.Errorf("code = %v, want %s", p["code"], tt.wantCode)
			}
			if detail, _ := p["detail"].(string); !strings.Contains(detail, tt.wantDetail) || strings.Contains(detail, "hunter2") {
				t.Errorf("detail = %q, want it to contain %q", detail, tt.wantDetail)
			}
			for k, v := range tt.wantMembers {
				if p[k] != v {
					t.Errorf("%s = %v, want %v", k, p[k], v)
				}
			}
		})
	}
}

func TestProblemFor(t *testing.T) {
	tests := []struct {
		err        error
		wantStatus int
		wantCode   string
	}{
		{NewProblem(409, "conflict", "x"), 409, "conflict"},
		{&http.MaxBytesError{Limit: 1}, 413, "body_too_large"},
		{echo.NewHTTPError(400, "bad input").SetInternal(&http.MaxBytesError{Limit: 1}), 413, "body_too_large"},
		{echo.ErrNotFound, 404, "not_found"},
		{echo.ErrMethodNotAllowed, 405, "method_not_allowed"},
		{echo.ErrUnsupportedMediaType, 415, "unsupported_media_type"},
		{echo.ErrStatusRequestEntityTooLarge, 413, "body_too_large"},
		{echo.NewHTTPError(http.StatusGone), 410, "http_error"},
		{echo.ErrInternalServerError, 500, "internal"},
		{echo.ErrBadGateway, 500, "internal"},
		{errors.New("anything"), 500, "internal"},
	}
	for _, tt := range tests {
		p := problemFor(tt.err)
		if p.Status != tt.wantStatus || p.Code != tt.wantCode {
			t.Errorf("problemFor(%v) = %d %s, want %d %s", tt.err, p.Status, p.Code, tt.wantStatus, tt.wantCode)
		}
		if p.Detail == "" {
			t.Errorf("problemFor(%v) has no detail", tt.err)
		}
	}
}

func serve(t *testing.T, h http.Handler, method, target string, header http.Header, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), method, target, strings.NewReader(body))
	maps.Copy(req.Header, header)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Validation shares one router and one contract across requests.
func TestConcurrentRequests(t *testing.T) {
	srv := httptest.NewServer(newBehaviourServer(t))
	t.Cleanup(srv.Close)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			body, want := `{"name":"ab"}`, http.StatusNoContent
			if i%2 == 1 {
				body, want = `{"name":"abcdefgh"}`, http.StatusBadRequest
			}
			res, err := srv.Client().Post(srv.URL+"/items", "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			res.Body.Close()
			if res.StatusCode != want {
				t.Errorf("status %d, want %d", res.StatusCode, want)
			}
		})
	}
	wg.Wait()
}
