package api_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tick runs the scheduler once at the harness clock, twice over, as a
// rerun or a second server would: work is done once.
func (h *harness) tick() {
	h.t.Helper()
	now := h.clock.Now()
	ids, err := h.db.DueGames(h.t.Context(), now, 100)
	if err != nil {
		h.t.Fatal(err)
	}
	for range 2 {
		for _, id := range ids {
			if _, err := h.service(now).TickGame(h.t.Context(), id); err != nil {
				h.t.Fatal(err)
			}
		}
	}
}

type clockGame struct {
	ID       string     `json:"id"`
	Status   string     `json:"status"`
	Deadline *time.Time `json:"deadline"`
	Left     *int       `json:"time_left_seconds"`
	Time     struct {
		Kind  string `json:"kind"`
		Hours *int   `json:"hours"`
	} `json:"time"`
	Result *struct {
		Reason string  `json:"reason"`
		Winner *string `json:"winner"`
		Margin int     `json:"margin"`
	} `json:"result"`
}

// A reminder is emailed once before the deadline; at the deadline the
// player to move loses on time and both players are told.
func TestClockRemindsThenTimesOut(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	body := twoPlayers(strings.Repeat("0", 60))
	body["time"] = map[string]any{"kind": "per_turn", "days": 2}
	var g clockGame
	h.do("POST", "/v1/games", organiser, body).want(t, http.StatusCreated).decode(t, &g)
	start := h.clock.Now()
	if g.Time.Kind != "per_turn" || *g.Time.Hours != 48 || g.Deadline == nil || !g.Deadline.Equal(start.Add(48*time.Hour)) || *g.Left != 48*3600 {
		t.Fatalf("timed game %+v", g)
	}
	invitations := h.deliver()
	if !strings.Contains(only(t, invitations, "ann@example.org").Text, "Please move by") {
		t.Error("the first mover's invitation does not give the deadline")
	}

	h.clock.Advance(23 * time.Hour)
	h.tick()
	if mail := h.deliver(); len(mail) != 0 {
		t.Fatalf("mail before the first reminder: %v", subjects(mail))
	}
	h.clock.Advance(2 * time.Hour) // 23 h before the deadline
	h.tick()
	reminder := only(t, h.deliver(), "ann@example.org")
	if !strings.Contains(reminder.Text, "is due by") {
		t.Fatalf("reminder:\n%s", reminder.Text)
	}
	h.clock.Advance(time.Hour)
	h.tick()
	if mail := h.deliver(); len(mail) != 0 {
		t.Fatalf("the reminder came again: %v", subjects(mail))
	}

	h.clock.Advance(24 * time.Hour) // past the deadline
	h.tick()
	over := h.deliver()
	for _, email := range []string{"ann@example.org", "bob@example.org"} {
		if m := only(t, over, email); !strings.Contains(m.Text, "ran out of time") {
			t.Errorf("game over email to %s:\n%s", email, m.Text)
		}
	}
	h.do("GET", "/v1/games/"+g.ID, organiser, nil).want(t, http.StatusOK).decode(t, &g)
	if g.Status != "finished" || g.Result.Reason != "timeout" || *g.Result.Winner != "black" || g.Result.Margin < 10 || g.Deadline != nil {
		t.Errorf("after the time-out: %+v %+v", g, g.Result)
	}
}

// A vacation moves the deadline of a game where it is the player's turn;
// the calendar feed shows the deadline; cancelling moves it back.
func TestVacationAndCalendar(t *testing.T) {
	h := newHarness(t)
	ann := h.login("ann@example.org")
	body := twoPlayers(strings.Repeat("0", 60))
	body["time"] = map[string]any{"kind": "per_turn", "days": 3}
	var g clockGame
	h.do("POST", "/v1/games", ann, body).want(t, http.StatusCreated).decode(t, &g)
	deadline := *g.Deadline

	start := h.clock.Now().Add(24 * time.Hour)
	var v struct {
		ID int64 `json:"id"`
	}
	h.do("POST", "/v1/me/vacations", ann, map[string]any{"start": start, "end": start.Add(48 * time.Hour)}).
		want(t, http.StatusCreated).decode(t, &v)
	h.do("GET", "/v1/games/"+g.ID, ann, nil).want(t, http.StatusOK).decode(t, &g)
	if want := deadline.Add(48 * time.Hour); !g.Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v", g.Deadline, want)
	}
	var list struct {
		Vacations []any `json:"vacations"`
		DaysLeft  int   `json:"days_left"`
	}
	h.do("GET", "/v1/me/vacations", ann, nil).want(t, http.StatusOK).decode(t, &list)
	if len(list.Vacations) != 1 || list.DaysLeft != 12 {
		t.Errorf("vacations %+v", list)
	}
	h.do("POST", "/v1/me/vacations", ann, map[string]any{"start": start, "end": start.Add(20 * 24 * time.Hour)}).
		want(t, http.StatusUnprocessableEntity, "invalid_vacation")

	var me struct {
		CalendarURL string `json:"calendar_url"`
	}
	h.do("GET", "/v1/me", ann, nil).want(t, http.StatusOK).decode(t, &me)
	u, err := url.Parse(me.CalendarURL)
	if err != nil || u.Path != "/calendar.ics" {
		t.Fatalf("calendar url %q", me.CalendarURL)
	}
	feed := h.do("GET", "/calendar.ics?"+u.RawQuery, "", nil).want(t, http.StatusOK)
	ics := string(feed.body)
	if !strings.HasPrefix(ics, "BEGIN:VCALENDAR\r\n") || strings.Count(ics, "BEGIN:VEVENT") != 1 ||
		!strings.Contains(ics, "DTEND:"+g.Deadline.UTC().Format("20060102T150405Z")) {
		t.Errorf("feed:\n%s", ics)
	}
	h.do("GET", "/calendar.ics?t=nope", "", nil).want(t, http.StatusBadRequest, "invalid_link")

	h.do("DELETE", "/v1/me/vacations/"+itoa(v.ID), ann, nil).want(t, http.StatusNoContent)
	h.do("GET", "/v1/games/"+g.ID, ann, nil).want(t, http.StatusOK).decode(t, &g)
	if !g.Deadline.Equal(deadline) {
		t.Errorf("deadline after cancelling %v, want %v", g.Deadline, deadline)
	}
}

// One-click unsubscribe turns reminders off for that address, not moves.
func TestUnsubscribeStopsReminders(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	body := twoPlayers(strings.Repeat("0", 60))
	body["time"] = map[string]any{"kind": "per_turn", "days": 2}
	var g clockGame
	h.do("POST", "/v1/games", organiser, body).want(t, http.StatusCreated).decode(t, &g)
	ann := only(t, h.deliver(), "ann@example.org") // White: the reminder would be hers
	link := ann.Unsubscribe
	if link == "" {
		t.Fatal("no unsubscribe link")
	}
	u, _ := url.Parse(link)
	page := h.do("GET", "/unsubscribe?"+u.RawQuery, "", nil).want(t, http.StatusOK)
	if !strings.Contains(string(page.body), `method="post"`) {
		t.Fatalf("confirmation page:\n%s", page.body)
	}
	h.do("POST", "/unsubscribe?"+u.RawQuery, "", "List-Unsubscribe=One-Click", "Content-Type", "application/x-www-form-urlencoded").
		want(t, http.StatusOK)

	h.clock.Advance(25 * time.Hour)
	h.tick()
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("Ann unsubscribed but got: %v", subjects(mail))
	}
	// Moves still arrive: White's time runs out, and both learn the result.
	h.clock.Advance(24 * time.Hour)
	h.tick()
	only(t, h.deliver(), "ann@example.org")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
