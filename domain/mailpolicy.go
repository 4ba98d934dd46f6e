package domain

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// The mail policy decides, once for every store, which notices become
// email: every notice a use case causes passes through it (see Tx) before
// the store queues it, and a store can queue only what it admitted (Mail
// has no exported way to be made). Its decisions come from counts the
// store returns (MailFacts) and from who asks (Requester):
//
//   - Suppression: an address whose owner asked never to be emailed gets
//     no more mail; a request that would invite it (or renew its link, or
//     enter it in a tournament) is refused with address_suppressed.
//   - The recipient's budget: at most MailLimits.RecipientPerDay emails a
//     day that other people caused (see countsAgainstBudget for what counts).
//   - The sender's limits, for mail a request causes to others: per caller
//     and per client address, at most MailLimits.PairPerDay emails a day to
//     any one stranger, and at most MailLimits.CallerPerHour (ClientPerHour)
//     requests an hour that email anyone but the caller beyond a game's own
//     course. Over them the request is refused whole (429 mail_limited),
//     so nothing is half done; but a change that happens however its mail
//     fares (a turn, a tournament's round, an organiser's change to his
//     event: Cause.Scheduled) is not refused for the per-stranger limit:
//     it goes on, and the stranger who has had enough is not mailed about
//     it. Invitations and new links, which are all their request does, are
//     always refused.
//   - The caller's own words (a reason, a team's name) go only to people who
//     agreed to hear from him: himself, and entrants who signed up to his
//     event themselves. Everyone else gets the mail without them (Quiet), so
//     a stranger's first mail from lesspost never carries them.
//
// Budgets and suppression key on the mailbox (Mailbox), not the address as
// written: ann+1@x and ann@x are one person's.

// MailLimits are the numbers of the mail policy. The zero value of a field
// means its default (DefaultMailLimits).
type MailLimits struct {
	// RecipientPerDay is how much mail that other people caused one mailbox
	// receives in any 24 hours.
	//
	// An event's mail counts only until its recipient signed up himself or
	// played in it, a game's until he played in it: what counts is mail
	// aimed at someone who has not taken part, a few invitations a day for
	// the busiest honest player. 50 leaves them room many times over, while
	// nobody can aim more than 50 emails a day at a stranger, however many
	// accounts and addresses he uses, each with a link to stop them all.
	RecipientPerDay int
	// PairPerDay is how much mail one caller, or one client address, may
	// cause to one stranger's mailbox in 24 hours (at once; then one more
	// every 24h/PairPerDay): invitations, renewed links, a tournament's
	// changes, and the turns of games the stranger has not played in yet.
	// An organiser who pauses and resumes his event five times in a day
	// reaches it; a player who starts five games with a friend who has not
	// answered yet, and moves first in each, too.
	PairPerDay int
	// CallerPerHour and ClientPerHour bound the requests, per caller (an
	// account, or a move link's seat) and per client address, that email
	// anyone but the caller beyond a game's course, whether or not the mail
	// is then sent: an hour's worth at once, then one more every hour/N.
	// Each such request mails at most a tournament's entrants (64, or 128
	// players in a team event).
	CallerPerHour int
	ClientPerHour int
}

// DefaultMailLimits suit a correspondence server: a person starts a few
// games a week, an organiser acts on his event a few times a day.
var DefaultMailLimits = MailLimits{RecipientPerDay: 50, PairPerDay: 10, CallerPerHour: 30, ClientPerHour: 60}

// withDefaults fills each zero field from DefaultMailLimits.
func (l MailLimits) withDefaults() MailLimits {
	d := DefaultMailLimits
	for _, f := range []struct{ got, def *int }{
		{&l.RecipientPerDay, &d.RecipientPerDay}, {&l.PairPerDay, &d.PairPerDay},
		{&l.CallerPerHour, &d.CallerPerHour}, {&l.ClientPerHour, &d.ClientPerHour},
	} {
		if *f.got <= 0 {
			*f.got = *f.def
		}
	}
	return l
}

// BudgetWindow is the stretch of time the recipient's budget and the
// per-stranger limit are counted over.
const BudgetWindow = 24 * time.Hour

// Mailbox is the key of an address for budgets and suppression: the
// address (normalised, see NormalizeEmail) without a +tag in its local
// part, and for Gmail, whose mailboxes ignore dots, without dots and at
// gmail.com. Identity keeps the address as written: ann+games@x may be an
// account of its own, but it is ann@x's mailbox that is mailed.
func Mailbox(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return email
	}
	local, domain := email[:at], email[at+1:]
	if plus := strings.IndexByte(local, '+'); plus > 0 {
		local = local[:plus]
	}
	if domain == "gmail.com" || domain == "googlemail.com" {
		local, domain = strings.ReplaceAll(local, ".", ""), "gmail.com"
	}
	return local + "@" + domain
}

// Requester is who asks for a change through an edge, for the sender's
// limits: Caller names the credentials ("user:12" for an account,
// "seat:g_x/white" for a move link; "" for none) and Client the address the
// request came from ("ip:203.0.113.9", or an IPv6 /64). The edge puts it in
// the request's context (WithRequester); changes with none in their context
// (a game's deadlines) are not charged to anyone.
//
// Deferred marks a change made later on the caller's behalf, not at his
// request: a tournament's round, its organiser's doing. It cannot be
// refused, so its mail over the per-stranger limit is left out, and it
// takes nothing from the hourly allowance of requests.
type Requester struct {
	Caller   string
	Client   string
	Deferred bool
}

type requesterKey struct{}

// WithRequester returns ctx carrying r, for the use cases run on its behalf.
func WithRequester(ctx context.Context, r Requester) context.Context {
	return context.WithValue(ctx, requesterKey{}, r)
}

// RequesterOf is the requester ctx carries, if any.
func RequesterOf(ctx context.Context) (Requester, bool) {
	r, ok := ctx.Value(requesterKey{}).(Requester)
	return r, ok && (r.Caller != "" || r.Client != "")
}

// keys are the requester's non-empty keys, caller first.
func (r Requester) keys() []string {
	var out []string
	for _, k := range []string{r.Caller, r.Client} {
		if k != "" {
			out = append(out, k)
		}
	}
	return out
}

// Mail is a notice the policy admitted, to one address: what a store
// queues. Only the policy makes one.
type Mail struct {
	notice   Notice
	to       string
	locale   string
	budgeted bool
	quiet    bool
}

// Notice is what the mail is about.
func (m Mail) Notice() Notice { return m.notice }

// To is the address it goes to, as written.
func (m Mail) To() string { return m.to }

// Mailbox is the key of its recipient (see Mailbox).
func (m Mail) Mailbox() string { return Mailbox(m.to) }

// Locale is its language for mail that belongs to no seat ("": the default).
func (m Mail) Locale() string { return m.locale }

// Budgeted says it counts against the recipient's budget.
func (m Mail) Budgeted() bool { return m.budgeted }

// Quiet says it must leave out the words of whoever caused it (a reason, a
// team's name): its recipient did not agree to hear them.
func (m Mail) Quiet() bool { return m.quiet }

// MailFacts is what the policy reads from a unit of work's store.
type MailFacts interface {
	// MailStops says whether mailbox is suppressed and whether the address
	// email unsubscribed from non-essential mail.
	MailStops(ctx context.Context, mailbox, email string) (suppressed, unsubscribed bool, err error)
	// SeatPlayed says whether the seat of color in game played a turn itself
	// (not one the server passed for it).
	SeatPlayed(ctx context.Context, gameID, color string) (bool, error)
	// PlayedIn says whether the address played a turn itself in any of the
	// games.
	PlayedIn(ctx context.Context, email string, gameIDs []string) (bool, error)
	// BudgetSpent counts mailbox's budgeted mail created after since, and
	// when the oldest of it was created (zero if none).
	BudgetSpent(ctx context.Context, mailbox string, since time.Time) (n int, oldest time.Time, err error)
	// TakeRequest is RateLimiter.TakeRequest inside the unit of work: the
	// take stands or falls with it.
	TakeRequest(ctx context.Context, key string, interval, tolerance time.Duration, now time.Time) (ok bool, wait time.Duration, err error)
}

// MailPolicy is the policy with its limits.
type MailPolicy struct {
	limits MailLimits
	log    *slog.Logger
}

// NewMailPolicy returns the policy with limits (zero fields: defaults).
func NewMailPolicy(limits MailLimits) *MailPolicy {
	return &MailPolicy{limits: limits.withDefaults(), log: slog.Default()}
}

// OwnMail admits mail whose recipient caused it himself and nobody else
// could: a disabled webhook's notice to its account's owner. It counts
// against nothing; only suppression and unsubscription stop it.
func OwnMail(n Notice, to, locale string, suppressed, unsubscribed bool) (Mail, bool) {
	if suppressed || unsubscribed && !n.Kind.Essential() {
		return Mail{}, false
	}
	return Mail{notice: n, to: to, locale: locale}, true
}

// LoginMail is the sign-in mail to an address: asked for at the address's
// word, bounded by MaxLoginsPerHour, and sent even to a suppressed address,
// whose owner may want in (it carries no words of anyone's).
func LoginMail(to, locale string) Mail {
	return Mail{notice: Notice{Kind: NoticeLogin, Email: to}, to: to, locale: locale}
}

// admission is one unit of work's passage through the policy: it charges the
// requester's hourly allowance at most once however many changes the unit
// of work writes.
type admission struct {
	policy  *MailPolicy
	facts   MailFacts
	charged bool
}

// admit decides the mail of notices that a change caused, each to its
// recipient (to(n)) in locale: the mail to queue, or the error that refuses
// the whole change.
func (a *admission) admit(ctx context.Context, notices []Notice, to func(Notice) string, locale string, c Cause, now time.Time) ([]Mail, error) {
	req, inRequest := RequesterOf(ctx)
	var out []Mail
	charge := false
	for _, n := range notices {
		// A request that would email someone else, beyond a game's course,
		// takes from the hourly allowance whatever becomes of the mail: an
		// organiser whose mail to strangers is all left out, or whose
		// entrants all signed up, cannot make the server mail without end.
		to := to(n)
		own := c.By != "" && Mailbox(c.By) == Mailbox(to)
		charge = charge || inRequest && !req.Deferred && !own && !n.Kind.course()
		m, ok, err := a.admitOne(ctx, n, to, own, locale, c, req, inRequest, now)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, m)
		}
	}
	if charge && !a.charged {
		if err := a.chargeRequest(ctx, req, now); err != nil {
			return nil, err
		}
		a.charged = true
	}
	return out, nil
}

// admitOne decides one notice to the address to; own says its recipient
// caused it himself.
func (a *admission) admitOne(ctx context.Context, n Notice, to string, own bool, locale string, c Cause, req Requester, inRequest bool,
	now time.Time) (Mail, bool, error) {
	p := a.policy
	mailbox := Mailbox(to)
	suppressed, unsubscribed, err := a.facts.MailStops(ctx, mailbox, to)
	if err != nil {
		return Mail{}, false, err
	}
	switch {
	case suppressed && n.Kind.refusable() && !c.Scheduled:
		return Mail{}, false, SuppressedError(to)
	case suppressed, unsubscribed && !n.Kind.Essential():
		return Mail{}, false, nil
	}
	m := Mail{notice: n, to: to, locale: locale, quiet: !own && !n.Agreed}
	if m.budgeted, err = a.countsAgainstBudget(ctx, n, own); err != nil || !m.budgeted {
		return m, err == nil, err
	}
	since := now.Add(-BudgetWindow)
	spent, oldest, err := a.facts.BudgetSpent(ctx, mailbox, since)
	if err != nil {
		return Mail{}, false, err
	}
	if spent >= p.limits.RecipientPerDay {
		if c.Scheduled || !n.Kind.refusable() {
			p.log.WarnContext(ctx, "mail left out: the recipient's daily budget is spent",
				"kind", string(n.Kind), "game", n.GameID, "tournament", n.Tournament)
			return Mail{}, false, nil
		}
		e := Errorf(KindRateLimited, CodeRecipientBudgetSpent,
			"%s has had %d emails from lesspost that others caused in the last 24 hours; try again later", to, p.limits.RecipientPerDay)
		e.RetryAfter = oldest.Add(BudgetWindow).Sub(now)
		return Mail{}, false, e
	}
	if inRequest {
		err := a.takePair(ctx, req, mailbox, to, now)
		leaveOut := n.Kind.course() || req.Deferred || c.Scheduled && !n.Kind.refusable()
		if de, ok := ErrorOf(err); ok && de.Code == CodeMailLimited && leaveOut {
			// The game (or the event) goes on; the stranger, who has had
			// enough of this sender's mail today, is not mailed about it.
			// So one entrant's allowance never stops an organiser undoing
			// his pause, say: only an invitation or a new link, which is
			// all its request does, is refused.
			p.log.WarnContext(ctx, "mail left out: the sender's mail to the recipient today is spent",
				"kind", string(n.Kind), "game", n.GameID)
			return Mail{}, false, nil
		}
		if err != nil {
			return Mail{}, false, err
		}
	}
	return m, true, nil
}

// takePair takes one mail to mailbox from each of the requester's
// allowances for one stranger.
func (a *admission) takePair(ctx context.Context, req Requester, mailbox, to string, now time.Time) error {
	n := a.policy.limits.PairPerDay
	interval := BudgetWindow / time.Duration(n)
	for _, k := range req.keys() {
		ok, wait, err := a.facts.TakeRequest(ctx, "mail-to:"+k+"|"+mailbox, interval, BudgetWindow-interval, now)
		if err != nil {
			return fmt.Errorf("mail policy: %w", err)
		}
		if !ok {
			e := Errorf(KindRateLimited, CodeMailLimited,
				"you have caused %d emails to %s in the last 24 hours; try again later", n, to)
			e.RetryAfter = wait
			return e
		}
	}
	return nil
}

// chargeRequest takes one request that mails strangers from the caller's
// and the client's hourly allowances.
func (a *admission) chargeRequest(ctx context.Context, req Requester, now time.Time) error {
	l := a.policy.limits
	for _, b := range []struct {
		key string
		n   int
	}{{req.Caller, l.CallerPerHour}, {req.Client, l.ClientPerHour}} {
		if b.key == "" {
			continue
		}
		interval := time.Hour / time.Duration(b.n)
		ok, wait, err := a.facts.TakeRequest(ctx, "mail-requests:"+b.key, interval, time.Hour-interval, now)
		if err != nil {
			return fmt.Errorf("mail policy: %w", err)
		}
		if !ok {
			e := Errorf(KindRateLimited, CodeMailLimited,
				"too many requests that email other people (at most %d an hour); try again later", b.n)
			e.RetryAfter = wait
			return e
		}
	}
	return nil
}

// countsAgainstBudget reports whether a notice counts against its
// recipient's budget of mail caused by others. own says the recipient
// caused it himself.
//
// Mail a person causes himself is not counted: the login mail he asks for
// (which has its own cap, MaxLoginsPerHour), his own seats in games he
// creates, his own link renewals. Nor is the mail of an event he signed up
// to himself (Notice.Agreed) or has played in (Notice.Engaged), nor the
// mail of a game once he has played a turn in it: that is his game, and its
// opponents cannot take turns faster than he answers or his deadlines pass. Until then a stranger's game is
// mail aimed at him: an attacker who invites someone and then plays on, or
// holds every other seat of a four-player game, gets no more through than
// his invitations.
func (a *admission) countsAgainstBudget(ctx context.Context, n Notice, own bool) (bool, error) {
	switch {
	case n.Kind == NoticeLogin, n.Kind == NoticeWebhookDisabled, own, n.Agreed, n.Engaged:
		return false, nil
	case n.GameID == "" || !n.Kind.course():
		// An event's mail, invitations, renewed links: somebody else's doing.
		return true, nil
	}
	played, err := a.facts.SeatPlayed(ctx, n.GameID, n.Color)
	return !played, err
}

// course reports the kinds of mail that follow a game's course: the turns
// and end of a game, its reminders, and the answers to replies. The course
// is paced by the recipient's own turns and deadlines, not by anyone's
// requests, so the sender's limits leave it alone (the recipient's budget
// still counts it until he plays).
func (k NoticeKind) course() bool {
	switch k {
	case NoticeYourTurn, NoticeGameOver, NoticeReminder, NoticeReplyAccepted, NoticeReplyRefused:
		return true
	}
	return false
}

// refusable reports the kinds of mail whose request is refused, not just
// left unsent, when the address is suppressed or over budget: asking to
// invite or re-link an address that wants no mail is an error the sender
// should see.
func (k NoticeKind) refusable() bool {
	return k == NoticeInvitation || k == NoticeNewLink
}

// SuppressedError refuses a change that would mail a suppressed address.
func SuppressedError(email string) error {
	return Errorf(KindInvalid, CodeAddressSuppressed,
		"%s asked lesspost never to email it again; use another address", email)
}

// refuseSuppressed refuses addresses a caller typed (an entrant, a
// replacement, a partner) of which one is suppressed, whether or not mail
// goes to it now: it would later.
func refuseSuppressed(ctx context.Context, f MailFacts, emails ...string) error {
	for _, e := range emails {
		suppressed, _, err := f.MailStops(ctx, Mailbox(e), e)
		if err != nil {
			return err
		}
		if suppressed {
			return SuppressedError(e)
		}
	}
	return nil
}
