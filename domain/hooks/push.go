package hooks

import (
	"context"
	"crypto/ecdh"
	"crypto/subtle"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"net/url"
	"slices"
	"time"
)

// Web Push (RFC 8030, 8291, 8292): a player's browser subscribes to a push
// service and hands the server its subscription; the server then tells that
// browser when it is the player's turn. A subscription belongs to an
// address, not to an account: a player who only ever follows move links
// has no account, and the address is what a "your turn" is about (an
// Event's Email).
//
// A subscription made with an account token is address-wide: it gets the
// events of every game of the address, and the account manages all of the
// address's subscriptions. One made with a move link is scoped to that
// game, seat and link version: a move link proves only that one seat (it
// may be forwarded, or leak, and a finished game's link still works), so
// it must not reach the address's other games. Such a subscription gets
// only its game's events, its link sees and deletes only the subscriptions
// of its scope, and renewing the seat's link (or giving the seat to
// another player) ends it: the stores delete it in the same transaction.

// MaxPushSubscriptions bounds the live subscriptions of one address: one per
// browser and device a player uses, with room to spare.
const MaxPushSubscriptions = 20

// MaxSeatPushSubscriptions bounds the subscriptions one move link may
// make, so that a leaked link cannot take all of an address's room.
const MaxSeatPushSubscriptions = 5

// MaxPushEndpointLength bounds a subscription's endpoint URL. Push services
// hand out a few hundred characters; this leaves room without letting a
// row grow without limit.
const MaxPushEndpointLength = 2048

// Sizes of a subscription's keys (RFC 8291 section 3): the browser's P-256
// public key, uncompressed, and its authentication secret.
const (
	PushP256DHSize = 65
	PushAuthSize   = 16
)

// Codes of the push subscription use cases.
const (
	CodeInvalidPushSubscription = "invalid_push_subscription"
	CodeTooManyPushSubscription = "too_many_push_subscriptions"
	CodeSeatOrAccountRequired   = "seat_or_account_required"
)

// PushSubscription is a browser's push subscription (the PushSubscription
// of the Push API) for an address.
type PushSubscription struct {
	ID       int64
	Owner    string // the address notified
	Endpoint string // the push service's URL for this browser; https
	P256DH   []byte // the browser's public key, PushP256DHSize bytes
	Auth     []byte // the browser's authentication secret, PushAuthSize bytes
	// ExpiresAt is when the push service ends the subscription (the
	// browser's expirationTime); zero: it did not say.
	ExpiresAt time.Time
	CreatedAt time.Time
	// Game, Color and LinkVersion are the scope of a subscription made
	// with a move link: the seat and its link version. Game is "" for an
	// address-wide subscription (made with an account token).
	Game        string
	Color       string
	LinkVersion int
}

// inScope says whether p is a subscription of the scope of scope (the
// same game, seat and link version; or both address-wide).
func (p PushSubscription) inScope(scope PushSubscription) bool {
	return p.Game == scope.Game && p.Color == scope.Color && (p.Game == "" || p.LinkVersion == scope.LinkVersion)
}

// PushReader reads push subscriptions.
type PushReader interface {
	// PushSubscriptions lists an address's subscriptions that have not
	// expired at now, oldest first.
	PushSubscriptions(ctx context.Context, owner string, now time.Time) ([]PushSubscription, error)
}

// PushTx is what a unit of work may do to push subscriptions.
type PushTx interface {
	PushReader
	// LockPushOwner makes the other units of work that lock the same
	// address wait until this one ends, so that counting an address's
	// subscriptions and adding one cannot race another instance doing the
	// same (the cap would not hold).
	LockPushOwner(ctx context.Context, owner string) error
	// SavePushSubscription stores sub for its owner or, if the owner has
	// one for the same endpoint and scope (Game and Color) already, gives
	// that one sub's keys, expiry and link version. It returns the subscription's id, and whether it is new.
	SavePushSubscription(ctx context.Context, sub PushSubscription) (id int64, created bool, err error)
	// DeletePushSubscription deletes one of an address's subscriptions; ok
	// is false if it has no such subscription.
	DeletePushSubscription(ctx context.Context, owner string, id int64) (ok bool, err error)
	// PushSubscriptionsAt lists every subscription with the endpoint,
	// whoever owns it, expired or not.
	PushSubscriptionsAt(ctx context.Context, endpoint string) ([]PushSubscription, error)
	// DeletePushEndpoint deletes every subscription with the endpoint,
	// whoever owns it, and the subscriptions that expired by now; it says
	// how many it deleted.
	DeletePushEndpoint(ctx context.Context, endpoint string, now time.Time) (int, error)
}

// PushKey is the server's VAPID key pair (RFC 8292): push services accept a
// message for a subscription only when it is signed with the key the
// browser subscribed with, so the pair must not change while subscriptions
// live, and every server instance must use the same.
type PushKey struct {
	Private []byte // the P-256 private scalar, 32 bytes
	Public  []byte // the uncompressed public point, 65 bytes
}

// PushKeys keeps the one VAPID key pair of a store.
type PushKeys interface {
	// PushKey returns the stored key pair; if there is none yet, it
	// stores candidate first. Servers starting together all get the pair
	// the first of them stored.
	PushKey(ctx context.Context, candidate PushKey, now time.Time) (PushKey, error)
}

// CheckPushSubscription checks what a browser sent as its subscription:
// an absolute http or https endpoint of sane length, a P-256 public key and
// a 16-byte secret, and no expiry in the past. Which endpoints the server
// may call is the PushEndpointCheck's to say: https to public addresses
// only, unless the operator allows plain http and private addresses (push
// services on a closed network).
func CheckPushSubscription(sub PushSubscription, now time.Time) error {
	bad := func(format string, args ...any) error {
		return domain.Errorf(domain.KindInvalid, CodeInvalidPushSubscription, format, args...)
	}
	if len(sub.Endpoint) > MaxPushEndpointLength {
		return bad("the endpoint is longer than %d characters", MaxPushEndpointLength)
	}
	u, err := url.Parse(sub.Endpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" || u.User != nil || u.Fragment != "" {
		return bad("the endpoint must be an https URL of a push service")
	}
	if len(sub.P256DH) != PushP256DHSize {
		return bad("keys.p256dh must be an uncompressed P-256 public key (%d bytes)", PushP256DHSize)
	}
	if _, err := ecdh.P256().NewPublicKey(sub.P256DH); err != nil {
		return bad("keys.p256dh is no point of the P-256 curve")
	}
	if len(sub.Auth) != PushAuthSize {
		return bad("keys.auth must be %d bytes", PushAuthSize)
	}
	if !sub.ExpiresAt.IsZero() && !sub.ExpiresAt.After(now) {
		return bad("the subscription has expired already")
	}
	return nil
}

// checkPushEndpoint asks the configured check about an endpoint.
func (s *Push) checkPushEndpoint(ctx context.Context, endpoint string) error {
	if s.pushCheck == nil {
		return nil
	}
	return s.pushCheck(ctx, endpoint)
}

// pushScope is the address whose subscriptions the credentials manage, and
// the scope of those they may see, make and delete: an account's address
// and all of its subscriptions, or the address of the seat a move link is
// for (as long as the link is the seat's current one) and only that seat's
// subscriptions at that link version (Game is set then). A spectator link
// has none: anyone may be given one.
func (s *Push) pushScope(ctx context.Context, c games.Credentials) (PushSubscription, error) {
	switch {
	case c.Spectator:
		return PushSubscription{}, domain.Errorf(domain.KindForbidden, CodeSeatOrAccountRequired,
			"Notifications are for players: this needs a move link or an account token, not a spectator link.")
	case c.Seat != nil:
		g, err := s.store.Game(ctx, c.GameID)
		if err != nil {
			return PushSubscription{}, err
		}
		if _, err := c.ActorIn(&g); err != nil {
			return PushSubscription{}, err
		}
		seat, _ := g.Seat(*c.Seat)
		return PushSubscription{Owner: seat.Email, Game: g.ID, Color: seat.Color, LinkVersion: seat.TokenVersion}, nil
	default:
		return PushSubscription{Owner: c.UserEmail}, nil
	}
}

// visible keeps of an address's subscriptions those the caller of scope
// may see: all of them for an account, its own for a move link.
func visible(list []PushSubscription, scope PushSubscription) []PushSubscription {
	if scope.Game == "" {
		return list
	}
	var out []PushSubscription
	for _, p := range list {
		if p.inScope(scope) {
			out = append(out, p)
		}
	}
	return out
}

// SubscribePush keeps a browser's push subscription for the address the
// credentials stand for, address-wide for an account and for the link's
// game only for a move link. Sending the same endpoint again (a browser
// that re-subscribed, a retry) updates it in place: created is false then.
func (s *Push) SubscribePush(ctx context.Context, c games.Credentials, sub PushSubscription) (saved PushSubscription, created bool, err error) {
	now := s.now()
	if err := CheckPushSubscription(sub, now); err != nil {
		return PushSubscription{}, false, err
	}
	scope, err := s.pushScope(ctx, c)
	if err != nil {
		return PushSubscription{}, false, err
	}
	// After the caller is known: whoever may not subscribe learns nothing
	// of what the server thinks of a host.
	if err := s.checkPushEndpoint(ctx, sub.Endpoint); err != nil {
		return PushSubscription{}, false, err
	}
	sub.Owner, sub.Game, sub.Color, sub.LinkVersion = scope.Owner, scope.Game, scope.Color, scope.LinkVersion
	sub.CreatedAt, sub.ID = now, 0
	err = s.transact(ctx, func(tx *Tx) error {
		if err := tx.LockPushOwner(ctx, scope.Owner); err != nil {
			return err
		}
		live, err := tx.PushSubscriptions(ctx, scope.Owner, now)
		if err != nil {
			return err
		}
		saved = sub
		known := false
		mine := visible(live, scope)
		for _, l := range mine {
			if l.Endpoint == sub.Endpoint && l.inScope(scope) {
				saved.CreatedAt, known = l.CreatedAt, true // an update keeps its age
			}
		}
		switch {
		case known:
		case len(live) >= MaxPushSubscriptions:
			return domain.Errorf(domain.KindConflict, CodeTooManyPushSubscription,
				"an address has at most %d push subscriptions: turn notifications off on a browser you no longer use", MaxPushSubscriptions)
		case scope.Game != "" && len(mine) >= MaxSeatPushSubscriptions:
			return domain.Errorf(domain.KindConflict, CodeTooManyPushSubscription,
				"a move link may turn notifications on in at most %d browsers: turn them off on one you no longer use", MaxSeatPushSubscriptions)
		}
		saved.ID, created, err = tx.SavePushSubscription(ctx, saved)
		return err
	})
	if err != nil {
		return PushSubscription{}, false, err
	}
	return saved, created, nil
}

// PushSubscriptions lists the live push subscriptions the credentials
// manage, oldest first: all of the address's for an account, those made
// with the current link of the seat for a move link.
func (s *Push) PushSubscriptions(ctx context.Context, c games.Credentials) ([]PushSubscription, error) {
	scope, err := s.pushScope(ctx, c)
	if err != nil {
		return nil, err
	}
	list, err := s.store.PushSubscriptions(ctx, scope.Owner, s.now())
	if err != nil {
		return nil, err
	}
	return visible(list, scope), nil
}

// UnsubscribePush deletes one of the push subscriptions the credentials
// manage; any other is not found.
func (s *Push) UnsubscribePush(ctx context.Context, c games.Credentials, id int64) error {
	scope, err := s.pushScope(ctx, c)
	if err != nil {
		return err
	}
	notFound := domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no push subscription %d", id)
	return s.transact(ctx, func(tx *Tx) error {
		if scope.Game != "" {
			live, err := tx.PushSubscriptions(ctx, scope.Owner, s.now())
			if err != nil {
				return err
			}
			if !slices.ContainsFunc(visible(live, scope), func(p PushSubscription) bool { return p.ID == id }) {
				return notFound
			}
		}
		ok, err := tx.DeletePushSubscription(ctx, scope.Owner, id)
		if err != nil {
			return err
		}
		if !ok {
			return notFound
		}
		return nil
	})
}

// ForgetPushEndpoint deletes every subscription of an endpoint the push
// service said is gone (404 or 410: the browser unsubscribed, or the
// service ended it), and any that expired meanwhile. Deleting twice is
// harmless, so several deliveries that learn it at once may all call it.
func (s *Push) ForgetPushEndpoint(ctx context.Context, endpoint string) (deleted int, err error) {
	err = s.transact(ctx, func(tx *Tx) error {
		deleted, err = tx.DeletePushEndpoint(ctx, endpoint, s.now())
		return err
	})
	return deleted, err
}

// RenewPushSubscription moves the subscriptions of an endpoint the push
// service replaced (the browser's pushsubscriptionchange) to the new one:
// the service worker that learns of it holds no token, so the old
// subscription's auth secret, which only that browser and this server
// know, is what proves it may. It says how many it moved; none is a
// not-found *Error.
func (s *Push) RenewPushSubscription(ctx context.Context, oldEndpoint string, oldAuth []byte, sub PushSubscription) (int, error) {
	now := s.now()
	if err := CheckPushSubscription(sub, now); err != nil {
		return 0, err
	}
	if err := s.checkPushEndpoint(ctx, sub.Endpoint); err != nil {
		return 0, err
	}
	moved := 0
	err := s.transact(ctx, func(tx *Tx) error {
		old, err := tx.PushSubscriptionsAt(ctx, oldEndpoint)
		if err != nil {
			return err
		}
		for _, o := range old {
			if subtle.ConstantTimeCompare(o.Auth, oldAuth) != 1 {
				continue
			}
			if _, err := tx.DeletePushSubscription(ctx, o.Owner, o.ID); err != nil {
				return err
			}
			renewed := sub
			renewed.ID, renewed.Owner, renewed.CreatedAt = 0, o.Owner, now
			renewed.Game, renewed.Color, renewed.LinkVersion = o.Game, o.Color, o.LinkVersion // the scope stays
			if _, _, err := tx.SavePushSubscription(ctx, renewed); err != nil {
				return err
			}
			moved++
		}
		if moved == 0 {
			return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no push subscription has that endpoint and secret")
		}
		return nil
	})
	return moved, err
}

// PushSubscriptionsOf lists the live subscriptions of an address, whatever
// their scope (the stores' fan-out applies it).
func (s *Push) PushSubscriptionsOf(ctx context.Context, owner string) ([]PushSubscription, error) {
	return s.store.PushSubscriptions(ctx, owner, s.now())
}
