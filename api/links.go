package api

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/lesspost/lesspost/domain"
)

// Links builds the links emails carry. The token goes in the URL fragment:
// browsers never send the fragment to a server, so it stays out of access
// logs and proxies, and the play page removes it from the address bar.
type Links struct {
	base   string
	tokens *Tokens
	// replyLocal and replyDomain split the base reply address; "" when
	// players cannot move by replying.
	replyLocal, replyDomain string
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

// TournamentURL is a tournament's public page.
func (l *Links) TournamentURL(tournamentID string) string {
	return l.base + "/tournaments/" + url.PathEscape(tournamentID)
}

// InviteURL is a tournament's invite link at a link version: the public
// page of the tournament, with the invite token in the fragment for the
// page (or an app) to pass to POST /v1/tournaments/{id}/join.
func (l *Links) InviteURL(tournamentID string, version int) (string, error) {
	tok, err := l.tokens.Invite(tournamentID, version)
	if err != nil {
		return "", err
	}
	return l.TournamentURL(tournamentID) + "#invite=" + tok, nil
}

// RulesURL is the rules page of a game (a ruleset name) in a language.
func (l *Links) RulesURL(game, locale string) string { return l.base + rulesPath(game, locale) }

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

// MaxReplyBaseLocal bounds the local part of the base reply address, in
// octets: a reply address adds "+", the game id, the seat, the ply and the
// MAC (about 50 octets), and RFC 5321 allows 64.
const MaxReplyBaseLocal = 10

// WithReplyAddress returns the links with reply addresses under base (e.g.
// play@less.example: play+<token>@less.example); "" turns them off.
func (l *Links) WithReplyAddress(base string) (*Links, error) {
	out := *l
	out.replyLocal, out.replyDomain = "", ""
	if base == "" {
		return &out, nil
	}
	addr, err := domain.NormalizeEmail(base)
	if err != nil {
		return nil, fmt.Errorf("reply address %q: %w", base, err)
	}
	at := strings.LastIndexByte(addr, '@')
	local := addr[:at]
	if strings.Contains(local, "+") || len(local) > MaxReplyBaseLocal {
		return nil, fmt.Errorf("reply address %q: its local part must have at most %d octets and no '+'", base, MaxReplyBaseLocal)
	}
	out.replyLocal, out.replyDomain = local, addr[at+1:]
	return &out, nil
}

// ReplyTarget is what a reply address names: the seat of a game whose
// email was sent for a ply.
type ReplyTarget struct {
	GameID string
	Color  string
	Ply    int
}

// ErrNotReplyAddress is an address that is not a reply address this server
// signed: another address, a token that does not check, or one altered.
var ErrNotReplyAddress = errors.New("not a reply address of this server")

// replyPart is what a game id and a seat may hold to be put in a reply
// address: lower case (a mail server may lower-case the address), and no
// '.' (which separates the token's parts).
func replyPart(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == ""
}

// ReplyAddress is the address a seat answers the email of a ply at, to play
// by replying: base+<game>.<seat>.<ply>.<mac>@domain, the MAC (80 bits of
// HMAC-SHA256 with the current key) over the three. "" when reply
// addresses are off.
func (l *Links) ReplyAddress(gameID, color string, ply int) (string, error) {
	if l.replyLocal == "" {
		return "", nil
	}
	if !replyPart(gameID) || !replyPart(color) || ply < 0 {
		return "", fmt.Errorf("reply address for %q %q: not lower-case letters, digits, '_' and '-'", gameID, color)
	}
	local := l.replyLocal + "+" + gameID + "." + color + "." + strconv.Itoa(ply) + "." + l.tokens.ReplyMAC(gameID, color, ply)
	if len(local) > 64 {
		return "", fmt.Errorf("reply address for %s %s: the local part has %d octets, more than 64", gameID, color, len(local))
	}
	return local + "@" + l.replyDomain, nil
}

// ParseReplyAddress checks an address ReplyAddress wrote, in any letter
// case, with a MAC of the current key or a previous one, and says what it
// names. Anything else is ErrNotReplyAddress.
func (l *Links) ParseReplyAddress(addr string) (ReplyTarget, error) {
	addr = strings.ToLower(strings.TrimSpace(addr))
	at := strings.LastIndexByte(addr, '@')
	prefix := l.replyLocal + "+"
	if l.replyLocal == "" || at < 0 || addr[at+1:] != l.replyDomain || !strings.HasPrefix(addr[:at], prefix) {
		return ReplyTarget{}, ErrNotReplyAddress
	}
	parts := strings.Split(addr[len(prefix):at], ".")
	if len(parts) != 4 {
		return ReplyTarget{}, ErrNotReplyAddress
	}
	ply, err := strconv.Atoi(parts[2])
	if err != nil || ply < 0 || strconv.Itoa(ply) != parts[2] ||
		!l.tokens.checkReplyMAC(parts[3], parts[0], parts[1], ply) {
		return ReplyTarget{}, ErrNotReplyAddress
	}
	return ReplyTarget{GameID: parts[0], Color: parts[1], Ply: ply}, nil
}
