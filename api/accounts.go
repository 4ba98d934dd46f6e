package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
)

type loginRequest struct {
	Email  string `json:"email"`
	Locale string `json:"locale"`
}

type loginResponse struct {
	Status    string `json:"status"`
	ExpiresIn int    `json:"expires_in"`
}

// requestLogin emails a single-use login link. It answers the same whether
// or not the address has an account, so it reveals nothing.
func (s *Server) requestLogin(c echo.Context) error {
	var req loginRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	email, err := domain.NormalizeEmail(req.Email)
	if err != nil {
		return err
	}
	locale := req.Locale // "" means the account's language, or the default
	if locale != "" {
		if locale, err = checkLocale(locale); err != nil {
			return err
		}
	}
	if err := s.accounts.RequestLogin(c.Request().Context(), email, locale); err != nil {
		if de, ok := domain.ErrorOf(err); ok && de.Kind == domain.KindRateLimited {
			c.Response().Header().Set("Retry-After", strconv.Itoa(int(time.Hour/time.Second)))
		}
		return err
	}
	s.wakeMail()
	return c.JSON(http.StatusAccepted, loginResponse{Status: "sent", ExpiresIn: 15 * 60})
}

// tokenRequest is a login email's link token, or its code with the address
// it was sent to.
type tokenRequest struct {
	Token string `json:"token"`
	Email string `json:"email"`
	Code  string `json:"code"`
}

type tokenResponse struct {
	AccessToken      string    `json:"access_token"`
	TokenType        string    `json:"token_type"`
	ExpiresIn        int       `json:"expires_in"`
	ExpiresAt        time.Time `json:"expires_at"`
	RefreshToken     string    `json:"refresh_token"`
	RefreshExpiresAt time.Time `json:"refresh_expires_at"`
	User             userView  `json:"user"`
}

// exchangeToken spends a login token for a new session's tokens.
func (s *Server) exchangeToken(c echo.Context) error {
	var req tokenRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	var g accounts.Grant
	var err error
	switch {
	case req.Token != "" && req.Code == "" && req.Email == "":
		g, err = s.accounts.ExchangeLogin(c.Request().Context(), req.Token, accounts.SessionTTL)
	case req.Token == "" && req.Code != "":
		g, err = s.accounts.ExchangeLoginCode(c.Request().Context(), req.Email, req.Code, accounts.SessionTTL)
	default:
		err = domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput,
			"send the login link's token, or the code from the login email with the email address it was sent to")
	}
	if err != nil {
		return err
	}
	return s.grant(c, g)
}

type refreshRequest struct {
	RefreshToken string `json:"refresh_token"`
}

// refresh spends a refresh token for the next pair of its session.
func (s *Server) refresh(c echo.Context) error {
	var req refreshRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	g, err := s.accounts.Refresh(c.Request().Context(), req.RefreshToken)
	if err != nil {
		return err
	}
	return s.grant(c, g)
}

// grant answers a session's new access and refresh tokens.
func (s *Server) grant(c echo.Context, g accounts.Grant) error {
	tok, expires, err := s.tokens.Access(g.Session)
	if err != nil {
		return err
	}
	u, err := s.viewUser(g.Session.User)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, tokenResponse{AccessToken: tok, TokenType: "Bearer",
		ExpiresIn: int(expires.Sub(s.now()) / time.Second), ExpiresAt: expires,
		RefreshToken: g.RefreshToken, RefreshExpiresAt: g.RefreshExpiresAt, User: u})
}

// logout revokes the session of the access token: its access and refresh
// tokens stop working at once.
func (s *Server) logout(c echo.Context) error {
	p, err := s.signedIn(c)
	if err != nil {
		return err
	}
	if err := s.accounts.Logout(c.Request().Context(), p.session.ID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) me(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeAccountRead)
	if err != nil {
		return err
	}
	u, err := s.viewUser(p.session.User)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, u)
}

type updateMeRequest struct {
	Name               *string `json:"name"`
	Locale             *string `json:"locale"`
	TimeZone           *string `json:"time_zone"`
	ReplyConfirmations *bool   `json:"reply_confirmations"`
}

func (s *Server) updateMe(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeAccountWrite)
	if err != nil {
		return err
	}
	var req updateMeRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	u := p.session.User
	if req.Name != nil {
		if u.Name, err = domain.CheckName(*req.Name); err != nil {
			return err
		}
	}
	if req.Locale != nil {
		if u.Locale, err = checkLocale(*req.Locale); err != nil {
			return err
		}
	}
	if req.TimeZone != nil {
		if u.TimeZone, err = domain.CheckTimeZone(*req.TimeZone); err != nil {
			return err
		}
	}
	if req.ReplyConfirmations != nil {
		u.ReplyConfirmations = *req.ReplyConfirmations
	}
	updated, err := s.accounts.UpdateUser(c.Request().Context(), u.ID,
		accounts.AccountSettings{Name: u.Name, Locale: u.Locale, TimeZone: u.TimeZone, ReplyConfirmations: u.ReplyConfirmations})
	if err != nil {
		return err
	}
	out, err := s.viewUser(updated)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

type gamePageView struct {
	Games      []any   `json:"games"` // gameView or lesGameView
	NextCursor *string `json:"next_cursor"`
}

// myGames lists the caller's games, most urgent first.
func (s *Server) myGames(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	limit := 20
	if v := c.QueryParam("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 100 {
			return NewProblem(http.StatusBadRequest, "invalid_request", "limit is a number from 1 to 100.")
		}
	}
	page, err := s.app.MyGames(c.Request().Context(), p.session.User, c.QueryParam("cursor"), limit)
	if err != nil {
		return err
	}
	out := gamePageView{Games: []any{}}
	actor := games.Actor{UserID: p.session.User.ID, UserEmail: p.session.User.Email}
	for i := range page.Games {
		v, err := s.viewGame(&page.Games[i], actor)
		if err != nil {
			return err
		}
		out.Games = append(out.Games, v)
	}
	if page.Next != "" {
		out.NextCursor = &page.Next
	}
	return c.JSON(http.StatusOK, out)
}

// rotateCalendarLink replaces the account's calendar link: older links stop
// working. It answers the account, with the new link.
func (s *Server) rotateCalendarLink(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeAccountWrite)
	if err != nil {
		return err
	}
	u, err := s.accounts.RotateCalendarLink(c.Request().Context(), p.session.User.ID)
	if err != nil {
		return err
	}
	out, err := s.viewUser(u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

type personalTokenRequest struct {
	Name          string   `json:"name"`
	Scopes        []string `json:"scopes"`
	ExpiresInDays int      `json:"expires_in_days"`
}

type personalTokenView struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Scopes     []string   `json:"scopes"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
}

type newPersonalTokenView struct {
	personalTokenView
	Token string `json:"token"`
}

type personalTokensView struct {
	Tokens []personalTokenView `json:"tokens"`
}

func viewPersonalToken(t accounts.PersonalToken) personalTokenView {
	v := personalTokenView{ID: t.ID, Name: t.Name, Scopes: t.Scopes, CreatedAt: t.CreatedAt}
	if !t.LastUsedAt.IsZero() {
		v.LastUsedAt = &t.LastUsedAt
	}
	if !t.ExpiresAt.IsZero() {
		v.ExpiresAt = &t.ExpiresAt
	}
	return v
}

// createPersonalToken makes a personal access token and answers its secret,
// this once.
func (s *Server) createPersonalToken(c echo.Context) error {
	p, err := s.signedIn(c)
	if err != nil {
		return err
	}
	var req personalTokenRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	t, secret, err := s.accounts.CreatePersonalToken(c.Request().Context(), p.session.User, req.Name, req.Scopes, req.ExpiresInDays)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, newPersonalTokenView{personalTokenView: viewPersonalToken(t), Token: secret})
}

// listPersonalTokens lists the account's personal access tokens, never
// their secrets.
func (s *Server) listPersonalTokens(c echo.Context) error {
	p, err := s.signedIn(c)
	if err != nil {
		return err
	}
	ts, err := s.accounts.PersonalTokens(c.Request().Context(), p.session.User)
	if err != nil {
		return err
	}
	out := personalTokensView{Tokens: []personalTokenView{}}
	for _, t := range ts {
		out.Tokens = append(out.Tokens, viewPersonalToken(t))
	}
	return c.JSON(http.StatusOK, out)
}

// revokePersonalToken deletes one of the account's personal access tokens.
func (s *Server) revokePersonalToken(c echo.Context) error {
	p, err := s.signedIn(c)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return NewProblem(http.StatusNotFound, domain.CodeNotFound, "No such personal access token.")
	}
	if err := s.accounts.RevokePersonalToken(c.Request().Context(), p.session.User, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
