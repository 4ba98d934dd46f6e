package domain

import (
	"time"
)

// NoticeKind is the kind of an email lesspost sends.
type NoticeKind string

const (
	NoticeLogin      NoticeKind = "login"      // a sign-in link
	NoticeInvitation NoticeKind = "invitation" // you are invited to a game, with your move link
	NoticeYourTurn   NoticeKind = "your_turn"  // the opponent moved, with your move link
	NoticeGameOver   NoticeKind = "game_over"  // the result
	NoticeNewLink    NoticeKind = "new_link"   // your move link was renewed
	NoticeReminder   NoticeKind = "reminder"   // your deadline is near (non-essential: unsubscribable)
	NoticeBye        NoticeKind = "bye"        // you play no game this tournament round: a bye or a withdrawn opponent (a win)
	// The answers to a turn sent by replying to an email (see PlayByReply).
	NoticeReplyAccepted NoticeKind = "reply_accepted" // your turn was played
	NoticeReplyRefused  NoticeKind = "reply_refused"  // your reply played nothing, and why
)

// Notice is an email to send, decided inside the transaction that causes it
// and rendered when it is delivered. It names the game, the seat it goes to
// and the ply it is about, so the message shows the game as it was then.
type Notice struct {
	Kind   NoticeKind
	GameID string
	Color  string // the seat's colour
	Ply    int
	// Email is the address for notices that belong to no seat (login, bye),
	// and of an invitation to a seat's new player (a seat reseated).
	Email string
	// Tournament is the tournament of a bye notice; Ply is then the round.
	Tournament string
	// Reply is what a reply notice says about the reply it answers; nil
	// for other kinds.
	Reply *ReplyDetail
	// Webhook is what a NoticeWebhookDisabled says; nil for other kinds.
	Webhook *WebhookNotice
	// Agreed says the recipient agreed to hear from whoever causes the
	// notice: an entrant who signed up to a tournament himself gets its
	// organiser's mail. It counts against no budget, and may carry the
	// organiser's words (see MailPolicy).
	Agreed bool
	// Engaged says the recipient took part already: an entrant the
	// organiser typed in who has played a turn in the event. Its mail is
	// his event's and counts against no budget, as a game's mail once he
	// played in it; it still leaves out the organiser's words.
	Engaged bool
}

// ReplyDetail is what the answer to a reply by email says about it. The
// store keeps it with the notice as JSON, in these names.
type ReplyDetail struct {
	// Reason is why a reply was refused (ReplyNoTurn, …); "" when played.
	Reason string `json:"reason,omitempty"`
	// Turn is the turn as the player wrote it when it was refused, or as
	// played (canonical) when it was accepted.
	Turn string `json:"turn,omitempty"`
	// Rule and RuleRef are the rule an illegal turn breaks: its stable code
	// ("blocked") and where the rules state it ("M2"). Part is the 1-based
	// place of the bad move or point in the turn, 0 for the whole turn.
	Rule    string `json:"rule,omitempty"`
	RuleRef string `json:"rule_ref,omitempty"`
	Part    int    `json:"part,omitempty"`
	// Lines are the first lines read, when none was a turn.
	Lines []string `json:"lines,omitempty"`
	// From is the address a reply came from that is not the seat's.
	From string `json:"from,omitempty"`
	// WaitMinutes is how long a seat over its limit of replies waits
	// before its replies are read again (ReplyRateLimited).
	WaitMinutes int `json:"wait_minutes,omitempty"`
}

// Essential reports whether a notice is sent even to an address that
// unsubscribed: moves and results are the game itself, and so are a
// tournament's results, standings and changes to its schedule; a disabled
// webhook is the account's own business; reminders are not.
func (k NoticeKind) Essential() bool {
	return k != NoticeReminder && k != NoticeRoundDeadline
}

// NoticeDelivery is how the email of one notice fared, for the players who
// ask why they got nothing.
type NoticeDelivery struct {
	Kind      NoticeKind
	Color     string
	Ply       int
	Attempts  int
	Status    string // pending, sent, failed
	ErrorCode string // of the last failed attempt; "" if none failed
	LastError string
	CreatedAt time.Time
}

// The mail of running an event: what the players and the organiser are
// told, decided in the unit of work of the change that causes it, so that
// the mail exists exactly when the change does (a retried or doubled tick
// saves nothing and so queues nothing). Each notice names the tournament
// and, in Ply, the round or the log entry it is about; the email is
// rendered from the tournament as stored.
const (
	// NoticeRoundResults: a round closed; its results and the standings
	// after it. To every player still in the event and to the organiser
	// (his "round closed", which marks the games decided by a time-out or
	// adjudicated). Ply: the round.
	NoticeRoundResults NoticeKind = "round_results"
	// NoticeFinalStandings: the last round closed; the final standings, to
	// every entrant (also those who withdrew) and the organiser. Ply: the
	// last round.
	NoticeFinalStandings NoticeKind = "final_standings"
	// NoticeTournamentUpdate: an action on the event a recipient must know
	// (see mailedActions). Ply: the log entry's number (LogEntry.Number).
	NoticeTournamentUpdate NoticeKind = "tournament_update"
	// NoticeRoundDeadline: the round's deadline is near and the
	// recipient's game of it is unfinished (it will be adjudicated). Not
	// essential: an address that unsubscribed from reminders gets none.
	// Ply: the round.
	NoticeRoundDeadline NoticeKind = "round_deadline"
)

// NoticeWebhookDisabled tells an account's owner that lesspost disabled one
// of its webhook endpoints (Notice.Webhook says which and why).
const NoticeWebhookDisabled NoticeKind = "webhook_disabled"

// WebhookNotice is what a NoticeWebhookDisabled says. The store keeps it
// with the notice as JSON, in these names.
type WebhookNotice struct {
	EndpointID int64  `json:"endpoint_id"`
	URL        string `json:"url"`
	Reason     string `json:"reason"`
}
