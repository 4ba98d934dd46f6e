package api

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/players"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/internal/catalog"
)

// The public profile page, /players/{handle}: who a player is and how he
// plays, readable on a phone and without scripts. It never shows an
// address. A retired handle answers 301 to the current one.

// profilePhrases are one language's words of the page, the catalogue's
// profile.* messages; {{.name}} arguments are filled by sayProfile.
type profilePhrases struct {
	Lang                                         string
	Title, Handle, MemberSince, Country          string
	Languages, About                             string
	Record, Game, Played, Won, Drawn, Lost       string
	Margin, Playing, Finished, FinishedHidden    string
	Tournaments, None, Against, Watch, Language  string
	ResultWon, ResultLost, ResultDrawn, GameLess string
	GameLes                                      string
}

var profileLanguages = catalog.Tables[profilePhrases](catalog.Shipped(), languages, "profile.")

// sayProfile fills a phrase's {{.name}} arguments; the template escapes
// the result.
func sayProfile(phrase string, args map[string]string) string {
	for k, v := range args {
		phrase = strings.ReplaceAll(phrase, "{{."+k+"}}", v)
	}
	return phrase
}

type profilePageGame struct {
	Game, Against, Result, Watch string
}

type profilePageTally struct {
	Game                     string
	Played, Won, Drawn, Lost int
	Margin                   string
}

type profilePage struct {
	P                            *profilePhrases
	BrandName                    string
	Title, Name, Handle, Country string
	MemberSince                  string
	Languages                    string
	Bio                          []string // its lines
	Unlisted, FinishedHidden     bool
	Tallies                      []profilePageTally
	Playing, Finished            []profilePageGame
	Tournaments                  []playerTournamentView
	LanguageLinks                []languageLink
}

// playerPage is the public profile page of a handle.
func (s *Server) playerPage(c echo.Context) error {
	ctx := c.Request().Context()
	lang := pageLocale(c.Request())
	handle := c.Param("handle")
	card, ts, err := s.playerCard(ctx, handle)
	if err != nil {
		return err
	}
	if players.Fold(handle) != players.Fold(card.Profile.Handle) {
		target := playerPath(card.Profile.Handle)
		if q := c.Request().URL.RawQuery; q != "" {
			target += "?" + q
		}
		return c.Redirect(http.StatusMovedPermanently, target)
	}
	p := profileLanguages[lang]
	v := buildProfilePage(card, ts, p)
	v.BrandName = choiceLanguages[lang].Brand
	for _, l := range languages {
		v.LanguageLinks = append(v.LanguageLinks, languageLink{Name: choiceLanguages[l].LangName, Lang: l,
			URL: playerPath(card.Profile.Handle) + "?" + url.Values{"lang": {l}}.Encode(), Current: l == lang})
	}
	h := c.Response().Header()
	h.Set("Content-Security-Policy", CSPPage)
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set("Content-Language", lang)
	h.Add("Vary", "Accept-Language")
	c.Response().WriteHeader(http.StatusOK)
	return profilePageTemplate.Execute(c.Response(), v)
}

// buildProfilePage puts a card in the page's words.
func buildProfilePage(card players.Card, ts []tournaments.TournamentListing, p *profilePhrases) profilePage {
	pv := viewPlayer(card, ts)
	v := profilePage{P: p, Name: pv.Name, Handle: sayProfile(p.Handle, map[string]string{"handle": pv.Handle}),
		MemberSince: sayProfile(p.MemberSince, map[string]string{"date": pv.MemberSince.Format("2006-01-02")}),
		Languages:   strings.Join(pv.Languages, ", "), Unlisted: card.Profile.Unlisted, FinishedHidden: pv.FinishedHidden,
		Tournaments: pv.Tournaments}
	v.Title = sayProfile(p.Title, map[string]string{"name": pv.Name})
	if pv.Country != nil {
		v.Country = *pv.Country
	}
	if pv.Bio != "" {
		v.Bio = strings.Split(pv.Bio, "\n")
	}
	gameName := func(ruleset string) string {
		if ruleset == les.RulesetName {
			return p.GameLes
		}
		return p.GameLess
	}
	for _, t := range pv.Stats {
		v.Tallies = append(v.Tallies, profilePageTally{Game: gameName(t.Game), Played: t.Played, Won: t.Won, Drawn: t.Drawn,
			Lost: t.Lost, Margin: strconv.FormatFloat(t.AverageMargin, 'f', 1, 64)})
	}
	game := func(g playerGameView) profilePageGame {
		out := profilePageGame{Game: gameName(g.Game), Watch: g.Watch,
			Against: sayProfile(p.Against, map[string]string{"names": strings.Join(g.Opponents, ", ")})}
		if g.Result != nil {
			word := map[string]string{"won": p.ResultWon, "lost": p.ResultLost, "drawn": p.ResultDrawn}[*g.Result]
			out.Result = word + " (" + *g.Outcome + ")"
		}
		return out
	}
	for _, g := range pv.Playing {
		v.Playing = append(v.Playing, game(g))
	}
	for _, g := range pv.Finished {
		v.Finished = append(v.Finished, game(g))
	}
	return v
}

var profilePageTemplate = template.Must(template.New("profile").Parse(`<!doctype html>
<html lang="{{.P.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
{{- if .Unlisted}}
<meta name="robots" content="noindex">
{{- end}}
<title>{{.Title}}</title>
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/play.css">
</head>
<body>
<header class="top narrow">
  <p class="brand"><img src="/assets/icon.svg" alt="" width="24" height="24"> <span>{{.BrandName}}</span></p>
  <h1>{{.Name}}</h1>
  <p>{{.Handle}} · {{.MemberSince}}</p>
</header>
<main class="narrow stack">
  <section class="panel stack" aria-labelledby="about">
    <h2 id="about">{{.P.About}}</h2>
    <dl>
      {{- if .Country}}
      <dt>{{.P.Country}}</dt><dd>{{.Country}}</dd>
      {{- end}}
      {{- if .Languages}}
      <dt>{{.P.Languages}}</dt><dd>{{.Languages}}</dd>
      {{- end}}
    </dl>
    {{- if .Bio}}
    <p>{{range $i, $line := .Bio}}{{if $i}}<br>{{end}}{{$line}}{{end}}</p>
    {{- end}}
  </section>
  <section class="panel stack" aria-labelledby="record">
    <h2 id="record">{{.P.Record}}</h2>
    {{- if .Tallies}}
    <table>
      <thead><tr><th scope="col">{{.P.Game}}</th><th scope="col">{{.P.Played}}</th><th scope="col">{{.P.Won}}</th><th scope="col">{{.P.Drawn}}</th><th scope="col">{{.P.Lost}}</th><th scope="col">{{.P.Margin}}</th></tr></thead>
      <tbody>
      {{- range .Tallies}}
      <tr><th scope="row">{{.Game}}</th><td>{{.Played}}</td><td>{{.Won}}</td><td>{{.Drawn}}</td><td>{{.Lost}}</td><td>{{.Margin}}</td></tr>
      {{- end}}
      </tbody>
    </table>
    {{- else}}
    <p>{{.P.None}}</p>
    {{- end}}
  </section>
  <section class="panel stack" aria-labelledby="playing">
    <h2 id="playing">{{.P.Playing}}</h2>
    {{- if .Playing}}
    <ul>
      {{- range .Playing}}
      <li>{{.Game}}, {{.Against}} · <a href="{{.Watch}}">{{$.P.Watch}}</a></li>
      {{- end}}
    </ul>
    {{- else}}
    <p>{{.P.None}}</p>
    {{- end}}
  </section>
  <section class="panel stack" aria-labelledby="finished">
    <h2 id="finished">{{.P.Finished}}</h2>
    {{- if .FinishedHidden}}
    <p>{{.P.FinishedHidden}}</p>
    {{- else if .Finished}}
    <ul>
      {{- range .Finished}}
      <li>{{.Game}}, {{.Against}}: {{.Result}} · <a href="{{.Watch}}">{{$.P.Watch}}</a></li>
      {{- end}}
    </ul>
    {{- else}}
    <p>{{.P.None}}</p>
    {{- end}}
  </section>
  {{- if .Tournaments}}
  <section class="panel stack" aria-labelledby="tournaments">
    <h2 id="tournaments">{{.P.Tournaments}}</h2>
    <ul>
      {{- range .Tournaments}}
      <li><a href="{{.URL}}">{{.Name}}</a></li>
      {{- end}}
    </ul>
  </section>
  {{- end}}
  <nav class="languages" aria-label="{{.P.Language}}">
    {{- range .LanguageLinks}}
    {{if .Current}}<strong lang="{{.Lang}}">{{.Name}}</strong>{{else}}<a href="{{.URL}}" lang="{{.Lang}}" hreflang="{{.Lang}}">{{.Name}}</a>{{end}}
    {{- end}}
  </nav>
</main>
</body>
</html>
`))
