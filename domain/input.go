package domain

import (
	"net/mail"
	"strings"
	"time"

	// The zones' rules are in the binary, so that a server without the
	// system's zoneinfo (a slim container) knows every reader's zone.
	_ "time/tzdata"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/lesspost/lesspost/domain/internal/text"
)

// Limits on text a user supplies, in characters. openapi.yaml gives the
// same maxLength (TestLimitsMatchContract in api checks).
const (
	MaxNameLength  = 64
	MaxEmailLength = 254
)

// DefaultLocale is used when none is chosen.
const DefaultLocale = "en"

// NormalizeEmail checks an email address and returns the one form lesspost
// stores, compares and counts it in, so that one mailbox is one identity:
// sign-in, seats, rate limits, budgets and the suppression list all use it.
//
// The whole address is lower-cased. RFC 5321 lets a server tell local parts
// apart by case, but no common mail provider does, and people type their
// address in whatever case: Ann@Example.org and ann@example.org must be one
// account, not two. The domain is IDNA-encoded (UTS #46, as for a DNS
// lookup), so bücher.example and xn--bcher-kva.example are one domain too.
// Refused: display names, comments, quoted local parts, anything that could
// smuggle a header, control and invisible characters, domain literals
// (ann@[127.0.0.1]: mail to an IP address is a way around DNS-based
// policies, and no player has such an address), and addresses longer than
// RFC 5321 allows (a 64-byte local part, 254 bytes in all) once encoded.
func NormalizeEmail(s string) (string, error) {
	at := strings.LastIndexByte(s, '@')
	if at >= 0 && strings.HasPrefix(s[at+1:], "[") && strings.HasSuffix(s, "]") {
		return "", Errorf(KindInvalid, CodeEmailDomainLiteral, "%q: an address at an IP address ([...]) is not accepted; use one with a domain name", Clip(s))
	}
	if len(s) == 0 || len(s) > MaxEmailLength || strings.ContainsAny(s, "\r\n<>\"(),;: \t") {
		return "", Errorf(KindInvalid, CodeInvalidInput, "%q is not an email address", Clip(s))
	}
	if strings.IndexFunc(s, invisible) >= 0 {
		return "", Errorf(KindInvalid, CodeInvalidInput, "an email address cannot contain control or invisible characters")
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || addr.Name != "" {
		return "", Errorf(KindInvalid, CodeInvalidInput, "%q is not an email address", Clip(s))
	}
	if at < 1 || !strings.Contains(s[at:], ".") {
		return "", Errorf(KindInvalid, CodeInvalidInput, "%q is not an email address with a domain", Clip(s))
	}
	domain, err := emailDomains.ToASCII(s[at+1:])
	if err != nil {
		return "", Errorf(KindInvalid, CodeInvalidInput, "%q does not have a valid domain name", Clip(s))
	}
	local := strings.ToLower(s[:at])
	out := local + "@" + domain
	if len(local) > maxLocalPart || len(out) > MaxEmailLength {
		return "", Errorf(KindInvalid, CodeInvalidInput, "%q is longer than an email address may be", Clip(s))
	}
	return out, nil
}

// emailDomains encodes a domain as for a DNS lookup, and refuses one DNS
// could not look up (a label over 63 bytes once encoded, say).
var emailDomains = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.VerifyDNSLength(true))

// maxLocalPart is RFC 5321's limit on the part before the @, in bytes.
const maxLocalPart = 64

// CheckName checks a person's name: 1 to MaxNameLength characters, no
// control or invisible formatting characters (so it can never break a header
// or a line), not only spaces. It returns the name trimmed.
func CheckName(s string) (string, error) {
	return CheckText(s, MaxNameLength, "name")
}

// CheckText checks a one-line text of 1 to max characters; what names it in
// the messages.
func CheckText(s string, max int, what string) (string, error) {
	if !utf8.ValidString(s) {
		return "", Errorf(KindInvalid, CodeInvalidInput, "the %s is not valid UTF-8", what)
	}
	s = strings.TrimSpace(s)
	if s == "" || utf8.RuneCountInString(s) > max {
		return "", Errorf(KindInvalid, CodeInvalidInput, "a %s has 1 to %d characters", what, max)
	}
	for _, r := range s {
		// Joiners are part of some scripts and of emoji sequences.
		if invisible(r) && r != zwj && r != zwnj {
			return "", Errorf(KindInvalid, CodeInvalidInput, "a %s cannot contain control or invisible characters", what)
		}
	}
	return s, nil
}

const (
	zwj  = '\u200d' // zero-width joiner
	zwnj = '\u200c' // zero-width non-joiner
)

// invisible reports characters that break lines or headers, or hide or
// reorder text on screen: control characters, format characters (bidi
// marks, zero-width spaces) and the Unicode line and paragraph separators.
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// CheckLocale returns the locale, or the default for "". A locale is a
// language tag as the message catalogue names its files: a language
// ("pt"), perhaps with a region ("pt-BR"). Which languages lesspost speaks
// is the catalogue's to say (one file each), not the domain's, which holds
// no words: the edge refuses a language the catalogue lacks (the API
// contract lists them) before a use case sees it.
func CheckLocale(s string) (string, error) {
	if s == "" {
		return DefaultLocale, nil
	}
	if !isLocale(s) {
		return "", Errorf(KindInvalid, CodeInvalidInput, "locale %q: not a language tag such as en or pt-BR", Clip(s))
	}
	return s, nil
}

// isLocale reports whether s is a lower-case language of two or three
// letters, perhaps with an upper-case region of two.
func isLocale(s string) bool {
	lang, region, hasRegion := strings.Cut(s, "-")
	lower := func(r rune) bool { return r < 'a' || r > 'z' }
	upper := func(r rune) bool { return r < 'A' || r > 'Z' }
	if len(lang) < 2 || len(lang) > 3 || strings.ContainsFunc(lang, lower) {
		return false
	}
	return !hasRegion || (len(region) == 2 && !strings.ContainsFunc(region, upper))
}

// CheckTimeZone returns an IANA time zone name ("Europe/Berlin") that the
// server knows, or "" (none: UTC). "Local" is refused: it is the server's
// zone, not the reader's.
func CheckTimeZone(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	// The system's zoneinfo has aliases the binary's embedded copy lacks
	// (posix/…, right/…): a name saved on one server must load on every one.
	if len(s) > 64 || s == "Local" || s == "posixrules" || strings.HasPrefix(s, "posix/") || strings.HasPrefix(s, "right/") {
		return "", Errorf(KindInvalid, CodeInvalidInput, "time zone %q: give an IANA name such as Europe/Berlin", Clip(s))
	}
	if _, err := time.LoadLocation(s); err != nil {
		return "", Errorf(KindInvalid, CodeInvalidInput, "time zone %q: give an IANA name such as Europe/Berlin", Clip(s))
	}
	return s, nil
}

// Clip shortens what a user typed (an id, an address) to 40 characters
// before a message quotes it.
func Clip(s string) string { return text.Clip(s, 40) }
