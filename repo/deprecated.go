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
	return domain.UpdateGame(ctx, db, domain.GameUpdate{GameID: id, Idem: idem, Now: now,
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
	return db.serviceAt(now).ExchangeLogin(ctx, token, ttl)
}

// RevokeSession is domain.Service.Logout at now.
//
// Deprecated: call the Service.
func (db *DB) RevokeSession(ctx context.Context, id string, now time.Time) error {
	return db.serviceAt(now).Logout(ctx, id)
}

// UpdateUser is domain.Service.UpdateUser.
//
// Deprecated: call the Service.
func (db *DB) UpdateUser(ctx context.Context, id int64, name, locale string) (User, error) {
	return db.serviceAt(time.Now()).UpdateUser(ctx, id, name, locale)
}

// RotateCalendarLink is domain.Service.RotateCalendarLink.
//
// Deprecated: call the Service.
func (db *DB) RotateCalendarLink(ctx context.Context, id int64) (User, error) {
	return db.serviceAt(time.Now()).RotateCalendarLink(ctx, id)
}

// Vacations is domain.Service.Vacations at now.
//
// Deprecated: call the Service.
func (db *DB) Vacations(ctx context.Context, u User, now time.Time) ([]Vacation, int, error) {
	return db.serviceAt(now).Vacations(ctx, u)
}

// DeclareVacation is domain.Service.DeclareVacation at now.
//
// Deprecated: call the Service.
func (db *DB) DeclareVacation(ctx context.Context, u User, p domain.Period, now time.Time) (Vacation, error) {
	return db.serviceAt(now).DeclareVacation(ctx, u, p)
}

// CancelVacation is domain.Service.CancelVacation at now.
//
// Deprecated: call the Service.
func (db *DB) CancelVacation(ctx context.Context, u User, id int64, now time.Time) error {
	return db.serviceAt(now).CancelVacation(ctx, u, id)
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

// WithdrawFromTournament is domain.Service.Withdraw at now.
//
// Deprecated: call the Service.
func (db *DB) WithdrawFromTournament(ctx context.Context, id string, entrant int, now time.Time) (domain.Tournament, error) {
	return db.serviceAt(now).Withdraw(ctx, id, entrant)
}

// CancelTournament is domain.Service.CancelTournament at now.
//
// Deprecated: call the Service.
func (db *DB) CancelTournament(ctx context.Context, id string, now time.Time) (domain.Tournament, error) {
	return db.serviceAt(now).CancelTournament(ctx, id)
}
