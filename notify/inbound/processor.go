package inbound

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/notify/mailin"
)

// Player plays a reply: games.Service.PlayByReply.
type Player interface {
	PlayByReply(ctx context.Context, r games.Reply) (games.ReplyOutcome, error)
}

// Seat says which game, seat and ply a recipient address names (GameID,
// Color and Ply of the Reply; the rest is left empty), or an error when it
// is no reply address this server signed (api.Links.ParseReplyAddress).
type Seat func(recipient string) (games.Reply, error)

// Outcomes of received mail the processor did not hand to the use case
// (domain.Inbox's outcome; the others are the use case's status and
// reason, e.g. "refused:earlier_turn").
const (
	OutcomeBounce      = "ignored:null_sender"       // MAIL FROM:<>: a bounce or another automatic message
	OutcomeUnknownRcpt = "ignored:unknown_recipient" // not a reply address (any more)
	OutcomeMalformed   = "ignored:malformed"         // no header, or a broken one without a single From to read
	OutcomeAuto        = "ignored:auto_"             // + mailin's reason: an auto-reply, a bounce, a list
	OutcomeGaveUp      = "failed:gave_up"            // the use case failed MaxAttempts times
)

// Processor plays what the receivers kept: it claims received mail from the
// Inbox, reads it, drops what no person wrote, and plays the rest
// (PlayByReply), then records the outcome. What a person may have written
// but it will not read (the receiving server found it forged, its MIME is
// broken, it is too large) goes to the use case unread, which tells the
// seat. A message is never answered from here: the use case's notices are
// the answers, to the seat's address, and machines and forgers get none.
//
// A processor that dies between playing and recording leaves its claim to
// lapse; the message is played again then, which the use case's
// idempotency by Message-ID turns into a replay of what it did.
type Processor struct {
	Inbox domain.Inbox
	Play  Player
	Seat  Seat
	// Limits bound the reading of a message (mailin.Limits); AuthServID
	// there names the receiving server whose Authentication-Results count.
	Limits mailin.Limits
	Log    *slog.Logger
	Now    func() time.Time
	// Claimant names this processor in its claims: unique per processor.
	Claimant string
	// Lease is how long a claim keeps mail from other processors.
	Lease time.Duration
	// Poll is how often the processor looks for mail when nobody wakes it
	// (other instances' receivers do not).
	Poll time.Duration
	// MaxAttempts is how often a message whose playing fails (the store)
	// is tried before it is given up.
	MaxAttempts int
	// Queued, if set, is called after a message caused mail (the outbox
	// worker's Wake).
	Queued func()

	wake chan struct{}
}

// DefaultLease is the processor's lease unless told otherwise: playing a
// reply is one unit of work.
const DefaultLease = time.Minute

// NewProcessor returns a processor with the defaults: a lease of
// DefaultLease, a look every second, 5 attempts.
func NewProcessor(inbox domain.Inbox, play Player, seat Seat, claimant string, log *slog.Logger, now func() time.Time) *Processor {
	return &Processor{Inbox: inbox, Play: play, Seat: seat, Claimant: claimant, Log: log, Now: now,
		Lease: DefaultLease, Poll: time.Second, MaxAttempts: 5, wake: make(chan struct{}, 1)}
}

// Wake tells the processor mail was received, so it need not wait for the
// next poll.
func (p *Processor) Wake() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Run processes received mail until ctx ends.
func (p *Processor) Run(ctx context.Context) error {
	t := time.NewTicker(p.Poll)
	defer t.Stop()
	for {
		if _, err := p.ProcessDue(ctx); err != nil && ctx.Err() == nil {
			p.Log.ErrorContext(ctx, "inbound: processing failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-p.wake:
		}
	}
}

// batch is how many messages one claim takes.
const batch = 20

// ProcessDue processes the received mail there is, a claim at a time, and
// says how many messages it recorded an outcome for. A message whose
// playing failed is left to its lease.
func (p *Processor) ProcessDue(ctx context.Context) (int, error) {
	done := 0
	for ctx.Err() == nil {
		claimed, err := p.Inbox.ClaimInbound(ctx, p.Claimant, p.Now(), p.Lease, batch)
		if err != nil {
			return done, err
		}
		failed := 0
		for _, m := range claimed {
			if p.process(ctx, m) {
				done++
			} else {
				failed++
			}
		}
		if len(claimed) < batch || failed == len(claimed) {
			return done, nil
		}
	}
	return done, nil
}

// process acts on one message and records its outcome; false when it could
// not, and the message waits for its lease to end.
func (p *Processor) process(ctx context.Context, m domain.InboundMail) bool {
	log := p.Log.With("inbound", m.ID, "source", m.Source)
	outcome, queued, err := p.outcome(ctx, log, m)
	if err != nil {
		if m.Attempts < p.MaxAttempts {
			log.ErrorContext(ctx, "inbound: playing a reply failed; tried again later", "attempt", m.Attempts, "error", err)
			return false
		}
		log.ErrorContext(ctx, "inbound: playing a reply failed; given up", "attempt", m.Attempts, "error", err)
		outcome = OutcomeGaveUp
	}
	if err := p.Inbox.MarkInbound(context.WithoutCancel(ctx), p.Claimant, m.ID, outcome, p.Now()); err != nil {
		log.ErrorContext(ctx, "inbound: record outcome", "outcome", outcome, "error", err)
		return false
	}
	log.InfoContext(ctx, "inbound: processed", "outcome", outcome)
	if queued && p.Queued != nil {
		p.Queued()
	}
	return true
}

// outcome decides what m is and plays it if it is a person's reply; queued
// says mail was queued.
func (p *Processor) outcome(ctx context.Context, log *slog.Logger, m domain.InboundMail) (outcome string, queued bool, err error) {
	if m.EnvelopeFrom == "" {
		return OutcomeBounce, false, nil
	}
	r, err := p.Seat(m.Recipient)
	if err != nil {
		return OutcomeUnknownRcpt, false, nil
	}
	msg, err := mailin.Parse(m.Raw, p.Limits)
	switch {
	case msg == nil:
		// No header: nothing says who wrote it, nor that a person did.
		return OutcomeMalformed, false, nil
	case msg.Auto != "":
		return OutcomeAuto + msg.Auto, false, nil
	case msg.AuthFailed != "":
		log.InfoContext(ctx, "inbound: the receiving server found the sender forged", "check", msg.AuthFailed)
		r.Unread = games.ReplyAuthFailed
	case errors.Is(err, mailin.ErrTooLarge):
		r.Unread = games.ReplyTooLarge
	case errors.Is(err, mailin.ErrMalformed) && msg.From == "":
		// Not even a From: junk more likely than a player's reply.
		return OutcomeMalformed, false, nil
	case errors.Is(err, mailin.ErrMalformed):
		r.Unread = games.ReplyMalformed
	}
	// Past here a person may have written to a seat. A message with no
	// text, or too complex to find it, plays nothing; the use case answers
	// that it found no turn, which helps the player more than silence.
	r.From, r.MessageID = msg.From, msg.MessageID
	if r.Unread == "" {
		r.Lines = msg.Lines
	}
	if r.MessageID == "" {
		// Retries of one message without a Message-ID are the same row.
		r.MessageID = m.DedupeKey
	}
	out, err := p.Play.PlayByReply(ctx, r)
	if err != nil {
		return "", false, err
	}
	outcome = string(out.Status)
	if out.Reason != "" {
		outcome += ":" + out.Reason
	}
	return outcome, out.Status != games.ReplyIgnored && !out.Replayed, nil
}
