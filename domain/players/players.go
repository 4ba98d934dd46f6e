// Package players owns how players are known to each other: an account's
// handle (the public name others invite and find him by, instead of his
// address) and his public profile (country, languages, a short bio, and
// what he shows). The address of an account is never part of what this
// package shows to others.
//
// Its use cases are the methods of Service, each one unit of work of the
// store. It imports the kernel (package domain) and games (a profile
// tallies its owner's games).
package players

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lesspost/lesspost/domain"
)

// The bounds of a handle: long enough to be distinct, short enough for a
// mail's line and a phone's heading.
const (
	MinHandle = 3
	MaxHandle = 20
)

// MaxBio is the most characters (runes) a profile's bio has.
const MaxBio = 300

// Retired is how long an old handle still leads to its owner after he
// changes it, and is taken by nobody else: links and invitations that name
// it keep working meanwhile.
const Retired = 30 * 24 * time.Hour

// MaxRetiredHandles is the most handles an account may have left and still
// hold (see Retired): changing handle again and again must not keep a
// stock of names from everyone else.
const MaxRetiredHandles = 3

// Stable codes of this package's refusals.
const (
	CodeHandleTaken    = "handle_taken"    // another account holds it (now, or until its retirement ends)
	CodeHandleInvalid  = "handle_invalid"  // not 3–20 letters, digits, - and _
	CodeHandleReserved = "handle_reserved" // a word of the server's own (a page, a bot)
	CodeUnknownHandle  = "unknown_handle"  // an invitation names a handle nobody holds
)

// handleRE is what a handle is made of: ASCII letters and digits, - and _,
// so that it reads the same in every script and font and is safe in a URL.
var handleRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// reserved are the handles nobody may choose: the server's own paths and
// words an impostor would pick. Bots (less-bot-…, les-bot-…) are refused by
// prefix below.
var reserved = []string{
	"admin", "administrator", "api", "app", "help", "lesspost", "lobby", "login", "logout", "me",
	"moderator", "new", "operator", "player", "players", "postmaster", "root", "rules", "seek",
	"seeks", "settings", "signup", "static", "support", "system", "tournament", "tournaments", "watch",
	"webmaster",
}

// reservedPrefixes start handles kept for the server's bots.
var reservedPrefixes = []string{"less-bot", "les-bot", "bot-"}

// Fold is the key a handle is unique by: handles differ only if they differ
// in more than letter case.
func Fold(handle string) string { return strings.ToLower(handle) }

// CheckHandle refuses a handle a player may not choose: a handle_invalid
// or handle_reserved *Error.
func CheckHandle(handle string) error {
	if n := len(handle); n < MinHandle || n > MaxHandle || !handleRE.MatchString(handle) {
		return domain.Errorf(domain.KindInvalid, CodeHandleInvalid,
			"a handle is %d to %d letters (a–z, A–Z), digits, - and _", MinHandle, MaxHandle)
	}
	folded := Fold(handle)
	if slices.Contains(reserved, folded) || strings.Trim(folded, "-_0123456789") == "" {
		return domain.Errorf(domain.KindInvalid, CodeHandleReserved, "the handle %q is reserved", handle)
	}
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(folded, p) {
			return domain.Errorf(domain.KindInvalid, CodeHandleReserved, "handles beginning %q are reserved for the server's bots", p)
		}
	}
	return nil
}

// Profile is what a player tells others about himself, and what he hides.
type Profile struct {
	// Handle is the account's handle as he chose it (letter case kept); ""
	// until he chooses one. Only SetHandle changes it.
	Handle    string
	Country   string   // ISO 3166-1 alpha-2, upper case; "" for none
	Languages []string // the languages he plays in (BCP 47 base tags: "en", "de")
	Bio       string   // plain text, at most MaxBio characters
	// HideFinished leaves his finished games (and their results) off his
	// profile; the tallies still count them.
	HideFinished bool
	// Unlisted keeps the profile out of search and listings: only who
	// knows his handle finds it.
	Unlisted bool
}

// ProfileChange is a change to a profile: nil fields stay as they are.
type ProfileChange struct {
	Country      *string
	Languages    *[]string
	Bio          *string
	HideFinished *bool
	Unlisted     *bool
}

var (
	countryRE  = regexp.MustCompile(`^[A-Z]{2}$`)
	languageRE = regexp.MustCompile(`^[a-z]{2,3}$`)
)

// MaxLanguages is the most languages a profile lists.
const MaxLanguages = 8

// apply is p changed by c, or the invalid_input *Error of a field that
// breaks its rule.
func (c ProfileChange) apply(p Profile) (Profile, error) {
	invalid := func(format string, args ...any) error {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, format, args...)
	}
	if c.Country != nil {
		country := strings.ToUpper(strings.TrimSpace(*c.Country))
		if country != "" && !countryRE.MatchString(country) {
			return p, invalid("country is an ISO 3166-1 alpha-2 code such as \"DE\", or empty")
		}
		p.Country = country
	}
	if c.Languages != nil {
		var langs []string
		for _, l := range *c.Languages {
			l = strings.ToLower(strings.TrimSpace(l))
			if !languageRE.MatchString(l) {
				return p, invalid("languages are ISO 639 codes such as \"en\"; %q is not one", domain.Clip(l))
			}
			if !slices.Contains(langs, l) {
				langs = append(langs, l)
			}
		}
		if len(langs) > MaxLanguages {
			return p, invalid("a profile lists at most %d languages", MaxLanguages)
		}
		p.Languages = langs
	}
	if c.Bio != nil {
		bio := strings.TrimSpace(*c.Bio)
		if !utf8.ValidString(bio) || utf8.RuneCountInString(bio) > MaxBio {
			return p, invalid("bio is at most %d characters of text", MaxBio)
		}
		if strings.ContainsFunc(bio, func(r rune) bool { return r < ' ' && r != '\n' || r == 0x7f }) {
			return p, invalid("bio is plain text: lines, without control characters")
		}
		p.Bio = bio
	}
	if c.HideFinished != nil {
		p.HideFinished = *c.HideFinished
	}
	if c.Unlisted != nil {
		p.Unlisted = *c.Unlisted
	}
	return p, nil
}

// Player is an account as others see it: his profile and the public facts
// of his account. It carries no address.
type Player struct {
	UserID      int64
	Name        string
	Profile     Profile
	MemberSince time.Time
}

// errNoHandle is the not-found of a handle nobody holds.
func errNoHandle(handle string) error {
	return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no player %s", domain.Clip(handle))
}

// wrap gives a store's failure its context.
func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := domain.ErrorOf(err); ok {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}
