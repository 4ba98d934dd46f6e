package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/egress"
)

// WebhookURLCheck refuses, with 422 webhook_url_refused, the URLs guard
// refuses (nil: the default guard, public https only).
func WebhookURLCheck(guard *egress.Guard) hooks.URLCheck {
	return guardedURLCheck(guard, func(err error) error {
		return domain.Errorf(domain.KindInvalid, hooks.CodeWebhookURLRefused, "lesspost will not call this URL: %v", err)
	})
}

// guardedURLCheck is a hooks.URLCheck by guard (nil: the default guard,
// public https only); refused words a refusal for the caller.
func guardedURLCheck(guard *egress.Guard, refused func(error) error) hooks.URLCheck {
	if guard == nil {
		guard = &egress.Guard{}
	}
	return func(ctx context.Context, raw string) error {
		if err := guard.CheckURL(ctx, raw); err != nil {
			return refused(err)
		}
		return nil
	}
}

type webhookRequest struct {
	URL         *string  `json:"url"`
	Description *string  `json:"description"`
	EventTypes  []string `json:"event_types"`
	Enabled     *bool    `json:"enabled"`
}

func (r webhookRequest) change() hooks.WebhookChange {
	return hooks.WebhookChange{URL: r.URL, Description: r.Description, EventTypes: r.EventTypes, Enabled: r.Enabled}
}

type webhookView struct {
	ID                      int64      `json:"id"`
	URL                     string     `json:"url"`
	Description             string     `json:"description"`
	EventTypes              []string   `json:"event_types"`
	Enabled                 bool       `json:"enabled"`
	DisabledReason          *string    `json:"disabled_reason"`
	PreviousSecretExpiresAt *time.Time `json:"previous_secret_expires_at"`
	CreatedAt               time.Time  `json:"created_at"`
	UpdatedAt               time.Time  `json:"updated_at"`
}

type webhookWithSecretView struct {
	webhookView
	Secret string `json:"secret"`
}

type webhookListView struct {
	Webhooks []webhookView `json:"webhooks"`
}

func (s *Server) viewWebhook(e hooks.WebhookEndpoint) webhookView {
	v := webhookView{ID: e.ID, URL: e.URL, Description: e.Description, EventTypes: e.EventTypes, Enabled: e.Enabled,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
	if e.DisabledReason != "" {
		v.DisabledReason = &e.DisabledReason
	}
	if until := e.PreviousSecretUntil; until.After(s.now()) {
		v.PreviousSecretExpiresAt = &until
	}
	return v
}

type deliveryView struct {
	ID            int64            `json:"id"`
	WebhookID     string           `json:"webhook_id"`
	Type          string           `json:"type"`
	Timestamp     time.Time        `json:"timestamp"`
	Data          deliveryDataView `json:"data"`
	Status        string           `json:"status"`
	Attempts      int              `json:"attempts"`
	LastAttemptAt *time.Time       `json:"last_attempt_at"`
	LastStatus    *int             `json:"last_status"`
	LastError     *string          `json:"last_error"`
	NextAttemptAt *time.Time       `json:"next_attempt_at"`
	DeliveredAt   *time.Time       `json:"delivered_at"`
}

// deliveryDataView is what a delivery is about: the game and seat, if any.
type deliveryDataView struct {
	GameID       *string `json:"game_id"`
	Color        *string `json:"color"`
	Ply          int     `json:"ply"`
	TournamentID *string `json:"tournament_id"`
}

type deliveryPageView struct {
	Deliveries []deliveryView `json:"deliveries"`
	NextCursor *string        `json:"next_cursor"`
}

func optional[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func viewDelivery(d hooks.WebhookDelivery) deliveryView {
	return deliveryView{ID: d.ID, WebhookID: d.MsgID, Type: d.Type, Timestamp: d.EventAt, Status: d.Status, Attempts: d.Attempts,
		Data: deliveryDataView{GameID: optional(d.GameID), Color: optional(d.Color), Ply: d.Ply,
			TournamentID: optional(d.Data.Tournament)},
		LastAttemptAt: optionalTime(d.LastAttemptAt), LastStatus: optional(d.LastStatus), LastError: optional(d.LastError),
		NextAttemptAt: optionalTime(d.NextAttemptAt), DeliveredAt: optionalTime(d.DeliveredAt)}
}

// webhookID reads the endpoint id of the path; one that is no number is
// no endpoint.
func webhookID(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id < 1 {
		return 0, NewProblem(http.StatusNotFound, domain.CodeNotFound, "No such webhook endpoint or delivery.")
	}
	return id, nil
}

// webhookOf authenticates a request about the endpoint of the path,
// which needs scope, and reads the endpoint's id.
func (s *Server) webhookOf(c echo.Context, scope string) (*principal, int64, error) {
	p, err := s.account(c, scope)
	if err != nil {
		return nil, 0, err
	}
	id, err := webhookID(c, "id")
	return p, id, err
}

// listWebhooks lists the account's endpoints, never their secrets.
func (s *Server) listWebhooks(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeWebhooksRead)
	if err != nil {
		return err
	}
	es, err := s.webhooks.List(c.Request().Context(), p.session.User)
	if err != nil {
		return err
	}
	out := webhookListView{Webhooks: []webhookView{}}
	for _, e := range es {
		out.Webhooks = append(out.Webhooks, s.viewWebhook(e))
	}
	return c.JSON(http.StatusOK, out)
}

// createWebhook registers an endpoint and answers its secret, this once.
func (s *Server) createWebhook(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeWebhooksWrite)
	if err != nil {
		return err
	}
	var req webhookRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	e, secret, err := s.webhooks.Create(c.Request().Context(), p.session.User, req.change())
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/me/webhooks/"+strconv.FormatInt(e.ID, 10))
	return c.JSON(http.StatusCreated, webhookWithSecretView{webhookView: s.viewWebhook(e), Secret: secret})
}

// getWebhook reads one endpoint.
func (s *Server) getWebhook(c echo.Context) error {
	p, id, err := s.webhookOf(c, accounts.ScopeWebhooksRead)
	if err != nil {
		return err
	}
	e, err := s.webhooks.Get(c.Request().Context(), p.session.User, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.viewWebhook(e))
}

// updateWebhook changes an endpoint's URL, description, event types or
// whether it is enabled.
func (s *Server) updateWebhook(c echo.Context) error {
	p, id, err := s.webhookOf(c, accounts.ScopeWebhooksWrite)
	if err != nil {
		return err
	}
	var req webhookRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	e, err := s.webhooks.Update(c.Request().Context(), p.session.User, id, req.change())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.viewWebhook(e))
}

// deleteWebhook deletes an endpoint and its log.
func (s *Server) deleteWebhook(c echo.Context) error {
	p, id, err := s.webhookOf(c, accounts.ScopeWebhooksWrite)
	if err != nil {
		return err
	}
	if err := s.webhooks.Delete(c.Request().Context(), p.session.User, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// rotateWebhookSecret gives an endpoint a new secret, answered this once;
// the old one signs beside it for a day.
func (s *Server) rotateWebhookSecret(c echo.Context) error {
	p, id, err := s.webhookOf(c, accounts.ScopeWebhooksWrite)
	if err != nil {
		return err
	}
	e, secret, err := s.webhooks.RotateSecret(c.Request().Context(), p.session.User, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, webhookWithSecretView{webhookView: s.viewWebhook(e), Secret: secret})
}

// listWebhookDeliveries pages an endpoint's delivery log, newest first.
func (s *Server) listWebhookDeliveries(c echo.Context) error {
	p, id, err := s.webhookOf(c, accounts.ScopeWebhooksRead)
	if err != nil {
		return err
	}
	limit := 20
	if v := c.QueryParam("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > hooks.MaxDeliveriesPage {
			return NewProblem(http.StatusBadRequest, "invalid_request", "limit is a number from 1 to 100.")
		}
	}
	var before int64
	if v := c.QueryParam("cursor"); v != "" {
		if before, err = strconv.ParseInt(v, 10, 64); err != nil || before < 1 {
			return NewProblem(http.StatusUnprocessableEntity, domain.CodeInvalidCursor, "This cursor was not given out by this server.")
		}
	}
	ds, next, err := s.webhooks.Deliveries(c.Request().Context(), p.session.User, id, before, limit)
	if err != nil {
		return err
	}
	out := deliveryPageView{Deliveries: []deliveryView{}}
	for _, d := range ds {
		out.Deliveries = append(out.Deliveries, viewDelivery(d))
	}
	if next != 0 {
		out.NextCursor = new(strconv.FormatInt(next, 10))
	}
	return c.JSON(http.StatusOK, out)
}

// redeliverWebhook sends a delivery again, at once, with its webhook-id.
func (s *Server) redeliverWebhook(c echo.Context) error {
	p, id, err := s.webhookOf(c, accounts.ScopeWebhooksWrite)
	if err != nil {
		return err
	}
	did, err := webhookID(c, "delivery_id")
	if err != nil {
		return err
	}
	d, err := s.webhooks.Redeliver(c.Request().Context(), p.session.User, id, did)
	if err != nil {
		return err
	}
	s.webhooksQueued()
	return c.JSON(http.StatusAccepted, viewDelivery(d))
}

// pingWebhook queues a ping event for an endpoint.
func (s *Server) pingWebhook(c echo.Context) error {
	p, id, err := s.webhookOf(c, accounts.ScopeWebhooksWrite)
	if err != nil {
		return err
	}
	d, err := s.webhooks.Ping(c.Request().Context(), p.session.User, id)
	if err != nil {
		return err
	}
	s.webhooksQueued()
	return c.JSON(http.StatusAccepted, viewDelivery(d))
}

func (s *Server) webhooksQueued() {
	if s.cfg.WebhooksQueued != nil {
		s.cfg.WebhooksQueued()
	}
}
