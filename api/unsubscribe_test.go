package api_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/repo/repotest"
)

// Mail providers POST the one-click unsubscribe (RFC 8058) as
// multipart/form-data (RFC 7578), browsers as a URL-encoded form, and some
// clients with no body: each unsubscribes the address of the link.
func TestOneClickUnsubscribeEncodings(t *testing.T) {
	var multi bytes.Buffer
	w := multipart.NewWriter(&multi)
	w.WriteField("List-Unsubscribe", "One-Click")
	w.Close()
	tests := []struct {
		name, contentType, body string
	}{
		{"multipart/form-data", w.FormDataContentType(), multi.String()},
		{"urlencoded", "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click"},
		{"no body", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			organiser := h.login("org@example.org")
			h.do("POST", "/v1/games", organiser, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated)
			u, err := url.Parse(only(t, h.deliver(), "ann@example.org").Unsubscribe)
			if err != nil || u.RawQuery == "" {
				t.Fatalf("unsubscribe link %v, %v", u, err)
			}
			var body any
			var headers []string
			if tt.body != "" {
				body, headers = tt.body, []string{"Content-Type", tt.contentType}
			}
			h.do("POST", "/unsubscribe?"+u.RawQuery, "", body, headers...).want(t, http.StatusOK)
			var off int
			err = repotest.SQL(t, h.dsn).QueryRowContext(t.Context(),
				`SELECT count(*) FROM unsubscribes WHERE email = 'ann@example.org'`).Scan(&off)
			if err != nil || off != 1 {
				t.Errorf("ann@example.org unsubscribed: %v, %v", off, err)
			}
		})
	}
}
