package api

import (
	_ "embed"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// The tournament's public page: server-rendered HTML, in the visitor's
// language, phone first, with one small script for signing up (the strict
// CSPScriptPage holds: no inline script). It shows
// what a player or a spectator of a correspondence event looks for: the
// standings, a crosstable for round robins, every round's games with their
// results and a link to watch each, and the downloads.

//go:embed tournament_page.html
var tournamentPageHTML string

var tournamentPageTemplate = template.Must(template.New("tournament").Funcs(template.FuncMap{
	"tr": fill,
}).Parse(tournamentPageHTML))

// pageView is what the template renders; every word in it is already in the
// page's language.
type pageView struct {
	T        *pagePhrases
	ID       string
	Name     string
	Game     string
	Format   string
	Status   string
	StatusOf string // the status's stable name, for CSS
	Players  string
	Les      bool // seats are the setter and the chooser, not colours
	Teams    bool // a team event: the join form asks for the partner

	RankingNote string
	Tiebreak    tiebreakWords
	Standings   []pageStanding
	Crosstable  *crosstable // round robins only
	// Bracket is a knockout's; BracketNote says the seeds are still to be drawn.
	Bracket     []pageBracketRound
	BracketNote string

	Rounds []pageRound

	CSVURL, JSONURL, RecordsURL string
	Languages                   []languageLink

	// The sign-up (between the header and the standings) and the log (at
	// the end): see tournament_signup.go.
	S            *signupPhrases
	Registration *pageRegistration
	Log          []pageLogEntry
	LogDropped   string // how many of its oldest entries are no longer kept; "" for none
}

type tiebreakWords struct{ Name, Abbr, Title string }

type pageStanding struct {
	Rank      int
	Name      string
	Members   string // a named team's players; "" when the name says them
	Points    string
	Played    int
	WDL       string
	Margins   string
	Tiebreak  string
	Withdrawn bool
}

// crosstable is a round robin's results, every player against every
// other, rows and columns in standings order.
type crosstable struct {
	Numbers []int // the columns' heads: ranks' positions, 1..n
	Rows    []crossRow
}

type crossRow struct {
	Number int
	Name   string
	Cells  []crossCell
	Points string
}

type crossCell struct {
	Self   bool   // the player against himself
	Text   string // his results against the column's player, "" if none yet
	Detail string // the same with margins, for a tooltip
}

type pageRound struct {
	Number     int
	Title      string
	Status     string
	StatusOf   string
	Schedule   string
	Games      []pageGame
	RecordsURL string // "" while the round has no game to record
}

type pageGame struct {
	White, Black string // names; Black "" for a bye
	WhiteWon     bool
	BlackWon     bool
	Score        string // "1–0", "½–½", "" while undecided
	Detail       string // who won by how much, forfeit, whose turn
	Playing      bool
	WatchURL     string
	WatchLabel   string
}

type languageLink struct {
	Name, Lang, URL string
	Current         bool
}

// scoreText writes a player's points: 1, ½, 0, 2½.
func scoreText(f float64) string {
	whole := int(f)
	switch {
	case f-float64(whole) == 0:
		return strconv.Itoa(whole)
	case whole == 0:
		return "½"
	default:
		return strconv.Itoa(whole) + "½"
	}
}

// pageDate writes a round's start or end. UTC, written the same in every
// language, so a visitor never wonders whose time zone it is.
func pageDate(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// tournamentPage renders the public page of a tournament.
func (s *Server) tournamentPage(c echo.Context) error {
	ctx := c.Request().Context()
	tr := pageLanguage(c.Request())
	now := s.now()
	c.Response().Header().Add("Vary", "Accept-Language")
	t, current, err := s.cachedTournament(c, func(t *tournaments.Tournament) string {
		// Sign-up ends at a time, not by a change to the tournament.
		return "page " + tr.Lang + " joinable=" + strconv.FormatBool(t.Joinable(now))
	}, func(h http.Header, _ *tournaments.Tournament) {
		// The sign-up's script (web/tournament.js) calls the API.
		h.Set("Content-Security-Policy", CSPScriptPage)
		h.Set("Content-Language", tr.Lang)
		h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	})
	if err != nil {
		return err
	}
	if current {
		return notModified(c)
	}
	playing, err := s.tournaments.GamesInPlay(ctx, &t)
	if err != nil {
		return err
	}
	v := buildPageView(&t, playing, tr)
	v.Registration = buildPageRegistration(&t, now, v.S, v.T.Lang)
	var b strings.Builder
	if err := tournamentPageTemplate.Execute(&b, v); err != nil {
		return fmt.Errorf("tournament page %s: %w", t.ID, err)
	}
	return c.HTMLBlob(http.StatusOK, []byte(b.String()))
}

// buildPageView puts the tournament in the page's words. playing holds the
// games without an outcome yet (see tournaments.Service.GamesInPlay).
func buildPageView(t *tournaments.Tournament, playing map[string]games.Game, tr *pagePhrases) pageView {
	base := "/tournaments/" + url.PathEscape(t.ID)
	api := "/v1/tournaments/" + url.PathEscape(t.ID)
	v := pageView{T: tr, ID: t.ID, Name: t.Name, Format: tr.Formats[t.Format], Status: tr.Statuses[t.Status],
		StatusOf: string(t.Status), Players: tr.Players.format(tr.Lang, len(t.Entrants)), Les: t.Ruleset == les.RulesetName, Teams: t.Teams,
		CSVURL: api + "/standings?format=csv", JSONURL: api, RecordsURL: api + "/records"}
	if v.Format == "" {
		v.Format = string(t.Format)
	}
	if t.Format == tournaments.Swiss {
		v.Format += " · " + tr.SwissRounds.format(tr.Lang, len(t.Rounds))
	}
	if t.Teams {
		v.Players = tr.Teams.format(tr.Lang, len(t.Entrants))
	}
	v.Game = tr.GameLess
	if v.Les {
		side := les.DefaultSide
		if n, err := strconv.Atoi(t.Params[les.ParamSize]); err == nil {
			side = n
		}
		v.Game = fill(tr.GameLes, "side", side)
	}
	switch t.Format {
	case tournaments.Swiss:
		v.Tiebreak = tiebreakWords{tr.Buchholz, tr.BuchholzAbbr, tr.BuchholzTitle}
	case tournaments.Knockout:
		v.Tiebreak = tiebreakWords{tr.Reached, tr.Reached, tr.ReachedTitle}
	default:
		v.Tiebreak = tiebreakWords{tr.SonnebornBerger, tr.SonnebornBergerAbbr, tr.SonnebornBergerTitle}
	}
	v.RankingNote = fill(tr.RankingNote, "tiebreak", v.Tiebreak.Name)
	var places []tournaments.KnockoutPlace
	if t.Format == tournaments.Knockout {
		v.RankingNote = tr.KnockoutRankingNote
		places = t.KnockoutPlaces()
		v.Bracket = buildBracket(t, playing, tr)
		if t.Status == tournaments.TournamentScheduled && t.Seeding == tournaments.SeedingRandom {
			v.BracketNote = tr.SeedsDrawnNote
		}
	}
	v.S = signupLanguages[tr.Lang]
	v.Log = buildPageLog(t, v.S, tr.Lang)
	if t.Trimmed > 0 {
		v.LogDropped = v.S.LogDropped.format(tr.Lang, t.Trimmed)
	}
	standings := t.Standings()
	for _, st := range standings {
		e := &t.Entrants[st.Player]
		members := ""
		if e.Team != "" {
			members = strings.Join(memberNames(e), " & ")
		}
		ps := pageStanding{Rank: st.Rank, Name: e.Title(), Members: members,
			Points: scoreText(st.Points), Played: st.Played, WDL: fmt.Sprintf("%d–%d–%d", st.Won, st.Drawn, st.Lost),
			Margins: signed(st.Margins), Tiebreak: strconv.FormatFloat(st.Tiebreak, 'f', -1, 64), Withdrawn: st.Withdrawn}
		if places != nil {
			ps.Tiebreak = knockoutPlace(t, places[st.Player], tr)
		}
		v.Standings = append(v.Standings, ps)
	}
	if t.Format == tournaments.RoundRobin || t.Format == tournaments.DoubleRoundRobin {
		v.Crosstable = buildCrosstable(t, standings)
	}
	for _, r := range t.Rounds {
		pr := pageRound{Number: r.Number, Title: fill(tr.Round, "n", r.Number), Status: tr.RoundStatuses[r.Status],
			StatusOf: string(r.Status), Schedule: fill(tr.Schedule, "start", pageDate(r.Start), "end", pageDate(r.Deadline))}
		for _, g := range r.Games {
			pg := buildPageGame(t, r.Number, g, playing, tr)
			if g.GameID != "" && !g.Unplayed { // a game nobody moved in has nothing to watch
				pr.RecordsURL = api + "/records?round=" + strconv.Itoa(r.Number)
				pg.WatchURL = base + "/games/" + url.PathEscape(g.GameID) + "/watch"
			}
			pr.Games = append(pr.Games, pg)
		}
		v.Rounds = append(v.Rounds, pr)
	}
	for _, l := range languages {
		p := pageLanguages[l]
		v.Languages = append(v.Languages, languageLink{Name: p.LangName, Lang: l, URL: base + "?lang=" + l, Current: p == tr})
	}
	return v
}

// signed writes a margin with its sign: +12, −3, 0.
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}

func buildPageGame(t *tournaments.Tournament, round int, g tournaments.TournamentGame, playing map[string]games.Game, tr *pagePhrases) pageGame {
	white := t.Entrants[g.White].Title()
	pg := pageGame{White: white}
	if g.Black == tournaments.Bye {
		pg.Detail = tr.ByePoint
		if g.Outcome != nil && g.Outcome.Score == 0 {
			pg.Detail = tr.Bye + " · " + tr.Forfeit
		}
		return pg
	}
	black := t.Entrants[g.Black].Title()
	pg.Black = black
	pg.WatchLabel = fill(tr.WatchLabel, "white", white, "black", black)
	o := g.Outcome
	if o == nil {
		game, ok := playing[g.GameID]
		if !ok {
			pg.Detail = tr.InProgress
			pg.Playing = true
			return pg
		}
		if res, over := game.Result(); over {
			// Over, and not yet counted by the tournament (its round
			// counts it): the result is final all the same.
			out := tournaments.OutcomeOf(round, g.Pairing, res)
			o = &out
		} else {
			pg.Playing = true
			pg.Detail = tr.InProgress
			for _, seat := range game.Seats {
				if seat.Color == game.ToMove() {
					pg.Detail = fill(tr.ToMove, "player", seat.Name)
				}
			}
			return pg
		}
	}
	blackScore := 1 - o.Score
	if o.BothForfeited() {
		blackScore = 0
	}
	pg.Score = scoreText(o.Score) + "–" + scoreText(blackScore)
	pg.WhiteWon, pg.BlackWon = o.Score > blackScore, blackScore > o.Score
	switch {
	case o.BothForfeited():
	case o.Score == blackScore:
		pg.Detail = tr.Draw
	case o.Margin > 0:
		pg.Detail = fill(tr.WinsBy, "player", white, "margin", o.Margin)
	case o.Margin < 0:
		pg.Detail = fill(tr.WinsBy, "player", black, "margin", -o.Margin)
	}
	switch {
	case g.Unplayed && !g.Overridden:
		pg.Detail = tr.NoMove
	case o.Forfeit:
		pg.Detail = strings.TrimPrefix(pg.Detail+" · "+tr.Forfeit, " · ")
	}
	return pg
}

// buildCrosstable lays out a round robin's decided results: row i, column j
// is what the player ranked i scored against the one ranked j, game by game
// (two results in a double round robin). A forfeit is + or −.
func buildCrosstable(t *tournaments.Tournament, standings []tournaments.Standing) *crosstable {
	n := len(standings)
	pos := make([]int, len(t.Entrants)) // entrant → row
	for i, st := range standings {
		pos[st.Player] = i
	}
	type result struct {
		score   float64
		margin  int
		forfeit bool
	}
	cells := make([][][]result, n)
	for i := range cells {
		cells[i] = make([][]result, n)
	}
	for _, o := range t.Outcomes() {
		if o.Black == tournaments.Bye {
			continue
		}
		blackScore := 1 - o.Score
		if o.BothForfeited() {
			blackScore = 0
		}
		w, b := pos[o.White], pos[o.Black]
		cells[w][b] = append(cells[w][b], result{o.Score, o.Margin, o.Forfeit})
		cells[b][w] = append(cells[b][w], result{blackScore, -o.Margin, o.Forfeit})
	}
	ct := &crosstable{}
	for i, st := range standings {
		ct.Numbers = append(ct.Numbers, i+1)
		row := crossRow{Number: i + 1, Name: t.Entrants[st.Player].Title(), Points: scoreText(st.Points)}
		for j := range n {
			if i == j {
				row.Cells = append(row.Cells, crossCell{Self: true})
				continue
			}
			var text, detail []string
			for _, r := range cells[i][j] {
				s := scoreText(r.score)
				if r.forfeit {
					s = "−"
					if r.score > 0 {
						s = "+"
					}
				}
				text = append(text, s)
				detail = append(detail, s+" ("+signed(r.margin)+")")
			}
			row.Cells = append(row.Cells, crossCell{Text: strings.Join(text, " "), Detail: strings.Join(detail, ", ")})
		}
		ct.Rows = append(ct.Rows, row)
	}
	return ct
}

// watchTournamentGame sends a visitor of the tournament's page to a game's
// spectator view: the play page with a fresh spectator token (read only;
// never a seat's link). A tournament's games are public, so anyone with
// the page may watch them; the link on the page stays valid however long
// the page is kept, and follows the game's spectator link when a player
// replaces it.
func (s *Server) watchTournamentGame(c echo.Context) error {
	g, err := s.tournaments.TournamentGame(c.Request().Context(), c.Param("id"), c.Param("game"))
	if err != nil {
		return err
	}
	tok, err := s.tokens.Watch(g.ID, g.WatchVersion)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Referrer-Policy", "no-referrer")
	h.Set(echo.HeaderCacheControl, "no-store")
	// A path, not the base URL: the visitor stays on the host he came by.
	return c.Redirect(http.StatusSeeOther, "/play/"+url.PathEscape(g.ID)+"#t="+tok)
}
