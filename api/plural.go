package api

import (
	"fmt"
	"regexp"
	"strconv"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// countForms is a page phrase with a count ({{.n}}) in the forms a
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
	return fill(f, "n", n)
}

// argument is a message's argument as the catalogue writes it, {{.name}}.
var argument = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

// fill writes a page message's arguments in, given as name, value pairs;
// an argument not given stays as it is.
func fill(message string, pairs ...any) string {
	args := make(map[string]string, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		name, _ := pairs[i].(string)
		switch v := pairs[i+1].(type) {
		case int:
			args[name] = strconv.Itoa(v)
		default:
			args[name] = fmt.Sprint(v)
		}
	}
	return argument.ReplaceAllStringFunc(message, func(a string) string {
		if v, ok := args[argument.FindStringSubmatch(a)[1]]; ok {
			return v
		}
		return a
	})
}
