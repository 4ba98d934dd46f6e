package api

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lesspost/lesspost/internal/catalog"
)

// A file of a kind without a known Content-Type is refused when the site is
// loaded, not served as something a browser would have to guess.
func TestLoadSite(t *testing.T) {
	site, err := loadSite(fstest.MapFS{
		"play.html": {Data: []byte("<!doctype html>")},
		"play.js":   {Data: []byte("export {}")},
	}, catalog.Shipped())
	if err != nil {
		t.Fatal(err)
	}
	if site.pages["play.html"].etag == "" || site.assets["play.js"].contentType != "text/javascript; charset=utf-8" {
		t.Errorf("site %+v", site)
	}
	if _, err := loadSite(fstest.MapFS{"notes.txt": {Data: []byte("x")}}, catalog.Shipped()); err == nil {
		t.Error("a .txt file was accepted")
	}
	if _, err := embeddedSite(); err != nil {
		t.Errorf("the embedded pages: %v", err)
	}
}

// The script's words come from the catalogue: a language that is one more
// locale file is in the served i18n.js, and the ETag follows the words.
func TestScriptWordsFromTheCatalogue(t *testing.T) {
	five := catalog.Shipped()
	six, err := catalog.Load(fstest.MapFS{
		"en.toml": {Data: []byte(`"web.button.undo" = "Undo"` + "\n" + `"web.points" = { one = "{{.n}} point", other = "{{.n}} points" }` + "\n" + `"mail.x" = "not the script's"`)},
		"pt.toml": {Data: []byte(`"web.button.undo" = "Desfazer"`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	script := fstest.MapFS{"i18n.js": {Data: []byte("export const catalogs = /* catalogue */ {};\n")}}
	site, err := loadSite(script, six)
	if err != nil {
		t.Fatal(err)
	}
	got := string(site.assets["i18n.js"].body)
	want := "export const catalogs = {\n" +
		`  "en": {"button.undo":"Undo","points":{"one":"{{.n}} point","other":"{{.n}} points"}},` + "\n" +
		`  "pt": {"button.undo":"Desfazer","points":{"one":"{{.n}} point","other":"{{.n}} points"}}` + "\n};\n"
	if got != want {
		t.Errorf("i18n.js\n%s\nwant\n%s", got, want)
	}
	other, err := loadSite(script, five)
	if err != nil {
		t.Fatal(err)
	}
	if other.assets["i18n.js"].etag == site.assets["i18n.js"].etag {
		t.Error("the ETag did not change with the words")
	}
	if _, err := loadSite(fstest.MapFS{"i18n.js": {Data: []byte("export const catalogs = {};")}}, five); err == nil {
		t.Error("an i18n.js without the marker was accepted")
	}
}

// The static pages' words are the catalogue's: the server writes each
// marked element's English text and label in, escaped, and refuses a page
// that holds words of its own or names a message the catalogue lacks.
func TestPageWordsFromTheCatalogue(t *testing.T) {
	cat, err := catalog.Load(fstest.MapFS{"en.toml": {Data: []byte(`
"web.brand" = "Less by email"
"web.next" = "One <turn> on & \"more\""
"web.points" = { one = "{{.n}} point", other = "{{.n}} points" }
`)}})
	if err != nil {
		t.Fatal(err)
	}
	page := `<p><span data-i18n="brand"></span><button data-i18n-aria="next" aria-label="" id="n">▶</button>` +
		`<b hidden data-i18n="next"></b></p>`
	site, err := loadSite(fstest.MapFS{"play.html": {Data: []byte(page)}}, cat)
	if err != nil {
		t.Fatal(err)
	}
	want := `<p><span data-i18n="brand">Less by email</span><button data-i18n-aria="next" aria-label="One &lt;turn&gt; on &amp; &#34;more&#34;" id="n">▶</button>` +
		`<b hidden data-i18n="next">One &lt;turn&gt; on &amp; "more"</b></p>`
	if got := string(site.pages["play.html"].body); got != want {
		t.Errorf("play.html\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{
		`<span data-i18n="brand">Less by email</span>`,      // words of its own
		`<span data-i18n="gone"></span>`,                    // no such message
		`<span data-i18n="points"></span>`,                  // arguments a page cannot fill
		`<button data-i18n-aria="brand">▶</button>`,         // no label to fill
		`<button data-i18n-aria="brand" aria-label="Next">`, // a label of its own
	} {
		if _, err := loadSite(fstest.MapFS{"play.html": {Data: []byte(bad)}}, cat); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
	// The shipped pages show, before their script runs, what the script
	// would show in English.
	shipped, err := embeddedSite()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"play.html", "login.html"} {
		body := string(shipped.pages[name].body)
		for _, key := range []string{"brand", "link.rules", "login.title"} {
			text := catalog.Shipped().Text(catalog.Source, scriptWordPrefix+key, nil)
			if strings.Contains(body, `data-i18n="`+key+`"`) && !strings.Contains(body, `data-i18n="`+key+`">`+text+`<`) {
				t.Errorf("%s: %s does not show %q", name, key, text)
			}
		}
	}
}

// A page message's named arguments are filled wherever the language puts
// them; one the code does not give stays visible rather than vanishing.
func TestFillNamedArguments(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{fill("{{.player}} wins by {{.margin}}", "player", "Ann", "margin", 3), "Ann wins by 3"},
		{fill("mit {{.margin}} gewinnt {{ .player }}", "player", "Ann", "margin", -2), "mit -2 gewinnt Ann"},
		{fill("Round {{.n}} of {{.of}}", "n", 2), "Round 2 of {{.of}}"},
		{countForms{One: "{{.n}} round", Other: "{{.n}} rounds"}.format("en", 1), "1 round"},
		{countForms{One: "{{.n}} joueur", Other: "{{.n}} joueurs"}.format("fr", 0), "0 joueur"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
