package api_test

import (
	"bytes"
	"html"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

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

// Changed his mind: the page after unsubscribing turns reminders back on,
// and the next deadline's reminder arrives.
func TestResubscribeBringsRemindersBack(t *testing.T) {
	h := newHarness(t)
	body := twoPlayers(strings.Repeat("0", 60))
	body["time"] = map[string]any{"kind": "per_turn", "days": 2}
	h.do("POST", "/v1/games", h.login("org@example.org"), body).want(t, http.StatusCreated)
	u, err := url.Parse(only(t, h.deliver(), "ann@example.org").Unsubscribe)
	if err != nil {
		t.Fatal(err)
	}
	done := h.do("POST", "/unsubscribe?"+u.RawQuery, "", nil).want(t, http.StatusOK)
	resub := regexp.MustCompile(`action="(/resubscribe\?[^"]+)"`).FindStringSubmatch(string(done.body))
	if resub == nil {
		t.Fatalf("the page after unsubscribing offers no way back:\n%s", done.body)
	}
	back := h.do("POST", html.UnescapeString(resub[1]), "", nil).want(t, http.StatusOK)
	if !strings.Contains(string(back.body), "Reminders are on again") {
		t.Errorf("page after resubscribing:\n%s", back.body)
	}
	h.do("POST", html.UnescapeString(resub[1]), "", nil).want(t, http.StatusOK) // again: nothing changes

	h.clock.Advance(25 * time.Hour)
	h.tick()
	// Unsubscribed, she got nothing at this time (TestUnsubscribeStopsReminders).
	only(t, h.deliver(), "ann@example.org")
	h.refused(t, http.StatusBadRequest, "invalid_link", "POST", "/resubscribe?t=abc", "", nil)
}

// The pages of an email's footer links speak the reader's language (the
// browser's, or the one picked on the page, kept through the button), look
// like the play page, and offer the other languages.
func TestMailChoicePagesSpeakTheReadersLanguage(t *testing.T) {
	h := newHarness(t)
	h.do("POST", "/v1/games", h.login("org@example.org"), twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated)
	m := only(t, h.deliver(), "ann@example.org")
	u, err := url.Parse(m.Unsubscribe)
	if err != nil {
		t.Fatal(err)
	}
	token := u.Query().Get("t")
	tests := []struct {
		name, path, acceptLanguage, lang string
		want                             []string
	}{
		{"unsubscribe, browser in German", "/unsubscribe?t=" + token, "de-CH,de;q=0.9,en;q=0.5", "de",
			[]string{"Erinnerungen für ann@example.org abbestellen?", `action="/unsubscribe?lang=de&amp;t=`}},
		{"unsubscribe, French picked", "/unsubscribe?t=" + token + "&lang=fr", "de", "fr",
			[]string{"Désactiver les rappels pour ann@example.org\u00a0?", `action="/unsubscribe?lang=fr&amp;t=`, `hreflang="it"`}},
		{"unsubscribe, unknown language", "/unsubscribe?t=" + token, "ja", "en",
			[]string{"Turn off reminders for ann@example.org?"}},
		{"never email, Spanish", neverEmailPath(t, h, "ann@example.org"), "es-MX", "es",
			[]string{"¿No volver a escribir nunca a ann@example.org?", `action="/never-email?lang=es&amp;t=`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.do("GET", tt.path, "", nil, "Accept-Language", tt.acceptLanguage).want(t, http.StatusOK)
			page := string(r.body)
			for _, w := range append(tt.want, `<html lang="`+tt.lang+`">`, `href="/assets/play.css"`) {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q:\n%s", w, page)
				}
			}
			if got := r.header.Get("Content-Language"); got != tt.lang {
				t.Errorf("Content-Language %q, want %q", got, tt.lang)
			}
		})
	}
	// The button keeps the language: the page after it is Italian too.
	r := h.do("POST", "/unsubscribe?lang=it&t="+token, "", nil, "Accept-Language", "en").want(t, http.StatusOK)
	if page := string(r.body); !strings.Contains(page, "Promemoria disattivati") || !strings.Contains(page, `action="/resubscribe?lang=it&amp;t=`) {
		t.Errorf("page after the Italian button:\n%s", page)
	}
}
