package games

import (
	"context"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// Vacation is a declared period away.
type Vacation struct {
	ID int64
	Period
}

// GamePage is one page of a user's games.
type GamePage struct {
	Games []Game
	// Next is the cursor of the following page, "" on the last page.
	Next string
}

// VacationReader reads an account's vacations.
type VacationReader interface {
	// UserVacations lists all of an account's vacations, by start.
	UserVacations(ctx context.Context, userID int64) ([]Vacation, error)
}

// PlayerGamesReader reads a player's games, and how he wants the turns he
// plays by email answered.
type PlayerGamesReader interface {
	// MyGames lists a page of the games an address plays in or created,
	// most urgent first: games where it is his turn (nearest deadline
	// first, then those without one, longest waiting first), then other
	// running games, then finished ones (most recent first); ties by game
	// id. The cursor is the store's; one it did not write is an invalid
	// *Error (CodeInvalidCursor).
	MyGames(ctx context.Context, email, cursor string, limit int) (GamePage, error)
	// GamesToMove lists the running games with a deadline in which the
	// address holds the seat to move, nearest deadline first.
	GamesToMove(ctx context.Context, email string) ([]Game, error)
	// ReplyConfirmations says whether the address wants a confirmation of
	// each turn it plays by replying to an email: its account's choice, or
	// true when it has no account.
	ReplyConfirmations(ctx context.Context, email string) (bool, error)
}

// VacationTx is what a unit of work may do to a player's vacations and
// the games they move.
type VacationTx interface {
	// Vacations lists an address's vacations that end after since.
	Vacations(ctx context.Context, email string, since time.Time) ([]Period, error)
	// SeatsAway gives the vacations of the seats' players, from since on.
	SeatsAway(ctx context.Context, seats []Seat, since time.Time) (Away, error)
	// AddVacation stores a vacation of an account and returns its id.
	AddVacation(ctx context.Context, userID int64, p Period, now time.Time) (int64, error)
	// EndVacation removes an account's vacation that has not begun at now,
	// or ends one under way at now; ok is false if it has no such vacation
	// that has not ended.
	EndVacation(ctx context.Context, userID, id int64, now time.Time) (ok bool, err error)
	// GamesPlaying lists the running games in which the address holds a
	// seat, by id.
	GamesPlaying(ctx context.Context, email string) ([]Game, error)
}

// MyGames lists a page of the games u plays in or created, most urgent first.
func (s *Service) MyGames(ctx context.Context, u domain.User, cursor string, limit int) (GamePage, error) {
	return s.store.MyGames(ctx, u.Email, cursor, limit)
}

// GamesToMove lists the running games with a deadline in which the address
// holds the seat to move, nearest deadline first.
func (s *Service) GamesToMove(ctx context.Context, email string) ([]Game, error) {
	return s.store.GamesToMove(ctx, email)
}

// Vacations lists u's vacations that have not ended, and his days left
// this year.
func (s *Service) Vacations(ctx context.Context, u domain.User) ([]Vacation, int, error) {
	now := s.now()
	all, err := s.store.UserVacations(ctx, u.ID)
	if err != nil {
		return nil, 0, err
	}
	var periods []Period
	var current []Vacation
	for _, v := range all {
		periods = append(periods, v.Period)
		if v.End.After(now) {
			current = append(current, v)
		}
	}
	return current, VacationDaysLeft(periods, u.VacationDays, now), nil
}

// DeclareVacation records a vacation and moves the deadlines of u's games
// where he is to move, in one unit of work (see refreshDeadlines).
func (s *Service) DeclareVacation(ctx context.Context, u domain.User, p Period) (Vacation, error) {
	now := s.now()
	v := Vacation{Period: p}
	err := s.transact(ctx, func(tx *Tx) error {
		existing, err := tx.Vacations(ctx, u.Email, time.Time{})
		if err != nil {
			return err
		}
		if err := CheckVacation(p, existing, u.VacationDays, now); err != nil {
			return err
		}
		if v.ID, err = tx.AddVacation(ctx, u.ID, p, now); err != nil {
			return err
		}
		return refreshDeadlines(ctx, tx, u.Email, now)
	})
	return v, err
}

// CancelVacation ends a vacation: one that has not begun is removed, one
// under way ends now. Deadlines move back accordingly.
func (s *Service) CancelVacation(ctx context.Context, u domain.User, id int64) error {
	now := s.now()
	return s.transact(ctx, func(tx *Tx) error {
		ok, err := tx.EndVacation(ctx, u.ID, id, now)
		if err != nil {
			return err
		}
		if !ok {
			return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no current vacation %d", id)
		}
		return refreshDeadlines(ctx, tx, u.Email, now)
	})
}

// refreshDeadlines gives every running game of the address that counts
// vacations his vacations as they now are (see WithVacations): the deadline
// moves in those where he is to move, and the others get a new version.
func refreshDeadlines(ctx context.Context, tx *Tx, email string, now time.Time) error {
	games, err := tx.GamesPlaying(ctx, email)
	if err != nil {
		return err
	}
	for _, g := range games {
		if !g.CountsVacations() {
			continue
		}
		away, err := tx.SeatsAway(ctx, g.Seats, g.Clock.TurnStart)
		if err != nil {
			return err
		}
		if err := tx.UpdateGame(ctx, &g, &GameChange{Game: WithVacations(g, away)}, now); err != nil {
			return err
		}
	}
	return nil
}
