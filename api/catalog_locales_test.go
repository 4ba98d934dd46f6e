package api

import (
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost"
	"github.com/lesspost/lesspost/api/internal/contract"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/catalog"
)

// The languages the server speaks are the catalogue's: the pages' and the
// contract's, in the order openapi.yaml documents the shipped ones.
func TestLanguagesAreTheCatalogues(t *testing.T) {
	want := []string{"en", "de", "fr", "it", "es"}
	if !slices.Equal(languages, want) {
		t.Errorf("languages %v, want %v", languages, want)
	}
	if got, cat := slices.Sorted(slices.Values(languages)), slices.Sorted(slices.Values(catalog.Shipped().Languages())); !slices.Equal(got, cat) {
		t.Errorf("languages %v, the catalogue's %v", got, cat)
	}
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	var enum []string
	for _, v := range c.Doc.Components.Schemas["Locale"].Value.Enum {
		enum = append(enum, v.(string))
	}
	if !slices.Equal(enum, want) {
		t.Errorf("the contract's Locale %v, want %v", enum, want)
	}
}

// A sixth language is one file: with testdata's pt.toml beside English,
// the contract takes pt as a locale and refuses one the catalogue lacks,
// the domain keeps it, the switchers list it after the shipped languages,
// and its words fall back to English where it has none.
func TestASixthLanguageIsOneFile(t *testing.T) {
	en, err := os.ReadFile("../internal/catalog/locales/en.toml")
	if err != nil {
		t.Fatal(err)
	}
	pt, err := os.ReadFile("../internal/catalog/testdata/pt.toml")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load(fstest.MapFS{"en.toml": {Data: en}, "pt.toml": {Data: pt}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := contract.Parse(lesspost.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	c.Speak(cat.Languages())
	e := echo.New()
	e.HTTPErrorHandler = func(err error, ec echo.Context) { _ = ec.NoContent(http.StatusBadRequest) }
	e.Use(validateRequests(c))
	e.PATCH("/v1/me", func(ec echo.Context) error { return ec.NoContent(http.StatusNoContent) })
	for locale, want := range map[string]int{"pt": http.StatusNoContent, "en": http.StatusNoContent, "de": http.StatusBadRequest} {
		req := httptest.NewRequest(http.MethodPatch, "/v1/me", strings.NewReader(`{"locale":"`+locale+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer x")
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("locale %s: %d, want %d", locale, rec.Code, want)
		}
	}
	if l, err := domain.CheckLocale("pt"); err != nil || l != "pt" {
		t.Errorf("domain: pt is %q, %v", l, err)
	}
	if got := inSwitcherOrder(append(slices.Clone(cat.Languages()), "de", "es")); !slices.Equal(got, []string{"en", "de", "es", "pt"}) {
		t.Errorf("switcher order %v", got)
	}
	tables := catalog.Tables[pagePhrases](cat, cat.Languages(), "page.")
	if tables["pt"].Standings != "Standings" || tables["pt"].Lang != "pt" {
		t.Errorf("pt page words: %q (%s)", tables["pt"].Standings, tables["pt"].Lang)
	}
	if got := cat.Text("pt", "web.button.undo", nil); got != "Desfazer" {
		t.Errorf("pt undo %q", got)
	}
}
