package games

import (
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// DefaultVacationDays is each account's vacation allowance per calendar year.
const DefaultVacationDays = 14

// maxVacationAhead bounds how far ahead a vacation may be declared.
const maxVacationAhead = 366 * 24 * time.Hour

// vacationDays is what a period costs: started days of 24 hours, charged to
// the calendar year (UTC) it starts in.
func vacationDays(p Period) int {
	return int((p.End.Sub(p.Start) + 24*time.Hour - 1) / (24 * time.Hour))
}

// CheckVacation checks a new vacation of an account against the ones it
// already has: it starts now or later and within a year, ends after it
// starts, overlaps none of them, and fits in the days left of its year.
func CheckVacation(p Period, existing []Period, daysPerYear int, now time.Time) error {
	bad := func(format string, args ...any) error {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidVacation, format, args...)
	}
	switch {
	case !p.End.After(p.Start):
		return bad("a vacation ends after it starts")
	case p.Start.Before(now.Add(-time.Minute)):
		return bad("a vacation cannot start in the past")
	case p.Start.After(now.Add(maxVacationAhead)):
		return bad("a vacation starts within a year")
	}
	used := 0
	for _, e := range existing {
		if e.Start.Before(p.End) && p.Start.Before(e.End) {
			return bad("it overlaps the vacation from %s to %s", e.Start.Format(time.RFC3339), e.End.Format(time.RFC3339))
		}
		if e.Start.UTC().Year() == p.Start.UTC().Year() {
			used += vacationDays(e)
		}
	}
	if need := vacationDays(p); used+need > daysPerYear {
		return bad("it takes %d days but only %d of %d are left for %d", need, max(daysPerYear-used, 0), daysPerYear, p.Start.UTC().Year())
	}
	return nil
}

// VacationDaysLeft is what is left of the allowance in the year of at.
func VacationDaysLeft(existing []Period, daysPerYear int, at time.Time) int {
	used := 0
	for _, e := range existing {
		if e.Start.UTC().Year() == at.UTC().Year() {
			used += vacationDays(e)
		}
	}
	return max(daysPerYear-used, 0)
}

// Tick does what the clock of a game asks for at now: the time-out of the
// player to move once his deadline has passed, else a reminder that is
// due. It fails with KindConflict "not_due" when nothing is due, which is
// what a second scheduler run finds after the first did the work.
func Tick(g Game, now time.Time) (Submitted, error) {
	if !g.Clock.Deadline.IsZero() && !g.Clock.Deadline.After(now) {
		return TimeOut(g, now)
	}
	ng, notice, err := Remind(g, now)
	if err != nil {
		return Submitted{}, err
	}
	return Submitted{Game: ng, Notices: []domain.Notice{notice}}, nil
}

// sortPeriods orders periods by start.
func sortPeriods(ps []Period) []Period {
	out := slices.Clone(ps)
	slices.SortFunc(out, func(a, b Period) int { return a.Start.Compare(b.Start) })
	return out
}
