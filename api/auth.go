package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// principal is who a request's bearer token says the caller is.
type principal struct {
	use     string
	session accounts.Session        // useAccess; usePersonal: its User only
	token   *accounts.PersonalToken // usePersonal
	game    string                  // useSeat, useWatch
	color   string                  // useSeat
	version int                     // useSeat, useWatch: the link's version
}

// principalKey keeps a request's principal in its echo context: the rate
// limits and the handler ask for it, and a personal access token costs a
// read of the store.
const principalKey = "lesspost.principal"

// authenticate reads the bearer token. It returns a 401 problem when the
// token is missing, malformed, forged, expired, revoked, or (for an account)
// of a session that has ended.
func (s *Server) authenticate(c echo.Context) (*principal, error) {
	if p, ok := c.Get(principalKey).(*principal); ok {
		return p, nil
	}
	p, err := s.readToken(c)
	if err != nil {
		return nil, err
	}
	c.Set(principalKey, p)
	return p, nil
}

func (s *Server) readToken(c echo.Context) (*principal, error) {
	token, ok := bearerToken(c.Request().Header.Get(echo.HeaderAuthorization))
	if !ok {
		return nil, unauthorized("This needs a token: send Authorization: Bearer <token>.")
	}
	if strings.HasPrefix(token, accounts.PersonalTokenPrefix) {
		t, u, err := s.accounts.PersonalTokenUser(c.Request().Context(), token)
		if err != nil {
			return nil, err
		}
		return &principal{use: usePersonal, session: accounts.Session{User: u}, token: &t}, nil
	}
	cl, err := s.tokens.parse(token)
	if err != nil {
		return nil, unauthorized("The token is invalid or expired.")
	}
	p := &principal{use: cl.Use, game: cl.Game, version: cl.Version}
	switch cl.Use {
	case useAccess:
		sess, err := s.accounts.ActiveSession(c.Request().Context(), cl.Session)
		if err != nil {
			return nil, err
		}
		if strconv.FormatInt(sess.User.ID, 10) != cl.Subject {
			return nil, unauthorized("The token is invalid or expired.")
		}
		p.session = sess
	case useSeat:
		// Signed by us, so a colour of the game's rules; an empty one is
		// a token that was never a seat's.
		if p.color = cl.Color; p.color == "" {
			return nil, unauthorized("The token is invalid or expired.")
		}
	}
	return p, nil
}

// bearerToken takes the token out of an Authorization header. The scheme is
// case-insensitive (RFC 9110 11.1): "bearer x" and "BEARER x" work too.
func bearerToken(header string) (string, bool) {
	scheme, token, _ := strings.Cut(strings.TrimSpace(header), " ")
	token = strings.TrimSpace(token)
	return token, strings.EqualFold(scheme, "Bearer") && token != ""
}

// account requires an account token, or a personal access token with
// scope.
func (s *Server) account(c echo.Context, scope string) (*principal, error) {
	p, err := s.authenticate(c)
	if err != nil {
		return nil, err
	}
	if !p.account() {
		return nil, NewProblem(http.StatusForbidden, "account_required", "This needs an account token from signing in, not a game link.")
	}
	return p, p.allows(scope)
}

// signedIn requires an account token from signing in: what a personal
// access token may never do (log out, manage personal access tokens).
func (s *Server) signedIn(c echo.Context) (*principal, error) {
	p, err := s.authenticate(c)
	if err != nil {
		return nil, err
	}
	if p.use != useAccess {
		return nil, NewProblem(http.StatusForbidden, "account_required",
			"This needs an account token from signing in, not a game link or a personal access token.")
	}
	return p, nil
}

// caller authenticates any bearer token; a personal access token must
// have scope.
func (s *Server) caller(c echo.Context, scope string) (*principal, error) {
	p, err := s.authenticate(c)
	if err != nil {
		return nil, err
	}
	return p, p.allows(scope)
}

// allows refuses a personal access token without scope with 403
// insufficient_scope, naming the scope. Other tokens are not scoped.
func (p *principal) allows(scope string) error {
	if p.use != usePersonal || p.token.Allows(scope) {
		return nil
	}
	prob := NewProblem(http.StatusForbidden, "insufficient_scope", "This personal access token lacks the scope "+scope+".")
	prob.Extensions = map[string]any{"scope": scope}
	return prob
}

// account says whether the principal acts for an account (not a link).
func (p *principal) account() bool { return p.use == useAccess || p.use == usePersonal }

// credentials are what the principal's token proves, for the use cases
// (see games.Credentials.ActorIn).
func (p *principal) credentials() games.Credentials {
	switch p.use {
	case useAccess, usePersonal:
		return games.Credentials{UserID: p.session.User.ID, UserEmail: p.session.User.Email}
	case useSeat:
		color := p.color
		return games.Credentials{GameID: p.game, Seat: &color, LinkVersion: p.version}
	default: // useWatch
		return games.Credentials{GameID: p.game, Spectator: true, LinkVersion: p.version}
	}
}

func unauthorized(detail string) *Problem {
	return NewProblem(http.StatusUnauthorized, domain.CodeUnauthorized, detail)
}

// domainProblem maps a domain error to its problem: the one place where
// domain kinds become HTTP statuses.
func domainProblem(err error) *Problem {
	de, ok := domain.ErrorOf(err)
	if !ok {
		return nil
	}
	status := map[domain.Kind]int{
		domain.KindInvalid:      http.StatusUnprocessableEntity,
		domain.KindIllegalTurn:  http.StatusUnprocessableEntity,
		domain.KindUnauthorized: http.StatusUnauthorized,
		domain.KindForbidden:    http.StatusForbidden,
		domain.KindNotFound:     http.StatusNotFound,
		domain.KindConflict:     http.StatusConflict,
		domain.KindRateLimited:  http.StatusTooManyRequests,
		domain.KindUnavailable:  http.StatusServiceUnavailable,
	}[de.Kind]
	if status == 0 {
		return nil
	}
	p := NewProblem(status, de.Code, de.Message)
	if te := de.Turn; te != nil {
		p.Title = "Illegal turn"
		p.Extensions = map[string]any{"rule": te.Code, "rule_ref": te.Rule, "index": nil}
		if te.Index != ruleset.NoIndex {
			p.Extensions["index"] = te.Index
		}
	}
	return p
}
