package webpush_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/webhook"
	"github.com/lesspost/lesspost/notify/webpush"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// queue is a PushDeliveryStore holding one claimed job and recording what
// the worker makes of it.
type queue struct {
	mu       sync.Mutex
	jobs     []hooks.PushJob
	outcomes map[int64]hooks.WebhookOutcome
	released []int64
}

func (q *queue) PushDeliveries(context.Context, string, int) ([]hooks.PushDelivery, error) {
	return nil, nil
}
func (q *queue) ClaimPushes(context.Context, string, time.Time, time.Duration, int) ([]hooks.PushJob, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	jobs := q.jobs
	q.jobs = nil
	return jobs, nil
}
func (q *queue) RecordPushAttempt(_ context.Context, _ string, id int64, o hooks.WebhookOutcome) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.outcomes[id] = o
	return nil
}
func (q *queue) ReleasePushes(_ context.Context, _ string, ids []int64) error {
	q.released = append(q.released, ids...)
	return nil
}
func (q *queue) PushBacklog(context.Context, time.Time) (int, error) { return 0, nil }

// pusher answers every message with res and keeps what it was given.
type pusher struct {
	res      webpush.Result
	payloads []webpush.Message
	ttls     []time.Duration
}

func (p *pusher) Send(_ context.Context, _ hooks.PushSubscription, payload []byte, ttl time.Duration) (webpush.Result, error) {
	var m webpush.Message
	if err := json.Unmarshal(payload, &m); err != nil {
		return webpush.Result{}, err
	}
	p.payloads, p.ttls = append(p.payloads, m), append(p.ttls, ttl)
	if p.res.Outcome == webpush.Delivered {
		return p.res, nil
	}
	return p.res, fmt.Errorf("webpush: push.example answered %d (%s)", p.res.Status, p.res.Outcome)
}

type gameMap map[string]games.Game

func (g gameMap) Game(_ context.Context, id string) (games.Game, error) {
	if game, ok := g[id]; ok {
		return game, nil
	}
	if id == "g_broken" {
		return games.Game{}, errors.New("connection reset")
	}
	return games.Game{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no such game")
}

type links struct{}

func (links) MoveURL(gameID, color string, version int) (string, error) {
	return fmt.Sprintf("https://less.test/play/%s#t=%s%d", gameID, color, version), nil
}

type counts struct{ delivered, failed, givenUp int }

func (c *counts) PushDelivered() { c.delivered++ }
func (c *counts) PushFailed(givenUp bool) {
	c.failed++
	if givenUp {
		c.givenUp++
	}
}

func job(kind domain.EventKind, gameID string, attempts int) hooks.PushJob {
	return hooks.PushJob{
		PushDelivery: hooks.PushDelivery{ID: 7, SubscriptionID: 3, Attempts: attempts,
			Event: domain.Event{Kind: kind, GameID: gameID, Email: "bob@example.org", Color: "black", Ply: 1, At: t0}},
		Subscription: hooks.PushSubscription{ID: 3, Owner: "bob@example.org", Endpoint: "https://push.example/sub/3"},
	}
}

// attemptOnce runs one pass of a worker over j with the push service
// answering res, and returns the recorded outcome and what happened.
func attemptOnce(t *testing.T, j hooks.PushJob, res webpush.Result, forgetErr error) (hooks.WebhookOutcome, bool, *pusher, *counts, []string, string) {
	t.Helper()
	q := &queue{jobs: []hooks.PushJob{j}, outcomes: map[int64]hooks.WebhookOutcome{}}
	p := &pusher{res: res}
	var logs bytes.Buffer
	w := webpush.NewWorker(q, p, slog.New(slog.NewTextHandler(&logs, nil)), func() time.Time { return t0.Add(time.Minute) })
	c := &counts{}
	var forgotten []string
	w.Games = gameMap{"g_1": {ID: "g_1", Seats: []games.Seat{
		{Color: "white", Player: games.Player{Email: "ann@example.org"}, TokenVersion: 1},
		{Color: "black", Player: games.Player{Email: "bob@example.org", Locale: "fr"}, TokenVersion: 4}},
		Clock: games.Clock{Deadline: t0.Add(time.Minute + 3*time.Hour)}}}
	w.Links, w.BaseURL, w.Observer = links{}, "https://less.test", c
	w.Forget = func(_ context.Context, endpoint string) (int, error) {
		forgotten = append(forgotten, endpoint)
		return 1, forgetErr
	}
	if _, err := w.SendDue(t.Context()); err != nil {
		t.Fatal(err)
	}
	o, recorded := q.outcomes[j.ID]
	return o, recorded, p, c, forgotten, logs.String()
}

// What each answer of the push service makes of a delivery.
func TestWorkerResults(t *testing.T) {
	now := t0.Add(time.Minute)
	last := len(webhook.Schedule)
	tests := []struct {
		name      string
		attempts  int
		res       webpush.Result
		forgetErr error
		// next is the earliest retry, jitter the latest after it; zero
		// next: given up.
		next, jitter time.Duration
		delivered    bool
		forgets      bool
		loud         bool // an ERROR in the log
	}{
		{name: "delivered", res: webpush.Result{Outcome: webpush.Delivered, Status: 201}, delivered: true},
		{name: "gone", res: webpush.Result{Outcome: webpush.Gone, Status: 410}, forgets: true},
		{name: "gone, forgetting fails", res: webpush.Result{Outcome: webpush.Gone, Status: 404}, forgetErr: errors.New("db down"),
			forgets: true, next: 5 * time.Second, jitter: time.Second, loud: true},
		{name: "retry later: backoff", res: webpush.Result{Outcome: webpush.RetryLater, Status: 503},
			next: 5 * time.Second, jitter: time.Second},
		{name: "retry later: Retry-After beyond the backoff", attempts: 1,
			res: webpush.Result{Outcome: webpush.RetryLater, Status: 429, RetryAfter: time.Hour}, next: time.Hour},
		{name: "retry later: Retry-After within the backoff", attempts: 1,
			res: webpush.Result{Outcome: webpush.RetryLater, Status: 429, RetryAfter: time.Second}, next: 5 * time.Minute, jitter: time.Minute},
		{name: "retry later: the schedule is over", attempts: last, res: webpush.Result{Outcome: webpush.RetryLater, Status: 500}},
		{name: "rejected", res: webpush.Result{Outcome: webpush.Rejected, Status: 400}},
		{name: "rejected: the VAPID key", res: webpush.Result{Outcome: webpush.Rejected, Status: http.StatusForbidden}, loud: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, recorded, _, c, forgotten, logs := attemptOnce(t, job(domain.EventYourTurn, "g_1", tt.attempts), tt.res, tt.forgetErr)
			if !recorded || o.Delivered != tt.delivered || o.Status != tt.res.Status || !o.At.Equal(now) || o.Disable != "" {
				t.Fatalf("outcome %+v (recorded %v)", o, recorded)
			}
			if tt.next == 0 && !o.Next.IsZero() || tt.next != 0 && (o.Next.Before(now.Add(tt.next)) || o.Next.After(now.Add(tt.next+tt.jitter))) {
				t.Errorf("next attempt at %v, want %v after %v (+%v)", o.Next, tt.next, now, tt.jitter)
			}
			if tt.delivered != (o.Error == "") {
				t.Errorf("error %q", o.Error)
			}
			if got := len(forgotten) == 1 && forgotten[0] == "https://push.example/sub/3"; got != tt.forgets {
				t.Errorf("forgotten %q", forgotten)
			}
			want := counts{delivered: 1}
			if !tt.delivered {
				want = counts{failed: 1}
				if tt.next == 0 {
					want.givenUp = 1
				}
			}
			if *c != want {
				t.Errorf("counted %+v, want %+v", *c, want)
			}
			if loud := strings.Contains(logs, "level=ERROR"); loud != tt.loud {
				t.Errorf("loud %v, want %v:\n%s", loud, tt.loud, logs)
			}
		})
	}
}

// What a message says and opens, rendered when it is sent.
func TestWorkerRendersAtSendTime(t *testing.T) {
	tests := []struct {
		name    string
		j       hooks.PushJob
		locale  string
		url     string
		title   string
		ttl     time.Duration
		retried bool
	}{
		{name: "a seat's event opens its move link, in the seat's language", j: job(domain.EventYourTurn, "g_1", 0),
			url: "https://less.test/play/g_1#t=black4", title: "À vous de jouer", ttl: webpush.TTL},
		{name: "the account's language first", j: job(domain.EventYourTurn, "g_1", 0), locale: "it",
			url: "https://less.test/play/g_1#t=black4", title: "Tocca a te", ttl: webpush.TTL},
		{name: "deadline_near lives until the deadline", j: job(domain.EventDeadlineNear, "g_1", 0),
			url: "https://less.test/play/g_1#t=black4", title: "Votre temps est bientôt écoulé", ttl: 3 * time.Hour},
		{name: "a game gone from the store opens its page", j: job(domain.EventGameOver, "g_gone", 0),
			url: "https://less.test/play/g_gone", title: "Game over", ttl: webpush.TTL},
		{name: "a bye opens the sign-in page", j: job(domain.EventRoundStart, "", 0),
			url: "https://less.test/login", title: "Tournament round", ttl: webpush.TTL},
		{name: "a game that cannot be read is retried", j: job(domain.EventYourTurn, "g_broken", 0), retried: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.j.Locale = tt.locale
			o, _, p, _, _, _ := attemptOnce(t, tt.j, webpush.Result{Outcome: webpush.Delivered, Status: 201}, nil)
			if tt.retried {
				if len(p.payloads) != 0 || o.Next.IsZero() || o.Delivered {
					t.Errorf("sent %+v, outcome %+v; want a retry", p.payloads, o)
				}
				return
			}
			if len(p.payloads) != 1 {
				t.Fatalf("sent %d messages", len(p.payloads))
			}
			if m := p.payloads[0]; m.URL != tt.url || m.Title != tt.title || m.Kind != tt.j.Event.Kind || p.ttls[0] != tt.ttl {
				t.Errorf("sent %+v with TTL %v; want %s, %q, TTL %v", m, p.ttls[0], tt.url, tt.title, tt.ttl)
			}
		})
	}
}

// The kinds the stores queue (hooks.PushEventKinds, listed again in the
// fan-out triggers) are the kinds that have a message.
func TestPushedKindsAreQueued(t *testing.T) {
	kinds := []domain.EventKind{domain.EventTurnPlayed, domain.EventYourTurn, domain.EventGameOver, domain.EventInvitation,
		domain.EventRoundStart, domain.EventDeadlineNear, domain.EventTournamentUpdate}
	for _, k := range kinds {
		if webpush.Pushed(k) != slices.Contains(hooks.PushEventKinds, k) {
			t.Errorf("%s: pushed %v, queued %v", k, webpush.Pushed(k), slices.Contains(hooks.PushEventKinds, k))
		}
	}
	for _, k := range hooks.PushEventKinds {
		if !slices.Contains(kinds, k) {
			t.Errorf("%s is queued but not checked here", k)
		}
	}
}

// A subscription made with a move link is sent its game's message only
// while that link is the seat's: one renewed (or a seat given to another
// address) after the claim gets nothing, so the new link never reaches it.
func TestWorkerScopedSubscription(t *testing.T) {
	tests := []struct {
		name    string
		color   string
		version int
		owner   string
		sent    bool
	}{
		{"the current link", "black", 4, "bob@example.org", true},
		{"a renewed link", "black", 3, "bob@example.org", false},
		{"a seat given to another address", "black", 4, "eve@example.org", false},
		{"no such seat", "red", 4, "bob@example.org", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := job(domain.EventYourTurn, "g_1", 0)
			j.Subscription.Game, j.Subscription.Color, j.Subscription.LinkVersion, j.Subscription.Owner = "g_1", tt.color, tt.version, tt.owner
			o, recorded, p, _, _, _ := attemptOnce(t, j, webpush.Result{Outcome: webpush.Delivered, Status: http.StatusCreated}, nil)
			if !recorded || o.Delivered != tt.sent || (len(p.payloads) == 1) != tt.sent {
				t.Errorf("outcome %+v (recorded %v), sent %+v; want sent %v", o, recorded, p.payloads, tt.sent)
			}
			if !tt.sent && (!o.Next.IsZero() || !strings.Contains(o.Error, "replaced")) {
				t.Errorf("a stale subscription's outcome %+v; want given up, saying why", o)
			}
		})
	}
}
