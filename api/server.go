// Package api is the HTTP edge of lesspost: routing, request validation
// against openapi.yaml, authentication, and the mapping of every error to an
// RFC 9457 problem. It holds no rules and writes no SQL; it calls domain.
package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/api/internal/contract"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/players"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/internal/app"
)

// Config is what the server needs from the outside.
type Config struct {
	// Logger receives one line per request and every server error.
	// Nil means slog.Default().
	Logger *slog.Logger
	// DB is the store: it answers readiness checks (/readyz) and feeds
	// the event streams; the use cases (App) run on it too.
	DB Store
	// App are the use cases the routes call, built once (see package app)
	// on DB: the workers share them, and the API reads their clock.
	App *app.Services
	// Secret signs every token and link (HS256), at least 32 bytes. Never log it.
	Secret []byte
	// PreviousSecrets are keys rotated out, still accepted for checking
	// tokens they signed until they are removed (the grace period).
	PreviousSecrets [][]byte
	// BaseURL is the public address links in emails point to.
	BaseURL string
	// ReplyAddress is the base of the reply addresses of game emails (see
	// Links.WithReplyAddress); "" for none.
	ReplyAddress string
	// MailQueued, if set, is called after a change that queued email has
	// committed, so the outbox worker can send it at once.
	MailQueued func()
	// MailLag, if set, says how late the outbox is sending (notify.Worker.Lag):
	// while it is more than mailLagLimit, game changes wait a little before
	// they are written (see waitForMail); a retry answered with its stored
	// response does not.
	MailLag func() time.Duration
	// RateLimits bound logins, login-code exchanges and game creation per
	// client address and account (429 rate_limited); zero fields mean
	// DefaultRateLimits.
	RateLimits RateLimits
	// StreamLimits bound the event streams open at once per credential and
	// per client address (429 rate_limited); zero fields mean
	// DefaultStreamLimits.
	StreamLimits StreamLimits
	// CORSOrigins are the origins (scheme://host[:port], or "*" for any)
	// whose web pages may call the API with bearer tokens. Empty (the
	// default) allows none: no response carries a CORS header.
	CORSOrigins []string
	// TrustedProxies is the number of reverse proxies in front of the server
	// that append the client's address to X-Forwarded-For. 0 (the default)
	// ignores the header and limits by the connection's address; behind a
	// proxy that would make all clients one.
	TrustedProxies int
	// PushKey is the VAPID public key (65 bytes, uncompressed P-256) that
	// browsers subscribe to push notifications with (see notify/webpush).
	// Nil turns push off: its routes answer 404 push_disabled, and the
	// play page offers no notifications.
	PushKey []byte
	// ObserveRequest, if set, learns of every request once it is answered:
	// the route template it matched (echo's, such as /v1/games/:id, never
	// the path itself, whose ids are unbounded), or "" if it matched none
	// (unknown paths and methods, CORS preflights); its method; the status;
	// and how long the answer took. The server's metrics count with it.
	ObserveRequest func(route, method string, status int, elapsed time.Duration)
	// WebhooksQueued, if set, is called after a webhook delivery was queued
	// (a ping, a redelivery), so the webhook worker can send it at once.
	WebhooksQueued func()
	// RequestTimeout bounds each request but the event streams; zero means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
}

// DefaultRequestTimeout bounds a request: three times a statement's
// timeout on PostgreSQL (postgres.DefaultStatementTimeout), where a
// request takes milliseconds.
const DefaultRequestTimeout = 15 * time.Second

// Server is the HTTP API. It is an http.Handler, so tests can mount it on an
// httptest.Server; Serve and Shutdown run it on a listener.
type Server struct {
	cfg  Config
	log  *slog.Logger
	echo *echo.Echo
	http *http.Server
	db   Store
	app  *games.Service
	// push are the use cases of push subscriptions.
	push *hooks.Push
	// accounts are the use cases of accounts, sessions and tokens.
	accounts *accounts.Service
	// players are the use cases of handles and profiles.
	players *players.Service
	// tournaments are the use cases of tournaments.
	tournaments *tournaments.Service
	// webhooks are the use cases of the account's webhooks.
	webhooks *hooks.Webhooks
	tokens   *Tokens
	links    *Links
	limits   limits
	now      func() time.Time
	// routed holds "METHOD path" of every route, for ObserveRequest.
	routed map[string]bool
	events *eventHub
	// streamLimits are cfg.StreamLimits with the defaults filled in.
	streamLimits StreamLimits
	// shutdown ends with Shutdown, and the event streams with it: they
	// would hold it until its deadline.
	shutdown context.Context
	stop     context.CancelFunc
}

// New builds the server and its routes.
func New(cfg Config) (*Server, error) {
	c, err := contract.Load()
	if err != nil {
		return nil, err
	}
	return newServer(cfg, c)
}

// newServer lets tests enforce a contract of their own.
func newServer(cfg Config, c *contract.Contract) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.DB == nil {
		return nil, errors.New("api: no database")
	}
	if cfg.App == nil {
		return nil, errors.New("api: no use cases (see package app)")
	}
	tokens, err := NewTokens(cfg.Secret, cfg.App.Now, cfg.PreviousSecrets...)
	if err != nil {
		return nil, fmt.Errorf("api: %w", err)
	}
	links, err := NewLinks(cfg.BaseURL, tokens).WithReplyAddress(cfg.ReplyAddress)
	if err != nil {
		return nil, fmt.Errorf("api: %w", err)
	}
	log := slog.New(requestIDHandler{cfg.Logger.Handler()})
	e := echo.New()
	s := &Server{cfg: cfg, log: log, echo: e, db: cfg.DB, tokens: tokens,
		links: links, limits: newLimits(cfg.RateLimits),
		// The use cases' clock: UTC, milliseconds, what the store keeps.
		now: cfg.App.Now}
	s.app, s.tournaments, s.accounts, s.players = cfg.App.Games, cfg.App.Tournaments, cfg.App.Accounts, cfg.App.Players
	s.push, s.webhooks = cfg.App.Push, cfg.App.Webhooks
	s.events = newEventHub(cfg.DB, log)
	s.streamLimits = cfg.StreamLimits.withDefaults()
	s.shutdown, s.stop = context.WithCancel(context.Background())
	e.HTTPErrorHandler = s.handleError
	// Outermost first. Headers and the request id come before anything that
	// can fail; the logger sits outside recovery so a panic is logged as 500.
	e.Use(
		securityHeaders,
		requestID,
		logRequests(log, s.observe),
		recoverPanics(log),
		boundRequests(cfg.RequestTimeout),
	)
	// CORS before anything that can refuse a request, so that a page of an
	// allowed origin can read the problem.
	if mw := cors(cfg.CORSOrigins); mw != nil {
		e.Use(mw)
	}
	e.Use(
		limitBody,
		validateRequests(c),
		s.identifyRequester,
	)
	// Rate limits are route middleware (see routes), so they run after
	// these: a request the contract refuses counts against no limit.
	s.routes()
	s.routed = map[string]bool{}
	for _, r := range e.Routes() {
		s.routed[r.Method+" "+r.Path] = true
	}
	s.http = &http.Server{
		Handler: e,
		// Bound how long a slow or idle client can hold a connection.
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	return s, nil
}

// Links builds the links emails carry (move, spectator and login links).
func (s *Server) Links() *Links { return s.links }

// wakeMail follows a commit that queued mail, which caused events too.
func (s *Server) wakeMail() {
	s.events.Wake()
	if s.cfg.MailQueued != nil {
		s.cfg.MailQueued()
	}
}

// Every turn queues an email, and rendering and sending it costs about as
// much CPU as the turn. Under more load than the machine can carry, the
// requests (a goroutine each) outnumber the outbox's workers, Go's scheduler
// shares the CPU out by goroutine, and turns would be taken faster than
// their mail goes out: the outbox would fall behind without bound, and mail
// arrive minutes late. So while the outbox is more than mailLagLimit late, a
// game change waits before it is written, mailWaitStep at a time and at most
// mailWaitLimit: the server takes turns about as fast as it can mail them,
// and the wait shows where it belongs, in the turns' latency.
const (
	mailLagLimit  = 250 * time.Millisecond
	mailWaitStep  = 10 * time.Millisecond
	mailWaitLimit = time.Second
)

// waitForMail waits while the outbox is late (see mailLagLimit).
func (s *Server) waitForMail(ctx context.Context) {
	if s.cfg.MailLag == nil || s.cfg.MailLag() <= mailLagLimit {
		return
	}
	t := time.NewTimer(mailWaitStep)
	defer t.Stop()
	for waited := time.Duration(0); waited < mailWaitLimit && s.cfg.MailLag() > mailLagLimit; waited += mailWaitStep {
		t.Reset(mailWaitStep)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.echo.ServeHTTP(w, r)
}

// Serve accepts connections on ln until Shutdown, then returns nil.
func (s *Server) Serve(ln net.Listener) error {
	if err := s.http.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Shutdown stops accepting connections and waits, until ctx ends, for the
// requests in flight to finish.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stop()
	return s.http.Shutdown(ctx)
}
