// Package tournaments owns the events that pair players into games: their
// formats (round robin, Swiss, knockout), seeding, teams, sign-up, the
// organiser's control, the log, and the scheduler's tick that closes and
// starts rounds.
//
// Its use cases are the methods of Service. Each is one unit of work of the
// store (a Tx: the kernel's, with its mail policy, and the store's
// tournament writes); the games a round creates or an action changes are
// written in the same unit of work by the games' own use cases (games.InTx),
// never by this package. It imports the kernel (package domain), games and
// the rules; none of them knows of it.
package tournaments

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// Store is the persistence port of the tournaments' use cases: the
// kernel's, the tournaments themselves, and their games at once.
type Store interface {
	games.Store
	Reader
	Lister
	// TournamentGamesStamp sums up the games of a tournament, so that a
	// reader can tell whether any changed without reading them.
	TournamentGamesStamp(ctx context.Context, tournamentID string) (GamesStamp, error)
}

// Tx is a unit of work as the tournaments' use cases see it: the kernel's
// (every notice through the mail policy), the store's tournament writes,
// and the games' use cases inside it.
type Tx struct {
	*domain.Tx
	StoreTx
	Games *games.InTx
}

// Service holds the use cases of tournaments.
type Service struct {
	store  Store
	games  *games.Service
	mail   *domain.MailPolicy
	now    func() time.Time
	newID  func(prefix string) string
	random func() uint64
	// tournamentLog is the most entries a tournament's log keeps.
	tournamentLog int
}

// Config is what a Service needs from outside. Now, NewID and Random are
// as in games.Config: the clock, and what makes the tournaments' ids and
// seeds.
type Config struct {
	// Store's units of work must keep tournaments too (StoreTx).
	Store Store
	// Now is the clock; nil means domain.Now.
	Now    func() time.Time
	NewID  func(prefix string) string
	Random func() uint64
	// Games is the games' service on the same Store, whose use cases
	// create and change a tournament's games (games.Service.In); nil means
	// one built from this Config (its NewID names the games).
	Games *games.Service
	// Mail is the mail policy every notice passes, the games' too (the
	// same as Games'); nil means the default one.
	Mail *domain.MailPolicy
	// Log is the most entries a tournament's log keeps, the oldest dropped
	// first (Tournament.TrimLog); 0 means DefaultLog.
	Log int
}

// NewService builds the use cases of tournaments on a store.
func NewService(cfg Config) *Service {
	s := &Service{store: cfg.Store, mail: cfg.Mail, now: cfg.Now, newID: cfg.NewID, random: cfg.Random,
		tournamentLog: cmp.Or(cfg.Log, DefaultLog)}
	if s.mail == nil {
		s.mail = domain.NewMailPolicy(domain.MailLimits{})
	}
	if s.newID == nil {
		s.newID = domain.NewID
	}
	if s.random == nil {
		s.random = domain.RandomUint64
	}
	if s.now == nil {
		s.now = domain.Now
	}
	s.games = cfg.Games
	if s.games == nil {
		s.games = games.NewService(games.Config{Store: cfg.Store, Now: s.now, NewID: s.newID, Random: s.random, Mail: s.mail})
	}
	return s
}

// transact runs fn as one unit of work of the store, under the mail policy.
func (s *Service) transact(ctx context.Context, fn func(*Tx) error) error {
	return s.store.Transact(ctx, func(st domain.StoreTx) error {
		tt, ok := st.(StoreTx)
		if !ok {
			return fmt.Errorf("the store's unit of work (%T) keeps no tournaments", st)
		}
		kt := domain.NewTx(st, s.mail)
		gs, err := s.games.In(kt)
		if err != nil {
			return err
		}
		return fn(&Tx{Tx: kt, StoreTx: tt, Games: gs})
	})
}
