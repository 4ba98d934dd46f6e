package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A heading of each rules page in each language: the page is the
// translation, not the English with a lang attribute.
var rulesHeadings = map[string]map[string]string{
	"/rules": {
		"en": "The rules of Less, as lesspost plays them", "de": "Die Regeln von Less, wie lesspost sie spielt",
		"fr": "Les règles de Less, telles que lesspost les joue", "it": "Le regole di Less, come le gioca lesspost",
		"es": "Las reglas de Less, tal como las juega lesspost",
	},
	"/rules/les": {
		"en": "The rules of Les, as lesspost plays them", "de": "Die Regeln von Les, wie lesspost sie spielt",
		"fr": "Les règles de Les, telles que lesspost les joue", "it": "Le regole di Les, come le gioca lesspost",
		"es": "Las reglas de Les, tal como las juega lesspost",
	},
}

// rulesSections are a section of each page in each language, with its anchor.
var rulesSections = map[string]map[string]string{
	"/rules": {"en": `<a id="m5"></a>M5 Affordable`, "de": `<a id="m5"></a>M5 Bezahlbar`,
		"fr": `<a id="m5"></a>M5 Abordable`, "it": `<a id="m5"></a>M5 Alla portata`, "es": `<a id="m5"></a>M5 Al alcance`},
	"/rules/les": {"en": `<a id="le2"></a>LE2 Holes`, "de": `<a id="le2"></a>LE2 Löcher`,
		"fr": `<a id="le2"></a>LE2 Trous`, "it": `<a id="le2"></a>LE2 Buchi`, "es": `<a id="le2"></a>LE2 Agujeros`},
}

// The rules pages speak the language asked for (?lang=, else the browser's,
// else English), say so, carry every rule's anchor, and run no script.
func TestRulesPages(t *testing.T) {
	h := newHarness(t)
	cases := []struct {
		query, accept, want string
	}{
		{"", "", "en"},
		{"", "de-CH,de;q=0.9", "de"},
		{"", "fr-BE", "fr"},
		{"", "it-IT,en;q=0.5", "it"},
		{"", "es-419", "es"},
		{"", "nl", "en"},
		{"?lang=es", "de", "es"},
		{"?lang=de", "", "de"},
		{"?lang=fr", "", "fr"},
		{"?lang=it", "", "it"},
	}
	for path := range rulesHeadings {
		for _, c := range cases {
			t.Run(path+c.query+"|"+c.accept, func(t *testing.T) {
				var headers []string
				if c.accept != "" {
					headers = []string{"Accept-Language", c.accept}
				}
				res := h.do("GET", path+c.query, "", nil, headers...).want(t, http.StatusOK)
				body := string(res.body)
				if got := res.header.Get("Content-Language"); got != c.want {
					t.Errorf("Content-Language %q, want %q", got, c.want)
				}
				if !strings.Contains(res.header.Get("Vary"), "Accept-Language") {
					t.Errorf("Vary %q", res.header.Get("Vary"))
				}
				if csp := res.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
					t.Errorf("CSP %q", csp)
				}
				if !strings.Contains(body, `<html lang="`+c.want+`">`) {
					t.Errorf("not in %s:\n%.300s", c.want, body)
				}
				if h1 := "<h1>" + htmlEscape(rulesHeadings[path][c.want]) + "</h1>"; !strings.Contains(body, h1) {
					t.Errorf("no %s", h1)
				}
				if !strings.Contains(body, rulesSections[path][c.want]) {
					t.Errorf("no section %s", rulesSections[path][c.want])
				}
				if strings.Contains(body, "<script") || strings.Contains(body, "raw HTML omitted") {
					t.Error("a script, or dropped anchors")
				}
				// The other languages and the other game are a link away.
				for l := range rulesHeadings[path] {
					if l != c.want && !strings.Contains(body, `href="`+path+`?lang=`+l+`"`) {
						t.Errorf("no link to %s", l)
					}
				}
			})
		}
	}
	h.do("GET", "/rules?lang=nl", "", nil).want(t, http.StatusBadRequest)
}

// Every rule_ref a refused turn can name is an anchor of the rules page.
func TestRulesPageHasEveryRuleRef(t *testing.T) {
	h := newHarness(t)
	for path, refs := range map[string][]string{
		"/rules":     {"b1", "b4", "s1", "s2", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "t1", "t2", "e3", "e8", "n1", "n2", "n3"},
		"/rules/les": {"lb1", "ls2", "lt1", "lt2", "lt3", "lt4", "le1", "ln0", "ln4"},
	} {
		for _, l := range []string{"en", "de", "fr", "it", "es"} {
			body := string(h.do("GET", path+"?lang="+l, "", nil).want(t, http.StatusOK).body)
			for _, ref := range refs {
				if !regexp.MustCompile(`<a id="` + ref + `"></a>`).MatchString(body) {
					t.Errorf("%s?lang=%s: no anchor #%s", path, l, ref)
				}
			}
		}
	}
}

// On a small phone (360 px) no rules page scrolls sideways, in any
// language: the error code tables and the code blocks scroll inside
// their boxes. A rule linked to by its anchor is shown.
func TestRulesPagesFitSmallPhone(t *testing.T) {
	h := newHarness(t)
	p := phone(t, 360, 740)
	for path := range rulesHeadings {
		for _, l := range []string{"en", "de", "fr", "it", "es"} {
			p.open(h.url + path + "?lang=" + l)
			if got := p.text("h1"); got != rulesHeadings[path][l] {
				t.Errorf("%s %s: heading %q", path, l, got)
			}
			fitsWidth(t, p, path+" "+l, 360)
			if l == "de" {
				saveScreenshot(t, p, "rules-360-de"+strings.ReplaceAll(path, "/", "-")+".png")
			}
		}
	}
	p.do("open a rule by its anchor", chromedp.Navigate(h.url+"/rules?lang=fr#m5"))
	p.waitFor("the rule", `document.querySelector('h3:has(:target)')`)
	if !inView(p, "h3:has(#m5)") {
		t.Errorf("the rule linked to is not on the screen: %s", eval[string](p, `JSON.stringify([scrollY, innerHeight, document.querySelector('h3:has(#m5)').getBoundingClientRect()])`))
	}
	saveScreenshot(t, p, "rules-360-fr-m5.png")
}
