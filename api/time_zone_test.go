package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// An account keeps the time zone its owner's browser tells (an IANA name);
// a name the server does not know is refused and changes nothing; empty
// goes back to UTC.
func TestAccountTimeZone(t *testing.T) {
	h := newHarness(t)
	ann := h.login("ann@example.org")
	var me struct {
		TimeZone string `json:"time_zone"`
		Locale   string `json:"locale"`
	}
	h.do("GET", "/v1/me", ann, nil).want(t, http.StatusOK).decode(t, &me)
	if me.TimeZone != "" {
		t.Errorf("a new account's zone is %q, want none", me.TimeZone)
	}
	h.do("PATCH", "/v1/me", ann, map[string]any{"time_zone": "America/Argentina/Buenos_Aires"}).want(t, http.StatusOK).decode(t, &me)
	if me.TimeZone != "America/Argentina/Buenos_Aires" {
		t.Errorf("zone %q after setting it", me.TimeZone)
	}
	for _, bad := range []string{"Mars/Olympus_Mons", "Local", "../../etc/passwd", "UTC+2"} {
		h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "PATCH", "/v1/me", ann, map[string]any{"time_zone": bad})
	}
	h.do("PATCH", "/v1/me", ann, map[string]any{"locale": "de"}).want(t, http.StatusOK).decode(t, &me)
	if me.TimeZone != "America/Argentina/Buenos_Aires" || me.Locale != "de" {
		t.Errorf("after another change: zone %q, locale %q", me.TimeZone, me.Locale)
	}
	h.do("PATCH", "/v1/me", ann, map[string]any{"time_zone": ""}).want(t, http.StatusOK).decode(t, &me)
	if me.TimeZone != "" {
		t.Errorf("zone %q after clearing it", me.TimeZone)
	}
}

// Signing in on the page gives the account the browser's time zone, once.
func TestLoginPageTellsTheTimeZone(t *testing.T) {
	h := newHarness(t)
	h.do("POST", "/v1/auth/login", "", map[string]any{"email": "ann@example.org"}).want(t, http.StatusAccepted)
	link := loginLinkRE.FindString(only(t, h.deliver(), "ann@example.org").Text)
	p := openBrowser(t, 1280, 900)
	p.do("be in Tokyo", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"})
		return err
	}))
	p.do("open the sign-in link", chromedp.Navigate(h.pageURL(link)))
	p.waitFor("signed in", `!document.getElementById('games-panel').hidden`)
	ann := h.login("ann@example.org")
	var me struct {
		TimeZone string `json:"time_zone"`
	}
	for range 50 {
		if h.do("GET", "/v1/me", ann, nil).want(t, http.StatusOK).decode(t, &me); me.TimeZone != "" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if me.TimeZone != "Asia/Tokyo" {
		t.Errorf("the account's zone is %q, want the browser's Asia/Tokyo", me.TimeZone)
	}
}
