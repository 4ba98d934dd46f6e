package players

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// Reader reads handles and profiles outside a unit of work.
type Reader interface {
	// UserByID reads an account; a missing one is a not-found *Error.
	UserByID(ctx context.Context, id int64) (domain.User, error)
	// HandleHolder is the account that holds the handle whose Fold is
	// folded at now: as its current handle, or as one it left less than
	// its retirement ago. ok is false if nobody does.
	HandleHolder(ctx context.Context, folded string, now time.Time) (userID int64, ok bool, err error)
	// Profile is an account's profile with its current handle; the zero
	// Profile for an account that has stored none.
	Profile(ctx context.Context, userID int64) (Profile, error)
	// MyGames lists a page of an address's games (games.AccountReader).
	MyGames(ctx context.Context, email, cursor string, limit int) (games.GamePage, error)
}

// StoreTx is what a store's unit of work must do for players.
type StoreTx interface {
	// Profile is Reader.Profile, as the unit of work sees it.
	Profile(ctx context.Context, userID int64) (Profile, error)
	// ClaimHandle makes handle (whose Fold is folded) the account's
	// current handle, and retires its previous one (if another) until
	// retireUntil. ok is false, and nothing changes, if another account
	// holds folded at now, as its current handle or a retired one. The
	// account's own retired handles it may take back.
	ClaimHandle(ctx context.Context, userID int64, handle, folded string, now, retireUntil time.Time) (ok bool, err error)
	// RetiredHandles counts the handles the account left that are still
	// held for it at now, and says when the first of them is free.
	RetiredHandles(ctx context.Context, userID int64, now time.Time) (n int, firstFree time.Time, err error)
	// SaveProfile stores the account's profile; its Handle is ignored (see
	// ClaimHandle).
	SaveProfile(ctx context.Context, userID int64, p Profile, now time.Time) error
}

// Store is the persistence port of the players' use cases.
type Store interface {
	domain.Store
	Reader
}

// Service holds the use cases of players.
type Service struct {
	store Store
	now   func() time.Time
}

// Config is what a Service needs from outside: its store and the clock
// (see games.Config).
type Config struct {
	Store Store
	Now   func() time.Time
}

// NewService builds the use cases of players on a store.
func NewService(cfg Config) *Service {
	return &Service{store: cfg.Store, now: cfg.Now}
}

// transact runs fn as one unit of work of the store.
func (s *Service) transact(ctx context.Context, fn func(StoreTx) error) error {
	return s.store.Transact(ctx, func(st domain.StoreTx) error {
		pt, ok := st.(StoreTx)
		if !ok {
			return fmt.Errorf("the store's unit of work (%T) keeps no players", st)
		}
		return fn(pt)
	})
}

// SetHandle gives the account handle, written as he wants it shown. His
// previous handle keeps leading to him for Retired, and nobody else may
// take it meanwhile. Refusals: handle_invalid, handle_reserved (422),
// handle_taken (409).
func (s *Service) SetHandle(ctx context.Context, userID int64, handle string) (Profile, error) {
	if err := CheckHandle(handle); err != nil {
		return Profile{}, err
	}
	now := s.now()
	err := s.transact(ctx, func(tx StoreTx) error {
		ok, err := tx.ClaimHandle(ctx, userID, handle, Fold(handle), now, now.Add(Retired))
		if err != nil {
			return wrap("claim handle", err)
		}
		if !ok {
			return domain.Errorf(domain.KindConflict, CodeHandleTaken, "the handle %q is taken", handle)
		}
		// Counted after the change: a change of letter case, or taking back
		// a handle of his own, holds no more than before.
		n, free, err := tx.RetiredHandles(ctx, userID, now)
		if err != nil {
			return wrap("count retired handles", err)
		}
		if n > MaxRetiredHandles {
			e := domain.Errorf(domain.KindRateLimited, "rate_limited",
				"the handle was changed %d times in %d days: the next change can wait until an old handle is free", n, int(Retired.Hours()/24))
			e.RetryAfter = free.Sub(now)
			return e
		}
		return nil
	})
	if err != nil {
		return Profile{}, err
	}
	return s.Profile(ctx, userID)
}

// Profile is the account's own profile.
func (s *Service) Profile(ctx context.Context, userID int64) (Profile, error) {
	p, err := s.store.Profile(ctx, userID)
	return p, wrap("read profile", err)
}

// UpdateProfile changes the account's profile (see ProfileChange); a field
// that breaks its rule is an invalid_input *Error and changes nothing.
func (s *Service) UpdateProfile(ctx context.Context, userID int64, c ProfileChange) (Profile, error) {
	var out Profile
	err := s.transact(ctx, func(tx StoreTx) error {
		p, err := tx.Profile(ctx, userID)
		if err != nil {
			return wrap("read profile", err)
		}
		if out, err = c.apply(p); err != nil {
			return err
		}
		return wrap("save profile", tx.SaveProfile(ctx, userID, out, s.now()))
	})
	return out, err
}

// holder is the account that holds handle now (current or retired), with
// its profile; a not-found *Error if none does or it is no handle at all.
func (s *Service) holder(ctx context.Context, handle string) (domain.User, Profile, error) {
	if len(handle) > MaxHandle || !handleRE.MatchString(handle) {
		return domain.User{}, Profile{}, errNoHandle(handle)
	}
	id, ok, err := s.store.HandleHolder(ctx, Fold(handle), s.now())
	if err != nil {
		return domain.User{}, Profile{}, wrap("find handle", err)
	}
	if !ok {
		return domain.User{}, Profile{}, errNoHandle(handle)
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return domain.User{}, Profile{}, wrap("read account", err)
	}
	p, err := s.store.Profile(ctx, id)
	return u, p, wrap("read profile", err)
}

// Invitee is the account an invitation by handle goes to (its handle
// current or retired): the player to seat, named as his account names him
// (his handle if it has no name). The address is for the invitation's
// mail; the caller never shows it. A handle nobody holds is a 422
// unknown_handle *Error.
func (s *Service) Invitee(ctx context.Context, handle string) (games.Player, error) {
	u, p, err := s.holder(ctx, handle)
	if de, ok := domain.ErrorOf(err); ok && de.Kind == domain.KindNotFound {
		return games.Player{}, domain.Errorf(domain.KindInvalid, CodeUnknownHandle, "nobody has the handle %q", domain.Clip(handle))
	}
	if err != nil {
		return games.Player{}, err
	}
	name := u.Name
	if name == "" {
		name = p.Handle
	}
	return games.Player{Name: name, Email: u.Email, Locale: u.Locale}, nil
}

// MaxProfileGames is the most games a profile reads to list and tally:
// enough for years of correspondence play, bounded for the page's sake.
const MaxProfileGames = 500

// Card is a player's public profile: who he is, his games as he lets
// others see them, and his record per game.
type Card struct {
	Player
	// Playing are his games in progress; Finished his finished ones
	// (empty if he hides them), most recent first.
	Playing, Finished []games.Game
	Tallies           []Tally
	// Email is the account's address, for the caller to find the
	// tournaments he entered: never to show.
	Email string
}

// Card reads the public profile of the player who holds handle (current or
// retired: Card.Profile.Handle says which is current, and a caller that
// named a retired one sends the reader there). Not found: no such handle.
func (s *Service) Card(ctx context.Context, handle string) (Card, error) {
	u, p, err := s.holder(ctx, handle)
	if err != nil {
		return Card{}, err
	}
	c := Card{Player: Player{UserID: u.ID, Name: u.Name, Profile: p, MemberSince: u.CreatedAt}, Email: u.Email}
	var all []games.Game
	for cursor := ""; len(all) < MaxProfileGames; {
		page, err := s.store.MyGames(ctx, u.Email, cursor, min(200, MaxProfileGames-len(all)))
		if err != nil {
			return Card{}, wrap("list games", err)
		}
		all = append(all, page.Games...)
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	for _, g := range all {
		if colorOf(g, u.Email) == "" {
			continue // a game he created for others
		}
		if g.Over() {
			if !p.HideFinished {
				c.Finished = append(c.Finished, g)
			}
		} else {
			c.Playing = append(c.Playing, g)
		}
	}
	c.Tallies = Tallies(all, u.Email)
	return c, nil
}
