package api

import (
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain/tournaments"
)

// The public page's sign-up and log. The page says whether registration
// is open (until when, how many places are left, who may join) and lists
// what the organiser, the players and the schedule did, in the reader's
// language. Joining and withdrawing take an account, so they are the work
// of a small script (web/tournament.js) on the server-rendered form: it
// signs the visitor in by a code from his email where needed, keeps the
// invite link's token from the address's fragment (#invite=…), and calls
// the JSON API; the words it shows are in the page, in data attributes.

// pageRegistration is the sign-up section: shown until the first round
// starts on an event that takes sign-ups, so that a player who joined can
// withdraw even once sign-up closed.
type pageRegistration struct {
	Status string // open until …, or closed
	Places string // places left; "" when closed
	Access string // who may join
	Open   bool
	Public bool
}

// pageLogEntry is one line of the log, newest first.
type pageLogEntry struct {
	ISO, When string
	Who       string
	What      string // the action, in the reader's language
	Detail    string // what happened, naming the facts
	English   bool   // Detail is the stored English line: the entry kept no facts to translate
	Reason    string
}

// buildPageRegistration is the sign-up section at now in lang, or nil
// when the event takes no sign-ups or has started.
func buildPageRegistration(t *tournaments.Tournament, now time.Time, s *signupPhrases, lang string) *pageRegistration {
	r := t.Registration
	if r == nil || t.Status != tournaments.TournamentScheduled || len(t.Rounds) == 0 {
		return nil
	}
	v := &pageRegistration{Open: t.Joinable(now), Public: r.Public, Status: s.Closed}
	if !v.Open {
		return v
	}
	start := t.Rounds[0].Start
	if !r.Closes.IsZero() && r.Closes.Before(start) {
		v.Status = fill(s.OpenUntil, "date", pageDate(r.Closes))
	} else {
		v.Status = fill(s.OpenUntilStart, "date", pageDate(start))
	}
	v.Places = s.PlacesLeft.format(lang, r.PlacesLeft(len(t.Entrants)))
	v.Access = s.InviteOnly
	if r.Public {
		v.Access = s.Public
	}
	return v
}

// buildPageLog is the tournament's log in the reader's words, newest first.
func buildPageLog(t *tournaments.Tournament, s *signupPhrases, lang string) []pageLogEntry {
	var out []pageLogEntry
	for _, e := range slices.Backward(t.Log) {
		who := e.By.Name
		switch e.By.Role {
		case tournaments.ByOrganiser.Role:
			who = s.Organiser
		case tournaments.ByScheduler.Role:
			who = s.Scheduler
		}
		what := s.Actions[e.Action]
		if what == "" {
			what = e.Action
		}
		l := pageLogEntry{ISO: e.At.UTC().Format(time.RFC3339), When: pageDate(e.At), Who: who, What: what}
		l.Detail, l.English = logLine(e, lang)
		if e.Reason != "" {
			l.Reason = fill(s.Reason, "reason", e.Reason)
		}
		out = append(out, l)
	}
	return out
}
