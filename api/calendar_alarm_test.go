package api_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/games"
)

// The calendar feed's alarm rings when the last reminder email is sent:
// as many hours before the deadline as the game's reminders_hours say last.
func TestCalendarAlarmAgreesWithReminders(t *testing.T) {
	h := newHarness(t)
	ann := h.login("ann@example.org")
	body := twoPlayers(strings.Repeat("0", 60))
	body["time"] = map[string]any{"kind": "per_turn", "days": 3}
	var g struct {
		Deadline time.Time `json:"deadline"`
		Time     struct {
			RemindersHours []int `json:"reminders_hours"`
		} `json:"time"`
	}
	h.do("POST", "/v1/games", ann, body).want(t, http.StatusCreated).decode(t, &g)
	hours := g.Time.RemindersHours
	if len(hours) == 0 || time.Duration(hours[len(hours)-1])*time.Hour != games.LastReminder {
		t.Fatalf("reminders_hours %v, want the last at %v", hours, games.LastReminder)
	}

	var me struct {
		CalendarURL string `json:"calendar_url"`
	}
	h.do("GET", "/v1/me", ann, nil).want(t, http.StatusOK).decode(t, &me)
	u, err := url.Parse(me.CalendarURL)
	if err != nil {
		t.Fatal(err)
	}
	ics := strings.ReplaceAll(string(h.do("GET", "/calendar.ics?"+u.RawQuery, "", nil).want(t, http.StatusOK).body), "\r\n ", "")
	prop := func(name string) (params, value string) {
		t.Helper()
		m := regexp.MustCompile(`(?m)^` + name + `((?:;[^:]*)?):(.*)\r$`).FindStringSubmatch(ics)
		if m == nil {
			t.Fatalf("no %s in:\n%s", name, ics)
		}
		return m[1], m[2]
	}
	icsTime := func(v string) time.Time {
		t.Helper()
		at, err := time.Parse("20060102T150405Z", v)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	_, start := prop("DTSTART")
	_, end := prop("DTEND")
	params, trigger := prop("TRIGGER")
	// RFC 5545 3.8.6.3: a duration before the start, or the end with RELATED=END.
	var alarm time.Time
	if strings.Contains(params, "VALUE=DATE-TIME") {
		alarm = icsTime(trigger)
	} else {
		d := regexp.MustCompile(`^-PT(?:(\d+)H)?(?:(\d+)M)?$`).FindStringSubmatch(trigger)
		if d == nil {
			t.Fatalf("TRIGGER %q", trigger)
		}
		hh, _ := strconv.Atoi(d[1])
		mm, _ := strconv.Atoi(d[2])
		alarm = icsTime(start)
		if strings.Contains(params, "RELATED=END") {
			alarm = icsTime(end)
		}
		alarm = alarm.Add(-time.Duration(hh)*time.Hour - time.Duration(mm)*time.Minute)
	}
	if want := g.Deadline.Add(-games.LastReminder); !alarm.Equal(want) {
		t.Errorf("the alarm rings at %v, %v before the deadline; the last reminder at %v", alarm, g.Deadline.Sub(alarm), want)
	}
}
