package repo

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// RecipientBudget is how much mail that other people caused one address
// receives in any 24 hours: invitations to games, move links renewed by a
// game's creator, tournament rounds (an invitation or a bye), and the
// your-turn, result and reminder emails of games the address has not played
// a turn in yet. Past it, a request that would invite the address or renew
// its link once more is refused with 429 recipient_budget_exhausted; any
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

// budgetWindow is the stretch of time the budget is counted over.
const budgetWindow = 24 * time.Hour

// cause is who makes a change that queues mail: by is his address ("" for
// nobody in particular), so that mail to him is not counted against his
// budget. A scheduled change (a tournament round starting, a game
// adjudicated) happens however its mail fares: mail to a suppressed or
// over-budget address is left out instead of refusing the change.
type cause struct {
	by        string
	scheduled bool
}

// countsAgainstBudget reports whether a notice to email counts against its
// budget of mail caused by others (see RecipientBudget).
func countsAgainstBudget(ctx context.Context, tx *Tx, n domain.Notice, email string, c cause) (bool, error) {
	switch n.Kind {
	case domain.NoticeInvitation, domain.NoticeNewLink, domain.NoticeBye,
		// The answer to a reply: the player's own doing, unless it came
		// from another address.
		domain.NoticeReplyAccepted, domain.NoticeReplyRefused:
		return email != c.by, nil
	case domain.NoticeLogin:
		return false, nil
	}
	var played bool
	if err := tx.QueryRowContext(ctx, sqlSeatPlayed, n.GameID, n.Color).Scan(&played); err != nil {
		return false, fmt.Errorf("read the seat's turns: %w", err)
	}
	return !played, nil
}

// sqlSeatPlayed runs for every email a turn queues, so it is prepared.
const sqlSeatPlayed = `SELECT EXISTS (SELECT 1 FROM turns WHERE game_id = ? AND color = ? AND auto = 0)`

// refusable reports the kinds of mail whose request is refused, not just
// left unsent, when the address is suppressed or over budget: asking to
// invite or re-link an address that wants no mail is an error the sender
// should see.
func refusable(k domain.NoticeKind) bool {
	return k == domain.NoticeInvitation || k == domain.NoticeNewLink
}

const sqlBudgetSpent = `SELECT count(*) FROM outbox WHERE email = ? AND budgeted = 1 AND created_at > ?`

// admit decides, inside the transaction that queues it, whether a notice
// to email is queued (and whether it counts against the budget), left out,
// or refuses the whole change.
func admit(ctx context.Context, tx *Tx, n domain.Notice, email string, c cause, now time.Time) (queue, budgeted bool, err error) {
	var suppressed, unsubscribed bool
	if err := tx.QueryRowContext(ctx, sqlMailStops, email, email).Scan(&suppressed, &unsubscribed); err != nil {
		return false, false, fmt.Errorf("read mail stops: %w", err)
	}
	switch {
	case suppressed && refusable(n.Kind) && !c.scheduled:
		return false, false, suppressedError(email)
	case suppressed, unsubscribed && !n.Kind.Essential():
		return false, false, nil
	}
	counted, err := countsAgainstBudget(ctx, tx, n, email, c)
	if err != nil {
		return false, false, err
	}
	if !counted {
		return true, false, nil
	}
	var spent int
	if err := tx.QueryRowContext(ctx, sqlBudgetSpent, email, now.Add(-budgetWindow).UnixMilli()).Scan(&spent); err != nil {
		return false, false, fmt.Errorf("read mail budget: %w", err)
	}
	if spent < RecipientBudget {
		return true, true, nil
	}
	if c.scheduled || !refusable(n.Kind) {
		slog.WarnContext(ctx, "mail left out: the recipient's daily budget is spent",
			"kind", string(n.Kind), "game", n.GameID, "tournament", n.Tournament)
		return false, false, nil
	}
	// The budget has room again when the oldest mail counted leaves the window.
	var oldest int64
	err = tx.QueryRowContext(ctx, `SELECT min(created_at) FROM outbox WHERE email = ? AND budgeted = 1 AND created_at > ?`,
		email, now.Add(-budgetWindow).UnixMilli()).Scan(&oldest)
	if err != nil {
		return false, false, fmt.Errorf("read mail budget: %w", err)
	}
	e := domain.Errorf(domain.KindRateLimited, domain.CodeRecipientBudgetSpent,
		"%s has had %d emails from lesspost that others caused in the last 24 hours; try again later", email, RecipientBudget)
	e.RetryAfter = time.UnixMilli(oldest).Add(budgetWindow).Sub(now)
	return false, false, e
}

// sqlMailStops runs for every email a turn queues, so it is prepared.
const sqlMailStops = `SELECT EXISTS (SELECT 1 FROM suppressions WHERE email = ?), EXISTS (SELECT 1 FROM unsubscribes WHERE email = ?)`

func suppressedError(email string) error {
	return domain.Errorf(domain.KindInvalid, domain.CodeAddressSuppressed,
		"%s asked lesspost never to email it again; invite another address", email)
}
