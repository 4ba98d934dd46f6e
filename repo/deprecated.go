package repo

import (
	"context"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// The use cases that were the store's before domain.Service held them,
// with their old signatures, for the tests that still call them (here, in
// notify and in cmd). Each is the Service's use case at a fixed time: no
// logic lives here. New code calls the Service.

// serviceAt is the Service on this store with its clock stopped at now.
func (db *DB) serviceAt(now time.Time) *domain.Service {
	return domain.NewService(domain.ServiceConfig{Store: db, Now: func() time.Time { return now }})
}

// CreateGame is domain.Service.CreateGame at now.
//
// Deprecated: call the Service.
func (db *DB) CreateGame(ctx context.Context, spec domain.NewGameSpec, creatorID int64, now time.Time) (domain.Game, error) {
	return db.serviceAt(now).CreateGame(ctx, spec, creatorID)
}

// UpdateGame is domain.UpdateGame on this store.
//
// Deprecated: call the Service. This stays for the tests that change games
// with closures of their own.
func (db *DB) UpdateGame(ctx context.Context, id string, idem *Idempotency, now time.Time,
	authorize func(domain.Game) error, change func(domain.Game) (Change, error)) (resp Response, replayed bool, err error) {
	return domain.UpdateGame(ctx, db, nil, domain.GameUpdate{GameID: id, Idem: idem, Now: now,
		Authorize: func(g *domain.Game) error { return authorize(*g) }, Compute: change})
}

// RequestLogin is domain.Service.RequestLogin at now.
//
// Deprecated: call the Service.
func (db *DB) RequestLogin(ctx context.Context, email, locale string, now time.Time) error {
	return db.serviceAt(now).RequestLogin(ctx, email, locale)
}

// ExchangeLogin is domain.Service.ExchangeLogin at now.
//
// Deprecated: call the Service.
func (db *DB) ExchangeLogin(ctx context.Context, token string, ttl time.Duration, now time.Time) (Session, error) {
	g, err := db.serviceAt(now).ExchangeLogin(ctx, token, ttl)
	return g.Session, err
}

// Tick is domain.Service.TickGame at now.
//
// Deprecated: call the Service.
func (db *DB) Tick(ctx context.Context, id string, now time.Time) (bool, error) {
	return db.serviceAt(now).TickGame(ctx, id)
}

// CreateTournament is domain.Service.CreateTournament at now.
//
// Deprecated: call the Service.
func (db *DB) CreateTournament(ctx context.Context, spec domain.NewTournamentSpec, organizerID int64, now time.Time) (domain.Tournament, error) {
	return db.serviceAt(now).CreateTournament(ctx, spec, organizerID)
}

// TickTournament is domain.Service.TickTournament at now.
//
// Deprecated: call the Service.
func (db *DB) TickTournament(ctx context.Context, id string, now time.Time) (bool, error) {
	return db.serviceAt(now).TickTournament(ctx, id)
}
