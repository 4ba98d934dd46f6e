package docs

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

var locales = []string{"en", "de", "fr", "it", "es"}

// Every game's rules exist in every language and render: a title, and a
// body with the sections and the error code table.
func TestRulesEveryLanguage(t *testing.T) {
	for game := range Games {
		for _, l := range locales {
			p, ok := Rules(game, l)
			if !ok {
				t.Errorf("%s: no rules in %s (%s)", game, l, FileName(game, l))
				continue
			}
			body := string(p.Body)
			if p.Title == "" || strings.Contains(p.Title, "#") {
				t.Errorf("%s %s: title %q", game, l, p.Title)
			}
			for _, want := range []string{"<h2>", "<h3>", "<table>", "<code>"} {
				if !strings.Contains(body, want) {
					t.Errorf("%s %s: the body has no %s", game, l, want)
				}
			}
			// The anchors are raw HTML passed through, not dropped.
			if strings.Contains(body, "raw HTML omitted") {
				t.Errorf("%s %s: raw HTML was dropped", game, l)
			}
		}
	}
	if _, ok := Rules("chess", "en"); ok {
		t.Error("rules of chess")
	}
}

var anchor = regexp.MustCompile(`<a id="([a-z0-9]+)"></a>`)
var link = regexp.MustCompile(`\]\(#([a-z0-9]+)\)`)
var codeSpan = regexp.MustCompile("`[^`]+`")

// fenced is a code block: its lines are not code spans.
var fenced = regexp.MustCompile("(?s)```.*?```")

// A translation is the English page in other words: the same rules with
// the same anchors (a refused turn's rule_ref links to /rules?lang=de#m5),
// the same links between them, and the same notation and codes.
func TestTranslationsKeepTheRules(t *testing.T) {
	for game := range Games {
		en := source(t, game, "en")
		for _, l := range locales[1:] {
			tr := source(t, game, l)
			for _, c := range []struct {
				what string
				re   *regexp.Regexp
				sub  int
			}{{"anchors", anchor, 1}, {"links", link, 1}, {"code", codeSpan, 0}} {
				want, got := matches(c.re, en, c.sub), matches(c.re, tr, c.sub)
				if !slices.Equal(want, got) {
					t.Errorf("%s %s: %s differ from English:\n got %v\nwant %v", game, l, c.what, got, want)
				}
			}
			if strings.Count(en, "\n#") != strings.Count(tr, "\n#") {
				t.Errorf("%s %s: %d headings, English has %d", game, l, strings.Count(tr, "\n#"), strings.Count(en, "\n#"))
			}
			if strings.Count(en, "\n| `") != strings.Count(tr, "\n| `") {
				t.Errorf("%s %s: the error code table has other rows", game, l)
			}
		}
	}
}

// French puts a no-break space before the high punctuation.
func TestFrenchTypography(t *testing.T) {
	for game := range Games {
		src := codeSpan.ReplaceAllString(source(t, game, "fr"), "")
		for _, bad := range []string{" :", " ;", " ?", " !", "« ", " »"} {
			if strings.Contains(src, bad) {
				t.Errorf("%s: French text has %q with a breaking space", game, bad)
			}
		}
	}
}

func source(t *testing.T, game, locale string) string {
	t.Helper()
	b, err := files.ReadFile(FileName(game, locale))
	if err != nil {
		t.Fatal(err)
	}
	return fenced.ReplaceAllString(string(b), "")
}

func matches(re *regexp.Regexp, s string, sub int) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out = append(out, strings.Join(strings.Fields(m[sub]), " ")) // a code span may wrap a line
	}
	if sub == 0 {
		slices.Sort(out) // code may move within a sentence in another language
		out = slices.Compact(out)
	}
	return out
}
