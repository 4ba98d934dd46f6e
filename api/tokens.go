package api

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/lesspost/lesspost/domain/less"
)

// The kinds of token lesspost signs. A token of one kind is never accepted
// where another is expected.
const (
	useAccess = "access" // an account's session, from a login link
	useSeat   = "seat"   // one seat of one game, carried by move links
	useWatch  = "watch"  // read-only view of one game, carried by spectator links
	useUnsub  = "unsub"  // one address's unsubscribe link; never accepted as a bearer token
	useICS    = "ics"    // one user's calendar feed; never accepted as a bearer token
	useStop   = "stop"   // one address's "never email me again" link; never accepted as a bearer token
)

const issuer = "lesspost"

// Token lifetimes. Correspondence games run for weeks, so links live long;
// rotating a seat (or logging out, for access tokens) ends a token early.
const (
	AccessTTL = 30 * 24 * time.Hour
	LinkTTL   = 400 * 24 * time.Hour
)

// claims are a token's contents.
type claims struct {
	jwt.RegisteredClaims
	Use     string `json:"use"`
	Session string `json:"sid,omitempty"`
	Game    string `json:"gid,omitempty"`
	Color   string `json:"col,omitempty"`
	Version int    `json:"ver,omitempty"`
}

// Tokens signs and checks tokens with HS256.
type Tokens struct {
	secret []byte
	now    func() time.Time
}

// NewTokens returns a signer for a secret of at least 32 bytes.
func NewTokens(secret []byte, now func() time.Time) (*Tokens, error) {
	if len(secret) < 32 {
		return nil, errors.New("the signing secret must have at least 32 bytes")
	}
	return &Tokens{secret: secret, now: now}, nil
}

func (t *Tokens) sign(c claims, ttl time.Duration) (string, error) {
	now := t.now()
	c.Issuer = issuer
	c.IssuedAt = jwt.NewNumericDate(now)
	c.ExpiresAt = jwt.NewNumericDate(now.Add(ttl))
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(t.secret)
	if err != nil {
		return "", fmt.Errorf("sign %s token: %w", c.Use, err)
	}
	return s, nil
}

// Access returns an account token for a session.
func (t *Tokens) Access(sessionID string, userID int64, expires time.Time) (string, error) {
	return t.sign(claims{Use: useAccess, Session: sessionID,
		RegisteredClaims: jwt.RegisteredClaims{Subject: fmt.Sprint(userID)}}, expires.Sub(t.now()))
}

// Seat returns a move-link token for one seat at a token version.
func (t *Tokens) Seat(gameID string, c less.Color, version int) (string, error) {
	return t.sign(claims{Use: useSeat, Game: gameID, Color: c.String(), Version: version}, LinkTTL)
}

// Watch returns a spectator token for a game.
func (t *Tokens) Watch(gameID string) (string, error) {
	return t.sign(claims{Use: useWatch, Game: gameID}, LinkTTL)
}

// Unsubscribe returns the token of an address's unsubscribe link.
func (t *Tokens) Unsubscribe(email string) (string, error) {
	return t.sign(claims{Use: useUnsub, RegisteredClaims: jwt.RegisteredClaims{Subject: email}}, LinkTTL)
}

// NeverEmail returns the token of an address's "never email me again" link.
func (t *Tokens) NeverEmail(email string) (string, error) {
	return t.sign(claims{Use: useStop, RegisteredClaims: jwt.RegisteredClaims{Subject: email}}, LinkTTL)
}

// Calendar returns the token of a user's calendar feed.
func (t *Tokens) Calendar(userID int64) (string, error) {
	return t.sign(claims{Use: useICS, RegisteredClaims: jwt.RegisteredClaims{Subject: fmt.Sprint(userID)}}, LinkTTL)
}

// calendarUser checks a calendar token and returns its user id.
func (t *Tokens) calendarUser(token string) (int64, error) {
	c, err := t.parseAny(token)
	if err != nil {
		return 0, err
	}
	if c.Use != useICS {
		return 0, errors.New("not a calendar token")
	}
	var id int64
	if _, err := fmt.Sscan(c.Subject, &id); err != nil {
		return 0, errors.New("not a calendar token")
	}
	return id, nil
}

// unsubscribeEmail checks an unsubscribe token and returns its address.
func (t *Tokens) unsubscribeEmail(token string) (string, error) {
	c, err := t.parseAny(token)
	if err != nil {
		return "", err
	}
	if c.Use != useUnsub || c.Subject == "" {
		return "", errors.New("not an unsubscribe token")
	}
	return c.Subject, nil
}

// neverEmailAddress checks a "never email me again" token and returns its
// address.
func (t *Tokens) neverEmailAddress(token string) (string, error) {
	c, err := t.parseAny(token)
	if err != nil {
		return "", err
	}
	if c.Use != useStop || c.Subject == "" {
		return "", errors.New("not a never-email token")
	}
	return c.Subject, nil
}

// parse checks a bearer token: signature, algorithm, issuer, expiry and use.
func (t *Tokens) parse(token string) (*claims, error) {
	c, err := t.parseAny(token)
	if err != nil {
		return nil, err
	}
	switch c.Use {
	case useAccess, useSeat, useWatch:
		return c, nil
	default:
		return nil, fmt.Errorf("a %q token is not a bearer token", c.Use)
	}
}

// parseAny checks a token of any use.
func (t *Tokens) parseAny(token string) (*claims, error) {
	var c claims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return t.secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(t.now),
	)
	if err != nil {
		return nil, err
	}
	return &c, nil
}
