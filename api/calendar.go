package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	tourn "github.com/lesspost/lesspost/domain/tournaments"
)

// calendar serves a user's private iCalendar feed (RFC 5545): one event at
// each deadline of a game where it is his turn, with an alarm when the
// last reminder email goes out (games.LastReminder before), and one at
// the end of each round still to come of the tournaments he plays in.
// Calendar apps subscribe to the URL and refresh it themselves.
func (s *Server) calendar(c echo.Context) error {
	userID, version, err := s.tokens.calendarUser(c.QueryParam("t"))
	if err != nil {
		return NewProblem(http.StatusBadRequest, "invalid_link", "This calendar link is not valid.")
	}
	ctx := c.Request().Context()
	u, err := s.accounts.UserByID(ctx, userID)
	if err != nil {
		return err
	}
	if version != u.CalendarVersion {
		return &Problem{Status: http.StatusUnauthorized, Code: domain.CodeLinkReplaced,
			Detail: "This calendar link was replaced by a newer one: subscribe to the calendar_url of your account."}
	}
	toMove, err := s.app.GamesToMove(ctx, u.Email)
	if err != nil {
		return err
	}
	// The events he plays in: the newest, as many as a list gives.
	tournaments, _, err := s.tournaments.Tournaments(ctx, u, []tourn.TournamentCategory{tourn.PlayingIn}, nil, tourn.MaxTournamentList)
	if err != nil {
		return err
	}
	host := "lesspost"
	if parsed, err := url.Parse(s.cfg.BaseURL); err == nil && parsed.Hostname() != "" {
		host = parsed.Hostname()
	}
	var b strings.Builder
	line := func(format string, args ...any) { b.WriteString(foldICS(fmt.Sprintf(format, args...))) }
	line("BEGIN:VCALENDAR")
	line("VERSION:2.0")
	line("PRODID:-//lesspost//deadlines//EN")
	line("CALSCALE:GREGORIAN")
	line("METHOD:PUBLISH")
	line("X-WR-CALNAME:%s", escapeICS("Less: my deadlines"))
	line("REFRESH-INTERVAL;VALUE=DURATION:PT1H")
	stamp := icsTime(s.now())
	for i := range toMove {
		g := &toMove[i]
		d := g.Clock.Deadline
		var names []string
		for _, seat := range g.Seats {
			names = append(names, seat.Name)
		}
		line("BEGIN:VEVENT")
		line("UID:%s-%d@%s", g.ID, g.Ply(), host)
		line("DTSTAMP:%s", stamp)
		line("DTSTART:%s", icsTime(d.Add(-30*time.Minute)))
		line("DTEND:%s", icsTime(d))
		title := gameTitle(g)
		line("SUMMARY:%s", escapeICS(title+": your turn is due ("+strings.Join(names, " – ")+")"))
		line("DESCRIPTION:%s", escapeICS(fmt.Sprintf("Your turn in game %s must be played by %s. Use the move link from your latest email.",
			g.ID, d.UTC().Format("2006-01-02 15:04 UTC"))))
		line("URL:%s", s.cfg.BaseURL+"/play/"+g.ID)
		line("BEGIN:VALARM")
		line("ACTION:DISPLAY")
		// Relative to the end, the deadline: relative to the start (the
		// default) it would ring half an hour earlier than the email.
		line("TRIGGER;RELATED=END:-PT%dM", int(games.LastReminder/time.Minute))
		line("DESCRIPTION:%s", escapeICS(title+": your turn is due"))
		line("END:VALARM")
		line("END:VEVENT")
	}
	for _, r := range roundDeadlines(tournaments, u.Email) {
		line("BEGIN:VEVENT")
		// One UID per round: a deadline moved (an extension, a
		// postponement) moves the same event in the subscriber's calendar.
		line("UID:%s-r%d@%s", r.t.ID, r.number, host)
		line("DTSTAMP:%s", stamp)
		line("DTSTART:%s", icsTime(r.deadline.Add(-30*time.Minute)))
		line("DTEND:%s", icsTime(r.deadline))
		line("SUMMARY:%s", escapeICS(fmt.Sprintf("%s: round %d ends", r.t.Name, r.number)))
		line("DESCRIPTION:%s", escapeICS(fmt.Sprintf("Round %d of the tournament %s ends at %s: a game still unfinished then is adjudicated.",
			r.number, r.t.Name, r.deadline.UTC().Format("2006-01-02 15:04 UTC"))))
		line("URL:%s", s.cfg.BaseURL+"/tournaments/"+url.PathEscape(r.t.ID))
		line("END:VEVENT")
	}
	line("END:VCALENDAR")
	c.Response().Header().Set(echo.HeaderCacheControl, "private, max-age=300")
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", []byte(b.String()))
}

func icsTime(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// escapeICS escapes a TEXT value (RFC 5545 3.3.11).
func escapeICS(s string) string {
	return strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\n", `\n`, "\r", "").Replace(s)
}

// foldICS ends a content line with CRLF, folding it at 75 octets without
// splitting a UTF-8 character (RFC 5545 3.1).
func foldICS(s string) string {
	var b strings.Builder
	width := 0
	for _, r := range s {
		n := len(string(r))
		if width+n > 75 {
			b.WriteString("\r\n ")
			width = 1
		}
		b.WriteRune(r)
		width += n
	}
	b.WriteString("\r\n")
	return b.String()
}

// gameTitle is the name of a game's rules for people: "Less", "Les".
func gameTitle(g *games.Game) string {
	name := g.Rules.Ruleset()
	return strings.ToUpper(name[:1]) + name[1:]
}

// roundDeadline is the end of a round of a tournament, as one player's
// calendar shows it.
type roundDeadline struct {
	t        *tourn.Tournament
	number   int
	deadline time.Time
}

// roundDeadlines are the ends of the rounds still to come of the
// tournaments email plays in (and has not withdrawn from): for the running
// round, his own game's deadline (an extension moves it) while it is
// undecided; for a pending round, its planned deadline. A paused event
// shows none for its running round: its deadline moves when it resumes.
func roundDeadlines(ts []tourn.TournamentListing, email string) []roundDeadline {
	var out []roundDeadline
	for i := range ts {
		t := &ts[i].Tournament
		e, ok := t.EntrantOf(email)
		if !ok || t.Entrants[e].Withdrawn || t.Status == tourn.TournamentFinished || t.Status == tourn.TournamentCancelled {
			continue
		}
		for _, r := range t.Rounds {
			switch r.Status {
			case tourn.RoundPending:
				out = append(out, roundDeadline{t: t, number: r.Number, deadline: r.Deadline})
			case tourn.RoundRunning:
				if !t.PausedAt.IsZero() {
					continue
				}
				for gi, g := range r.Games {
					if (g.White == e || g.Black == e) && g.Outcome == nil && g.GameID != "" {
						out = append(out, roundDeadline{t: t, number: r.Number, deadline: r.GameDeadline(gi)})
					}
				}
			}
		}
	}
	return out
}
