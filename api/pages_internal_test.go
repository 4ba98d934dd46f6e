package api

import (
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
