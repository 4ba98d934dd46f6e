// Package apitest lets tests talk to the API over real HTTP while checking
// that every response they see conforms to openapi.yaml: status documented for
// the operation, headers, content type and body schema, and a problem+json
// body for every error and for paths or methods the contract does not know.
// The events of a stream are checked as the test reads them, and a webhook
// receiver checks each message it gets with CheckWebhook: what the server
// sends outside a response body is held to the contract too.
package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// NewServer serves h over HTTP until the test ends and returns the server and
// a client whose responses are all checked against openapi.yaml. Use the
// client for every request: a nonconforming response fails the test.
func NewServer(t testing.TB, h http.Handler) (*httptest.Server, *http.Client) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, &http.Client{Transport: Transport(t, srv.Client().Transport)}
}

// Transport wraps base (nil means http.DefaultTransport) so that every
// response passing through it is checked against openapi.yaml.
func Transport(t testing.TB, base http.RoundTripper) http.RoundTripper {
	t.Helper()
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	if base == nil {
		base = http.DefaultTransport
	}
	return &checker{t: t, base: base, contract: c}
}

type checker struct {
	t        testing.TB
	base     http.RoundTripper
	contract *contract.Contract
}

func (ch *checker) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := ch.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt == "text/event-stream" && res.StatusCode < 400 {
		// A stream does not end: its headers are checked, and its body is
		// the test's to read.
		if err := ch.checkResponse(req, res, nil, true); err != nil {
			ch.t.Errorf("%s %s answered %d, which does not conform to openapi.yaml: %v",
				req.Method, req.URL.Path, res.StatusCode, err)
		}
		if req.Method != http.MethodHead {
			res.Body = ch.checkEvents(req, res)
		}
		return res, nil
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	if err := ch.check(req, res, body); err != nil {
		// Errorf, not Fatalf: RoundTrip may run outside the test goroutine.
		ch.t.Errorf("%s %s answered %d, which does not conform to openapi.yaml: %v",
			req.Method, req.URL.Path, res.StatusCode, err)
	}
	return res, nil
}

func (ch *checker) check(req *http.Request, res *http.Response, body []byte) error {
	if req.Method == http.MethodOptions && req.Header.Get("Access-Control-Request-Method") != "" {
		return nil // a CORS preflight is answered by the CORS protocol, not an operation
	}
	if res.StatusCode >= 400 {
		if err := ch.checkProblem(req, res, body); err != nil {
			return err
		}
	}
	return ch.checkResponse(req, res, body, req.Method == http.MethodHead)
}

// checkResponse checks a response against its operation; without its body
// when noBody (a HEAD response, a stream).
func (ch *checker) checkResponse(req *http.Request, res *http.Response, body []byte, noBody bool) error {
	route, params, err := ch.contract.FindRoute(req)
	if err != nil {
		if res.StatusCode < 400 {
			return fmt.Errorf("not an operation of the contract, yet status %d", res.StatusCode)
		}
		return nil // an unknown path or method, answered with a problem
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    req,
			PathParams: params,
			Route:      route,
		},
		Status:  res.StatusCode,
		Header:  res.Header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, ExcludeResponseBody: noBody},
	}
	input.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(req.Context(), input)
}

// checkProblem checks an error response against the Problem schema, whether
// or not the contract lists the operation.
func (ch *checker) checkProblem(req *http.Request, res *http.Response, body []byte) error {
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt != "application/problem+json" {
		return fmt.Errorf("error with Content-Type %q, want application/problem+json", mt)
	}
	if req.Method == http.MethodHead {
		return nil // no body
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("problem body: %w", err)
	}
	if err := ch.contract.Doc.Components.Schemas["Problem"].Value.VisitJSON(v); err != nil {
		return fmt.Errorf("problem body: %w", err)
	}
	if status, _ := v.(map[string]any)["status"].(float64); int(status) != res.StatusCode {
		return fmt.Errorf("problem status %v, response status %d", status, res.StatusCode)
	}
	return nil
}
