package api

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/lesspost/lesspost/domain/accounts"
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
	useInvite = "invite" // one tournament's invite link (a version of it); never accepted as a bearer token
	// usePersonal is a personal access token: no JWT but an opaque secret
	// the store knows (accounts.PersonalTokenPrefix), named here for the
	// principal it makes.
	usePersonal = "personal"
)

const issuer = "lesspost"

// Token lifetimes. Correspondence games run for weeks, so links live long;
// rotating a seat ends a link early. Access tokens live briefly: a client
// keeps its session with the refresh token (accounts.Service.Refresh), and
// logging out or a reused refresh token ends them all at once.
const (
	AccessTTL = 15 * time.Minute
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

// Tokens signs and checks tokens with HS256. One key signs; previous keys,
// kept for a grace period after a key rotation, are accepted for checking
// only. Every token names its key in the JWT header (kid), so it is checked
// against that key alone.
type Tokens struct {
	keys []signingKey // the first signs
	now  func() time.Time
}

type signingKey struct {
	id     string
	secret []byte
}

// MinSecretLen is the shortest signing key accepted: HS256 wants 256 bits.
const MinSecretLen = 32

// KeyID is the kid of the tokens a key signs: a short hash that names the key
// without revealing it.
func KeyID(secret []byte) string {
	h := sha256.Sum256(append([]byte("lesspost kid\x00"), secret...))
	return hex.EncodeToString(h[:6])
}

// NewTokens returns a signer with secret, and a checker that also accepts
// tokens signed with the previous keys. Each key has at least MinSecretLen
// bytes.
func NewTokens(secret []byte, now func() time.Time, previous ...[]byte) (*Tokens, error) {
	t := &Tokens{now: now}
	for i, k := range append([][]byte{secret}, previous...) {
		if len(k) < MinSecretLen {
			if i == 0 {
				return nil, fmt.Errorf("the signing secret must have at least %d bytes", MinSecretLen)
			}
			return nil, fmt.Errorf("previous signing secret %d: must have at least %d bytes", i, MinSecretLen)
		}
		id := KeyID(k)
		for _, seen := range t.keys {
			if seen.id == id {
				return nil, fmt.Errorf("signing secret %d is listed twice", i)
			}
		}
		t.keys = append(t.keys, signingKey{id: id, secret: k})
	}
	return t, nil
}

func (t *Tokens) sign(c claims, ttl time.Duration) (string, error) {
	now := t.now()
	c.Issuer = issuer
	c.IssuedAt = jwt.NewNumericDate(now)
	c.ExpiresAt = jwt.NewNumericDate(now.Add(ttl))
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, c)
	tok.Header["kid"] = t.keys[0].id
	s, err := tok.SignedString(t.keys[0].secret)
	if err != nil {
		return "", fmt.Errorf("sign %s token: %w", c.Use, err)
	}
	return s, nil
}

// Access returns an account token for a session, valid for AccessTTL but
// not beyond the session, and when it expires.
func (t *Tokens) Access(sess accounts.Session) (string, time.Time, error) {
	expires := t.now().Add(AccessTTL)
	if sess.ExpiresAt.Before(expires) {
		expires = sess.ExpiresAt
	}
	tok, err := t.sign(claims{Use: useAccess, Session: sess.ID,
		RegisteredClaims: jwt.RegisteredClaims{Subject: fmt.Sprint(sess.User.ID)}}, expires.Sub(t.now()))
	return tok, expires, err
}

// Seat returns a move-link token for one seat at a token version.
func (t *Tokens) Seat(gameID, color string, version int) (string, error) {
	return t.link(claims{Use: useSeat, Game: gameID, Color: color, Version: version})
}

// Watch returns a spectator token for a game at a link version.
func (t *Tokens) Watch(gameID string, version int) (string, error) {
	return t.link(claims{Use: useWatch, Game: gameID, Version: version})
}

// Move and spectator links are in every game email, so their tokens are
// compact rather than JWTs (which made a link of some 300 characters that
// mail clients break and phones show as a wall of noise):
//
//	s.<game>.<color>.<version>.<expiry>.<mac>   a seat's move link
//	w.<game>.<version>.<expiry>.<mac>           a game's spectator link
//
// version in decimal, expiry in Unix seconds in base 36, and mac the first
// linkMACLen bytes (128 bits) of HMAC-SHA256 under the signing key, over
// linkMACPrefix and the rest, in unpadded base64url: about 60 characters in
// all. A forger must guess the MAC outright, one try per request, against
// 2^128. The token names no key; it is checked against each key still
// accepted (a handful at most). Every character is one a URL fragment and
// an Authorization header carry as it is. Links of JWTs sent before keep
// working until they expire (parse accepts both).
const (
	linkMACLen    = 16
	linkMACPrefix = "lesspost link\x00"
	linkSeat      = "s"
	linkWatch     = "w"
)

// linkPart is what a game id or colour may hold to be put in a compact
// token: no '.', which separates its parts, and nothing a URL fragment or
// a header would change.
func linkPart(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == ""
}

// link signs a move or spectator link's token, compact; a game id or colour
// that cannot be put in one (none lesspost makes) gets a JWT.
func (t *Tokens) link(c claims) (string, error) {
	if !linkPart(c.Game) || (c.Use == useSeat && !linkPart(c.Color)) || c.Version < 0 {
		return t.sign(c, LinkTTL)
	}
	body := linkWatch + "." + c.Game
	if c.Use == useSeat {
		body = linkSeat + "." + c.Game + "." + c.Color
	}
	body += "." + strconv.Itoa(c.Version) + "." + strconv.FormatInt(t.now().Add(LinkTTL).Unix(), 36)
	return body + "." + linkMAC(t.keys[0].secret, body), nil
}

// linkMAC is the MAC of a compact token's body under a key.
func linkMAC(secret []byte, body string) string {
	h := hmac.New(sha256.New, secret)
	h.Write([]byte(linkMACPrefix + body))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:linkMACLen])
}

// isLink reports whether a token is in the compact form of links (a JWT
// starts with its header's base64, never with "s." or "w.").
func isLink(token string) bool {
	return strings.HasPrefix(token, linkSeat+".") || strings.HasPrefix(token, linkWatch+".")
}

// parseLink checks a compact token: its MAC under any accepted key, its
// expiry, and that every part is written the one way link writes it.
func (t *Tokens) parseLink(token string) (*claims, error) {
	bad := errors.New("not a valid link token")
	at := strings.LastIndexByte(token, '.')
	body, mac := token[:max(at, 0)], token[at+1:]
	ok := false
	for _, k := range t.keys {
		ok = hmac.Equal([]byte(mac), []byte(linkMAC(k.secret, body))) || ok
	}
	if !ok {
		return nil, bad
	}
	parts := strings.Split(body, ".")
	c := &claims{}
	switch {
	case parts[0] == linkSeat && len(parts) == 5:
		c.Use, c.Game, c.Color = useSeat, parts[1], parts[2]
	case parts[0] == linkWatch && len(parts) == 4:
		c.Use, c.Game = useWatch, parts[1]
	default:
		return nil, bad
	}
	version, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil || version < 0 || strconv.Itoa(version) != parts[len(parts)-2] {
		return nil, bad
	}
	expiry, err := strconv.ParseInt(parts[len(parts)-1], 36, 64)
	if err != nil || strconv.FormatInt(expiry, 36) != parts[len(parts)-1] {
		return nil, bad
	}
	if !t.now().Before(time.Unix(expiry, 0)) {
		return nil, errors.New("the link token expired")
	}
	c.Version = version
	return c, nil
}

// Unsubscribe returns the token of an address's unsubscribe link.
func (t *Tokens) Unsubscribe(email string) (string, error) {
	return t.sign(claims{Use: useUnsub, RegisteredClaims: jwt.RegisteredClaims{Subject: email}}, LinkTTL)
}

// NeverEmail returns the token of an address's "never email me again" link.
func (t *Tokens) NeverEmail(email string) (string, error) {
	return t.sign(claims{Use: useStop, RegisteredClaims: jwt.RegisteredClaims{Subject: email}}, LinkTTL)
}

// Calendar returns the token of a user's calendar feed at a link version.
func (t *Tokens) Calendar(userID int64, version int) (string, error) {
	return t.sign(claims{Use: useICS, Version: version,
		RegisteredClaims: jwt.RegisteredClaims{Subject: fmt.Sprint(userID)}}, LinkTTL)
}

// calendarUser checks a calendar token and returns its user id and link
// Invite is the token of a tournament's invite link at a link version.
func (t *Tokens) Invite(tournamentID string, version int) (string, error) {
	return t.sign(claims{Use: useInvite, Version: version,
		RegisteredClaims: jwt.RegisteredClaims{Subject: tournamentID}}, LinkTTL)
}

// inviteVersion reads an invite token of a tournament: the link version
// it carries. A token of another tournament, or not an invite, is refused.
func (t *Tokens) inviteVersion(token, tournamentID string) (int, error) {
	c, err := t.parseAny(token)
	if err != nil {
		return 0, err
	}
	if c.Use != useInvite || c.Subject != tournamentID || c.Version <= 0 {
		return 0, errors.New("not an invite to this tournament")
	}
	return c.Version, nil
}

// version.
func (t *Tokens) calendarUser(token string) (id int64, version int, err error) {
	c, err := t.parseAny(token)
	if err != nil {
		return 0, 0, err
	}
	if c.Use != useICS {
		return 0, 0, errors.New("not a calendar token")
	}
	if _, err := fmt.Sscan(c.Subject, &id); err != nil {
		return 0, 0, errors.New("not a calendar token")
	}
	return id, c.Version, nil
}

// linkAddress checks the token of a link an email carries for its
// recipient's address (use useUnsub or useStop) and returns the address.
func (t *Tokens) linkAddress(token, use string) (string, error) {
	c, err := t.parseAny(token)
	if err != nil {
		return "", err
	}
	if c.Use != use || c.Subject == "" {
		return "", fmt.Errorf("not a %s token", use)
	}
	return c.Subject, nil
}

// parse checks a bearer token: signature, algorithm, issuer, expiry and use;
// or, for a link's compact token, its MAC and expiry.
func (t *Tokens) parse(token string) (*claims, error) {
	if isLink(token) {
		return t.parseLink(token)
	}
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
	_, err := jwt.ParseWithClaims(token, &c, t.key,
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

// key finds the key a token names. A token without a kid was signed before
// tokens had one, by the one key there was then: any key may check it.
func (t *Tokens) key(tok *jwt.Token) (any, error) {
	kid, named := tok.Header["kid"]
	if !named {
		set := jwt.VerificationKeySet{}
		for _, k := range t.keys {
			set.Keys = append(set.Keys, k.secret)
		}
		return set, nil
	}
	for _, k := range t.keys {
		if kid == k.id {
			return k.secret, nil
		}
	}
	return nil, errors.New("signed with an unknown or retired key")
}

// replyMACLen is how much of a reply token's HMAC-SHA256 it keeps: 10 bytes
// (80 bits), 16 characters of base32. A forger must guess it outright: the
// server answers a wrong one as it answers any unknown address.
const replyMACLen = 10

// replyEncoding writes a reply token's MAC in lower-case base32 without
// padding: mail servers may change the case of an address, never its
// letters.
var replyEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// replyMAC is the MAC of one seat's reply address at one ply under a key.
// It is no JWT (that would not fit the 64 octets of an address's local
// part), so a prefix keeps it apart from every other use of the key.
func replyMAC(secret []byte, gameID, color string, ply int) string {
	h := hmac.New(sha256.New, secret)
	fmt.Fprintf(h, "lesspost reply\x00%s\x00%s\x00%d", gameID, color, ply)
	return replyEncoding.EncodeToString(h.Sum(nil)[:replyMACLen])
}

// ReplyMAC signs a seat's reply address at a ply with the current key.
func (t *Tokens) ReplyMAC(gameID, color string, ply int) string {
	return replyMAC(t.keys[0].secret, gameID, color, ply)
}

// checkReplyMAC reports whether mac signs the seat and ply under any key,
// the previous ones too: an address names no key, and emails outlive a
// key rotation.
func (t *Tokens) checkReplyMAC(mac, gameID, color string, ply int) bool {
	ok := false
	for _, k := range t.keys {
		ok = hmac.Equal([]byte(mac), []byte(replyMAC(k.secret, gameID, color, ply))) || ok
	}
	return ok
}
