package api

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/internal/catalog"
	"github.com/lesspost/lesspost/internal/typography"
)

// The pages' words are the catalogue's web.* messages (the scripted pages,
// web/i18n.js) and those the server-rendered pages' tables read. These
// tests hold both to the house style of the mails (the mail.* messages):
// German says du, Spanish tú, French puts a no-break space before : ; ? !
// and inside « ».

// jsCatalog is the strings of one language of the play page's script, as
// the server gives them to it (the catalogue's web.* keys), by key (a
// plural string's forms as key.one, key.other, …).
func jsCatalog(t *testing.T, lang string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for key, m := range catalog.Shipped().Script(lang, scriptWordPrefix) {
		switch m := m.(type) {
		case string:
			out[key] = m
		case map[string]string:
			for form, s := range m {
				out[key+"."+form] = s
			}
		default:
			t.Fatalf("%s %s: a %T", lang, key, m)
		}
	}
	if len(out) < 100 {
		t.Fatalf("%s: only %d strings of the script", lang, len(out))
	}
	return out
}

// goPageStrings is every string of one language of the server-rendered
// pages' tables (tournament page, sign-up, log, the mail footer's pages),
// by the field or key that holds it.
func goPageStrings(lang string) map[string]string {
	out := map[string]string{}
	var walk func(name string, v reflect.Value)
	walk = func(name string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			walk(name, v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				walk(name+"."+v.Type().Field(i).Name, v.Field(i))
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(name+"["+reflect.ValueOf(k.Interface()).String()+"]", v.MapIndex(k))
			}
		case reflect.String:
			out[name] = v.String()
		}
	}
	walk("pagePhrases", reflect.ValueOf(pageLanguages[lang]))
	walk("signupPhrases", reflect.ValueOf(signupLanguages[lang]))
	walk("logWords", reflect.ValueOf(logLanguages[lang]))
	walk("choicePhrases", reflect.ValueOf(choiceLanguages[lang]))
	return out
}

// pageStrings is both kinds of table of a language.
func pageStrings(t *testing.T, lang string) map[string]string {
	out := goPageStrings(lang)
	for k, s := range jsCatalog(t, lang) {
		out["i18n.js "+k] = s
	}
	return out
}

// The pages address the reader as the mails do: du in German, tú in
// Spanish, tu in Italian (French says vous, as its mails do).
func TestPagesAddressTheReaderAsTheMailsDo(t *testing.T) {
	cases := []struct {
		lang   string
		formal *regexp.Regexp
	}{
		// Sie/Ihnen/Ihr… capitalised mid-sentence are the polite forms;
		// "Ihr" at the start of a string could be du's plural, which the
		// pages never need, so it is refused too.
		{"de", regexp.MustCompile(`\b(Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b`)},
		// Spanish: usted, its possessive before the pages' nouns, and its
		// imperatives opening a sentence ("Toque…", "…: envíe").
		{"es", regexp.MustCompile(`(?i)\b(usted|ustedes)\b|\b(su|sus) (turno|correo|conexión|nombre|rival|piedra|piedras|equipo|compañero|color|elección|último|primera|segunda|movimientos|piezas|dirección)\b|(^|[:.¿] )(toque|pulse|envíe|envíelo|elija|ponga|escriba|inténtelo|compruebe|abra|inicie|mire|use|pida|deshaga|confirme|siga|pase)\b`)},
		{"it", regexp.MustCompile(`\b(Lei|Suo|Sua|Suoi|Sue)\b`)},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			for k, s := range pageStrings(t, c.lang) {
				if m := c.formal.FindString(s); m != "" {
					t.Errorf("%s %q: %q is the formal address", k, s, m)
				}
			}
		})
	}
}

// Every French string of the pages has its no-break spaces.
func TestPagesFrenchTypography(t *testing.T) {
	for k, s := range pageStrings(t, "fr") {
		if f := typography.FrenchFaults(s); len(f) > 0 {
			t.Errorf("%s %q: no-break space missing %s", k, s, strings.Join(f, ", "))
		}
	}
}

// The pages' counts take the form each language's plural rules choose.
func TestPageCountForms(t *testing.T) {
	cases := []struct {
		lang string
		n    int
		want string // players, places left, Swiss rounds
	}{
		{"en", 1, "1 player|1 place left.|1 round"},
		{"en", 2, "2 players|2 places left.|2 rounds"},
		{"en", 0, "0 players|0 places left.|0 rounds"},
		{"de", 1, "1 Spieler|Noch 1 Platz frei.|1 Runde"},
		{"de", 5, "5 Spieler|Noch 5 Plätze frei.|5 Runden"},
		{"fr", 1, "1 joueur|1 place libre.|1 ronde"},
		{"fr", 0, "0 joueur|0 place libre.|0 ronde"}, // French counts 0 as singular
		{"fr", 3, "3 joueurs|3 places libres.|3 rondes"},
		{"it", 1, "1 giocatore|1 posto libero.|1 turno"},
		{"it", 0, "0 giocatori|0 posti liberi.|0 turni"},
		{"es", 1, "1 jugador|Queda 1 plaza.|1 ronda"},
		{"es", 12, "12 jugadores|Quedan 12 plazas.|12 rondas"},
	}
	for _, c := range cases {
		tr, s := pageLanguages[c.lang], signupLanguages[c.lang]
		got := strings.Join([]string{tr.Players.format(c.lang, c.n), s.PlacesLeft.format(c.lang, c.n), tr.SwissRounds.format(c.lang, c.n)}, "|")
		if got != c.want {
			t.Errorf("%s %d: %q, want %q", c.lang, c.n, got, c.want)
		}
	}
	if got := pageLanguages["de"].Teams.format("de", 1); got != "1 Zweierteam" {
		t.Errorf("de teams: %q", got)
	}
}

// The tournament page names every format in every language (its fallback,
// the format's API name, would show "round_robin" to people).
func TestPageFormatNames(t *testing.T) {
	formats := []tournaments.Format{tournaments.RoundRobin, tournaments.DoubleRoundRobin, tournaments.Swiss, tournaments.Knockout}
	for lang, tr := range pageLanguages {
		for _, f := range formats {
			if name := tr.Formats[f]; name == "" || name == string(f) || strings.Contains(name, "_") {
				t.Errorf("%s: format %s is named %q", lang, f, name)
			}
		}
	}
}
