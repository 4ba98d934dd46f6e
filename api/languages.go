package api

import (
	"slices"
	"strings"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/catalog"
)

// languages are the languages lesspost speaks: the message catalogue's,
// one locale file each, so that a sixth language is one more file. They
// are in the order the pages' language switchers list them (see
// switcherOrder).
var languages = inSwitcherOrder(catalog.Shipped().Languages())

// switcherOrder is the order the switchers have always listed the shipped
// languages in: English, then those of the publisher's rule sheet. A
// language not named here comes after them, by tag; it needs no line here.
var switcherOrder = []string{"en", "de", "fr", "it", "es"}

// inSwitcherOrder sorts langs as the switchers list them.
func inSwitcherOrder(langs []string) []string {
	rank := func(l string) int {
		if i := slices.Index(switcherOrder, l); i >= 0 {
			return i
		}
		return len(switcherOrder)
	}
	out := slices.Clone(langs)
	slices.SortStableFunc(out, func(a, b string) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out
}

// checkLocale is domain.CheckLocale for a language lesspost speaks. The
// contract's Locale enum (the catalogue's languages too) refuses the others
// first; this keeps the handlers that take a locale from trusting it.
func checkLocale(s string) (string, error) {
	l, err := domain.CheckLocale(s)
	if err != nil {
		return "", err
	}
	if !slices.Contains(languages, l) {
		return "", domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "locale %q: lesspost speaks %s",
			domain.Clip(s), strings.Join(languages, ", "))
	}
	return l, nil
}
