// Package accounts owns who may act: accounts and their settings, signing
// in (login links and codes, sessions and their refresh tokens) and
// personal access tokens. A game, a tournament or a webhook names its
// account by a domain.User; this package makes and checks the credentials
// that prove one.
//
// Its use cases are the methods of Service, each one unit of work of the
// store (a Tx: the kernel's, with its mail policy, and the store's writes
// to sessions and tokens). It imports the kernel (package domain); the
// kernel knows nothing of it.
package accounts

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// Store is the persistence port of the accounts' use cases.
type Store interface {
	domain.Store
	MailChoices
	SessionReader
	PersonalTokenReader
}

// Tx is a unit of work as the accounts' use cases see it: the kernel's
// (every mail through the mail policy) and the store's writes to accounts,
// sessions and personal access tokens.
type Tx struct {
	*domain.Tx
	SessionTx
	PersonalTokenTx
}

// StoreTx is what a store's unit of work must do for accounts.
type StoreTx interface {
	SessionTx
	PersonalTokenTx
}

// Service holds the use cases of accounts.
type Service struct {
	store Store
	mail  *domain.MailPolicy
	now   func() time.Time
}

// Config is what a Service needs from outside: its store, the clock (see
// games.Config) and the mail policy (nil: the default one).
type Config struct {
	Store Store
	// Now is the clock; nil means domain.Now.
	Now func() time.Time
	// Mail is the mail policy every mail passes, shared with the other
	// aggregates' services; nil means the default one.
	Mail *domain.MailPolicy
}

// NewService builds the use cases of accounts on a store.
func NewService(cfg Config) *Service {
	s := &Service{store: cfg.Store, mail: cfg.Mail, now: cfg.Now}
	if s.mail == nil {
		s.mail = domain.NewMailPolicy(domain.MailLimits{})
	}
	if s.now == nil {
		s.now = domain.Now
	}
	return s
}

// transact runs fn as one unit of work of the store, under the mail policy.
func (s *Service) transact(ctx context.Context, fn func(*Tx) error) error {
	return s.store.Transact(ctx, func(st domain.StoreTx) error {
		at, ok := st.(StoreTx)
		if !ok {
			return fmt.Errorf("the store's unit of work (%T) keeps no accounts", st)
		}
		return fn(&Tx{Tx: domain.NewTx(st, s.mail), SessionTx: at, PersonalTokenTx: at})
	})
}
