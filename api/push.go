package api

import (
	"encoding/base64"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/egress"
)

// Web Push: the play page subscribes the browser with the server's VAPID
// public key and hands the subscription over; see notify/webpush for the
// sending. The routes answer 404 push_disabled when the server has no
// VAPID subject configured.

// PushEndpointCheck refuses, as invalid_push_subscription, the push
// endpoints guard refuses (nil: the default guard, public https only), the
// guard the webhooks use: a push service is as much a URL from outside as
// a webhook's. The answer does not say why: it must not tell a caller what
// a name resolves to inside the server's network.
func PushEndpointCheck(guard *egress.Guard) hooks.URLCheck {
	return guardedURLCheck(guard, func(error) error {
		return domain.Errorf(domain.KindInvalid, hooks.CodeInvalidPushSubscription,
			"the endpoint must be an https URL of a public push service")
	})
}

// pushKeyView is the application server key for PushManager.subscribe.
type pushKeyView struct {
	ApplicationServerKey string `json:"application_server_key"`
}

// pushSubscriptionJSON is a browser's PushSubscription.toJSON(), as is.
type pushSubscriptionJSON struct {
	Endpoint string `json:"endpoint"`
	// ExpirationTime is milliseconds since 1970 (a DOMHighResTimeStamp:
	// it may have a fraction), or null.
	ExpirationTime *float64 `json:"expirationTime"`
	Keys           struct {
		P256DH string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

type pushRenewalRequest struct {
	OldEndpoint  string               `json:"old_endpoint"`
	OldAuth      string               `json:"old_auth"`
	Subscription pushSubscriptionJSON `json:"subscription"`
}

type pushSubscriptionView struct {
	ID             int64      `json:"id"`
	Endpoint       string     `json:"endpoint"`
	ExpirationTime *time.Time `json:"expiration_time"`
	CreatedAt      time.Time  `json:"created_at"`
	// GameID is the game of a subscription made with a move link; null
	// for an address-wide one.
	GameID *string `json:"game_id"`
}

type pushSubscriptionsView struct {
	Subscriptions []pushSubscriptionView `json:"subscriptions"`
}

func pushView(p hooks.PushSubscription) pushSubscriptionView {
	v := pushSubscriptionView{ID: p.ID, Endpoint: p.Endpoint, CreatedAt: p.CreatedAt}
	if !p.ExpiresAt.IsZero() {
		v.ExpirationTime = &p.ExpiresAt
	}
	if p.Game != "" {
		v.GameID = &p.Game
	}
	return v
}

// pushEnabled refuses every push route when the server has no VAPID key.
func (s *Server) pushEnabled() error {
	if len(s.cfg.PushKey) == 0 {
		return NewProblem(http.StatusNotFound, "push_disabled", "This server sends no push notifications.")
	}
	return nil
}

func (s *Server) pushKey(c echo.Context) error {
	if err := s.pushEnabled(); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pushKeyView{ApplicationServerKey: base64.RawURLEncoding.EncodeToString(s.cfg.PushKey)})
}

// decodeKey reads a key of a subscription: base64url as browsers write
// it, padded or not.
func decodeKey(field, v string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(v, "="))
	if err != nil {
		return nil, domain.Errorf(domain.KindInvalid, hooks.CodeInvalidPushSubscription, "%s is not base64url", field)
	}
	return b, nil
}

// subscription turns a browser's subscription into the domain's.
func (r *pushSubscriptionJSON) subscription(prefix string) (hooks.PushSubscription, error) {
	sub := hooks.PushSubscription{Endpoint: r.Endpoint}
	var err error
	if sub.P256DH, err = decodeKey(prefix+"keys.p256dh", r.Keys.P256DH); err != nil {
		return sub, err
	}
	if sub.Auth, err = decodeKey(prefix+"keys.auth", r.Keys.Auth); err != nil {
		return sub, err
	}
	if r.ExpirationTime != nil {
		ms := *r.ExpirationTime
		if ms <= 0 || ms > math.MaxInt64/2 || math.IsNaN(ms) {
			return sub, domain.Errorf(domain.KindInvalid, hooks.CodeInvalidPushSubscription, "%sexpirationTime is no time", prefix)
		}
		sub.ExpiresAt = time.UnixMilli(int64(ms)).UTC()
	}
	return sub, nil
}

// subscribePush keeps the browser's subscription for the caller: the
// account's address, or the address of the seat of a move link.
func (s *Server) subscribePush(c echo.Context) error {
	if err := s.pushEnabled(); err != nil {
		return err
	}
	p, err := s.caller(c, accounts.ScopeAccountWrite)
	if err != nil {
		return err
	}
	var req pushSubscriptionJSON
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	sub, err := req.subscription("")
	if err != nil {
		return err
	}
	saved, created, err := s.push.SubscribePush(c.Request().Context(), p.credentials(), sub)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, pushView(saved))
}

func (s *Server) listPushSubscriptions(c echo.Context) error {
	if err := s.pushEnabled(); err != nil {
		return err
	}
	p, err := s.caller(c, accounts.ScopeAccountRead)
	if err != nil {
		return err
	}
	list, err := s.push.PushSubscriptions(c.Request().Context(), p.credentials())
	if err != nil {
		return err
	}
	out := pushSubscriptionsView{Subscriptions: []pushSubscriptionView{}}
	for _, sub := range list {
		out.Subscriptions = append(out.Subscriptions, pushView(sub))
	}
	return c.JSON(http.StatusOK, out)
}

func (s *Server) deletePushSubscription(c echo.Context) error {
	if err := s.pushEnabled(); err != nil {
		return err
	}
	p, err := s.caller(c, accounts.ScopeAccountWrite)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return NewProblem(http.StatusNotFound, domain.CodeNotFound, "There is no such push subscription.")
	}
	if err := s.push.UnsubscribePush(c.Request().Context(), p.credentials(), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// renewPushSubscription is the service worker's, on pushsubscriptionchange:
// it has no token, and proves the old subscription with its auth secret.
func (s *Server) renewPushSubscription(c echo.Context) error {
	if err := s.pushEnabled(); err != nil {
		return err
	}
	var req pushRenewalRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	oldAuth, err := decodeKey("old_auth", req.OldAuth)
	if err != nil {
		return err
	}
	sub, err := req.Subscription.subscription("subscription.")
	if err != nil {
		return err
	}
	if _, err := s.push.RenewPushSubscription(c.Request().Context(), req.OldEndpoint, oldAuth, sub); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
