package domain

import (
	"context"
	"time"
)

// The ports of mail delivery: what a mail worker (package notify) needs from
// a store, in domain types, so that it depends on no store and any store
// can serve it.

// OutboxMail is an outbox row to deliver: a notice written in the
// transaction of the change that caused it.
type OutboxMail struct {
	ID        int64
	Notice    Notice
	Email     string
	Secret    string // the login token of a login email
	Locale    string // the language of mail that belongs to no seat
	MessageID string // unique per row, so a rare duplicate delivery is recognisable
	Attempts  int
	CreatedAt time.Time
	// Quiet says the mail leaves out the words of whoever caused it (a
	// reason, a team's name): see MailPolicy.
	Quiet bool
}

// SentMail is a mail handed to the mail server, and when.
type SentMail struct {
	ID int64
	At time.Time
}

// MailFailure is why a delivery attempt failed, as the game's players may
// see it: a stable code and a message lesspost wrote. What the mail server
// said can name other people's addresses, so it is not stored.
type MailFailure struct {
	Code    string
	Message string
}

// Outbox is the store of mail to deliver, safe for several workers (in one
// process or in several on one store) at once.
//
// A worker claims due mail for a lease; no other claimant gets it until the
// lease expires, so a claim outlives a worker that crashed with it. Mail of
// one thread (one address and one game, or one address and no game) is
// claimed in its order: a mail is not claimable while an earlier mail of its
// thread is undelivered and either claimed or waiting for a retry, so a
// retried mail is neither overtaken by later mail nor sent after it. A claim
// may hold several mails of one thread; the claimant sends them in order.
//
// Outcomes are recorded only for mail the claimant still holds: mail
// claimed by someone else since the lease expired is theirs (a recorded
// outcome is ignored). Recording an outcome ends the claim; the store may
// keep who delivered or gave up a mail, for the operator.
type Outbox interface {
	// ClaimMail claims up to limit due mails for claimant until now+lease,
	// oldest first.
	ClaimMail(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]OutboxMail, error)
	// MarkSentBatch records delivered mails in one transaction and forgets
	// their secrets.
	MarkSentBatch(ctx context.Context, claimant string, sent []SentMail) error
	// MarkAttemptFailed records a failed delivery: the mail is tried again
	// at next, or, when next is zero, given up as failed.
	MarkAttemptFailed(ctx context.Context, claimant string, id int64, f MailFailure, next, now time.Time) error
	// ReleaseMail ends the claim on mails that were not tried, so that they
	// are due again at once.
	ReleaseMail(ctx context.Context, claimant string, ids []int64) error
}
