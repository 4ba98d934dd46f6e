package api

import (
	"html/template"
	"net/url"
	"strings"

	"github.com/lesspost/lesspost/internal/catalog"
)

// The pages an email's footer links open: unsubscribe (reminders and
// spectator notices off, and back on) and never email me again. They look
// like the play page (its stylesheet), speak the reader's language (his
// browser's, or the one he picks on the page) and work without scripts:
// each asks for confirmation with a button, so link scanners change
// nothing.

// choicePhrases are one language's words of those pages.
type choicePhrases struct {
	Lang, LangName, Brand string
	BrandLes              string // the brand on Les's pages (its rules)

	UnsubTitle, UnsubAsk, UnsubAskBody, UnsubButton  string
	UnsubDone, UnsubDoneBody, ResubHint, ResubButton string
	ResubDone, ResubDoneBody                         string

	NeverTitle, NeverAsk, NeverAskBody, NeverButton string
	NeverDone, NeverDoneBody                        string
	Language                                        string
}

// choiceLanguages are those pages' words in each language, the
// catalogue's choice.* messages.
var choiceLanguages = catalog.Tables[choicePhrases](catalog.Shipped(), languages, "choice.")

// choicePage is what the page template shows.
type choicePage struct {
	P       *choicePhrases
	Title   string
	Heading string
	Body    string
	// Action and Button: the form that does what the page asks, "" for none.
	Action, Button string
	// Hint, SecondAction, SecondButton: the form that undoes it.
	Hint, SecondAction, SecondButton string
	Languages                        []languageLink
}

// choiceURL is one of these pages' addresses for a token in a language.
func choiceURL(path, token, lang string) string {
	return path + "?" + url.Values{"t": {token}, "lang": {lang}}.Encode()
}

// sayEmail puts the address into a phrase; the page escapes the result.
func sayEmail(phrase, email string) string {
	return strings.ReplaceAll(phrase, "{{.Email}}", email)
}

var choicePageTemplate = template.Must(template.New("choice").Parse(`<!doctype html>
<html lang="{{.P.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>{{.Title}}</title>
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/play.css">
</head>
<body>
<header class="top narrow">
  <p class="brand"><img src="/assets/icon.svg" alt="" width="24" height="24"> <span>{{.P.Brand}}</span></p>
  <h1>{{.Heading}}</h1>
</header>
<main class="narrow stack">
  <section class="panel stack">
    <p>{{.Body}}</p>
    {{- if .Action}}
    <form method="post" action="{{.Action}}"><button type="submit" class="primary">{{.Button}}</button></form>
    {{- end}}
    {{- if .SecondAction}}
    {{- if .Hint}}
    <p class="help">{{.Hint}}</p>
    {{- end}}
    <form method="post" action="{{.SecondAction}}"><button type="submit">{{.SecondButton}}</button></form>
    {{- end}}
  </section>
  {{- if .Languages}}
  <nav class="languages" aria-label="{{.P.Language}}">
    {{- range .Languages}}
    {{if .Current}}<strong lang="{{.Lang}}">{{.Name}}</strong>{{else}}<a href="{{.URL}}" lang="{{.Lang}}" hreflang="{{.Lang}}">{{.Name}}</a>{{end}}
    {{- end}}
  </nav>
  {{- end}}
</main>
</body>
</html>
`))
