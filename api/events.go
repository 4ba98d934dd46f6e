package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

// The live event streams (Server-Sent Events): GET /v1/me/events, the
// events concerning the caller's address, and GET /v1/games/{id}/events,
// a game's own events, for whoever may read the game.
//
// Events are stored with the change that causes them (domain.Event), so
// a stream is a read of the store: a client that reconnects with
// Last-Event-ID first reads what it missed from the store, then follows the
// instance's one shared poller (eventHub), which reads every new event once
// for all the instance's streams. Events committed through any instance on
// the store reach every stream within a poll; this instance's own commits
// wake the poller at once.

const (
	// eventPoll is how often the poller looks for events nobody told it of
	// (those committed through other instances).
	eventPoll = 300 * time.Millisecond
	// keepAlive is how often an idle stream sends a comment, so that
	// proxies and clients do not take it for dead.
	keepAlive = 20 * time.Second
	// streamWriteTimeout bounds each write to a stream: a client that stops
	// reading is dropped rather than held forever.
	streamWriteTimeout = 30 * time.Second
	// eventBatch is how many events one read of the store returns.
	eventBatch = 200
	// subscriberBuffer is how many events a stream may fall behind the
	// poller; past it the stream ends and its client resumes from the
	// store with Last-Event-ID, losing nothing.
	subscriberBuffer = 256
	// streamRetryAfter is the Retry-After of a stream refused for the
	// limits: a slot frees when another stream of the same client ends.
	streamRetryAfter = 30 * time.Second
)

// StreamLimits bound the event streams one server instance holds open:
// each is a connection, a goroutine and a file descriptor for as long as
// its client likes, so no credential and no client may hold many. Zero
// fields mean DefaultStreamLimits.
type StreamLimits struct {
	// Credential bounds the streams of what a token proves: an account
	// (its sign-in and personal access tokens together), a seat of a game
	// (its move links), a game's spectator link.
	Credential int
	// IP bounds the streams of one client address (see clientKey), whatever
	// its tokens.
	IP int
}

// DefaultStreamLimits let a player follow his events on a few devices, and
// a household or office behind one address hold a few streams each.
var DefaultStreamLimits = StreamLimits{Credential: 8, IP: 32}

func (l StreamLimits) withDefaults() StreamLimits {
	if l.Credential <= 0 {
		l.Credential = DefaultStreamLimits.Credential
	}
	if l.IP <= 0 {
		l.IP = DefaultStreamLimits.IP
	}
	return l
}

// eventHub is an instance's one poller of the store's events, fanning them
// out to its streams. It runs while a stream is open.
type eventHub struct {
	store domain.EventReader
	log   *slog.Logger
	wake  chan struct{}

	mu      sync.Mutex
	running bool
	last    domain.EventPos // every event up to it went to the streams open then
	subs    map[*subscriber]bool
	// streams counts the open streams of each credential and client
	// address (see streamKeys).
	streams map[string]int
}

// subscriber is one stream's place at the hub.
type subscriber struct {
	filter domain.EventFilter
	events chan domain.Event
	// dropped is closed when the stream fell too far behind.
	dropped chan struct{}
}

func newEventHub(store domain.EventReader, log *slog.Logger) *eventHub {
	return &eventHub{store: store, log: log, wake: make(chan struct{}, 1), subs: map[*subscriber]bool{}, streams: map[string]int{}}
}

// Wake tells the poller that events were committed here.
func (h *eventHub) Wake() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// subscribe adds a stream of the events f chooses. The hub sends it every
// event after from; those up to from the stream reads from the store.
func (h *eventHub) subscribe(ctx context.Context, f domain.EventFilter) (sub *subscriber, from domain.EventPos, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.running {
		// Nobody followed the events meanwhile: start from the last one.
		if h.last, err = h.store.LastEvent(ctx); err != nil {
			return nil, domain.EventPos{}, err
		}
		h.running = true
		go h.run()
	}
	sub = &subscriber{filter: f, events: make(chan domain.Event, subscriberBuffer), dropped: make(chan struct{})}
	h.subs[sub] = true
	return sub, h.last, nil
}

func (h *eventHub) unsubscribe(sub *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, sub)
}

// streamKey is one thing a stream counts against, and its limit.
type streamKey struct {
	key   string
	limit int
}

// openStream counts a stream against each of its keys, or refuses it,
// counting nothing, when one of them is at its limit (which it returns).
func (h *eventHub) openStream(keys []streamKey) (release func(), full *streamKey) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range keys {
		if h.streams[keys[i].key] >= keys[i].limit {
			return nil, &keys[i]
		}
	}
	for _, k := range keys {
		h.streams[k.key]++
	}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, k := range keys {
			if h.streams[k.key]--; h.streams[k.key] <= 0 {
				delete(h.streams, k.key)
			}
		}
	}, nil
}

// run polls until no stream is left.
func (h *eventHub) run() {
	tick := time.NewTicker(eventPoll)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-h.wake:
		}
		if !h.poll() {
			return
		}
	}
}

// poll hands every new event to the streams that want it, and says whether
// any stream is left. A stream too far behind is dropped.
func (h *eventHub) poll() bool {
	ctx := context.Background()
	for {
		h.mu.Lock()
		if len(h.subs) == 0 {
			h.running = false
			h.mu.Unlock()
			return false
		}
		after := h.last
		h.mu.Unlock()
		evs, err := h.store.Events(ctx, domain.EventFilter{}, after, eventBatch)
		if err != nil {
			h.log.Error("read events", "error", err)
			return true // try again at the next poll
		}
		h.mu.Lock()
		for _, e := range evs {
			if !h.last.Less(e.Pos) {
				continue // fanned out already (one poller runs at a time; this keeps it so)
			}
			for sub := range h.subs {
				if !sub.filter.Match(&e) {
					continue
				}
				select {
				case sub.events <- e:
				default:
					close(sub.dropped)
					delete(h.subs, sub)
				}
			}
			h.last = e.Pos
		}
		h.mu.Unlock()
		if len(evs) < eventBatch {
			return true
		}
	}
}

// myEvents streams the events concerning the caller's address.
func (s *Server) myEvents(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	return s.stream(c, p, domain.EventFilter{Email: p.session.User.Email})
}

// gameEvents streams a game's own events.
func (s *Server) gameEvents(c echo.Context) error {
	g, _, p, err := s.readableGame(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	return s.stream(c, p, domain.EventFilter{GameID: g.ID})
}

// stream answers with the events f chooses as Server-Sent Events: first
// those after Last-Event-ID (or ?last_event_id=, for clients that cannot
// set the header), then each new one, until the client goes or the server
// shuts down.
func (s *Server) stream(c echo.Context, p *principal, f domain.EventFilter) error {
	ctx := c.Request().Context()
	resume := c.Request().Header.Get("Last-Event-ID")
	if resume == "" {
		resume = c.QueryParam("last_event_id")
	}
	var after domain.EventPos
	if resume != "" {
		var err error
		if after, err = s.resumeAfter(ctx, resume); err != nil {
			return err
		}
	}
	release, full := s.events.openStream(s.streamKeys(c, p))
	if full != nil {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(streamRetryAfter/time.Second)))
		return NewProblem(http.StatusTooManyRequests, "rate_limited", fmt.Sprintf(
			"%s may hold %d event streams open at once on this server; close one first.", full.who(), full.limit))
	}
	defer release()
	res := c.Response()
	h := res.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("X-Accel-Buffering", "no") // proxies that buffer (nginx) pass each event on at once
	if c.Request().Method == http.MethodHead {
		res.WriteHeader(http.StatusOK)
		return nil
	}
	sub, from, err := s.events.subscribe(ctx, f)
	if err != nil {
		return err
	}
	defer s.events.unsubscribe(sub)

	w := &eventWriter{res: res, rc: http.NewResponseController(res)}
	// The request has no body: the server's read timeout must not end the
	// stream.
	if err := w.rc.SetReadDeadline(time.Time{}); err != nil {
		return fmt.Errorf("event stream: %w", err)
	}
	res.WriteHeader(http.StatusOK)
	if err := w.comment("stream"); err != nil {
		return nil // the client went
	}
	if resume == "" {
		after = from
	} else if after, err = s.backlog(ctx, w, f, after, from); err != nil {
		return nil // the status is sent: the client reconnects
	}
	alive := time.NewTicker(keepAlive)
	defer alive.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.shutdown.Done():
			return nil
		case <-sub.dropped:
			return nil // too far behind: the client resumes from the store
		case <-alive.C:
			if err := w.comment("keep-alive"); err != nil {
				return nil
			}
		case e := <-sub.events:
			if !after.Less(e.Pos) {
				continue // sent already (the client resumed after it)
			}
			if err := w.event(&e); err != nil {
				return nil
			}
			after = e.Pos
		}
	}
}

// streamKeys are what a stream of p counts against: its credential and its
// client's address.
func (s *Server) streamKeys(c echo.Context, p *principal) []streamKey {
	var credential string
	switch p.use {
	case useAccess, usePersonal:
		credential = "account:" + strconv.FormatInt(p.session.User.ID, 10)
	case useSeat:
		credential = "seat:" + p.game + "/" + p.color
	default: // useWatch
		credential = "spectator:" + p.game
	}
	return []streamKey{
		{key: credential, limit: s.streamLimits.Credential},
		{key: "ip:" + clientKey(c.Request(), s.cfg.TrustedProxies), limit: s.streamLimits.IP},
	}
}

// who names the holder of a key, for a refusal.
func (k *streamKey) who() string {
	kind, _, _ := strings.Cut(k.key, ":")
	return map[string]string{"account": "An account", "seat": "A seat's move link", "spectator": "A game's spectator link",
		"ip": "A client address"}[kind]
}

// resumeAfter reads the id a client resumes after, refusing one this
// server never gave out (422 invalid_cursor: resumed after, it would skip
// events, or wait for ones that never come) and one whose events may be
// gone (410 cursor_expired): either way, the client reads the games again
// and follows the stream without an id.
func (s *Server) resumeAfter(ctx context.Context, id string) (domain.EventPos, error) {
	p, err := domain.ParseEventPos(id)
	if err != nil {
		return p, err
	}
	state, err := s.db.EventCursor(ctx, p)
	if err != nil {
		return p, err
	}
	switch state {
	case domain.EventCursorKept:
		return p, nil
	case domain.EventCursorPruned:
		return p, NewProblem(http.StatusGone, codeCursorExpired, fmt.Sprintf(
			"The events after %q are no longer kept (%d days): read the games again, then follow the stream without an id.",
			id, int(domain.EventRetention/(24*time.Hour))))
	}
	return p, domain.Errorf(domain.KindInvalid, domain.CodeInvalidCursor, "%q is no event id of this server", id)
}

// codeCursorExpired refuses to resume a stream after an event that may
// have been pruned.
const codeCursorExpired = "cursor_expired"

// backlog sends the events f chooses after after, up to from, where the
// hub takes over, and says the last it sent (or after).
func (s *Server) backlog(ctx context.Context, w *eventWriter, f domain.EventFilter, after, from domain.EventPos) (domain.EventPos, error) {
	for after.Less(from) {
		evs, err := s.db.Events(ctx, f, after, eventBatch)
		if err != nil {
			s.log.ErrorContext(ctx, "read events", "error", err)
			return after, err
		}
		for _, e := range evs {
			if from.Less(e.Pos) {
				return after, nil // the hub sends it
			}
			if err := w.event(&e); err != nil {
				return after, err
			}
			after = e.Pos
		}
		if len(evs) < eventBatch {
			break
		}
	}
	return after, nil
}

// eventWriter writes Server-Sent Events, each flushed at once.
type eventWriter struct {
	res *echo.Response
	rc  *http.ResponseController
}

func (w *eventWriter) event(e *domain.Event) error {
	data, err := eventJSON(e)
	if err != nil {
		return err
	}
	return w.write("id: " + e.Pos.String() + "\nevent: " + string(e.Kind) + "\ndata: " + data + "\n\n")
}

func (w *eventWriter) comment(text string) error {
	return w.write(": " + text + "\n\n")
}

func (w *eventWriter) write(s string) error {
	// Each write gets its own deadline: the server's WriteTimeout is for
	// answers, not for streams.
	if err := w.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout)); err != nil {
		return err
	}
	if _, err := w.res.Write([]byte(s)); err != nil {
		return err
	}
	return w.rc.Flush()
}

// eventView is an event as a stream sends it (openapi: Event).
type eventView struct {
	Kind       string    `json:"kind"`
	GameID     string    `json:"game_id,omitempty"`
	Color      string    `json:"color,omitempty"`
	Ply        int       `json:"ply"`
	At         time.Time `json:"at"`
	Turn       string    `json:"turn,omitempty"`
	Result     string    `json:"result,omitempty"`
	ResultLine string    `json:"result_line,omitempty"`
	Tournament string    `json:"tournament_id,omitempty"`
}

// eventJSON is the data line of an event: one line of JSON.
func eventJSON(e *domain.Event) (string, error) {
	v := eventView{Kind: string(e.Kind), GameID: e.GameID, Color: e.Color, Ply: e.Ply, At: e.At, Turn: e.Data.Turn,
		Result: e.Data.Result, ResultLine: e.Data.Line, Tournament: e.Data.Tournament}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode %s event: %w", e.Kind, err)
	}
	return string(b), nil
}
