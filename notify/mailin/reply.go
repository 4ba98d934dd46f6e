package mailin

import (
	"regexp"
	"strings"
	"unicode"
)

// newLines keeps what the person wrote in a reply's text: quoted lines
// (">"), attribution lines ("On … wrote:" in the languages of lesspost's
// players), and a blank line are dropped; the signature (after "-- ") and
// an unquoted original under Outlook's "-----Original Message-----" or
// "From: … Sent: …" header end the new text. The rest is trimmed, in order,
// so a move above the quote (top-posting) and below it (bottom-posting)
// are both kept.
func newLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		// Plain spaces for the no-break spaces that French puts before
		// colons and HTML puts everywhere, so one pattern matches all.
		lines[i] = strings.TrimSpace(strings.Map(plainSpace, l))
	}
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case l == "--": // "-- " trimmed; some clients drop its space
			return out
		case originalMessage.MatchString(l), outlookHeader(lines[i:]):
			return out
		case l == "", strings.HasPrefix(l, ">"), outlookRule.MatchString(l):
			continue
		}
		if n := attribution(lines[i:]); n > 0 {
			i += n - 1
			continue
		}
		out = append(out, l)
	}
	return out
}

func plainSpace(r rune) rune {
	if unicode.IsSpace(r) {
		return ' '
	}
	return r
}

var (
	// Outlook's line above an unquoted original, in English, German,
	// French, Spanish, Dutch and Italian.
	originalMessage = regexp.MustCompile(`(?i)^-{3,} ?(Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|Oorspronkelijk bericht|Messaggio originale) ?-{3,}$`)
	// Outlook's rule above its "From: … Sent: …" block.
	outlookRule = regexp.MustCompile(`^_{8,}$`)
	// The first two lines of Outlook's header block of the original.
	headerFrom = regexp.MustCompile(`^(From|Von|De|Van|Da) ?:`)
	headerSent = regexp.MustCompile(`^(Sent|Date|Gesendet|Datum|Envoyé|Enviado|Enviado el|Fecha|Verzonden|Inviato|Data) ?:`)

	// An attribution's opening word and closing words, by language: "On …
	// wrote:", "Le … a écrit :", "Am … schrieb …:", "El … escribió:", "Op …
	// schreef …:", "Il giorno … ha scritto:".
	attributionOpen  = regexp.MustCompile(`^(On|Le|Am|El|Op|Il giorno|In data) `)
	attributionClose = regexp.MustCompile(`((wrote|a écrit|escribió|ha scritto|geschreven) ?:|\b(schrieb|schreef)\b.*:)$`)
	// An attribution in any other language ends with the address and a
	// colon, as Gmail writes it: "2025年3月3日(月) 10:00 Ann <ann@example.org>:".
	attributionAddress = regexp.MustCompile(`@[^ @]+>\)?:$`)
)

// outlookHeader says whether lines start with Outlook's header of the
// original: a From line with a Sent or Date line right below it (a To line
// may come between).
func outlookHeader(lines []string) bool {
	if !headerFrom.MatchString(lines[0]) {
		return false
	}
	for _, l := range lines[1:min(len(lines), 3)] {
		if headerSent.MatchString(l) {
			return true
		}
	}
	return false
}

// attribution says how many lines at the start of lines are an attribution
// ("On Mon, 3 Mar 2025, Ann <ann@example.org> wrote:", which clients wrap
// onto up to three lines), or 0. Without a known opening word, one line
// ending in a closing word or an address and a colon counts when a quote
// follows it ("Ann wrote:").
func attribution(lines []string) int {
	if attributionOpen.MatchString(lines[0]) {
		joined := ""
		for n, l := range lines[:min(len(lines), 3)] {
			if l == "" || strings.HasPrefix(l, ">") {
				break
			}
			joined = strings.TrimSpace(joined + " " + l)
			if attributionClose.MatchString(joined) {
				return n + 1
			}
		}
	}
	if attributionClose.MatchString(lines[0]) || attributionAddress.MatchString(lines[0]) {
		for _, l := range lines[1:] {
			if l != "" {
				if strings.HasPrefix(l, ">") {
					return 1
				}
				break
			}
		}
	}
	return 0
}
