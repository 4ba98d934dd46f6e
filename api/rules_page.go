package api

import (
	"html/template"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/docs"
	"github.com/lesspost/lesspost/domain"
)

// The rules pages: docs/rules.md (Less) and docs/les-rules.md (Les) and
// their translations, rendered as HTML in the play page's style, with no
// script. The play page and the invitation link to them in the reader's
// language; every rule has its anchor (/rules#m5), as the rule_ref of a
// refused turn names it.

// rulesPage is the template's data.
type rulesPage struct {
	P         *choicePhrases // the language names
	Brand     string         // the game's, Less's or Les's
	Page      docs.Page
	Languages []languageLink
	// Other links the other game's rules, in the same language.
	Other      string
	OtherTitle string
}

// rulesPath is the path of a game's rules page (a ruleset name) in a
// language: what the play page and the emails link to.
func rulesPath(game, locale string) string {
	path := "/rules"
	if game == "les" {
		path = "/rules/les"
	}
	return path + "?lang=" + locale
}

func (s *Server) lessRulesPage(c echo.Context) error { return s.rulesPage(c, "less") }

func (s *Server) lesRulesPage(c echo.Context) error { return s.rulesPage(c, "les") }

func (s *Server) rulesPage(c echo.Context, game string) error {
	lang := pageLocale(c.Request())
	page, ok := docs.Rules(game, lang)
	if !ok {
		// Every language is there (a test checks); English is the original.
		lang = domain.DefaultLocale
		page, _ = docs.Rules(game, lang)
	}
	other := "les"
	if game == "les" {
		other = "less"
	}
	otherPage, _ := docs.Rules(other, lang)
	v := rulesPage{P: choiceLanguages[lang], Brand: choiceLanguages[lang].Brand, Page: page, Other: rulesPath(other, lang), OtherTitle: otherPage.Title}
	if game == "les" {
		v.Brand = choiceLanguages[lang].BrandLes
	}
	for _, l := range languages {
		v.Languages = append(v.Languages, languageLink{Name: choiceLanguages[l].LangName, Lang: l,
			URL: rulesPath(game, l), Current: l == lang})
	}
	h := c.Response().Header()
	h.Set("Content-Security-Policy", CSPPage)
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set("Content-Language", lang)
	h.Add("Vary", "Accept-Language")
	c.Response().WriteHeader(http.StatusOK)
	return rulesPageTemplate.Execute(c.Response(), v)
}

var rulesPageTemplate = template.Must(template.New("rules").Parse(`<!doctype html>
<html lang="{{.P.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.Page.Title}}</title>
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/play.css">
<link rel="stylesheet" href="/assets/rules.css">
</head>
<body>
<header class="top narrow rules-top">
  <p class="brand"><img src="/assets/icon.svg" alt="" width="24" height="24"> <span>{{.Brand}}</span></p>
  <h1>{{.Page.Title}}</h1>
</header>
<main class="narrow rules-main">
  <article class="panel rules">
{{.Page.Body}}
  </article>
  <nav class="languages" aria-label="{{.P.Language}}">
    {{- range .Languages}}
    {{if .Current}}<strong lang="{{.Lang}}">{{.Name}}</strong>{{else}}<a href="{{.URL}}" lang="{{.Lang}}" hreflang="{{.Lang}}">{{.Name}}</a>{{end}}
    {{- end}}
  </nav>
  <p><a href="{{.Other}}">{{.OtherTitle}}</a></p>
</main>
</body>
</html>
`))
