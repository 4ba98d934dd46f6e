package tournaments

import (
	"context"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// MaxRoundReminderLead is how long before a game's round deadline its
// players are reminded; a round shorter than four times that is reminded
// a quarter of its length before (an hourly round: 15 minutes).
const MaxRoundReminderLead = 24 * time.Hour

// reminderLead is how long before its deadline a game of r is reminded.
func (r *Round) reminderLead() time.Duration {
	return min(MaxRoundReminderLead, r.Deadline.Sub(r.Start)/4)
}

// ReminderAt is when the players of game i of r are reminded that its
// deadline is near.
func (r *Round) ReminderAt(i int) time.Time { return r.GameDeadline(i).Add(-r.reminderLead()) }

// reminderDue is when the next reminder of the round's deadline is due:
// the earliest of its unfinished, unreminded games; zero when none.
func (r *Round) reminderDue() time.Time {
	var due time.Time
	for i, g := range r.Games {
		if g.Outcome != nil || g.GameID == "" || g.Reminded {
			continue
		}
		if at := r.ReminderAt(i); due.IsZero() || at.Before(due) {
			due = at
		}
	}
	return due
}

// remindRound tells the players of each unfinished game of r whose
// deadline is near that it will be adjudicated then, once per game: the
// game is marked Reminded in the same unit of work, so a second tick, or
// a second scheduler, finds nothing to do.
func remindRound(ctx context.Context, tx *Tx, t *Tournament, r *Round, now time.Time) (bool, error) {
	var c domain.Cause
	acted := false
	for i := range r.Games {
		g := &r.Games[i]
		if g.Outcome != nil || g.GameID == "" || g.Reminded || now.Before(r.ReminderAt(i)) {
			continue
		}
		if !acted {
			var err error
			if c, _, err = tournamentCause(ctx, tx, t); err != nil {
				return false, err
			}
		}
		acted = true
		g.Reminded = true
		for _, e := range []int{g.White, g.Black} {
			for _, p := range t.Entrants[e].Members() {
				n, err := toMember(ctx, tx, t, domain.Notice{Kind: domain.NoticeRoundDeadline, Email: p.Email, Tournament: t.ID, Ply: r.Number})
				if err != nil {
					return false, err
				}
				if err := tx.AddNotice(ctx, n, p.Locale, c, now); err != nil {
					return false, err
				}
			}
		}
	}
	if acted {
		t.Version++
		t.UpdatedAt = now
	}
	return acted, nil
}

// toMember is notice n of t to one of its members (n.Email), with what the
// mail policy weighs of him (see consent).
func toMember(ctx context.Context, tx *Tx, t *Tournament, n domain.Notice) (domain.Notice, error) {
	var err error
	n.Agreed, n.Engaged, err = consent(ctx, tx, t, n.Email)
	return n, err
}

// consent says whether the member of t with address email signed up
// himself (agreed), or else has played a turn in the event (engaged).
func consent(ctx context.Context, tx *Tx, t *Tournament, email string) (agreed, engaged bool, err error) {
	if t.Agreed(email) {
		return true, false, nil
	}
	ids := t.gameIDsOf(email)
	if len(ids) == 0 {
		return false, false, nil
	}
	engaged, err = tx.PlayedIn(ctx, email, ids)
	return false, engaged, err
}

// mailedActions are the logged actions that are mailed to the players
// they concern, besides the live event every client gets: each changes
// when a player must play (a deadline moved, the clocks stopped or run
// again), what his result is, or whether he plays at all. The others
// (sign-up, an entrant corrected, a late entry) are only events and the
// public log: nobody has to act on them. A replaced player is not mailed
// either: the address replaced is often the one the organiser got wrong,
// a stranger's.
var mailedActions = map[string]bool{
	ActionDeadlineExtended: true,
	ActionRoundPostponed:   true,
	ActionPaused:           true,
	ActionResumed:          true,
	ActionResultOverridden: true,
	ActionResultAnnulled:   true,
	ActionCancelled:        true,
	ActionWithdrawn:        true, // by the organiser: the player withdrawn
	ActionUnplayed:         true, // by the scheduler: a double forfeit
}

// organiserActions are the logged actions the organiser is mailed about:
// a player who withdrew himself (he may want to replace him), and a
// result he changed (a record of a change to the standings, in case it
// was not his hand on his account).
var organiserActions = map[string]bool{
	ActionWithdrawn:        true,
	ActionResultOverridden: true,
	ActionResultAnnulled:   true,
}

// tournamentCause is who causes the mail of an event: the organiser, in
// the scheduler's name (a change goes ahead however its mail fares).
func tournamentCause(ctx context.Context, tx *Tx, t *Tournament) (domain.Cause, string, error) {
	organizer, err := tx.UserEmail(ctx, t.OrganizerID)
	if err != nil {
		return domain.Cause{}, "", err
	}
	return domain.Cause{By: organizer, Scheduled: true}, organizer, nil
}

// mailOrganiser queues a notice about t to its organiser, in his language.
func mailOrganiser(ctx context.Context, tx *Tx, t *Tournament, kind domain.NoticeKind, ply int, c domain.Cause, organizer string, now time.Time) error {
	locale, err := tx.AccountLocale(ctx, organizer)
	if err != nil {
		return err
	}
	return tx.AddNotice(ctx, domain.Notice{Kind: kind, Email: organizer, Tournament: t.ID, Ply: ply}, locale, c, now)
}

// roundClosedMail tells the players and the organiser that round r
// closed: its results and the standings, or the final standings after the
// last round. The organiser who also plays gets one email.
func roundClosedMail(ctx context.Context, tx *Tx, t *Tournament, r *Round, now time.Time) error {
	c, organizer, err := tournamentCause(ctx, tx, t)
	if err != nil {
		return err
	}
	kind := domain.NoticeRoundResults
	if t.Status == TournamentFinished {
		kind = domain.NoticeFinalStandings
	}
	for _, e := range t.Entrants {
		for _, p := range e.Members() {
			if (e.Withdrawn && kind == domain.NoticeRoundResults) || p.Email == organizer {
				continue
			}
			n, err := toMember(ctx, tx, t, domain.Notice{Kind: kind, Email: p.Email, Tournament: t.ID, Ply: r.Number})
			if err != nil {
				return err
			}
			if err := tx.AddNotice(ctx, n, p.Locale, c, now); err != nil {
				return err
			}
		}
	}
	return mailOrganiser(ctx, tx, t, kind, r.Number, c, organizer, now)
}

// updateMail mails the last log entry to the players it concerns (emails)
// when it is one they must know, and to the organiser when it is one he
// must know and he did not do it himself.
func updateMail(ctx context.Context, tx *Tx, t *Tournament, emails []string, now time.Time) error {
	if len(t.Log) == 0 {
		return nil
	}
	last := t.Log[len(t.Log)-1]
	toPlayers, toOrganiser := mailedActions[last.Action], organiserActions[last.Action]
	if last.Action == ActionWithdrawn && last.By.Role != ByPlayer("").Role {
		toOrganiser = false // he withdrew the player himself
	}
	if !toPlayers && !toOrganiser {
		return nil
	}
	c, organizer, err := tournamentCause(ctx, tx, t)
	if err != nil {
		return err
	}
	if last.Action == ActionWithdrawn && last.By.Role == ByPlayer("").Role {
		toPlayers = false // he knows
	}
	if toPlayers {
		for _, email := range emails {
			i, ok := t.EntrantOf(email)
			if !ok || email == organizer {
				continue
			}
			member, _ := t.Entrants[i].Member(email)
			n, err := toMember(ctx, tx, t, domain.Notice{Kind: domain.NoticeTournamentUpdate, Email: email, Tournament: t.ID, Ply: t.LastLogNumber()})
			if err != nil {
				return err
			}
			if err := tx.AddNotice(ctx, n, member.Locale, c, now); err != nil {
				return err
			}
		}
	}
	if toOrganiser {
		return mailOrganiser(ctx, tx, t, domain.NoticeTournamentUpdate, t.LastLogNumber(), c, organizer, now)
	}
	return nil
}
