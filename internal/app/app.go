// Package app builds the use cases of every aggregate once, on one store,
// one clock and one mail policy. cmd/api hands what it builds to the HTTP
// edge (api) and to the workers (the scheduler, the inbound mail, push),
// and the tests build theirs the same way: there is no second wiring that
// could be configured differently.
package app

import (
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/players"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// Store is every port the use cases need of a store; repo.Store is one.
type Store interface {
	tournaments.Store
	accounts.Store
	hooks.Store
	hooks.WebhookStore
	players.Store
}

// Config is what the use cases need from outside.
type Config struct {
	Store Store
	// Now is the clock; nil means time.Now. The services read it in UTC
	// and to the millisecond (as domain.Now does), which is what the
	// stores keep and the API answers.
	Now func() time.Time
	// NewID and Random make identifiers and board seeds; nil means
	// domain.NewID and a draw from crypto/rand. Tests may fix them.
	NewID  func(prefix string) string
	Random func() uint64
	// MailLimits are the mail policy's numbers (domain.MailPolicy), which
	// every use case that can cause mail meets; zero fields mean the
	// defaults.
	MailLimits domain.MailLimits
	// Replies bound the turns played by replying to an email; zero rates
	// mean games.DefaultReplyLimits.
	Replies games.ReplyLimits
	// TournamentLog is the most entries a tournament's log keeps; 0 means
	// tournaments.DefaultLog.
	TournamentLog int
	// PushEndpointCheck vets a push subscription's endpoint (see
	// hooks.PushConfig); nil allows every one.
	PushEndpointCheck hooks.URLCheck
	// WebhookURLCheck decides which webhook URLs may be registered; nil
	// allows every one.
	WebhookURLCheck hooks.URLCheck
}

// Services are the use cases of every aggregate, sharing one store, clock
// and mail policy.
type Services struct {
	// Now is the clock the services read (UTC, milliseconds).
	Now         func() time.Time
	Games       *games.Service
	Tournaments *tournaments.Service
	Accounts    *accounts.Service
	Push        *hooks.Push
	Webhooks    *hooks.Webhooks
	Players     *players.Service
}

// New builds the services.
func New(cfg Config) *Services {
	now := domain.Now
	if clock := cfg.Now; clock != nil {
		now = func() time.Time { return clock().UTC().Truncate(time.Millisecond) }
	}
	mail := domain.NewMailPolicy(cfg.MailLimits)
	gs := games.NewService(games.Config{Store: cfg.Store, Now: now, NewID: cfg.NewID, Random: cfg.Random,
		Mail: mail, Replies: cfg.Replies})
	return &Services{
		Now:   now,
		Games: gs,
		Tournaments: tournaments.NewService(tournaments.Config{Store: cfg.Store, Now: now, NewID: cfg.NewID, Random: cfg.Random,
			Games: gs, Mail: mail, Log: cfg.TournamentLog}),
		Accounts: accounts.NewService(accounts.Config{Store: cfg.Store, Now: now, Mail: mail}),
		Push:     hooks.NewPush(hooks.PushConfig{Store: cfg.Store, Now: now, EndpointCheck: cfg.PushEndpointCheck}),
		Webhooks: hooks.NewWebhooks(hooks.WebhookConfig{Store: cfg.Store, Now: now, URLCheck: cfg.WebhookURLCheck}),
		Players:  players.NewService(players.Config{Store: cfg.Store, Now: now}),
	}
}
