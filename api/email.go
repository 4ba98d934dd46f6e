package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

type mailStatusView struct {
	Kind      string    `json:"kind"`
	Color     string    `json:"color"`
	Ply       int       `json:"ply"`
	Status    string    `json:"status"`
	Attempts  int       `json:"attempts"`
	ErrorCode string    `json:"error_code"`
	LastError string    `json:"last_error"`
	CreatedAt time.Time `json:"created_at"`
}

type mailListView struct {
	Mail []mailStatusView `json:"mail"`
}

// gameMail lists the emails a game caused and whether they were delivered,
// so a player who got nothing can see why.
func (s *Server) gameMail(c echo.Context) error {
	g, a, _, err := s.readableGame(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	if a.Spectator {
		return NewProblem(http.StatusForbidden, domain.CodeForbidden, "Spectators cannot see the game's email.")
	}
	mail, err := s.app.GameMail(c.Request().Context(), g.ID)
	if err != nil {
		return err
	}
	out := mailListView{Mail: make([]mailStatusView, len(mail))}
	for i, m := range mail {
		out.Mail[i] = mailStatusView{Kind: string(m.Kind), Color: m.Color, Ply: m.Ply, Status: m.Status,
			Attempts: m.Attempts, ErrorCode: m.ErrorCode, LastError: m.LastError, CreatedAt: m.CreatedAt}
	}
	return c.JSON(http.StatusOK, out)
}

// CSPPage is the Content-Security-Policy of the server's plain HTML pages
// without scripts: only the server's own stylesheets and images load, and
// forms post only to this server.
const CSPPage = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// unsubscribe serves the unsubscribe link of every email: it turns off
// non-essential mail for the token's address. POST is the RFC 8058 one-click
// request of mail clients, and the page's button.
func (s *Server) unsubscribe(c echo.Context) error {
	return s.addressLink(c, useUnsub, s.accounts.Unsubscribe, func(p *choicePhrases, email, token string, done bool) choicePage {
		if done {
			return choicePage{Title: p.UnsubTitle, Heading: p.UnsubDone, Body: sayEmail(p.UnsubDoneBody, email),
				Hint: p.ResubHint, SecondAction: choiceURL("/resubscribe", token, p.Lang), SecondButton: p.ResubButton}
		}
		return choicePage{Title: p.UnsubTitle, Heading: sayEmail(p.UnsubAsk, email), Body: p.UnsubAskBody,
			Action: choiceURL("/unsubscribe", token, p.Lang), Button: p.UnsubButton}
	})
}

// resubscribe turns non-essential mail back on for the address of an
// unsubscribe link: the unsubscribe page's "changed your mind" button.
func (s *Server) resubscribe(c echo.Context) error {
	return s.addressLink(c, useUnsub, s.accounts.Resubscribe, func(p *choicePhrases, email, token string, _ bool) choicePage {
		return choicePage{Title: p.UnsubTitle, Heading: p.ResubDone, Body: sayEmail(p.ResubDoneBody, email),
			SecondAction: choiceURL("/unsubscribe", token, p.Lang), SecondButton: p.UnsubButton}
	})
}

// neverEmail serves the "never email me again" link of every email: it puts
// the token's address on the suppression list.
func (s *Server) neverEmail(c echo.Context) error {
	return s.addressLink(c, useStop, s.accounts.Suppress, func(p *choicePhrases, email, token string, done bool) choicePage {
		if done {
			return choicePage{Title: p.NeverTitle, Heading: p.NeverDone, Body: sayEmail(p.NeverDoneBody, email)}
		}
		return choicePage{Title: p.NeverTitle, Heading: sayEmail(p.NeverAsk, email), Body: p.NeverAskBody,
			Action: choiceURL("/never-email", token, p.Lang), Button: p.NeverButton}
	})
}

// addressLink answers a link that an email carries for its recipient's
// address: GET (and HEAD) only asks for confirmation, so link scanners that
// open every link change nothing; POST does it. Doing it again changes
// nothing. The page speaks the browser's language, or the one picked from
// the list the asking page offers (the page after a POST keeps it).
func (s *Server) addressLink(c echo.Context, use string, do func(ctx context.Context, email string) error,
	page func(p *choicePhrases, email, token string, done bool) choicePage) error {
	token := c.QueryParam("t")
	email, err := s.tokens.linkAddress(token, use)
	if err != nil {
		return NewProblem(http.StatusBadRequest, "invalid_link", "This link is not valid.")
	}
	done := c.Request().Method == http.MethodPost
	if done {
		if err := do(c.Request().Context(), email); err != nil {
			return err
		}
	}
	p := choiceLanguages[pageLocale(c.Request())]
	v := page(p, email, token, done)
	v.P = p
	if !done {
		for _, l := range languages {
			v.Languages = append(v.Languages, languageLink{Name: choiceLanguages[l].LangName, Lang: l,
				URL: choiceURL(c.Request().URL.Path, token, l), Current: l == p.Lang})
		}
	}
	c.Response().Header().Set("Content-Security-Policy", CSPPage)
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().Header().Set("Content-Language", p.Lang)
	c.Response().Header().Add("Vary", "Accept-Language")
	c.Response().WriteHeader(http.StatusOK)
	return choicePageTemplate.Execute(c.Response(), v)
}
