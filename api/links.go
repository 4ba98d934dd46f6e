package api

import (
	"net/url"
	"strings"
)

// Links builds the links emails carry. The token goes in the URL fragment:
// browsers never send the fragment to a server, so it stays out of access
// logs and proxies, and the play page removes it from the address bar.
type Links struct {
	base   string
	tokens *Tokens
}

// NewLinks returns links under the public base URL (e.g. https://less.example).
func NewLinks(baseURL string, tokens *Tokens) *Links {
	return &Links{base: strings.TrimRight(baseURL, "/"), tokens: tokens}
}

// MoveURL is a seat's personal move link.
func (l *Links) MoveURL(gameID, color string, version int) (string, error) {
	tok, err := l.tokens.Seat(gameID, color, version)
	if err != nil {
		return "", err
	}
	return l.base + "/play/" + url.PathEscape(gameID) + "#t=" + tok, nil
}

// WatchURL is a game's read-only spectator link at a link version.
func (l *Links) WatchURL(gameID string, version int) (string, error) {
	tok, err := l.tokens.Watch(gameID, version)
	if err != nil {
		return "", err
	}
	return l.base + "/play/" + url.PathEscape(gameID) + "#t=" + tok, nil
}

// LoginURL is a sign-in link for a login token.
func (l *Links) LoginURL(token string) string {
	return l.base + "/login#t=" + url.QueryEscape(token)
}

// UnsubscribeURL is the one-click unsubscribe link of an address (RFC 8058).
func (l *Links) UnsubscribeURL(email string) (string, error) {
	tok, err := l.tokens.Unsubscribe(email)
	if err != nil {
		return "", err
	}
	return l.base + "/unsubscribe?t=" + tok, nil
}

// NeverEmailURL is an address's "never email me again" link, which every
// email carries: following it, the address gets no more mail from lesspost
// but the login mail it asks for.
func (l *Links) NeverEmailURL(email string) (string, error) {
	tok, err := l.tokens.NeverEmail(email)
	if err != nil {
		return "", err
	}
	return l.base + "/never-email?t=" + tok, nil
}

// CalendarURL is a user's private iCalendar feed of his deadlines. Calendar
// apps cannot send headers, so the token is in the query (which the request
// log never writes).
func (l *Links) CalendarURL(userID int64, version int) (string, error) {
	tok, err := l.tokens.Calendar(userID, version)
	if err != nil {
		return "", err
	}
	return l.base + "/calendar.ics?t=" + tok, nil
}
