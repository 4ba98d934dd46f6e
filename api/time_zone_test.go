package api_test

import (
	"net/http"
	"testing"
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
