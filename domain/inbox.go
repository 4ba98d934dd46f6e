package domain

import (
	"context"
	"time"
)

// The port of received mail: what the edge that receives replies (package
// notify/inbound: an SMTP listener, an IMAP poller, and the processor that
// plays them) needs from a store, so that a message is acknowledged to its
// sender only once it is kept, and acted on once, by any instance.

// InboundMail is one received message, kept as received until it is
// processed.
type InboundMail struct {
	ID int64
	// DedupeKey identifies the delivery: a message delivered again with
	// the same key is the same message, and is not kept twice.
	DedupeKey string
	// Source is how it came: "smtp" or "imap".
	Source string
	// Recipient is the address it was delivered to (SMTP's RCPT TO, or the
	// header's for mail fetched from a mailbox).
	Recipient string
	// EnvelopeFrom is SMTP's MAIL FROM; "" for the null sender of bounces.
	EnvelopeFrom string
	Raw          []byte
	ReceivedAt   time.Time
	// Attempts counts the claims of it so far, this one included.
	Attempts int
}

// Inbox is the store of received mail, safe for several receivers and
// processors (in one process or in several on one store) at once.
//
// A processor claims unprocessed mail for a lease, as the Outbox's workers
// do: no other claimant gets it until the lease expires, so a claim outlives
// a processor that crashed with it, and the mail is processed again then.
// Processing must therefore be idempotent (PlayByReply is, by Message-ID).
type Inbox interface {
	// StoreInbound keeps m durably, unless mail with its DedupeKey is kept
	// already: stored is false then, and nothing is written. It returns
	// only once the mail is durable, so that a receiver may acknowledge it.
	StoreInbound(ctx context.Context, m InboundMail) (stored bool, err error)
	// ClaimInbound claims up to limit unprocessed mails for claimant until
	// now+lease, oldest first, and counts the attempt.
	ClaimInbound(ctx context.Context, claimant string, now time.Time, lease time.Duration, limit int) ([]InboundMail, error)
	// MarkInbound records what became of a mail claimant holds (a short
	// code, for the operator) and ends the claim; a mail claimed by another
	// since is left to them.
	MarkInbound(ctx context.Context, claimant string, id int64, outcome string, now time.Time) error
}
