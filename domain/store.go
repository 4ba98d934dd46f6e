package domain

import (
	"context"
	"errors"
	"time"
)

// The store's ports: what the use cases need from persistence, in domain
// types. repo implements them on SQLite; domain/memstore in memory, for the
// use cases' tests; repo/storetest is the contract both pass.

// IdempotencyReader reads the responses of idempotent requests.
type IdempotencyReader interface {
	// StoredResponse is the response stored for an idempotent request, if
	// its key was used before. A key used for a different request (another
	// fingerprint) is a conflict *Error (CodeIdempotencyReused).
	StoredResponse(ctx context.Context, idem Idempotency) (Response, bool, error)
}

// Store is the persistence port every aggregate's extends: its units of
// work.
type Store interface {
	// Transact runs fn as one unit of work: everything fn writes through tx
	// is kept if fn returns nil, and nothing if it returns an error or
	// panics. The error from fn is returned as is. Transact returns only
	// when the outcome is durable. fn must not keep tx, nor call Transact.
	// A store may commit several units of work together (group commit);
	// each stands or falls alone. The aggregates' ports extend tx (see
	// games.StoreTx): a store's unit of work implements them all.
	Transact(ctx context.Context, fn func(tx StoreTx) error) error
}

// StoreTx is what any unit of work may do, as a store implements it: read
// and keep idempotent responses, add events and the notices of no game,
// and read what the mail policy needs.
type StoreTx interface {
	IdempotencyReader
	MailFacts
	// AddNotice writes the event of a notice that belongs to no game (a
	// bye) and queues mail, the policy's admission of it (none, or one).
	AddNotice(ctx context.Context, n Notice, mail []Mail, now time.Time) error
	// AddEvents writes events that come with no notice (a tournament
	// changed) to the live streams.
	AddEvents(ctx context.Context, evs []Event, now time.Time) error
	// EnsureUser returns the account of an address, created if it has none
	// (with ReplyConfirmations on).
	EnsureUser(ctx context.Context, email string, now time.Time) (User, error)
	// UserEmail is the address of an account.
	UserEmail(ctx context.Context, userID int64) (string, error)
	// AccountLocale is the language an address chose for its account, or
	// DefaultLocale when it has none.
	AccountLocale(ctx context.Context, email string) (string, error)
	// StoreResponse keeps the response to an idempotent request; a key
	// stored meanwhile (a concurrent retry) is ErrStale.
	StoreResponse(ctx context.Context, idem Idempotency, r Response, now time.Time) error
}

// ErrStale means that what a change was computed from changed before it
// was written (a game's version, an Idempotency-Key): the unit of work is
// rolled back, and the change is computed again from a fresh read.
var ErrStale = errors.New("changed since it was read")

// Now is the clock of a service whose config gives none: the time in UTC,
// to the millisecond, which is what the stores keep and the API answers.
func Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// Cause is who makes a change that causes notices. By is the address of
// the person who asked ("" for nobody in particular): mail to others counts
// against their budget, mail to himself does not. A Scheduled change (a
// deadline, a tournament round) happens however its mail fares: mail the
// store may not send is left out instead of refusing the change.
type Cause struct {
	By        string
	Scheduled bool
}

// Idempotency names a request sent with an Idempotency-Key.
type Idempotency struct {
	Scope       string // who sent it
	Key         string
	Fingerprint []byte // what was sent
}

// Response is the stored answer to an idempotent request, opaque to the
// domain: the edge renders it (see Presenter) and replays it as it was.
type Response struct {
	Status int
	Body   []byte
}

// Tx is a unit of work as the use cases see it: the store's, with every
// notice it queues passed through the mail policy first. Its AddNotice (and
// the aggregates' writes, through Admit) take what a change causes and hand
// the store only the mail the policy admits, or refuse the change.
type Tx struct {
	StoreTx
	mail admission
}

// NewTx wraps a store's unit of work in the policy p (nil: the default
// policy). The use cases get theirs from Service; tools and the store
// contract tests use this.
func NewTx(st StoreTx, p *MailPolicy) *Tx {
	if p == nil {
		p = NewMailPolicy(MailLimits{})
	}
	return &Tx{StoreTx: st, mail: admission{policy: p, facts: st}}
}

// Admit passes the notices a change causes through the mail policy: the
// mail of them it admits, to the address to gives each, in locale ("" for
// the recipient's own), or the refusal of the change (cause says who
// caused it). The aggregates hand their store what it admits.
func (t *Tx) Admit(ctx context.Context, notices []Notice, to func(Notice) string, locale string, cause Cause, now time.Time) ([]Mail, error) {
	return t.mail.admit(ctx, notices, to, locale, cause, now)
}

// AddNotice writes the event of a notice that belongs to no game and
// queues its mail to n.Email in locale, if the policy admits it.
func (t *Tx) AddNotice(ctx context.Context, n Notice, locale string, c Cause, now time.Time) error {
	mail, err := t.mail.admit(ctx, []Notice{n}, func(n Notice) string { return n.Email }, locale, c, now)
	if err != nil {
		return err
	}
	return t.StoreTx.AddNotice(ctx, n, mail, now)
}

// RefuseSuppressed refuses addresses that a caller typed (an entrant, a
// replacement, a partner) of which one asked for no mail from lesspost:
// whether or not the change mails them now, the event would later.
func (t *Tx) RefuseSuppressed(ctx context.Context, emails ...string) error {
	return refuseSuppressed(ctx, t.StoreTx, emails...)
}
