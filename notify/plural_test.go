package notify

import (
	"regexp"
	"testing"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"github.com/lesspost/lesspost/internal/catalog"
)

// pluralCall is a call of the phrases' plural function: its language and
// its forms, each a Go raw string.
var pluralCall = regexp.MustCompile("\\{\\{plural `([^`]*)` \\S+((?: `[^`]*`)+)\\}\\}")

var rawString = regexp.MustCompile("`([^`]*)`")

// Every plural in the mails' words names the language of its own file (a
// translator who copies English's `en` would get English's rules) and gives
// a form for every category that language's counts take.
func TestPluralForms(t *testing.T) {
	c := catalog.Shipped()
	calls := 0
	for _, lang := range c.Languages() {
		needs := map[string]bool{}
		for n := range 2_000_001 {
			if n > 1000 && n%1000 != 0 {
				continue
			}
			needs[pluralCategories[plural.Cardinal.MatchPlural(language.Make(lang), n, 0, 0, 0, 0)]] = true
		}
		for _, key := range c.Keys("mail.") {
			for _, text := range c.Forms(lang, key) {
				for _, m := range pluralCall.FindAllStringSubmatch(text, -1) {
					calls++
					if m[1] != lang {
						t.Errorf("%s %s: plural in the rules of %q: %s", lang, key, m[1], m[0])
					}
					var forms []string
					for _, f := range rawString.FindAllStringSubmatch(m[2], -1) {
						forms = append(forms, f[1])
					}
					table, err := pluralTable(forms)
					if err != nil {
						t.Errorf("%s %s: %v", lang, key, err)
						continue
					}
					for category := range needs {
						if _, ok := table[category]; !ok {
							t.Errorf("%s %s: no %s form in %s", lang, key, category, m[0])
						}
					}
				}
			}
		}
	}
	if calls == 0 {
		t.Fatal("no plural found in the mails' words: the pattern is wrong")
	}
}

// A language of more forms than two names each; two bare forms are one and
// other.
func TestPluralForm(t *testing.T) {
	polish := []string{"one:ruch", "few:ruchy", "many:ruchów", "other:ruchu"}
	for _, tt := range []struct {
		lang  string
		n     int
		forms []string
		want  string
	}{
		{"en", 1, []string{"move", "moves"}, "move"},
		{"en", 0, []string{"move", "moves"}, "moves"},
		{"fr", 0, []string{"coup", "coups"}, "coup"},
		{"pl", 1, polish, "ruch"},
		{"pl", 3, polish, "ruchy"},
		{"pl", 5, polish, "ruchów"},
		{"pl", 22, polish, "ruchy"},
	} {
		if got, err := pluralForm(tt.lang, tt.n, tt.forms...); err != nil || got != tt.want {
			t.Errorf("plural %s %d %q = %q, %v; want %q", tt.lang, tt.n, tt.forms, got, err, tt.want)
		}
	}
	for _, bad := range [][]string{{"one:ruch", "few:ruchy"}, {"ruch", "few:ruchy"}, {"uno:x", "other:y"}} {
		if _, err := pluralForm("pl", 1, bad...); err == nil {
			t.Errorf("plural %q: no error", bad)
		}
	}
}
