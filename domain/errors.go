package domain

import (
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain/ruleset"
)

// Kind is the class of a domain error; the HTTP edge maps each kind to one status.
type Kind int

const (
	KindInvalid      Kind = iota + 1 // the request is well formed but breaks a rule of its own
	KindIllegalTurn                  // the turn breaks a rule of the game
	KindUnauthorized                 // no valid credentials
	KindForbidden                    // valid credentials, not allowed
	KindNotFound                     // no such thing, or not visible to the caller
	KindConflict                     // the state moved on (stale ply, game over, reused key)
	KindRateLimited                  // too many requests
	// KindUnavailable: the store cannot serve now (a full disk, a database
	// that does not answer in time); the same request may succeed later.
	KindUnavailable
)

// Error is a domain error with a stable machine-readable code.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	// Turn is set for KindIllegalTurn: the rule code and the index of the
	// bad part of the ply.
	Turn *ruleset.Error
	// RetryAfter is, for KindRateLimited and KindUnavailable, how long
	// until the same request can succeed; 0 if unknown.
	RetryAfter time.Duration
	// cause is the failure a KindUnavailable error stands for (see
	// Unavailable): for the log, never for the client.
	cause error
}

func (e *Error) Error() string {
	if e.cause != nil {
		return e.Code + ": " + e.Message + ": " + e.cause.Error()
	}
	return e.Code + ": " + e.Message
}

// Unwrap is the failure an unavailable error stands for, if any. A nil
// *Error wraps nothing: errors.Is walks into one (see ErrorOf).
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.cause
}

// UnavailableRetryAfter is how long a client is told to wait when the store
// is unavailable: a database restarts, or a connection is made again, in
// seconds; a full disk waits for an operator, and a client that tries
// every few seconds costs next to nothing meanwhile.
const UnavailableRetryAfter = 5 * time.Second

// Unavailable marks err, a failure of the store, as its state rather than
// the request's: a full disk, a database that does not answer in time or
// not at all. The store marks such failures where it meets them; the HTTP
// edge answers them 503 unavailable with Retry-After, and the mail worker
// does not count them as a delivery attempt. nil stays nil, and an error
// marked once is returned as it is.
func Unavailable(err error) error {
	if err == nil || IsUnavailable(err) {
		return err
	}
	return &Error{Kind: KindUnavailable, Code: CodeUnavailable, RetryAfter: UnavailableRetryAfter, cause: err,
		Message: "The server cannot reach its data store just now; try again shortly."}
}

// IsUnavailable says whether err is, or wraps, a failure Unavailable marked.
func IsUnavailable(err error) bool {
	de, ok := ErrorOf(err)
	return ok && de.Kind == KindUnavailable
}

// Errorf builds an *Error.
func Errorf(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// Stable codes used across the domain.
const (
	CodeInvalidInput      = "invalid_input"
	CodeIllegalTurn       = "illegal_turn"
	CodeUnauthorized      = "unauthorized"
	CodeLoginInvalid      = "login_invalid"
	CodeRefreshInvalid    = "refresh_invalid"
	CodeTooManyTokens     = "too_many_tokens"
	CodeForbidden         = "forbidden"
	CodeNotYourTurn       = "not_your_turn"
	CodeNotFound          = "not_found"
	CodeStalePly          = "stale_ply"
	CodeGameOver          = "game_over"
	CodeGameNotOver       = "game_not_over" // a rematch of a game still being played
	CodeIdempotencyReused = "idempotency_key_reused"
	CodeInvalidCursor     = "invalid_cursor"
	CodeInvalidVacation   = "invalid_vacation"
	CodeTooManyLogins     = "too_many_logins"
	CodeAlreadyWithdrawn  = "already_withdrawn"
	CodeTournamentOver    = "tournament_over"
	// A link (a seat's or the spectator's) of another game, or one replaced
	// by a newer one (see Credentials.ActorIn).
	CodeWrongGame    = "wrong_game"
	CodeLinkReplaced = "link_replaced"
	// CodeNotDue is the scheduler's "nothing to do": a tick found the game's
	// reminder or deadline not due (it ran twice, or on two servers).
	CodeNotDue = "not_due"
	// CodeUnavailable: the store cannot serve now (KindUnavailable).
	CodeUnavailable = "unavailable"

	// Mail to strangers (see MailPolicy).
	CodeEmailDomainLiteral   = "email_domain_literal"       // ann@[127.0.0.1]
	CodeDuplicateAddress     = "duplicate_address"          // one address on two seats or entries
	CodeAddressSuppressed    = "address_suppressed"         // the address asked for no mail from lesspost
	CodeRecipientBudgetSpent = "recipient_budget_exhausted" // the address had enough mail from others today
	CodeMailLimited          = "mail_limited"               // the caller caused enough mail to others for now
)

// ErrStoredData marks an error in decoding what the store holds: a damaged
// row or document. However it came about, the client is not to blame, so
// ErrorOf never classifies it, whatever engine error it wraps, and the HTTP
// edge answers 500. The store wraps every decoding error with it.
var ErrStoredData = errors.New("stored data is damaged")

// ErrorOf says which *Error err is or stands for: a domain error, or an
// engine error that a request can cause. For anything else, including
// ErrStoredData and nil, ok is false (an internal error).
//
// It returns a pointer and a flag, not an error, so that its result cannot
// become a non-nil error holding a nil *Error; domain code that passes an
// engine error on uses Classify.
func ErrorOf(err error) (de *Error, ok bool) {
	if err == nil || errors.Is(err, ErrStoredData) {
		return nil, false
	}
	if errors.As(err, &de) {
		return de, de != nil
	}
	var re *ruleset.Error
	switch {
	case errors.As(err, &re) && re.Code == ruleset.CodeInvalidOptions:
		return &Error{Kind: KindInvalid, Code: CodeInvalidInput, Message: re.Message}, true
	case errors.As(err, &re):
		return &Error{Kind: KindIllegalTurn, Code: CodeIllegalTurn, Message: re.Message, Turn: re}, true
	case errors.Is(err, ruleset.ErrGameOver):
		return &Error{Kind: KindConflict, Code: CodeGameOver, Message: "the game is over"}, true
	}
	return nil, false
}

// CodeOf is the stable code ErrorOf finds in err, "" for none: what a
// problem's code would be.
func CodeOf(err error) string {
	if de, ok := ErrorOf(err); ok {
		return de.Code
	}
	return ""
}

// Classify returns the *Error that err stands for, or err itself when it
// stands for none (never a nil *Error inside a non-nil error).
func Classify(err error) error {
	if de, ok := ErrorOf(err); ok {
		return de
	}
	return err
}
