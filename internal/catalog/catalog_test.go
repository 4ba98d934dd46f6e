package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// argument is an argument as the files write it: {{.name}}, go-i18n's.
var argument = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

// otherStyles are the argument styles the files once mixed in and a
// translator must not meet again: a Go fmt verb (%s, %d), filled in order,
// and {name}.
var otherStyles = regexp.MustCompile(`%[-+# 0]*[0-9]*(?:\.[0-9]+)?[a-zA-Z]|\{\w+\}`)

// action is a template action, {{.name}} or the mails' {{if …}}, {{end}}.
var action = regexp.MustCompile(`\{\{.*?\}\}`)

// arguments are the names a message's forms use, all forms together (a
// language may leave the count out of its "one" form).
func arguments(m *i18n.Message) []string {
	set := map[string]bool{}
	for _, s := range pluralForms(m) {
		for _, a := range argument.FindAllStringSubmatch(s, -1) {
			set[a[1]] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// strayArguments are the arguments of a message's forms written in
// another style than {{.name}}.
func strayArguments(m *i18n.Message) []string {
	var out []string
	for _, s := range pluralForms(m) {
		out = append(out, otherStyles.FindAllString(action.ReplaceAllString(s, ""), -1)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// isPlural reports whether a message has forms besides "other".
func isPlural(m *i18n.Message) bool {
	return m.Zero != "" || m.One != "" || m.Two != "" || m.Few != "" || m.Many != ""
}

// counts are the whole numbers a count may take that reach every integer
// form of every CLDR rule (a million is French's, Italian's and Spanish's "many").
var counts = func() []int {
	var out []int
	for n := range 201 {
		out = append(out, n)
	}
	return append(out, 1000, 10000, 100000, 1000000, 2000000)
}()

// missingForms are the plural forms lang's CLDR rules choose for some count
// that message key lacks in lang, by the count that shows it.
func missingForms(c *Catalog, lang, key string) []int {
	var out []int
	loc := i18n.NewLocalizer(c.bundle, lang)
	for _, n := range counts {
		_, err := loc.Localize(&i18n.LocalizeConfig{MessageID: key, PluralCount: n, TemplateData: map[string]any{}})
		var notFound *i18n.MessageNotFoundErr
		if err != nil && !errors.As(err, &notFound) {
			out = append(out, n)
		}
	}
	return out
}

// problems are what keeps lang from being complete against English: keys
// missing or extra, arguments that differ, plural forms its rules need.
func problems(c *Catalog, lang string) []string {
	var out []string
	en, msgs := c.messages[Source], c.messages[lang]
	for _, key := range slices.Sorted(maps.Keys(en)) {
		m, ok := msgs[key]
		if !ok {
			out = append(out, key+": missing")
			continue
		}
		if got, want := arguments(m), arguments(en[key]); !slices.Equal(got, want) {
			out = append(out, key+": arguments "+strings.Join(got, ",")+", English has "+strings.Join(want, ","))
		}
		if stray := strayArguments(m); len(stray) > 0 {
			out = append(out, fmt.Sprintf("%s: arguments %q are not {{.name}}", key, stray))
		}
		if isPlural(en[key]) && !isPlural(m) {
			out = append(out, key+": one string where English has plural forms")
		}
		if isPlural(m) {
			if bad := missingForms(c, lang, key); len(bad) > 0 {
				out = append(out, fmt.Sprintf("%s: no plural form for the counts %v", key, bad[:min(3, len(bad))]))
			}
		}
	}
	for key := range msgs {
		if _, ok := en[key]; !ok {
			out = append(out, key+": not in English")
		}
	}
	return out
}

// Every shipped language has every key of English, with the same
// arguments and the plural forms its CLDR rules need.
func TestShippedLanguagesAreComplete(t *testing.T) {
	c := Shipped()
	// A new file is one more language; these five are shipped.
	if got := c.Languages(); got[0] != Source || !slices.Equal(slices.DeleteFunc(slices.Clone(got), func(l string) bool {
		return !slices.Contains([]string{"en", "de", "es", "fr", "it"}, l)
	}), []string{"en", "de", "es", "fr", "it"}) {
		t.Errorf("languages %v", got)
	}
	if len(c.messages[Source]) < 200 {
		t.Fatalf("English has only %d messages", len(c.messages[Source]))
	}
	for _, lang := range c.Languages() {
		for _, p := range problems(c, lang) {
			t.Errorf("%s.toml: %s", lang, p)
		}
	}
}

// broken is an English and a German file with every fault the completeness
// check must name.
var broken = fstest.MapFS{
	"en.toml": {Data: []byte(`
"a.plain" = "Hello {{.name}}"
"a.count" = { one = "{{.n}} stone", other = "{{.n}} stones" }
"a.gone" = "Only in English"
"a.verbs" = { one = "{{.n}} hole", other = "{{.n}} holes" }
"a.french" = { one = "{{.n}} hole", other = "{{.n}} holes" }
"a.older" = "Hello %s, from {place}"
`)},
	"de.toml": {Data: []byte(`
"a.plain" = "Hallo {{.nom}}"
"a.verbs" = { one = "ein Loch", other = "%d Löcher" }
"a.older" = "Hallo {{.name}}, aus {{.place}}"
"a.count" = "{{.n}} Steine"
"a.extra" = "Nur auf Deutsch"
"a.french" = { one = "{{.n}} Loch", other = "{{.n}} Löcher" }
`)},
	"fr.toml": {Data: []byte(`
"a.plain" = "Bonjour {{.name}}"
"a.count" = { one = "{{.n}} pierre", other = "{{.n}} pierres" }
"a.gone" = "x"
"a.verbs" = { one = "{{.n}} trou", many = "{{.n}} trous", other = "{{.n}} trous" }
"a.older" = "Bonjour %s, de {place}"
"a.french" = { one = "{{.n}} trou", other = "{{.n}} trous" }
`)},
}

// The completeness check names each kind of fault: a key missing, a key
// English lacks, other arguments, a plural message made one string, a
// plural form the rules need (French's "many", for a million).
func TestCompletenessNamesEachFault(t *testing.T) {
	c, err := Load(broken)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(problems(c, "de"), "\n")
	for _, want := range []string{
		"a.gone: missing",
		"a.extra: not in English",
		"a.plain: arguments nom, English has name",
		"a.count: one string where English has plural forms",
		`a.verbs: arguments ["%d"] are not {{.name}}`,
		`a.older: arguments name,place, English has `,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("German: no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "a.french") {
		t.Errorf("German needs only one and other:\n%s", got)
	}
	got = strings.Join(problems(c, "en"), "\n")
	if want := `a.older: arguments ["%s" "{place}"] are not {{.name}}`; !strings.Contains(got, want) {
		t.Errorf("English: no %q in\n%s", want, got)
	}
	got = strings.Join(problems(c, "fr"), "\n")
	for _, want := range []string{
		"a.count: no plural form for the counts [1000000 2000000]",
		"a.french: no plural form for the counts [1000000 2000000]",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("French: no %q in\n%s", want, got)
		}
	}
}

// A sixth language is one file: testdata's pt.toml has a few keys, and
// everything else comes in English.
func TestALanguageOfAFewKeysFallsBackToEnglish(t *testing.T) {
	en, err := fs.ReadFile(locales, "locales/en.toml")
	if err != nil {
		t.Fatal(err)
	}
	pt, err := os.ReadFile("testdata/pt.toml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(fstest.MapFS{"en.toml": {Data: en}, "pt.toml": {Data: pt}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Languages(); !slices.Equal(got, []string{"en", "pt"}) {
		t.Errorf("languages %v", got)
	}
	for _, tc := range []struct{ got, want string }{
		{c.Text("pt", "web.button.undo", nil), "Desfazer"},
		{c.Text("pt", "web.status.yourTurn", map[string]any{"color": "Brancas"}), "É a tua vez: jogas com Brancas"},
		{c.Count("pt", "web.points", 1, nil), "1 ponto"},
		{c.Count("pt", "web.points", 2, nil), "2 pontos"},
		{c.Count("pt", "web.points", 1000000, nil), "1000000 de pontos"},
		// Not in pt.toml: English.
		{c.Text("pt", "web.button.pass", nil), "Pass"},
		{c.Count("pt", "web.score", 2, nil), "2 points"},
		// Not a language of the catalogue: English.
		{c.Text("sv", "web.button.undo", nil), "Undo"},
		// Not a key at all: the key, as the script's t() shows it.
		{c.Text("pt", "web.nothing", nil), "web.nothing"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	script := c.Script("pt", "web.")
	if script["button.undo"] != "Desfazer" || script["button.pass"] != "Pass" {
		t.Errorf("script: undo %q, pass %q", script["button.undo"], script["button.pass"])
	}
	if len(script) != len(c.Script("en", "web.")) {
		t.Errorf("script: %d keys, English has %d", len(script), len(c.Script("en", "web.")))
	}
	if n := len(problems(c, "pt")); n < 200 {
		t.Errorf("pt.toml: only %d problems, the English keys it lacks among them", n)
	}
}

// The script's form of a message: a string, or its plural forms.
func TestScriptForms(t *testing.T) {
	s := Shipped().Script("fr", "web.")
	if s["button.undo"] != "Annuler" {
		t.Errorf("button.undo %#v", s["button.undo"])
	}
	want := map[string]string{"one": "{{.n}} coup", "many": "{{.n}} coups", "other": "{{.n}} coups"}
	if got, _ := s["points"].(map[string]string); !maps.Equal(got, want) {
		t.Errorf("points %#v", s["points"])
	}
}

type samplePhrase struct {
	key  string
	args map[string]any
}

func (p samplePhrase) Phrase() (string, map[string]any) { return p.key, p.args }

// Say fills a phrase's arguments, saying first those that are phrases, and
// takes the form its n chooses.
func TestSay(t *testing.T) {
	c, err := Load(fstest.MapFS{"en.toml": {Data: []byte(`
"s.goal" = "Bring {{.n}} {{.what}} home."
"s.what" = { one = "piece", other = "pieces" }
"s.count" = { one = "{{.n}} hole ({{.what}})", other = "{{.n}} holes ({{.what}})" }
`)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p    samplePhrase
		want string
	}{
		{samplePhrase{"s.goal", map[string]any{"n": 4, "what": samplePhrase{"s.what", map[string]any{"n": 4}}}}, "Bring 4 pieces home."},
		{samplePhrase{"s.count", map[string]any{"n": 1, "what": "x"}}, "1 hole (x)"},
		{samplePhrase{"s.count", map[string]any{"n": 3, "what": samplePhrase{"s.what", map[string]any{"n": 1}}}}, "3 holes (piece)"},
	} {
		if got := c.Say("en", tc.p); got != tc.want {
			t.Errorf("Say(%v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
