package api

import (
	"net/http"
	"slices"

	"golang.org/x/text/language"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/internal/catalog"
)

// pagePhrases are the words of the tournament's public page, in one
// language, as the page's code reads them (the words themselves are the
// catalogue's page.* messages, see catalog.Fill). Colours and seats are named
// as the play page and the emails name them; a round is a Runde, ronde,
// ronda and turno, as the tournament emails say. A string's arguments are
// {{.name}}, filled in by fill.
type pagePhrases struct {
	Lang       string // the BCP 47 tag, for <html lang>
	LangName   string // the language in itself, for the switcher
	Tournament string // the page title after the name

	Formats       map[tournaments.Format]string
	SwissRounds   countForms // {{.n}} rounds
	Statuses      map[tournaments.TournamentStatus]string
	RoundStatuses map[tournaments.RoundStatus]string
	GameLess      string
	GameLes       string     // {{.side}}: the board's side
	Players       countForms // {{.n}} players
	Teams         countForms // {{.n}} teams (of a team event)

	Standings    string
	RankingNote  string // %s: the tiebreak's name
	Rank         string
	Player       string
	Team         string // the standings' head in a team event
	Points       string
	Played       string
	PlayedTitle  string
	WDL          string // won–drawn–lost, the column's head
	WDLTitle     string
	Margins      string
	MarginsTitle string
	// Tiebreaks by format: the name, its abbreviation and what it sums.
	Buchholz, BuchholzAbbr, BuchholzTitle                      string
	SonnebornBerger, SonnebornBergerAbbr, SonnebornBergerTitle string
	Withdrawn                                                  string
	NoStandings                                                string

	Crosstable     string
	CrosstableNote string
	Total          string

	Rounds          string
	Round           string // {{.n}}
	Schedule        string // %s start, %s end
	RoundEndNote    string
	White, Black    string
	Setter, Chooser string // Les: the first and second seat
	Bye             string
	ByePoint        string
	Forfeit         string
	NoMove          string // a game nobody moved in by its deadline: a double forfeit
	Draw            string
	WinsBy          string // {{.player}} who, {{.margin}}
	ToMove          string // %s who
	InProgress      string
	GameOver        string // a game over whose round has not counted it yet
	Watch           string
	WatchLabel      string // %s white, %s black: the link's accessible name
	NoGamesYet      string

	// A knockout: its bracket, and its standings by how far each went.
	Bracket               string
	Final, SemiFinals     string
	QuarterFinals         string
	MatchN                string // {{.n}}: a match's number, across the rounds
	WinnerOf              string // {{.match}}: the match whose winner fills a slot
	SeedN                 string // {{.seed}}: a seed not drawn yet
	SeedTitle             string
	SeedsDrawnNote        string
	DecidingGame          string
	HigherSeedThrough     string // a level match decided by seed
	ByeThrough            string
	GoesThrough           string // for screen readers, after the winner's name
	KnockoutRankingNote   string
	Reached, ReachedTitle string // the standings' column of how far each went
	Champion, StillIn     string

	Downloads      string
	StandingsCSV   string
	TournamentJSON string
	AllRecords     string
	RoundRecords   string // {{.round}}
	RecordsNote    string
	Language       string
}

// pageLanguages are the page's words in each language, the catalogue's
// page.* messages.
var pageLanguages = catalog.Tables[pagePhrases](catalog.Shipped(), languages, "page.")

// pageLanguageMatcher picks among languages, English first (the
// fallback).
var pageLanguageMatcher = func() language.Matcher {
	tags := make([]language.Tag, len(languages))
	for i, l := range languages {
		tags[i] = language.Make(l)
	}
	return language.NewMatcher(tags)
}()

// pageLanguage chooses the page's language (see pageLocale).
func pageLanguage(r *http.Request) *pagePhrases {
	return pageLanguages[pageLocale(r)]
}

// pageLocale chooses a page's language: ?lang= if it names one of ours (a
// link from the page's language switcher, or from an email in the
// reader's language), else the best of the browser's Accept-Language, else
// English.
func pageLocale(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); slices.Contains(languages, l) {
		return l
	}
	tags, _, err := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	if err != nil || len(tags) == 0 {
		return domain.DefaultLocale
	}
	_, i, conf := pageLanguageMatcher.Match(tags...)
	if conf == language.No {
		return domain.DefaultLocale
	}
	return languages[i]
}
