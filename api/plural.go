package api

import (
	"fmt"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// countForms is a page phrase with a count (one %d) in the forms a
// language's plural rules choose between. The rules are CLDR's, from
// x/text, not a "n == 1" of our own: French takes the singular for 0 too
// ("0 joueur"), and a language with more forms falls back to Other.
type countForms struct {
	One, Other string
}

// format says n in the form lang's rules choose.
func (c countForms) format(lang string, n int) string {
	f := c.Other
	if c.One != "" && plural.Cardinal.MatchPlural(language.Make(lang), n, 0, 0, 0, 0) == plural.One {
		f = c.One
	}
	return fmt.Sprintf(f, n)
}
