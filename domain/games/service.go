package games

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// Service holds the use cases of games: each reads through the store, asks
// the rules, and writes what a change does in one unit of work. The edges (the
// HTTP API, the scheduler) authenticate, decode, and call it.
type Service struct {
	store   Store
	limiter domain.RateLimiter
	mail    *domain.MailPolicy
	now     func() time.Time
	newID   func(prefix string) string
	random  func() uint64
	// replyLimits bound the replies by email (see PlayByReply).
	replyLimits ReplyLimits
}

// Config is what a Service needs from outside.
type Config struct {
	Store Store
	// Now is the clock; nil means domain.Now. The times it gives are what
	// is stored and answered, so it should have the store's precision
	// (milliseconds, in UTC).
	Now func() time.Time
	// NewID and Random make identifiers and board seeds; nil means NewID
	// and a draw from crypto/rand. Tests may fix them.
	NewID  func(prefix string) string
	Random func() uint64
	// Limiter keeps the rate limits of the use cases that need one (turns
	// by email, see PlayByReply); nil means the Store, if it is one.
	Limiter domain.RateLimiter
	// Mail is the mail policy every notice passes, shared with the other
	// aggregates' services; nil means the default one
	// (domain.DefaultMailLimits).
	Mail *domain.MailPolicy
	// Replies bound the replies by email PlayByReply reads; a zero rate
	// is DefaultReplyLimits'.
	Replies ReplyLimits
}

// NewService builds the use cases on a store.
func NewService(cfg Config) *Service {
	s := &Service{store: cfg.Store, limiter: cfg.Limiter, now: cfg.Now, newID: cfg.NewID, random: cfg.Random,
		mail: cfg.Mail}
	if l, ok := cfg.Store.(domain.RateLimiter); ok && s.limiter == nil {
		s.limiter = l
	}
	if s.mail == nil {
		s.mail = domain.NewMailPolicy(domain.MailLimits{})
	}
	if s.now == nil {
		s.now = domain.Now
	}
	if s.newID == nil {
		s.newID = domain.NewID
	}
	if s.random == nil {
		s.random = domain.RandomUint64
	}
	s.replyLimits = cfg.Replies
	if s.replyLimits.Seat.N <= 0 || s.replyLimits.Seat.Per <= 0 {
		s.replyLimits.Seat = DefaultReplyLimits.Seat
	}
	if s.replyLimits.Others.N <= 0 || s.replyLimits.Others.Per <= 0 {
		s.replyLimits.Others = DefaultReplyLimits.Others
	}
	return s
}

// Credentials are what a caller's token proves: an account (UserID and
// UserEmail), or a link to one game (GameID): a seat's move link (Seat) or
// its spectator link (Spectator), at the link's version.
type Credentials struct {
	UserID      int64
	UserEmail   string
	GameID      string
	Seat        *string // the seat's colour
	Spectator   bool
	LinkVersion int
}

// ActorIn checks that the credentials may act on game g and says as whom.
// A link must name this game and be its current version: a replaced link
// is refused like an expired one.
func (c Credentials) ActorIn(g *Game) (Actor, error) {
	wrongGame := func() error {
		return domain.Errorf(domain.KindForbidden, domain.CodeWrongGame, "This link is for another game.")
	}
	switch {
	case c.Seat != nil:
		if c.GameID != g.ID {
			return Actor{}, wrongGame()
		}
		seat, ok := g.Seat(*c.Seat)
		if !ok {
			return Actor{}, wrongGame()
		}
		if seat.TokenVersion != c.LinkVersion {
			return Actor{}, domain.Errorf(domain.KindUnauthorized, domain.CodeLinkReplaced,
				"This move link was replaced by a newer one: use the link in the latest email.")
		}
		color := *c.Seat
		return Actor{SeatColor: &color}, nil
	case c.Spectator:
		if c.GameID != g.ID {
			return Actor{}, wrongGame()
		}
		if g.WatchVersion != c.LinkVersion {
			return Actor{}, domain.Errorf(domain.KindUnauthorized, domain.CodeLinkReplaced,
				"This spectator link was replaced by a newer one: ask a player for the new one.")
		}
		return Actor{Spectator: true}, nil
	default:
		return Actor{UserID: c.UserID, UserEmail: c.UserEmail}, nil
	}
}

// Presenter renders the response to a change to a game, which is stored
// with it for an idempotent request: before is the game as read, done
// what the change did, now its time. It must be free of side effects.
type Presenter func(a Actor, before *Game, done *Submitted, now time.Time) (domain.Response, error)

// GameRequest is who asks for a change to which game, and the request's
// Idempotency-Key if it has one.
type GameRequest struct {
	GameID string
	By     Credentials
	Idem   *domain.Idempotency
	// Hold, if set, runs before the change is written (see GameUpdate).
	Hold func(context.Context)
}

// CreateGame builds a game from spec for the account creatorID and stores
// it with its invitations.
func (s *Service) CreateGame(ctx context.Context, spec NewGameSpec, creatorID int64) (Game, error) {
	done, err := s.CreateGameOnce(ctx, spec, creatorID, nil, nil)
	return done.Game, err
}

// GameCreated is what CreateGameOnce did: the new game or, for a key used
// before, the stored response (Replayed; Game is then zero).
type GameCreated struct {
	Game     Game
	Response domain.Response
	Replayed bool
}

// CreateGameOnce creates a game as CreateGame does; with an
// Idempotency-Key (idem) a retry of the same request gets the response
// present gave the first one instead of a second game (and second
// invitations), in the same unit of work.
func (s *Service) CreateGameOnce(ctx context.Context, spec NewGameSpec, creatorID int64, idem *domain.Idempotency,
	present func(*Game) (domain.Response, error)) (GameCreated, error) {
	now := s.now()
	var created Created
	var done GameCreated
	// The same key sent twice at once: both may create a game, and the
	// second to store its response finds the key taken (ErrStale), rolls
	// back, and runs again to answer with the first one's response.
	work := func(tx *Tx) error {
		done = GameCreated{}
		if idem != nil {
			stored, found, err := tx.StoredResponse(ctx, *idem)
			if err != nil || found {
				done.Response, done.Replayed = stored, found
				return err
			}
		}
		spec := spec // a retried unit of work starts from the caller's spec
		away, err := tx.PlayersAway(ctx, spec.Players, now)
		if err != nil {
			return err
		}
		creator, err := tx.UserEmail(ctx, creatorID)
		if err != nil {
			return err
		}
		spec.Creator = creator
		if created, err = CreateGame(spec, s.newID("g"), creatorID, now, s.random(), away); err != nil {
			return err
		}
		if err := fillLocales(ctx, tx, &created.Game); err != nil {
			return err
		}
		if err := tx.InsertGame(ctx, &created, domain.Cause{By: creator}, now); err != nil {
			return err
		}
		done.Game = created.Game
		if idem == nil {
			return nil
		}
		if done.Response, err = present(&created.Game); err != nil {
			return err
		}
		return tx.StoreResponse(ctx, *idem, done.Response, now)
	}
	if err := s.transactAgain(ctx, work); err != nil {
		if _, ok := domain.ErrorOf(err); ok {
			return GameCreated{}, err
		}
		return GameCreated{}, fmt.Errorf("create game: %w", err)
	}
	return done, nil
}

// fillLocales gives seats without a chosen locale their account's language.
func fillLocales(ctx context.Context, tx *Tx, g *Game) error {
	for i := range g.Seats {
		seat := &g.Seats[i]
		if seat.Locale == "" {
			var err error
			if seat.Locale, err = tx.AccountLocale(ctx, seat.Email); err != nil {
				return err
			}
		}
	}
	return nil
}

// ReadGame reads a game the credentials may see, and as whom they see it.
func (s *Service) ReadGame(ctx context.Context, id string, by Credentials) (Game, Actor, error) {
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return Game{}, Actor{}, err
	}
	a, err := by.ActorIn(&g)
	if err != nil {
		return Game{}, Actor{}, err
	}
	if !a.CanRead(&g) {
		return Game{}, Actor{}, domain.Errorf(domain.KindForbidden, domain.CodeForbidden, "You neither play in nor created this game.")
	}
	return g, a, nil
}

// Turns lists the turns of a game, for a caller who may read it (see ReadGame).
func (s *Service) Turns(ctx context.Context, id string) ([]StoredTurn, error) {
	return s.store.Turns(ctx, id)
}

// GameMail lists how the emails of a game fared, for its players and its
// creator (the caller checks who asks).
func (s *Service) GameMail(ctx context.Context, id string) ([]domain.NoticeDelivery, error) {
	return s.store.GameMail(ctx, id)
}

// SubmitTurn plays a turn made at ply: the new state, the turn, the
// notices it causes and the response present renders commit together.
// replayed says the Idempotency-Key was used before and resp is the stored
// response.
func (s *Service) SubmitTurn(ctx context.Context, r GameRequest, ply int, turn string, present Presenter) (resp domain.Response, replayed bool, err error) {
	return s.playOrResign(ctx, r, present, func(g Game, a Actor, now time.Time) (Submitted, error) {
		return SubmitTurn(g, a, ply, turn, now)
	})
}

// Resign ends the game: the caller's side loses.
func (s *Service) Resign(ctx context.Context, r GameRequest, present Presenter) (resp domain.Response, replayed bool, err error) {
	return s.playOrResign(ctx, r, present, func(g Game, a Actor, now time.Time) (Submitted, error) {
		return Resign(g, a, now)
	})
}

func (s *Service) playOrResign(ctx context.Context, r GameRequest, present Presenter,
	change func(Game, Actor, time.Time) (Submitted, error)) (domain.Response, bool, error) {
	now := s.now()
	return s.updateGame(ctx, GameUpdate{GameID: r.GameID, Idem: r.Idem, Now: now, Hold: r.Hold,
		Authorize: func(g *Game) error {
			_, err := r.By.ActorIn(g)
			return err
		},
		Compute: func(g Game) (GameChange, error) {
			a, err := r.By.ActorIn(&g)
			if err != nil {
				return GameChange{}, err
			}
			sub, err := change(g, a, now)
			if err != nil {
				return GameChange{}, err
			}
			resp, err := present(a, &g, &sub, now)
			if err != nil {
				return GameChange{}, err
			}
			return GameChange{Game: sub.Game, Played: sub.Played, Notices: sub.Notices, Response: resp}, nil
		}})
}

// RotateSeat renews a seat's move link: old links stop working and the new
// one is sent to the seat's player, never to the caller.
func (s *Service) RotateSeat(ctx context.Context, id string, by Credentials, color string) error {
	now := s.now()
	_, _, err := s.updateGame(ctx, GameUpdate{GameID: id, Now: now, Compute: func(g Game) (GameChange, error) {
		a, err := by.ActorIn(&g)
		if err != nil {
			return GameChange{}, err
		}
		ng, notice, err := RotateSeat(g, a, color, now)
		if err != nil {
			return GameChange{}, err
		}
		// The renewal is the player's own doing when he asks for it, with
		// his link or his account; else the creator's.
		cause := domain.Cause{By: a.UserEmail}
		if seat, ok := g.Seat(color); ok && slices.Contains(a.Seats(&g), color) {
			cause.By = seat.Email
		}
		return GameChange{Game: ng, Notices: []domain.Notice{notice}, Cause: cause}, nil
	}})
	return err
}

// RotateSpectatorLink replaces a game's spectator link: older links stop
// working. It returns the game as stored and the caller's actor in it.
func (s *Service) RotateSpectatorLink(ctx context.Context, id string, by Credentials) (Game, Actor, error) {
	now := s.now()
	// What the change wrote: UpdateGame computes again if it must retry, so
	// the last computation is the one stored.
	var rotated Game
	var actor Actor
	_, _, err := s.updateGame(ctx, GameUpdate{GameID: id, Now: now, Compute: func(g Game) (GameChange, error) {
		a, err := by.ActorIn(&g)
		if err != nil {
			return GameChange{}, err
		}
		ng, err := RotateSpectatorLink(g, a, now)
		if err != nil {
			return GameChange{}, err
		}
		rotated, actor = ng, a
		return GameChange{Game: ng}, nil
	}})
	if err != nil {
		return Game{}, Actor{}, err
	}
	return rotated, actor, nil
}
