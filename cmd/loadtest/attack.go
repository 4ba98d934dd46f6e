package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

// "loadtest attack" is the black-box check of the mail policy
// (domain.MailPolicy): one attacker account, from one client address,
// tries for --duration to mail strangers through every route that can cause
// mail (the routes api/mail_routes_test.go attacks inside the test harness),
// against a real server on a fresh database that mails this tool's own SMTP
// sink. The sink counts what each stranger's mailbox got, +tags folded, and
// whether the attacker's words reached any of them.

type attackConfig struct {
	URL            string
	SMTPAddr       string
	Duration       time.Duration
	Attacker       string
	Organiser      string
	Victim         string
	Strangers      int
	MaxPerStranger int // 0: the policy's bound for the run (attackBound)
	Drain          time.Duration
	Quiet          time.Duration
	Timeout        time.Duration

	// Test hooks: a listener for the sink (instead of SMTPAddr), and what
	// says the server's outbox is empty (instead of Quiet without mail).
	smtpListener net.Listener
	drained      func() bool
}

// The attacker's free text: a reason on every tournament action, a team's
// name. None of it may reach a stranger.
const (
	spamReason = "Cheap pills http://spam.example"
	spamTeam   = "Buy now http://spam.example"
)

var spamWords = []string{"Cheap pills", "spam.example", "Buy now"}

func runAttack(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg attackConfig
	fs := newFlagSet("attack", `Attacks a running lesspost server's mail policy, black-box: signs in as
--attacker and, for --duration, from this one client address, drives every route
that can cause mail (sign-in links, games, turns, resignations, rematches, renewed
move links, tournaments and all an organiser may do to them, late entries, a team
sign-up with a stranger as partner) at --victim's mailbox under ever new +tags and
at --strangers other mailboxes, as fast as the server allows (each route backs off
as a 429's Retry-After says). It runs the SMTP sink the server must mail to: start
the server on a fresh database with
  --smtp-host 127.0.0.1 --smtp-port 2526 --smtp-tls none --smtp-from games@lesspost.test
and no relaxed limits. It prints each route's answers and each mailbox's mail, and
fails if a stranger got more than --max-per-stranger emails or any of the
attacker's words ("Cheap pills", spam.example, "Buy now").`, stderr)
	fs.StringVar(&cfg.URL, "url", "http://127.0.0.1:8080", "the server's base `URL`")
	fs.StringVar(&cfg.SMTPAddr, "smtp-addr", "127.0.0.1:2526", "`address` the SMTP sink listens on")
	fs.DurationVar(&cfg.Duration, "duration", 10*time.Minute, "how long to attack")
	fs.StringVar(&cfg.Attacker, "attacker", "mallory@evil.example", "the attacker's `address`")
	fs.StringVar(&cfg.Organiser, "organiser", "org@club.example", "`address` of the account that organises the open team event the attacker joins (not the attacker)")
	fs.StringVar(&cfg.Victim, "victim", "victim@example.org", "the stranger's `address` most mail is aimed at, under new +tags")
	fs.IntVar(&cfg.Strangers, "strangers", 20, "other strangers' mailboxes (s0@example.net, ...) the attack spreads over")
	fs.IntVar(&cfg.MaxPerStranger, "max-per-stranger", 0, "`emails` a stranger's mailbox may get in the run; 0: the mail policy's bound (printed with its derivation)")
	fs.DurationVar(&cfg.Drain, "drain", 30*time.Second, "after the attack, wait up to this long for the server's outbox to drain")
	fs.DurationVar(&cfg.Quiet, "quiet", 5*time.Second, "the outbox counts as drained after this long without mail")
	fs.DurationVar(&cfg.Timeout, "timeout", 30*time.Second, "per-request timeout")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cfg.Strangers < 1 || cfg.Duration <= 0 {
		return errors.New("--strangers must be at least 1 and --duration positive")
	}
	rep, err := attack(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	rep.print(stdout)
	return rep.verdict()
}

// attackBound is how much mail one account and one client address can
// cause a stranger's mailbox during a run of span, by the mail policy's
// defaults, and how that follows from them.
func attackBound(span time.Duration) (int, string) {
	l := domain.DefaultMailLimits
	every := domain.BudgetWindow / time.Duration(l.PairPerDay)
	pair := l.PairPerDay + int(span/every)
	budget := l.RecipientPerDay * (int(span/domain.BudgetWindow) + 1)
	caused := min(pair, budget)
	hours := int(span/time.Hour) + 1
	logins := accounts.MaxLoginsPerHour * hours
	why := fmt.Sprintf("%d = %d mail the attacker causes (domain.DefaultMailLimits.PairPerDay: %d to one stranger's mailbox "+
		"at once, then one more every %v: +%d in a run of at most %v; the mailbox's budget RecipientPerDay %d is no tighter) "+
		"+ %d sign-in links (accounts.MaxLoginsPerHour %d per mailbox in any hour; the run touches %d)",
		caused+logins, caused, l.PairPerDay, every, int(span/every), span, l.RecipientPerDay, logins, accounts.MaxLoginsPerHour, hours)
	return caused + logins, why
}

// answer is one response, or the transport error instead.
type answer struct {
	status     int
	code       string
	retryAfter time.Duration
	err        error
}

func (a answer) ok() bool { return a.err == nil && a.status < 300 }

// kind names the answer for counting: "201", "429 mail_limited", or the
// transport failure.
func (a answer) kind() string {
	if a.err != nil {
		return errorKind(a.err)
	}
	if a.code == "" {
		return strconv.Itoa(a.status)
	}
	return strconv.Itoa(a.status) + " " + a.code
}

// outcome is an attempt's last answer, and the stranger's mailbox it was
// aimed at ("" for a route whose mail goes to an event's entrants).
type outcome struct {
	answer
	mailbox string
	wait    time.Duration // the route has nothing to do for this long
}

// routeState is one route's attack: its counts and what its attempts
// set up. Only its goroutine changes it, except the counts (mu).
type routeState struct {
	name string

	mu       sync.Mutex
	requests int
	answers  map[string]int // "step answer" -> count
	note     string         // why the route did not run, if it did not

	cursor      int
	added       int                  // entries made
	lateEntries bool                 // the event they go to has started
	paused      bool                 // the running event is paused
	backoff     map[string]time.Time // mailbox ("" the whole route) -> until
	games       map[string]string    // mailbox -> a game against it
	finished    map[string]string    // mailbox -> a finished game against it
}

func newRouteState(name string) *routeState {
	return &routeState{name: name, answers: map[string]int{}, backoff: map[string]time.Time{},
		games: map[string]string{}, finished: map[string]string{}}
}

func (rs *routeState) count(step string, a answer) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.requests++
	k := a.kind()
	if step != "" {
		k = step + " " + k
	}
	rs.answers[k]++
}

// sharedEvent is a tournament several routes act on.
type sharedEvent struct {
	path string
	// Once it started (the running event): the id of a game of its first
	// round still being played, and the index in that round of a pairing
	// decided (the attacker's own game, which he resigned).
	running string
	decided int
	// start is when its first round is due.
	start time.Time
	ready chan struct{}
	err   error
}

func newSharedEvent() *sharedEvent { return &sharedEvent{ready: make(chan struct{})} }

func (e *sharedEvent) done(err error) {
	e.err = err
	close(e.ready)
}

// attackRun is a run in progress.
type attackRun struct {
	cfg      attackConfig
	http     *http.Client
	base     string
	token    string // the attacker's
	orgToken string
	sink     *countingSink
	tag      atomic.Int64
	began    time.Time
	keys     atomic.Int64
	setup    *routeState
	// running: a running round robin of strangers and the attacker;
	// swiss: a Swiss event for entries, before its start and late; open: the
	// organiser's open team event.
	running, swiss, open *sharedEvent
}

// tagged is the mailbox's address under a new +tag.
func (a *attackRun) tagged(mailbox string) string {
	at := strings.LastIndexByte(mailbox, '@')
	return fmt.Sprintf("%s+%d%s", mailbox[:at], a.tag.Add(1), mailbox[at:])
}

// stranger is the i-th stranger's mailbox, counted from the end if i < 0.
func (a *attackRun) stranger(i int) string {
	n := a.cfg.Strangers
	return fmt.Sprintf("s%d@example.net", (i%n+n)%n)
}

// call sends one request as token and counts its answer under rs's step;
// a 2xx answer is decoded into out.
func (a *attackRun) call(ctx context.Context, rs *routeState, step, token, method, path string, body, out any) answer {
	ans := a.send(ctx, token, method, path, body, out)
	rs.count(step, ans)
	return ans
}

func (a *attackRun) send(ctx context.Context, token, method, path string, body, out any) answer {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return answer{err: err}
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return answer{err: err}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if method != "GET" {
		// Some actions are refused without one (428); every change gets a
		// new one, so none is a replay.
		req.Header.Set("Idempotency-Key", fmt.Sprintf("attack-%d-%d", a.began.UnixNano(), a.keys.Add(1)))
	}
	res, err := a.http.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	ans := answer{status: res.StatusCode, err: err}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil {
		ans.retryAfter = time.Duration(s) * time.Second
	}
	switch {
	case ans.err != nil:
	case res.StatusCode >= 300:
		var p struct {
			Code string `json:"code"`
		}
		_ = json.Unmarshal(data, &p)
		ans.code = p.Code
	case out != nil:
		if err := json.Unmarshal(data, out); err != nil {
			ans.err = fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return ans
}

// signIn signs in as email with a link the sink receives, and returns the
// account token, or with pat a personal access token for a day (an account
// token lives 15 minutes, a run longer).
func (a *attackRun) signIn(ctx context.Context, email string, pat bool) (string, error) {
	since := time.Now()
	if ans := a.call(ctx, a.setup, "requestLogin", "", "POST", "/v1/auth/login", map[string]string{"email": email}, nil); !ans.ok() {
		return "", fmt.Errorf("sign in as %s: %s", email, ans.kind())
	}
	link, err := a.sink.loginToken(ctx, email, since, 30*time.Second)
	if err != nil {
		return "", err
	}
	var tok tokenResponse
	if ans := a.call(ctx, a.setup, "exchangeLoginToken", "", "POST", "/v1/auth/token", map[string]string{"token": link}, &tok); !ans.ok() {
		return "", fmt.Errorf("sign in as %s: %s", email, ans.kind())
	}
	if !pat {
		return tok.AccessToken, nil
	}
	var p struct {
		Token string `json:"token"`
	}
	ans := a.call(ctx, a.setup, "createPersonalToken", tok.AccessToken, "POST", "/v1/me/tokens", map[string]any{"name": "attack", "expires_in_days": 1,
		"scopes": []string{"games:read", "games:play", "games:create", "tournaments:write"}}, &p)
	if !ans.ok() {
		return "", fmt.Errorf("personal access token for %s: %s", email, ans.kind())
	}
	return p.Token, nil
}

// eventJSON is the part of a tournament the attack reads.
type eventJSON struct {
	ID      string `json:"id"`
	Players []struct {
		Name string `json:"name"`
	} `json:"players"`
	Rounds []struct {
		Games []struct {
			White  int     `json:"white"`
			Black  *int    `json:"black"`
			GameID *string `json:"game_id"`
		} `json:"games"`
	} `json:"rounds"`
}

// newEvent has the attacker organise an event of the players (name, email
// pairs), its first round at start; it returns the event's path.
func (a *attackRun) newEvent(ctx context.Context, rs *routeState, step, format string, start time.Time, rounds int, players ...string) (string, answer) {
	var ps []map[string]any
	for i := 0; i+1 < len(players); i += 2 {
		ps = append(ps, map[string]any{"name": players[i], "email": players[i+1]})
	}
	body := map[string]any{"name": "Club Cup", "format": format, "players": ps,
		"time":     map[string]any{"kind": "per_turn", "days": 3},
		"schedule": map[string]any{"first_start": start.UTC().Format(time.RFC3339), "interval_hours": 240}}
	if rounds > 0 {
		body["rounds"] = rounds
	}
	var ev eventJSON
	ans := a.call(ctx, rs, step, a.token, "POST", "/v1/tournaments", body, &ev)
	if !ans.ok() {
		return "", ans
	}
	return "/v1/tournaments/" + ev.ID, ans
}

// setUp signs both accounts in and makes the events the routes share.
func (a *attackRun) setUp(ctx context.Context) error {
	var err error
	if a.token, err = a.signIn(ctx, a.cfg.Attacker, true); err != nil {
		return err
	}
	if a.orgToken, err = a.signIn(ctx, a.cfg.Organiser, false); err != nil {
		return err
	}
	// The organiser's open team event, far from its start.
	var ev eventJSON
	ans := a.call(ctx, a.setup, "createTournament (organiser)", a.orgToken, "POST", "/v1/tournaments", map[string]any{
		"name": "Pairs Open", "format": "round_robin", "teams": true,
		"schedule":     map[string]any{"first_start": time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339), "interval_hours": 72},
		"registration": map[string]any{"public": true}}, &ev)
	if ans.ok() {
		a.open.path = "/v1/tournaments/" + ev.ID
		a.open.done(nil)
	} else {
		a.open.done(fmt.Errorf("the organiser's open event: %s", ans.kind()))
	}
	// A Swiss event starting soon: a few entries before its start, whose
	// invitations the scheduler sends at the start, and late entries after.
	a.swiss.start = time.Now().Add(min(2*time.Minute, a.cfg.Duration/3))
	path, ans := a.newEvent(ctx, a.setup, "createTournament", "swiss", a.swiss.start, 2,
		"Victim", a.tagged(a.cfg.Victim), "Sam", a.tagged(a.stranger(-4)), "Sue", a.tagged(a.stranger(-5)))
	if ans.ok() {
		a.swiss.path = path
		a.swiss.done(nil)
	} else {
		a.swiss.done(fmt.Errorf("the attacker's Swiss event: %s", ans.kind()))
	}
	// A round robin of three strangers and the attacker himself, started
	// by the scheduler at its next pass: the attacker resigns his first
	// game, whose result he may then override, while the strangers' game
	// goes on to be extended. Not the victim: the attempts at him spend
	// his share at once, and the event's routes would have nobody left to
	// mail (until the edits and replacements bring him in). The attack
	// waits for its start: the account's hourly allowance of requests that
	// mail strangers would be gone by then, and the routes that act on the
	// event would never get their mail through, words and all.
	path, ans = a.newEvent(ctx, a.setup, "createTournament", "round_robin", time.Now(), 0,
		"Sid", a.tagged(a.stranger(-1)), "Sal", a.tagged(a.stranger(-2)), "Mallory", a.cfg.Attacker, "Sol", a.tagged(a.stranger(-3)))
	if ans.ok() {
		a.running.path = path
		a.awaitStart(ctx, a.running)
	} else {
		a.running.done(fmt.Errorf("the attacker's running event: %s", ans.kind()))
	}
	return nil
}

// awaitStart waits until the scheduler has started the event's first
// round, and resigns the attacker's game in it.
func (a *attackRun) awaitStart(ctx context.Context, e *sharedEvent) {
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var ev eventJSON
		ans := a.call(ctx, a.setup, "getTournament", a.token, "GET", e.path, nil, &ev)
		if ans.ok() && len(ev.Rounds) > 0 && len(ev.Rounds[0].Games) > 0 && ev.Rounds[0].Games[0].GameID != nil {
			e.done(a.resignOwnGame(ctx, e, ev))
			return
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			e.done(fmt.Errorf("the attacker's running event did not start within 3 minutes (%s)", ans.kind()))
			return
		}
		sleepCtx(ctx, time.Second)
	}
}

// resignOwnGame resigns the attacker's game of the event's first round and
// notes it and a game still being played.
func (a *attackRun) resignOwnGame(ctx context.Context, e *sharedEvent, ev eventJSON) error {
	mine := -1 // the attacker is the one "Mallory" (see setUp)
	for i, p := range ev.Players {
		if p.Name == "Mallory" {
			mine = i
		}
	}
	e.decided = -1
	for i, g := range ev.Rounds[0].Games {
		switch {
		case g.GameID == nil:
		case g.White == mine || g.Black != nil && *g.Black == mine:
			if ans := a.call(ctx, a.setup, "resign", a.token, "POST", "/v1/games/"+*g.GameID+"/resign", map[string]any{}, nil); !ans.ok() {
				return fmt.Errorf("resign the attacker's game in his event: %s", ans.kind())
			}
			e.decided = i
		default:
			e.running = *g.GameID
		}
	}
	if e.decided < 0 || e.running == "" {
		return fmt.Errorf("the attacker's event has no game of his (player %d) and one of strangers in round 1", mine)
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// attackRoute is a route that can cause mail, and one attempt through it
// at target (an address under a new +tag).
type attackRoute struct {
	name   string // its operationId(s)
	needs  func(a *attackRun) *sharedEvent
	attack func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome
}

// preStartEntries is how many players the late-entry route enters before
// the Swiss event's start.
const preStartEntries = 8

// mailboxCodes are the refusals that concern one stranger's mailbox: a
// route refused them backs off from that mailbox only.
var mailboxCodes = map[string]bool{"mail_limited": true, "recipient_budget_spent": true, "too_many_logins": true}

// nextTarget is the address the route's next attempt aims at: the victim
// every other attempt, the strangers in turn between, skipping mailboxes
// the route backs off from; or how long until one is free.
func (a *attackRun) nextTarget(rs *routeState, now time.Time) (string, time.Duration) {
	soonest := time.Duration(-1)
	for range 2*a.cfg.Strangers + 2 {
		i := rs.cursor
		rs.cursor++
		mailbox := a.cfg.Victim
		if i%2 == 1 {
			mailbox = a.stranger(i / 2)
		}
		until, ok := rs.backoff[mailboxOf(mailbox)]
		if !ok || !now.Before(until) {
			return a.tagged(mailbox), 0
		}
		if wait := until.Sub(now); soonest < 0 || wait < soonest {
			soonest = wait
		}
	}
	return "", soonest
}

// drive attacks through the route until end.
func (a *attackRun) drive(ctx context.Context, r attackRoute, rs *routeState, end time.Time) {
	if r.needs != nil {
		e := r.needs(a)
		select {
		case <-e.ready:
		case <-ctx.Done():
			return
		case <-time.After(time.Until(end)):
			rs.note = "its event never became ready"
			return
		}
		if e.err != nil {
			rs.note = "not run: " + e.err.Error()
			return
		}
	}
	// Every route is tried at least once, however short the run.
	for tried := false; ctx.Err() == nil; tried = true {
		now := time.Now()
		if tried && !now.Before(end) {
			return
		}
		if until := rs.backoff[""]; now.Before(until) {
			sleepCtx(ctx, min(until.Sub(now), end.Sub(now)))
			continue
		}
		target, wait := a.nextTarget(rs, now)
		if target == "" {
			sleepCtx(ctx, min(wait, end.Sub(now)))
			continue
		}
		o := r.attack(ctx, a, rs, target)
		switch {
		case o.wait > 0:
			sleepCtx(ctx, min(o.wait, time.Until(end)))
		case o.status == http.StatusTooManyRequests:
			wait := max(o.retryAfter, time.Second)
			key := ""
			if o.mailbox != "" && mailboxCodes[o.code] {
				key = o.mailbox
			} else {
				// A refusal of the route as a whole may still be about one
				// recipient among an event's, whom other routes may replace:
				// try again within a minute.
				wait = min(wait, time.Minute)
			}
			rs.backoff[key] = time.Now().Add(wait)
		case !o.ok():
			// A refusal that will not change soon (a conflict, a finished
			// game): no busy loop.
			sleepCtx(ctx, time.Second)
		}
	}
}

var playOpening = map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}

// newGame creates a game of the attacker (White, on a board without walls
// so that playOpening is legal) against target.
func (a *attackRun) newGame(ctx context.Context, rs *routeState, step, target string) (string, answer) {
	var g struct {
		ID string `json:"id"`
	}
	ans := a.call(ctx, rs, step, a.token, "POST", "/v1/games", map[string]any{"players": []map[string]any{
		{"name": "Mallory", "email": a.cfg.Attacker}, {"name": "Stranger", "email": target}},
		"board": map[string]any{"walls": strings.Repeat("0", 60)}}, &g)
	return g.ID, ans
}

func aimed(ans answer, target string) outcome {
	return outcome{answer: ans, mailbox: mailboxOf(target)}
}

// attackRoutes are the routes of mailRoutes' attacks (api/mail_routes_test.go).
func attackRoutes() []attackRoute {
	running := func(a *attackRun) *sharedEvent { return a.running }
	return []attackRoute{
		{name: "requestLogin", attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			return aimed(a.call(ctx, rs, "", "", "POST", "/v1/auth/login", map[string]string{"email": target}, nil), target)
		}},
		{name: "createGame", attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			_, ans := a.newGame(ctx, rs, "", target)
			return aimed(ans, target)
		}},
		{name: "submitTurn", attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			id, ans := a.newGame(ctx, rs, "createGame", target)
			if id == "" {
				return aimed(ans, target)
			}
			return aimed(a.call(ctx, rs, "submitTurn", a.token, "POST", "/v1/games/"+id+"/turns", playOpening, nil), target)
		}},
		{name: "resign", attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			id, ans := a.newGame(ctx, rs, "createGame", target)
			if id == "" {
				return aimed(ans, target)
			}
			return aimed(a.call(ctx, rs, "resign", a.token, "POST", "/v1/games/"+id+"/resign", map[string]any{}, nil), target)
		}},
		{name: "rematch", attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			// A chain of rematches of a finished game against the
			// mailbox, each resigned at once.
			mb := mailboxOf(target)
			if rs.finished[mb] == "" {
				id, ans := a.newGame(ctx, rs, "createGame", target)
				if id == "" {
					return aimed(ans, target)
				}
				if ans := a.call(ctx, rs, "resign", a.token, "POST", "/v1/games/"+id+"/resign", map[string]any{}, nil); !ans.ok() {
					return aimed(ans, target)
				}
				rs.finished[mb] = id
			}
			var re struct {
				Game struct {
					ID string `json:"id"`
				} `json:"game"`
			}
			ans := a.call(ctx, rs, "rematch", a.token, "POST", "/v1/games/"+rs.finished[mb]+"/rematch", map[string]any{}, &re)
			if ans.ok() && re.Game.ID != "" {
				if r := a.call(ctx, rs, "resign", a.token, "POST", "/v1/games/"+re.Game.ID+"/resign", map[string]any{}, nil); r.ok() {
					rs.finished[mb] = re.Game.ID
				} else {
					rs.finished[mb] = ""
				}
			}
			return aimed(ans, target)
		}},
		{name: "rotateSeatLink", attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			mb := mailboxOf(target)
			if rs.games[mb] == "" {
				id, ans := a.newGame(ctx, rs, "createGame", target)
				if id == "" {
					return aimed(ans, target)
				}
				rs.games[mb] = id
			}
			return aimed(a.call(ctx, rs, "rotateSeatLink", a.token, "POST", "/v1/games/"+rs.games[mb]+"/seats/black/link", nil, nil), target)
		}},
		{name: "createTournament", attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			_, ans := a.newEvent(ctx, rs, "", "round_robin", time.Now().Add(time.Minute), 0,
				"Victim", target, "Stranger", a.tagged(a.stranger(rs.cursor)))
			return aimed(ans, target)
		}},
		{name: "cancelTournament", attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			path, ans := a.newEvent(ctx, rs, "createTournament", "round_robin", time.Now().Add(time.Hour), 0,
				"Victim", target, "Stranger", a.tagged(a.stranger(rs.cursor)))
			if path == "" {
				return aimed(ans, target)
			}
			return aimed(a.call(ctx, rs, "cancelTournament", a.token, "POST", path+"/cancel", map[string]any{"reason": spamReason}, nil), target)
		}},
		{name: "pauseTournament+resumeTournament", needs: running, attack: func(ctx context.Context, a *attackRun, rs *routeState, _ string) outcome {
			// Pause, then resume; a resumption refused (429) is tried
			// again first, or the event would stay paused.
			path := a.running.path
			if !rs.paused {
				ans := a.call(ctx, rs, "pauseTournament", a.token, "POST", path+"/pause", map[string]any{"reason": spamReason}, nil)
				rs.paused = ans.ok() || ans.code == "tournament_paused"
				if !rs.paused {
					return outcome{answer: ans}
				}
			}
			ans := a.call(ctx, rs, "resumeTournament", a.token, "POST", path+"/resume", map[string]any{"reason": spamReason}, nil)
			rs.paused = !ans.ok() && ans.code != "tournament_not_paused"
			return outcome{answer: ans}
		}},
		{name: "extendTournamentGame", needs: running, attack: func(ctx context.Context, a *attackRun, rs *routeState, _ string) outcome {
			return outcome{answer: a.call(ctx, rs, "", a.token, "POST", a.running.path+"/games/"+a.running.running+"/extend",
				map[string]any{"hours": 1, "reason": spamReason}, nil)}
		}},
		{name: "postponeTournamentRound", needs: running, attack: func(ctx context.Context, a *attackRun, rs *routeState, _ string) outcome {
			return outcome{answer: a.call(ctx, rs, "", a.token, "POST", a.running.path+"/rounds/2/postpone",
				map[string]any{"hours": 1, "reason": spamReason}, nil)}
		}},
		{name: "overrideTournamentResult", needs: running, attack: func(ctx context.Context, a *attackRun, rs *routeState, _ string) outcome {
			// White wins, then Black, and so on: each a change.
			score, margin := 1, 1
			if rs.added%2 == 1 {
				score, margin = 0, -1
			}
			rs.added++
			return outcome{answer: a.call(ctx, rs, "", a.token, "POST", fmt.Sprintf("%s/rounds/1/games/%d/result", a.running.path, a.running.decided),
				map[string]any{"white_score": score, "margin": margin, "reason": spamReason}, nil)}
		}},
		{name: "editTournamentPlayer", needs: running, attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			return aimed(a.call(ctx, rs, "", a.token, "PATCH", a.running.path+"/players/0",
				map[string]any{"email": target, "correction": true}, nil), target)
		}},
		{name: "replaceTournamentPlayer", needs: running, attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			return aimed(a.call(ctx, rs, "", a.token, "POST", a.running.path+"/players/0/replace",
				map[string]any{"name": fmt.Sprint("Stranger ", rs.cursor), "email": target, "reason": spamReason}, nil), target)
		}},
		{name: "addTournamentPlayer", needs: func(a *attackRun) *sharedEvent { return a.swiss }, attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			// Entries before the start mail nobody until it: a few, so
			// that late entries find room (64 at most).
			if rs.added >= preStartEntries && !rs.lateEntries {
				if wait := time.Until(a.swiss.start); wait > 0 {
					return outcome{wait: wait}
				}
				// Started? (The scheduler starts it at its next pass.)
				var ev eventJSON
				if ans := a.call(ctx, rs, "getTournament", a.token, "GET", a.swiss.path, nil, &ev); !ans.ok() || len(ev.Rounds) == 0 ||
					len(ev.Rounds[0].Games) == 0 || ev.Rounds[0].Games[0].GameID == nil {
					return outcome{wait: time.Second}
				}
				rs.lateEntries = true
			}
			ans := a.call(ctx, rs, "", a.token, "POST", a.swiss.path+"/players",
				map[string]any{"name": fmt.Sprint("Entrant ", rs.cursor), "email": target}, nil)
			if ans.ok() {
				rs.added++
			}
			return aimed(ans, target)
		}},
		{name: "joinTournament+withdrawFromTournament", needs: func(a *attackRun) *sharedEvent { return a.open }, attack: func(ctx context.Context, a *attackRun, rs *routeState, target string) outcome {
			path := a.open.path
			ans := a.call(ctx, rs, "joinTournament", a.token, "POST", path+"/join", map[string]any{"name": "Mallory", "team": spamTeam,
				"partner": map[string]any{"name": "Partner", "email": target}}, nil)
			if !ans.ok() {
				return aimed(ans, target)
			}
			return aimed(a.call(ctx, rs, "withdrawFromTournament", a.token, "POST", path+"/withdraw", map[string]any{}, nil), target)
		}},
	}
}

// attack runs the attack and reports it; log hears of its progress.
func attack(ctx context.Context, cfg attackConfig, log io.Writer) (*attackReport, error) {
	ln := cfg.smtpListener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", cfg.SMTPAddr); err != nil {
			return nil, fmt.Errorf("the SMTP sink: %w", err)
		}
	}
	sink := startCountingSink(ln, spamWords, cfg.Attacker, cfg.Organiser)
	defer sink.Close()
	fmt.Fprintf(log, "smtp sink listening on %s\n", ln.Addr())
	a := &attackRun{cfg: cfg, http: newHTTPClient(32, cfg.Timeout), base: strings.TrimRight(cfg.URL, "/"), sink: sink,
		setup: newRouteState("setup (sign-ins, shared events)"), running: newSharedEvent(), swiss: newSharedEvent(), open: newSharedEvent()}
	begin := time.Now()
	a.began = begin
	if err := a.setUp(ctx); err != nil {
		return nil, err
	}
	started := time.Now()
	end := started.Add(cfg.Duration)
	fmt.Fprintf(log, "attacking %s until %s\n", a.base, end.Format(time.TimeOnly))
	routes := attackRoutes()
	states := make([]*routeState, len(routes))
	var wg sync.WaitGroup
	for i, r := range routes {
		states[i] = newRouteState(r.name)
		// Each route starts at another stranger: the mail policy's limits
		// are per mailbox, and their first attempts would all aim at s0.
		states[i].cursor = 2 * i
		wg.Go(func() { a.drive(ctx, r, states[i], end) })
	}
	wg.Wait()
	attacked := time.Now()
	fmt.Fprintf(log, "attack over; waiting up to %v for the outbox to drain\n", cfg.Drain)
	for deadline := time.Now().Add(cfg.Drain); time.Now().Before(deadline) && ctx.Err() == nil; {
		if cfg.drained != nil {
			if cfg.drained() {
				break
			}
		} else if time.Since(sink.lastAt()) >= cfg.Quiet && time.Since(attacked) >= cfg.Quiet {
			break
		}
		sleepCtx(ctx, 200*time.Millisecond)
	}
	rep := newAttackReport(a, append([]*routeState{a.setup}, states...), sink.mail(), begin, started, attacked, time.Now())
	rep.Interrupted = ctx.Err() != nil
	return rep, nil
}
