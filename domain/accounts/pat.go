package accounts

import (
	"context"
	"github.com/lesspost/lesspost/domain"
	"slices"
	"strings"
	"time"
)

// The scopes of a personal access token: what a script or bot holding it
// may do for its owner. An account token from signing in may do all of it.
// (Tournaments are public to read: no scope is needed for that.)
const (
	ScopeGamesRead        = "games:read"        // read the games the owner may see, and list his games
	ScopeGamesPlay        = "games:play"        // play turns, resign, renew links
	ScopeGamesCreate      = "games:create"      // create games
	ScopeTournamentsWrite = "tournaments:write" // create, withdraw from and cancel tournaments
	ScopeAccountRead      = "account:read"      // read the account and its vacations
	ScopeAccountWrite     = "account:write"     // change the account, its vacations and its calendar link
	ScopeWebhooksRead     = "webhooks:read"     // list the account's webhook endpoints and their delivery logs
	ScopeWebhooksWrite    = "webhooks:write"    // register, change, delete and test webhook endpoints, rotate their secrets
)

// Scopes lists every scope, in the order the API documents them.
var Scopes = []string{ScopeGamesRead, ScopeGamesPlay, ScopeGamesCreate, ScopeTournamentsWrite,
	ScopeAccountRead, ScopeAccountWrite, ScopeWebhooksRead, ScopeWebhooksWrite}

// PersonalTokenPrefix starts every personal access token, so that secret
// scanners can recognise one that leaked.
const PersonalTokenPrefix = "lp_pat_"

// MaxPersonalTokens bounds the live personal access tokens of one account.
const MaxPersonalTokens = 50

// MaxPersonalTokenDays is the longest lifetime a personal access token may be given.
const MaxPersonalTokenDays = 3650

// personalTokenUseGrain is how coarsely a token's last use is kept: using a
// token writes at most once per grain, not on every request.
const personalTokenUseGrain = time.Hour

// PersonalToken is a personal access token of an account, without its
// secret (the store keeps only its hash).
type PersonalToken struct {
	ID         int64
	UserID     int64
	Name       string
	Scopes     []string // sorted as Scopes
	CreatedAt  time.Time
	LastUsedAt time.Time // zero: never used; else to the hour
	ExpiresAt  time.Time // zero: never expires
}

// Allows says whether the token grants scope.
func (t PersonalToken) Allows(scope string) bool { return slices.Contains(t.Scopes, scope) }

// PersonalTokenReader reads personal access tokens.
type PersonalTokenReader interface {
	// PersonalTokens lists an account's tokens, newest first.
	PersonalTokens(ctx context.Context, userID int64) ([]PersonalToken, error)
	// PersonalTokenBySecret finds a token that has not expired at now, and
	// its owner; ok is false if there is none.
	PersonalTokenBySecret(ctx context.Context, secret string, now time.Time) (t PersonalToken, owner domain.User, ok bool, err error)
}

// PersonalTokenTx is what a unit of work may do to personal access tokens.
type PersonalTokenTx interface {
	// CountPersonalTokens counts an account's tokens that have not expired
	// at now.
	CountPersonalTokens(ctx context.Context, userID int64, now time.Time) (int, error)
	// AddPersonalToken stores a token with the hash of its secret and
	// returns its id.
	AddPersonalToken(ctx context.Context, t PersonalToken, secret string) (int64, error)
	// DeletePersonalToken deletes an account's token; ok is false if it has
	// no such token.
	DeletePersonalToken(ctx context.Context, userID, id int64) (ok bool, err error)
	// TouchPersonalToken records that a token was used at (a time to the
	// hour).
	TouchPersonalToken(ctx context.Context, id int64, at time.Time) error
}

// CreatePersonalToken makes a personal access token for u and returns it
// and its secret, which is shown this once. days 0 means it never expires.
func (s *Service) CreatePersonalToken(ctx context.Context, u domain.User, name string, scopes []string, days int) (PersonalToken, string, error) {
	now := s.now()
	name, err := domain.CheckText(name, domain.MaxNameLength, "token name")
	if err != nil {
		return PersonalToken{}, "", err
	}
	if len(scopes) == 0 {
		return PersonalToken{}, "", domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a token needs at least one scope")
	}
	var sorted []string
	for _, sc := range Scopes {
		if slices.Contains(scopes, sc) {
			sorted = append(sorted, sc)
		}
	}
	for _, sc := range scopes {
		if !slices.Contains(Scopes, sc) {
			return PersonalToken{}, "", domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "unknown scope %q; the scopes are %s", sc, strings.Join(Scopes, ", "))
		}
	}
	if days < 0 || days > MaxPersonalTokenDays {
		return PersonalToken{}, "", domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a token lives 1 to %d days, or forever", MaxPersonalTokenDays)
	}
	t := PersonalToken{UserID: u.ID, Name: name, Scopes: sorted, CreatedAt: now}
	if days > 0 {
		t.ExpiresAt = now.Add(time.Duration(days) * 24 * time.Hour)
	}
	secret := PersonalTokenPrefix + domain.RandomToken(20)
	err = s.transact(ctx, func(tx *Tx) error {
		n, err := tx.CountPersonalTokens(ctx, u.ID, now)
		if err != nil {
			return err
		}
		if n >= MaxPersonalTokens {
			return domain.Errorf(domain.KindConflict, domain.CodeTooManyTokens, "an account has at most %d personal access tokens: revoke one first", MaxPersonalTokens)
		}
		t.ID, err = tx.AddPersonalToken(ctx, t, secret)
		return err
	})
	if err != nil {
		return PersonalToken{}, "", err
	}
	return t, secret, nil
}

// PersonalTokens lists u's personal access tokens, newest first.
func (s *Service) PersonalTokens(ctx context.Context, u domain.User) ([]PersonalToken, error) {
	return s.store.PersonalTokens(ctx, u.ID)
}

// RevokePersonalToken deletes one of u's personal access tokens: it stops
// working at once.
func (s *Service) RevokePersonalToken(ctx context.Context, u domain.User, id int64) error {
	return s.transact(ctx, func(tx *Tx) error {
		ok, err := tx.DeletePersonalToken(ctx, u.ID, id)
		if err != nil {
			return err
		}
		if !ok {
			return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no personal access token %d", id)
		}
		return nil
	})
}

// PersonalTokenUser checks a personal access token's secret and returns the
// token and its owner; an unknown or expired one is unauthorized. It
// records the use, to the hour: at most one write per token and hour.
func (s *Service) PersonalTokenUser(ctx context.Context, secret string) (PersonalToken, domain.User, error) {
	now := s.now()
	t, u, ok, err := s.store.PersonalTokenBySecret(ctx, secret, now)
	if err != nil {
		return PersonalToken{}, domain.User{}, err
	}
	if !ok {
		return PersonalToken{}, domain.User{}, domain.Errorf(domain.KindUnauthorized, domain.CodeUnauthorized, "the token is invalid, revoked or expired")
	}
	if used := now.Truncate(personalTokenUseGrain); used.After(t.LastUsedAt) {
		t.LastUsedAt = used
		if err := s.transact(ctx, func(tx *Tx) error { return tx.TouchPersonalToken(ctx, t.ID, used) }); err != nil {
			return PersonalToken{}, domain.User{}, err
		}
	}
	return t, u, nil
}
