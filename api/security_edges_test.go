package api_test

// The security test list, continued: the edges of HTTP (caching, the
// Authorization scheme, HEAD, cross-origin requests).

import (
	"net/http"
	"testing"
)

// The bearer scheme is case-insensitive (RFC 9110 11.1); anything that is
// not a bearer token is refused with 401 and changes nothing.
func TestBearerScheme(t *testing.T) {
	h := newAttackHarness(t)
	token := h.login("ann@example.org")
	for _, header := range []string{"Bearer " + token, "bearer " + token, "BEARER " + token, "BeArEr " + token, "Bearer  " + token, " Bearer " + token + " "} {
		t.Run(header[:8], func(t *testing.T) {
			h.do("GET", "/v1/me", "", nil, "Authorization", header).want(t, http.StatusOK)
		})
	}
	for _, header := range []string{"", "Bearer", "Bearer ", "Bearer" + token, "Basic " + token, "Token " + token, token, "Bearer x" + token} {
		t.Run("refused "+header[:min(len(header), 8)], func(t *testing.T) {
			h.refused(t, http.StatusUnauthorized, "unauthorized", "PATCH", "/v1/me", "", map[string]any{"name": "Eve"}, "Authorization", header)
		})
	}
}
