package api

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/lesspost/lesspost/domain"
)

// RateLimit lets one key (a client address, an account) make Requests
// requests at once, and then one more every Per/Requests: a token bucket of
// Requests tokens refilled at Requests per Per. Over any stretch of time a
// key gets at most Requests plus the refill, and after Per of quiet it has
// its whole allowance again. The zero value means the default.
type RateLimit struct {
	Requests int
	Per      time.Duration
}

// String writes the limit as N/duration, e.g. "10/10m" or "60/1h".
func (r RateLimit) String() string {
	per := r.Per.String()
	switch {
	case r.Per > 0 && r.Per%time.Hour == 0:
		per = strconv.FormatInt(int64(r.Per/time.Hour), 10) + "h"
	case r.Per > 0 && r.Per%time.Minute == 0:
		per = strconv.FormatInt(int64(r.Per/time.Minute), 10) + "m"
	}
	return strconv.Itoa(r.Requests) + "/" + per
}

// MarshalText writes the limit as String does.
func (r RateLimit) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a limit written N/duration, e.g. "10/10m" or "60/1h",
// with N at least 1 and a positive duration.
func (r *RateLimit) UnmarshalText(text []byte) error {
	n, per, ok := strings.Cut(string(text), "/")
	requests, err := strconv.Atoi(n)
	if !ok || err != nil || requests < 1 {
		return fmt.Errorf("rate limit %q: want N/duration with N at least 1, such as 10/10m", text)
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return fmt.Errorf("rate limit %q: want N/duration with a positive duration, such as 10/10m", text)
	}
	r.Requests, r.Per = requests, d
	return nil
}

// RateLimits are the limits on what costs others something: an email sent to
// someone, a guess at a login code, a new game with invitations. The zero
// value of each field means its default (see DefaultRateLimits).
type RateLimits struct {
	// Login bounds login requests per client address. Each sends an email,
	// so this is what stops one sender from having many addresses mailed;
	// on top, no address gets more than 5 login emails an hour (repo).
	Login RateLimit
	// Token bounds login-code exchanges per client address, which makes
	// guessing codes slow.
	Token RateLimit
	// CreateGameIP and CreateGameAccount bound game creation, which emails
	// every player, per client address and per account.
	CreateGameIP      RateLimit
	CreateGameAccount RateLimit
	// SeatLinkIP and SeatLinkAccount bound move-link renewals, which email
	// the seat's player, per client address and per caller (an account, or
	// a seat's own link).
	SeatLinkIP      RateLimit
	SeatLinkAccount RateLimit
	// TournamentIP and TournamentAccount bound tournament creation: a
	// tournament emails every entrant once a round (at most 64 entrants,
	// and a round lasts at least an hour).
	TournamentIP      RateLimit
	TournamentAccount RateLimit
	// WebhookPingAccount and WebhookRedeliverAccount bound, per account,
	// the webhook messages it asks for by hand: each makes this server
	// call out, and an endpoint that stalls holds a delivery worker for
	// up to 10 seconds, which other accounts' deliveries wait for.
	WebhookPingAccount      RateLimit
	WebhookRedeliverAccount RateLimit
}

// DefaultRateLimits suit a correspondence server, where a person signs in a
// few times a month and starts a few games a week.
var DefaultRateLimits = RateLimits{
	Login:             RateLimit{Requests: 10, Per: 10 * time.Minute},
	Token:             RateLimit{Requests: 30, Per: 10 * time.Minute},
	CreateGameIP:      RateLimit{Requests: 60, Per: time.Hour},
	CreateGameAccount: RateLimit{Requests: 30, Per: time.Hour},
	// A lost link is renewed now and then, by its player or the creator.
	SeatLinkIP:      RateLimit{Requests: 20, Per: time.Hour},
	SeatLinkAccount: RateLimit{Requests: 10, Per: time.Hour},
	// A club organises a tournament a week, maybe a few at once.
	TournamentIP:      RateLimit{Requests: 10, Per: 24 * time.Hour},
	TournamentAccount: RateLimit{Requests: 5, Per: 24 * time.Hour},
	// A developer pings an endpoint while wiring it up, and redelivers
	// what failed once it is fixed: a day's failures at most, usually.
	WebhookPingAccount:      RateLimit{Requests: 30, Per: time.Hour},
	WebhookRedeliverAccount: RateLimit{Requests: 100, Per: time.Hour},
}

// withDefaults fills each zero field from DefaultRateLimits.
func (r RateLimits) withDefaults() RateLimits {
	def := DefaultRateLimits
	for _, l := range []struct{ got, def *RateLimit }{
		{&r.Login, &def.Login}, {&r.Token, &def.Token},
		{&r.CreateGameIP, &def.CreateGameIP}, {&r.CreateGameAccount, &def.CreateGameAccount},
		{&r.SeatLinkIP, &def.SeatLinkIP}, {&r.SeatLinkAccount, &def.SeatLinkAccount},
		{&r.TournamentIP, &def.TournamentIP}, {&r.TournamentAccount, &def.TournamentAccount},
		{&r.WebhookPingAccount, &def.WebhookPingAccount}, {&r.WebhookRedeliverAccount, &def.WebhookRedeliverAccount},
	} {
		if l.got.Requests <= 0 {
			l.got.Requests = l.def.Requests
		}
		if l.got.Per <= 0 {
			l.got.Per = l.def.Per
		}
	}
	return r
}

// limiter is one RateLimit over many keys. The buckets are in the store
// (domain.RateLimiter), so that every server instance on it shares them;
// name keeps this limit's keys apart from other limits'.
type limiter struct {
	name      string
	interval  time.Duration // refill per request: Per / Requests
	tolerance time.Duration // how far ahead the full time may lie: Per - interval
}

func newLimiter(name string, l RateLimit) limiter {
	interval := max(l.Per/time.Duration(l.Requests), 1)
	return limiter{name: name, interval: interval, tolerance: l.Per - interval}
}

// limits are the server's limiters, one per RateLimit.
type limits struct {
	login, token, createGameIP, createGameAccount limiter
	seatLinkIP, seatLinkAccount                   limiter
	tournamentIP, tournamentAccount               limiter
	webhookPing, webhookRedeliver                 limiter
}

// newLimits names each limit after what it bounds; an account's and an
// address's limit of one kind differ in their keys (user:, seat: or ip:).
func newLimits(r RateLimits) limits {
	r = r.withDefaults()
	return limits{
		login:             newLimiter("login", r.Login),
		token:             newLimiter("token", r.Token),
		createGameIP:      newLimiter("games", r.CreateGameIP),
		createGameAccount: newLimiter("games", r.CreateGameAccount),
		seatLinkIP:        newLimiter("links", r.SeatLinkIP),
		seatLinkAccount:   newLimiter("links", r.SeatLinkAccount),
		tournamentIP:      newLimiter("tournaments", r.TournamentIP),
		tournamentAccount: newLimiter("tournaments", r.TournamentAccount),
		webhookPing:       newLimiter("webhook-pings", r.WebhookPingAccount),
		webhookRedeliver:  newLimiter("webhook-redeliveries", r.WebhookRedeliverAccount),
	}
}

// limitRule is one limiter applied to the key a request has for it; a
// request without a key ("") passes the rule.
type limitRule struct {
	limiter limiter
	key     func(echo.Context) string
}

// rateLimit returns middleware for a route that refuses a request with
// 429 rate_limited and Retry-After when any of its rules is exhausted.
// A refused request takes nothing from any rule, so that one key that is
// over its limit does not use up the allowance of another it shares with
// others (an account's refused requests do not count against its address).
// A store that cannot say is a server error: no request passes unchecked.
func (s *Server) rateLimit(rules ...limitRule) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			type taken struct {
				key      string
				interval time.Duration
			}
			var took []taken
			for _, r := range rules {
				key := r.key(c)
				if key == "" {
					continue
				}
				key = r.limiter.name + ":" + key
				ok, wait, err := s.db.TakeRequest(ctx, key, r.limiter.interval, r.limiter.tolerance, s.now())
				if err != nil {
					return fmt.Errorf("rate limit: %w", err)
				}
				if !ok {
					// Given back even if the client has gone, or its
					// earlier limits would keep what it never used.
					ctx := context.WithoutCancel(ctx)
					for _, t := range took {
						if err := s.db.ReturnRequest(ctx, t.key, t.interval); err != nil {
							s.log.ErrorContext(ctx, "rate limit: give back a request", "error", err)
						}
					}
					return tooManyRequests(c, wait)
				}
				took = append(took, taken{key, r.limiter.interval})
			}
			return next(c)
		}
	}
}

// tooManyRequests is the 429 answer, with Retry-After in whole seconds,
// rounded up so that a client that waits that long is let through.
func tooManyRequests(c echo.Context, wait time.Duration) error {
	secs := int64((wait + time.Second - 1) / time.Second)
	secs = max(secs, 1)
	c.Response().Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	return NewProblem(http.StatusTooManyRequests, "rate_limited",
		"Too many requests of this kind; try again in "+strconv.FormatInt(secs, 10)+" seconds.")
}

// ipRule limits per client address.
func (s *Server) ipRule(l limiter) limitRule {
	return limitRule{limiter: l, key: func(c echo.Context) string {
		return "ip:" + clientKey(c.Request(), s.cfg.TrustedProxies)
	}}
}

// limitLogin limits login requests per client address.
func (s *Server) limitLogin() echo.MiddlewareFunc {
	return s.rateLimit(s.ipRule(s.limits.login))
}

// limitToken limits login-code exchanges per client address.
func (s *Server) limitToken() echo.MiddlewareFunc {
	return s.rateLimit(s.ipRule(s.limits.token))
}

// limitCreateGame limits game creation per account, then per client
// address: an account over its limit uses up nothing of its address's.
func (s *Server) limitCreateGame() echo.MiddlewareFunc {
	return s.rateLimit(s.accountRule(s.limits.createGameAccount), s.ipRule(s.limits.createGameIP))
}

// limitRematch limits rematches as game creation (each mails every
// player): per caller (an account, or a move link's seat), then per client
// address, which also bounds a chain of rematches made with new links.
func (s *Server) limitRematch() echo.MiddlewareFunc {
	return s.rateLimit(s.callerRule(s.limits.createGameAccount), s.ipRule(s.limits.createGameIP))
}

// limitSeatLink limits move-link renewals per caller, then per client
// address.
func (s *Server) limitSeatLink() echo.MiddlewareFunc {
	return s.rateLimit(s.callerRule(s.limits.seatLinkAccount), s.ipRule(s.limits.seatLinkIP))
}

// limitTournament limits tournament creation per account, then per client
// address.
func (s *Server) limitTournament() echo.MiddlewareFunc {
	return s.rateLimit(s.accountRule(s.limits.tournamentAccount), s.ipRule(s.limits.tournamentIP))
}

// limitWebhookPing limits webhook pings per account.
func (s *Server) limitWebhookPing() echo.MiddlewareFunc {
	return s.rateLimit(s.accountRule(s.limits.webhookPing))
}

// limitWebhookRedeliver limits webhook redeliveries per account.
func (s *Server) limitWebhookRedeliver() echo.MiddlewareFunc {
	return s.rateLimit(s.accountRule(s.limits.webhookRedeliver))
}

// callerRule limits per signed-in account, or per seat for a request made
// with a seat's move link (which has no account; see callerKey).
func (s *Server) callerRule(l limiter) limitRule {
	return limitRule{limiter: l, key: func(c echo.Context) string {
		p, err := s.authenticate(c)
		if err != nil {
			return ""
		}
		return p.callerKey()
	}}
}

// accountRule limits per signed-in account. A request without a valid
// account token has no key here: the handler refuses it anyway, and a stolen
// or ended token cannot use up its account's allowance.
func (s *Server) accountRule(l limiter) limitRule {
	return limitRule{limiter: l, key: func(c echo.Context) string {
		p, err := s.authenticate(c)
		if err != nil || !p.account() {
			return ""
		}
		return "user:" + strconv.FormatInt(p.session.User.ID, 10)
	}}
}

// identifyRequester tells the use cases who asks (domain.Requester), for the
// mail policy's limits on the mail a request causes to others: the caller's
// credentials, if the token is valid, and the client address. Every route
// passes here, so no route that can cause mail escapes the sender's limits.
func (s *Server) identifyRequester(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := domain.Requester{Client: "ip:" + clientKey(c.Request(), s.cfg.TrustedProxies)}
		if c.Request().Header.Get(echo.HeaderAuthorization) != "" {
			if p, err := s.authenticate(c); err == nil {
				r.Caller = p.callerKey()
			}
		}
		c.SetRequest(c.Request().WithContext(domain.WithRequester(c.Request().Context(), r)))
		return next(c)
	}
}

// callerKey names the principal's credentials for the limits: its account,
// or its move link's seat whatever the link's version (a renewal must not
// bring a fresh allowance); "" for a spectator link, which can cause no mail.
func (p *principal) callerKey() string {
	switch {
	case p.account():
		return "user:" + strconv.FormatInt(p.session.User.ID, 10)
	case p.use == useSeat:
		return "seat:" + p.game + "/" + p.color
	}
	return ""
}

// clientKey is the key of the client a request comes from: its IPv4 address,
// or the /64 network of its IPv6 address (one household or server usually
// has a whole /64, so single addresses would be free to change).
//
// The address is the connection's peer, unless trustedProxies reverse
// proxies stand in front of the server: then it is the one the outermost of
// them appended to X-Forwarded-For, the trustedProxies-th entry from the
// right. Entries further left come from the client and may be forged, so
// they are never used.
func clientKey(r *http.Request, trustedProxies int) string {
	addr, ok := forwardedFor(r.Header.Values("X-Forwarded-For"), trustedProxies)
	if !ok {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		if addr, err = netip.ParseAddr(host); err != nil {
			return r.RemoteAddr // not an IP (e.g. a Unix socket): one key for all
		}
	}
	addr = addr.Unmap().WithZone("")
	if addr.Is6() {
		prefix, _ := addr.Prefix(64)
		return prefix.String()
	}
	return addr.String()
}

// forwardedFor picks the client address out of X-Forwarded-For headers, as
// appended to by trusted proxies (0 trusts none). With fewer entries than
// proxies, every entry was written by one of them, so the leftmost is taken.
func forwardedFor(headers []string, trusted int) (netip.Addr, bool) {
	if trusted <= 0 || len(headers) == 0 {
		return netip.Addr{}, false
	}
	var entries []string
	for _, h := range headers {
		for e := range strings.SplitSeq(h, ",") {
			entries = append(entries, strings.TrimSpace(e))
		}
	}
	entry := entries[max(len(entries)-trusted, 0)]
	if strings.HasPrefix(entry, "[") && strings.HasSuffix(entry, "]") {
		entry = entry[1 : len(entry)-1] // an IPv6 address in brackets, without a port
	}
	if a, err := netip.ParseAddr(entry); err == nil {
		return a, true
	}
	if ap, err := netip.ParseAddrPort(entry); err == nil {
		return ap.Addr(), true
	}
	return netip.Addr{}, false
}
