// Package mailpolicy owns the decisions about mail to strangers that every
// SQL store makes alike when it queues a notice: whether the recipient's
// suppression or unsubscription leaves it out or refuses the change, and
// whether it counts against, or is refused by, the recipient's daily budget
// of mail others caused. A store supplies the facts; the rules live here.
package mailpolicy

import (
	"context"
	"log/slog"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/internal/mailrow"
)

// RecipientBudget is how much mail that other people caused one address
// receives in any 24 hours: invitations to games, move links renewed by a
// game's creator, tournament rounds (an invitation or a bye), a tournament
// organiser's changes (a pause, say), and the your-turn, result and
// reminder emails of games the address has not played a turn in yet. Past
// it, a request that would invite the address or renew its link once more
// is refused with 429 recipient_budget_exhausted; any
// other mail over budget (a turn's, a tournament round's) is left out, and
// the change that causes it goes ahead.
//
// Mail a person causes himself is not counted: the login mail he asks for
// (which has its own cap, domain.MaxLoginsPerHour), his own seats in games he
// creates, his own link renewals, the mail of a tournament he organises
// and plays in. Nor is the mail of a game once he has played a turn in it:
// that is his game, and its opponents cannot take turns faster than he
// answers or his deadlines pass. Until then, a stranger's game is mail
// aimed at him: an attacker who invites someone and then plays on, or
// holds every other seat of a four-player game, gets no more through than
// his invitations.
//
// The busiest honest recipient is an entrant of a tournament with hourly
// rounds (the shortest a round may be): 24 round emails a day, plus the
// invitations of his other games and the first turns of games he has not
// answered yet. 50 leaves that room twice over, while an attacker cannot
// aim more than 50 emails a day at a stranger, however many accounts and
// addresses he uses, each with a link to stop them all.
const RecipientBudget = 50

// Window is the stretch of time the budget is counted over.
const Window = 24 * time.Hour

// Facts are what a store knows about a recipient, read inside the
// transaction that queues the mail.
type Facts interface {
	// Stops says whether email is suppressed and whether it unsubscribed.
	Stops(ctx context.Context, email string) (suppressed, unsubscribed bool, err error)
	// SeatPlayed says whether the seat of color in game played a turn
	// itself (not one the server passed for it).
	SeatPlayed(ctx context.Context, gameID, color string) (bool, error)
	// BudgetSpent counts email's budgeted mail created after since.
	BudgetSpent(ctx context.Context, email string, since time.Time) (int, error)
	// OldestBudgeted is when the oldest of that mail was created.
	OldestBudgeted(ctx context.Context, email string, since time.Time) (time.Time, error)
}

// Admit decides, inside the transaction that queues it, whether a notice
// to email is queued (and whether it counts against the budget), left out,
// or refuses the whole change. c says who causes it; a scheduled change
// happens however its mail fares.
func Admit(ctx context.Context, f Facts, n domain.Notice, email string, c domain.Cause, now time.Time) (queue, budgeted bool, err error) {
	suppressed, unsubscribed, err := f.Stops(ctx, email)
	if err != nil {
		return false, false, err
	}
	switch {
	case suppressed && refusable(n.Kind) && !c.Scheduled:
		return false, false, SuppressedError(email)
	case suppressed, unsubscribed && !n.Kind.Essential():
		return false, false, nil
	}
	counted, err := countsAgainstBudget(ctx, f, n, email, c)
	if err != nil || !counted {
		return err == nil, false, err
	}
	since := now.Add(-Window)
	spent, err := f.BudgetSpent(ctx, email, since)
	if err != nil {
		return false, false, err
	}
	if spent < RecipientBudget {
		return true, true, nil
	}
	if c.Scheduled || !refusable(n.Kind) {
		slog.WarnContext(ctx, "mail left out: the recipient's daily budget is spent",
			"kind", string(n.Kind), "game", n.GameID, "tournament", n.Tournament)
		return false, false, nil
	}
	// The budget has room again when the oldest mail counted leaves the window.
	oldest, err := f.OldestBudgeted(ctx, email, since)
	if err != nil {
		return false, false, err
	}
	e := domain.Errorf(domain.KindRateLimited, domain.CodeRecipientBudgetSpent,
		"%s has had %d emails from lesspost that others caused in the last 24 hours; try again later", email, RecipientBudget)
	e.RetryAfter = oldest.Add(Window).Sub(now)
	return false, false, e
}

// Queue queues notice n to email in locale ("" for the default; see
// mailrow.New) unless Admit leaves it out, through insert, which writes the
// row in the caller's transaction.
func Queue(ctx context.Context, f Facts, n domain.Notice, email, locale string, c domain.Cause, now time.Time,
	insert func(mailrow.Row) error) error {
	queue, budgeted, err := Admit(ctx, f, n, email, c, now)
	if err != nil || !queue {
		return err
	}
	r, err := mailrow.New(n, email, "", locale, budgeted)
	if err != nil {
		return err
	}
	return insert(r)
}

// QueueAll queues the notices a change to g causes, each to its recipient
// (see Queue): the email exists exactly when the change that causes it
// does.
func QueueAll(ctx context.Context, f Facts, g *domain.Game, notices []domain.Notice, c domain.Cause, now time.Time,
	insert func(mailrow.Row) error) error {
	for _, n := range notices {
		if err := Queue(ctx, f, n, g.Recipient(n), "", c, now, insert); err != nil {
			return err
		}
	}
	return nil
}

// countsAgainstBudget reports whether a notice to email counts against its
// budget of mail caused by others (see RecipientBudget).
func countsAgainstBudget(ctx context.Context, f Facts, n domain.Notice, email string, c domain.Cause) (bool, error) {
	switch n.Kind {
	case domain.NoticeInvitation, domain.NoticeNewLink, domain.NoticeBye,
		// A tournament's changes: its organiser's doing, as often as he acts.
		domain.NoticeTournamentUpdate,
		// The answer to a reply: the player's own doing, unless it came
		// from another address.
		domain.NoticeReplyAccepted, domain.NoticeReplyRefused:
		return email != c.By, nil
	case domain.NoticeLogin, domain.NoticeWebhookDisabled,
		// A round's results and the reminder of its end follow the round's
		// invitation or bye, which counted: at most two a round, and a
		// round lasts an hour at least, on the schedule, not on anyone's
		// say.
		domain.NoticeRoundResults, domain.NoticeFinalStandings, domain.NoticeRoundDeadline:
		return false, nil
	}
	played, err := f.SeatPlayed(ctx, n.GameID, n.Color)
	return !played, err
}

// refusable reports the kinds of mail whose request is refused, not just
// left unsent, when the address is suppressed or over budget: asking to
// invite or re-link an address that wants no mail is an error the sender
// should see.
func refusable(k domain.NoticeKind) bool {
	return k == domain.NoticeInvitation || k == domain.NoticeNewLink
}

// SuppressedError refuses a change that would mail a suppressed address.
func SuppressedError(email string) error {
	return domain.Errorf(domain.KindInvalid, domain.CodeAddressSuppressed,
		"%s asked lesspost never to email it again; invite another address", email)
}
