// Package hooks owns what reaches players and scripts outside email: an
// account's webhooks (endpoints, their signing secrets and delivery log) and
// push subscriptions (a browser's, for an account or one seat), with the
// deliveries the workers make of the events the stores write.
//
// Its use cases are the methods of Webhooks and of Push. It imports the
// kernel (package domain); the kernel knows nothing of it.
package hooks

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// Store is the persistence port of the push use cases.
type Store interface {
	domain.Store
	games.GameReader
	PushReader
}

// Tx is a unit of work as the push use cases see it: the kernel's, and the
// store's writes to push subscriptions.
type Tx struct {
	*domain.Tx
	PushTx
}

// Push holds the use cases of push subscriptions.
type Push struct {
	store Store
	now   func() time.Time
	// pushCheck vets push endpoints; nil allows every one.
	pushCheck URLCheck
}

// PushConfig is what Push needs from outside.
type PushConfig struct {
	Store Store
	// Now is the clock; nil means domain.Now.
	Now func() time.Time
	// EndpointCheck vets the endpoint of a push subscription at subscribe
	// and renewal (the sender checks again at connect time): the server
	// refuses endpoints on private addresses, so that nobody makes it call
	// into its own network, and plain http unless the operator allows it.
	// Its error is the caller's answer. Nil allows every endpoint
	// CheckPushSubscription allows, plain http too.
	EndpointCheck URLCheck
}

// NewPush builds the push use cases on a store.
func NewPush(cfg PushConfig) *Push {
	s := &Push{store: cfg.Store, now: cfg.Now, pushCheck: cfg.EndpointCheck}
	if s.now == nil {
		s.now = domain.Now
	}
	return s
}

// transact runs fn as one unit of work of the store. Push queues no mail:
// the default policy is never asked.
func (s *Push) transact(ctx context.Context, fn func(*Tx) error) error {
	return s.store.Transact(ctx, func(st domain.StoreTx) error {
		pt, ok := st.(PushTx)
		if !ok {
			return fmt.Errorf("the store's unit of work (%T) keeps no push subscriptions", st)
		}
		return fn(&Tx{Tx: domain.NewTx(st, nil), PushTx: pt})
	})
}
