package api

import (
	"context"
	"html/template"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
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
	g, a, _, err := s.readableGame(c, domain.ScopeGamesRead)
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
// without scripts: nothing loads, and forms post only to this server.
const CSPPage = "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

var unsubscribePage = template.Must(template.New("unsubscribe").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>lesspost: unsubscribe</title></head>
<body><main>
{{if .Done}}<h1>Unsubscribed</h1>
<p>{{.Email}} will no longer receive reminders or spectator notices from lesspost.
Invitations, your-turn emails and results still arrive: they are your games.</p>
{{else}}<h1>Unsubscribe {{.Email}}?</h1>
<p>This turns off reminders and spectator notices. Invitations, your-turn emails and results still arrive.</p>
<form method="post" action="/unsubscribe?t={{.Token}}"><button type="submit">Unsubscribe</button></form>
{{end}}</main></body></html>
`))

var neverEmailPage = template.Must(template.New("never-email").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>lesspost: never email me again</title></head>
<body><main>
{{if .Done}}<h1>No more email</h1>
<p>lesspost will not email {{.Email}} again. Nobody can invite this address to a game any more.
Only if you ask to sign in yourself will a sign-in link be sent.</p>
{{else}}<h1>Never email {{.Email}} again?</h1>
<p>This stops all email from lesspost to this address: invitations, moves, results and reminders.
Nobody will be able to invite it to a game. Signing in with it still works.</p>
<form method="post" action="/never-email?t={{.Token}}"><button type="submit">Never email me again</button></form>
{{end}}</main></body></html>
`))

// unsubscribe serves the unsubscribe link of every email: it turns off
// non-essential mail for the token's address. POST is the RFC 8058 one-click
// request of mail clients, and the page's button.
func (s *Server) unsubscribe(c echo.Context) error {
	return s.addressLink(c, useUnsub, unsubscribePage, s.app.Unsubscribe)
}

// neverEmail serves the "never email me again" link of every email: it puts
// the token's address on the suppression list.
func (s *Server) neverEmail(c echo.Context) error {
	return s.addressLink(c, useStop, neverEmailPage, s.app.Suppress)
}

// addressLink answers a link that an email carries for its recipient's
// address: GET (and HEAD) only asks for confirmation, so link scanners that
// open every link change nothing; POST does it. Doing it again changes
// nothing.
func (s *Server) addressLink(c echo.Context, use string, page *template.Template,
	do func(ctx context.Context, email string) error) error {
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
	c.Response().Header().Set("Content-Security-Policy", CSPPage)
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(http.StatusOK)
	return page.Execute(c.Response(), map[string]any{"Email": email, "Token": token, "Done": done})
}
