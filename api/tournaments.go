package api

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/tournaments"
)

type scheduleRequest struct {
	Starts        []time.Time `json:"starts"`
	FirstStart    *time.Time  `json:"first_start"`
	IntervalHours *int        `json:"interval_hours"`
	RoundHours    *int        `json:"round_hours"`
}

type registrationRequest struct {
	Public     bool       `json:"public"`
	MaxPlayers *int       `json:"max_players"`
	ClosesAt   *time.Time `json:"closes_at"`
}

func (r *registrationRequest) registration() tournaments.Registration {
	reg := tournaments.Registration{Public: r.Public}
	if r.MaxPlayers != nil {
		reg.Limit = *r.MaxPlayers
	}
	if r.ClosesAt != nil {
		reg.Closes = r.ClosesAt.UTC()
	}
	return reg
}

type createTournamentRequest struct {
	Name   string `json:"name"`
	Game   string `json:"game"`
	Side   *int   `json:"side"` // Les
	Format string `json:"format"`
	Rounds *int   `json:"rounds"`
	// Simultaneous plays each pairing as two games, colours reversed.
	Simultaneous bool `json:"simultaneous"`
	// Teams makes a team event: each entry is a team of two.
	Teams   bool           `json:"teams"`
	Players []entryRequest `json:"players"`
	Time    *timeRequest   `json:"time"`
	// RoundTimes are rounds' own time controls, by round number ("3");
	// the other rounds play under Time.
	RoundTimes map[string]*timeRequest `json:"round_times"`
	Schedule   scheduleRequest         `json:"schedule"`
	// Registration opens sign-up by invite link (or, public, for anyone
	// signed in); players may then be fewer than two.
	Registration *registrationRequest `json:"registration"`
	// KnockoutTiebreak and TiebreakHours: how a knockout's level match is
	// decided, and how long its deciding game lasts.
	KnockoutTiebreak string `json:"knockout_tiebreak"`
	TiebreakHours    *int   `json:"tiebreak_hours"`
	Seeding          string `json:"seeding"`
}

// entryRequest is an entrant as the organiser or a player enters him: a
// player, and in a team event his partner and the team's name.
type entryRequest struct {
	playerRequest
	Partner *playerRequest `json:"partner"`
	Team    string         `json:"team"`
}

// entrant is the entry as the domain takes it.
func (r entryRequest) entrant() tournaments.Entrant {
	e := tournaments.Entrant{Player: r.player(), Team: r.Team}
	if r.Partner != nil {
		partner := r.Partner.player()
		e.Partner = &partner
	}
	return e
}

// maxRoundTimeKey bounds a round_times key before the domain checks it
// against the tournament's rounds, so that "1000000" allocates nothing.
const maxRoundTimeKey = 1000

func (r createTournamentRequest) spec() (tournaments.NewTournamentSpec, error) {
	spec := tournaments.NewTournamentSpec{Name: r.Name, Format: tournaments.Format(r.Format), Simultaneous: r.Simultaneous, Teams: r.Teams, Ruleset: r.Game,
		Interval: hours(r.Schedule.IntervalHours), RoundLength: hours(r.Schedule.RoundHours),
		KnockoutTiebreak: tournaments.KnockoutTiebreak(r.KnockoutTiebreak), TiebreakLength: hours(r.TiebreakHours), Seeding: tournaments.Seeding(r.Seeding)}
	if r.Side != nil {
		if r.Game != les.RulesetName {
			return spec, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "side is for Les tournaments")
		}
		spec.Params = map[string]string{les.ParamSize: strconv.Itoa(*r.Side)}
	}
	if r.Rounds != nil {
		spec.Rounds = *r.Rounds
	}
	if r.Registration != nil {
		reg := r.Registration.registration()
		spec.Registration = &reg
	}
	for _, p := range r.Players {
		e := p.entrant()
		spec.Players = append(spec.Players, e.Player)
		if e.Partner != nil {
			spec.Partners = append(spec.Partners, *e.Partner)
		}
		if r.Teams || e.Team != "" {
			spec.TeamNames = append(spec.TeamNames, e.Team)
		}
	}
	for _, s := range r.Schedule.Starts {
		spec.Starts = append(spec.Starts, s.UTC())
	}
	if r.Schedule.FirstStart != nil {
		spec.FirstStart = r.Schedule.FirstStart.UTC()
	}
	tc, err := r.Time.control()
	if err != nil {
		return spec, err
	}
	spec.Time = tc
	if spec.RoundTimes, err = roundTimes(r.RoundTimes); err != nil {
		return spec, err
	}
	return spec, nil
}

// roundTimes lists rounds' own time controls by round, as the domain
// takes them: a zero entry for each round not given (the tournament's).
// The domain checks that each round is one the tournament has.
func roundTimes(byRound map[string]*timeRequest) ([]games.TimeControl, error) {
	var out []games.TimeControl
	for key, req := range byRound {
		n, err := strconv.Atoi(key)
		if err != nil || n < 1 || n > maxRoundTimeKey || strconv.Itoa(n) != key {
			return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "round_times: %q is no round number", domain.Clip(key))
		}
		if req == nil {
			continue // the contract refuses null; the tournament's time
		}
		tc, err := req.control()
		if err != nil {
			return nil, err
		}
		if n > len(out) {
			out = append(out, make([]games.TimeControl, n-len(out))...)
		}
		out[n-1] = tc
	}
	return out, nil
}

type entrantView struct {
	Index int `json:"index"`
	// Name is the player's, or a team's (by default its members').
	Name string `json:"name"`
	// Members are the names of who plays for the entrant: the player, or
	// a team's two.
	Members   []string `json:"members"`
	Withdrawn bool     `json:"withdrawn"`
	Annulled  bool     `json:"annulled"`
	// Email and PartnerEmail are the addresses of the player and a team's
	// partner, to whom may see them (see viewer); null to anyone else.
	Email        *string `json:"email"`
	PartnerEmail *string `json:"partner_email"`
}

// viewer is who reads a tournament's JSON. Its views are public, so they
// name players by name; only the organiser sees the entrants' addresses
// (he typed them in, or they signed up to play under him: he must be able
// to reach them), and a player his own.
type viewer struct {
	organiser bool
	email     string // the reader's account's address; "" for none
}

// viewerOf is who the principal (nil: nobody signed in) is to t.
func viewerOf(p *principal, t *tournaments.Tournament) viewer {
	if p == nil || !p.account() {
		return viewer{}
	}
	u := p.session.User
	return viewer{organiser: u.ID == t.OrganizerID, email: u.Email}
}

// address is p's address if the viewer may see it, else nil.
func (v viewer) address(p games.Player) *string {
	if v.organiser || v.email != "" && v.email == p.Email {
		email := p.Email
		return &email
	}
	return nil
}

// personal says whether the viewer sees any address of t: his view is his
// own, not the public one.
func (v viewer) personal(t *tournaments.Tournament) bool {
	if v.organiser {
		return true
	}
	_, in := t.EntrantOf(v.email)
	return v.email != "" && in
}

// memberNames are the names of an entrant's members (never addresses: the
// views are public).
func memberNames(e *tournaments.Entrant) []string {
	var out []string
	for _, p := range e.Members() {
		out = append(out, p.Name)
	}
	return out
}

type registrationView struct {
	Open       bool       `json:"open"`
	Public     bool       `json:"public"`
	MaxPlayers *int       `json:"max_players"`
	ClosesAt   *time.Time `json:"closes_at"`
}

type actorView struct {
	Role string  `json:"role"`
	Name *string `json:"name"`
}

type logEntryView struct {
	At     time.Time    `json:"at"`
	By     actorView    `json:"by"`
	Action string       `json:"action"`
	Detail string       `json:"detail"`
	Args   *logArgsView `json:"args"` // null for an entry stored before they were kept
	Reason *string      `json:"reason"`
}

// logArgsView are a log entry's facts (tournaments.LogArgs), for a client to
// put in its reader's words.
type logArgsView struct {
	Kind    string     `json:"kind"`
	Players []string   `json:"players"`
	Round   int        `json:"round"`
	Count   int        `json:"count"`
	Of      int        `json:"of"`
	Hours   int        `json:"hours"`
	At      *time.Time `json:"at"`
	Score   *string    `json:"score"`
	Margin  int        `json:"margin"`
}

func viewLogArgs(a *tournaments.LogArgs) *logArgsView {
	if a == nil {
		return nil
	}
	v := &logArgsView{Kind: a.Kind, Players: append([]string{}, a.Players...), Round: a.Round, Count: a.Count, Of: a.Of,
		Hours: int(a.For.Round(time.Hour) / time.Hour), Margin: a.Margin}
	if !a.At.IsZero() {
		at := a.At
		v.At = &at
	}
	if a.Score != "" {
		score := a.Score
		v.Score = &score
	}
	return v
}

type outcomeView struct {
	WhiteScore float64 `json:"white_score"`
	// BlackScore is 1 - WhiteScore but in a double forfeit, which both lose.
	BlackScore float64 `json:"black_score"`
	Margin     int     `json:"margin"`
	Forfeit    bool    `json:"forfeit"`
}

type pairingView struct {
	// Board is the pairing's place in the round: both games of a
	// simultaneous pair share it.
	Board  int          `json:"board"`
	White  int          `json:"white"`
	Black  *int         `json:"black"` // null: a bye
	GameID *string      `json:"game_id"`
	Result *outcomeView `json:"result"`
	// Deadline is when the game is adjudicated if unfinished: the round's,
	// or later if the organiser extended it.
	Deadline   time.Time `json:"deadline"`
	Annulled   bool      `json:"annulled"`
	Overridden bool      `json:"overridden"`
	// Decider: the deciding game of a level knockout match.
	Decider bool `json:"decider"`
	// Unplayed: nobody moved in the game by its deadline; a double forfeit.
	Unplayed bool `json:"unplayed"`
}

type roundView struct {
	Number    int           `json:"number"`
	Start     time.Time     `json:"start"`
	Deadline  time.Time     `json:"deadline"`
	Status    string        `json:"status"`
	BoardSeed string        `json:"board_seed"`
	Time      timeView      `json:"time"` // of the round's games
	Games     []pairingView `json:"games"`
}

type standingView struct {
	Rank      int     `json:"rank"`
	Player    int     `json:"player"`
	Name      string  `json:"name"`
	Points    float64 `json:"points"`
	Margins   int     `json:"margins"`
	Tiebreak  float64 `json:"tiebreak"`
	Played    int     `json:"played"`
	Won       int     `json:"won"`
	Drawn     int     `json:"drawn"`
	Lost      int     `json:"lost"`
	Byes      int     `json:"byes"`
	Withdrawn bool    `json:"withdrawn"`
}

// bracketRoundView is one round of a knockout's bracket: its matches in
// bracket order (match k's winner plays in match k/2 of the next round).
type bracketRoundView struct {
	Round   int         `json:"round"`
	Matches []matchView `json:"matches"`
}

// matchView is a knockout match: the entrants of its two slots (null for
// an empty slot: the other has a bye) and, once decided, who goes through.
type matchView struct {
	Top    *int `json:"top"`
	Bottom *int `json:"bottom"`
	Winner *int `json:"winner"`
}

// viewBracket shows a knockout's bracket as far as it is paired; nil for
// any other format.
func viewBracket(t *tournaments.Tournament) []bracketRoundView {
	if t.Format != tournaments.Knockout {
		return nil
	}
	slot := func(e int) *int {
		if e == tournaments.Bye {
			return nil
		}
		return &e
	}
	out := []bracketRoundView{}
	for i, slots := range t.Bracket {
		rv := bracketRoundView{Round: i + 1, Matches: []matchView{}}
		for k := 0; k+1 < len(slots); k += 2 {
			m := matchView{Top: slot(slots[k]), Bottom: slot(slots[k+1])}
			if w, ok := t.MatchWinner(i+1, slots[k], slots[k+1]); ok {
				m.Winner = slot(w)
			}
			rv.Matches = append(rv.Matches, m)
		}
		out = append(out, rv)
	}
	return out
}

type standingsView struct {
	Tiebreak  string         `json:"tiebreak"`
	Standings []standingView `json:"standings"`
}

type tournamentView struct {
	ID           string         `json:"id"`
	Name         string         `json:"name"`
	Game         string         `json:"game"`
	Side         *int           `json:"side"`
	Format       string         `json:"format"`
	Simultaneous bool           `json:"simultaneous"`
	Teams        bool           `json:"teams"`
	Status       string         `json:"status"`
	Players      []entrantView  `json:"players"`
	Rounds       []roundView    `json:"rounds"`
	Tiebreak     string         `json:"tiebreak"`
	Standings    []standingView `json:"standings"`
	// Bracket is a knockout's, by round; null for other formats.
	Bracket []bracketRoundView `json:"bracket"`
	// KnockoutTiebreak ("game" or "seed") and TiebreakHours (null: the
	// round's length) are a knockout's; null for other formats.
	KnockoutTiebreak *string           `json:"knockout_tiebreak"`
	TiebreakHours    *int              `json:"tiebreak_hours"`
	Seeding          string            `json:"seeding"`
	Registration     *registrationView `json:"registration"`
	PausedAt         *time.Time        `json:"paused_at"`
	Log              []logEntryView    `json:"log"`
	LogDropped       int               `json:"log_dropped"` // its oldest entries no longer kept (tournaments.Tournament.TrimLog)
	PageURL          string            `json:"page_url"`
	CreatedAt        time.Time         `json:"created_at"`
}

// tiebreakName names the third criterion of the standings; a knockout's
// are ranked by the round each player reached instead.
func tiebreakName(f tournaments.Format) string {
	switch f {
	case tournaments.Swiss:
		return "buchholz"
	case tournaments.Knockout:
		return "round_reached"
	}
	return "sonneborn_berger"
}

func viewStandings(t *tournaments.Tournament) []standingView {
	out := []standingView{}
	for _, s := range t.Standings() {
		out = append(out, standingView{Rank: s.Rank, Player: s.Player, Name: t.Entrants[s.Player].Title(), Points: s.Points,
			Margins: s.Margins, Tiebreak: s.Tiebreak, Played: s.Played, Won: s.Won, Drawn: s.Drawn, Lost: s.Lost,
			Byes: s.Byes, Withdrawn: s.Withdrawn})
	}
	return out
}

// viewTournament shows a tournament publicly: names, never addresses.
func (s *Server) viewTournament(t *tournaments.Tournament) tournamentView {
	return s.viewTournamentFor(t, viewer{})
}

// viewTournamentFor shows a tournament to who: publicly, with the
// addresses he may see.
func (s *Server) viewTournamentFor(t *tournaments.Tournament, who viewer) tournamentView {
	v := tournamentView{ID: t.ID, Name: t.Name, Game: cmp.Or(t.Ruleset, less.RulesetName), Format: string(t.Format), Simultaneous: t.Simultaneous, Teams: t.Teams, Status: string(t.Status),
		Players: []entrantView{}, Rounds: []roundView{}, Tiebreak: tiebreakName(t.Format),
		Standings: viewStandings(t), Bracket: viewBracket(t), PageURL: s.cfg.BaseURL + "/tournaments/" + t.ID, CreatedAt: t.CreatedAt}
	if v.Game == les.RulesetName {
		side := les.DefaultSide
		if n, err := strconv.Atoi(t.Params[les.ParamSize]); err == nil {
			side = n
		}
		v.Side = &side
	}
	for i, e := range t.Entrants {
		ev := entrantView{Index: i, Name: e.Title(), Members: memberNames(&e), Withdrawn: e.Withdrawn, Annulled: e.Annulled,
			Email: who.address(e.Player)}
		if e.Partner != nil {
			ev.PartnerEmail = who.address(*e.Partner)
		}
		v.Players = append(v.Players, ev)
	}
	if r := t.Registration; r != nil {
		rv := registrationView{Open: r.Open, Public: r.Public}
		if r.Limit > 0 {
			rv.MaxPlayers = &r.Limit
		}
		if !r.Closes.IsZero() {
			rv.ClosesAt = &r.Closes
		}
		v.Registration = &rv
	}
	if !t.PausedAt.IsZero() {
		v.PausedAt = &t.PausedAt
	}
	v.Seeding = string(cmp.Or(t.Seeding, tournaments.SeedingEntry))
	if t.Format == tournaments.Knockout {
		tb := string(cmp.Or(t.KnockoutTiebreak, tournaments.TiebreakSeed))
		v.KnockoutTiebreak = &tb
		if t.TiebreakLength > 0 {
			h := int(t.TiebreakLength / time.Hour)
			v.TiebreakHours = &h
		}
	}
	v.Log, v.LogDropped = []logEntryView{}, t.Trimmed
	for _, e := range t.Log {
		lv := logEntryView{At: e.At, By: actorView{Role: e.By.Role}, Action: e.Action, Detail: e.Detail, Args: viewLogArgs(e.Args)}
		if e.By.Name != "" {
			lv.By.Name = &e.By.Name
		}
		if e.Reason != "" {
			lv.Reason = &e.Reason
		}
		v.Log = append(v.Log, lv)
	}
	for _, r := range t.Rounds {
		rv := roundView{Number: r.Number, Start: r.Start, Deadline: r.Deadline, Status: string(r.Status),
			BoardSeed: strconv.FormatUint(r.Seed, 10), Time: viewControl(t.RoundTime(r.Number)), Games: []pairingView{}}
		for i, g := range r.Games {
			pv := pairingView{Board: r.Board(i), White: g.White, Deadline: r.GameDeadline(i), Annulled: g.Annulled, Overridden: g.Overridden,
				Decider: g.Decider, Unplayed: g.Unplayed}
			if g.Black != tournaments.Bye {
				black := g.Black
				pv.Black = &black
			}
			if g.GameID != "" {
				id := g.GameID
				pv.GameID = &id
			}
			if o := g.Outcome; o != nil {
				pv.Result = &outcomeView{WhiteScore: o.Score, BlackScore: 1 - o.Score, Margin: o.Margin, Forfeit: o.Forfeit}
				if o.BothForfeited() {
					pv.Result.BlackScore = 0
				}
			}
			rv.Games = append(rv.Games, pv)
		}
		v.Rounds = append(v.Rounds, rv)
	}
	return v
}

func (s *Server) createTournament(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeTournamentsWrite)
	if err != nil {
		return err
	}
	var req createTournamentRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	for i := range req.Players {
		// The organiser sees his entrants' addresses: a handle only saves
		// him asking for one.
		if _, err := s.invitees(c.Request().Context(), &req.Players[i].playerRequest, req.Players[i].Partner); err != nil {
			return err
		}
	}
	spec, err := req.spec()
	if err != nil {
		return err
	}
	t, err := s.tournaments.CreateTournament(c.Request().Context(), spec, p.session.User.ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/tournaments/"+t.ID)
	return c.JSON(http.StatusCreated, s.viewTournamentFor(&t, viewerOf(p, &t)))
}

// getTournament is public: the pairings, results and standings of a
// tournament are for everyone who has its address. A reader who sends
// his account's token sees the addresses he may (see viewer): that view
// is his own, kept by no shared cache.
func (s *Server) getTournament(c echo.Context) error {
	var p *principal
	if c.Request().Header.Get(echo.HeaderAuthorization) != "" {
		var err error
		if p, err = s.account(c, accounts.ScopeGamesRead); err != nil {
			return err
		}
	}
	t, current, err := s.cachedTournament(c, func(t *tournaments.Tournament) string {
		if who := viewerOf(p, t); who.personal(t) {
			return fmt.Sprintf("json organiser=%v email=%s", who.organiser, who.email)
		}
		return "json"
	}, func(h http.Header, t *tournaments.Tournament) {
		h.Add(echo.HeaderVary, echo.HeaderAuthorization)
		if viewerOf(p, t).personal(t) {
			h.Set(echo.HeaderCacheControl, personalCacheControl)
		}
	})
	if err != nil {
		return err
	}
	if current {
		return notModified(c)
	}
	return c.JSON(http.StatusOK, s.viewTournamentFor(&t, viewerOf(p, &t)))
}

// tournamentStandings returns the standings as JSON or as CSV (format=csv).
func (s *Server) tournamentStandings(c echo.Context) error {
	csvFormat := c.QueryParam("format") == "csv"
	t, current, err := s.cachedTournament(c, fixedVariant("standings csv="+strconv.FormatBool(csvFormat)),
		func(h http.Header, t *tournaments.Tournament) {
			if csvFormat {
				h.Set("Content-Disposition", `attachment; filename="`+t.ID+`-standings.csv"`)
			}
		})
	if err != nil {
		return err
	}
	if current {
		return notModified(c)
	}
	rows := viewStandings(&t)
	if !csvFormat {
		return c.JSON(http.StatusOK, standingsView{Tiebreak: tiebreakName(t.Format), Standings: rows})
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"rank", "player", "name", "points", "margins", tiebreakName(t.Format), "played", "won", "drawn", "lost", "byes", "withdrawn"}
	if t.Teams {
		head = append(head, "member_1", "member_2") // the team's players; name is the team's
	}
	_ = w.Write(head)
	for _, r := range rows {
		row := []string{strconv.Itoa(r.Rank), strconv.Itoa(r.Player), csvSafe(r.Name), strconv.FormatFloat(r.Points, 'f', -1, 64),
			strconv.Itoa(r.Margins), strconv.FormatFloat(r.Tiebreak, 'f', -1, 64), strconv.Itoa(r.Played),
			strconv.Itoa(r.Won), strconv.Itoa(r.Drawn), strconv.Itoa(r.Lost), strconv.Itoa(r.Byes), strconv.FormatBool(r.Withdrawn)}
		if t.Teams {
			for _, name := range memberNames(&t.Entrants[r.Player]) {
				row = append(row, csvSafe(name))
			}
		}
		_ = w.Write(row)
	}
	w.Flush()
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", b.Bytes())
}

// csvSafe keeps a name from being read as a formula by spreadsheets.
func csvSafe(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@') {
		return "'" + s
	}
	return s
}

type withdrawRequest struct {
	Player *int   `json:"player"`
	Policy string `json:"policy"`
	Reason string `json:"reason"`
}

// withdraw takes a player out of a tournament: the player himself (an
// account with his address) or the organiser. Remaining games are forfeited.
func (s *Server) withdraw(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeTournamentsWrite)
	if err != nil {
		return err
	}
	var req withdrawRequest
	body, err := decodeJSONBody(c, &req)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	t, err := s.tournaments.Tournament(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	u := p.session.User
	entrant, self := t.EntrantOf(u.Email)
	by := tournaments.ByOrganiser
	switch {
	case req.Player != nil && u.ID == t.OrganizerID:
		entrant = *req.Player
	case req.Player != nil && (!self || *req.Player != entrant):
		return NewProblem(http.StatusForbidden, domain.CodeForbidden, "Only the organiser may withdraw another player.")
	case req.Player == nil && !self:
		return NewProblem(http.StatusForbidden, domain.CodeForbidden, "You do not play in this tournament.")
	default:
		// Either member of a team may withdraw it: the log names who did.
		member, _ := t.Entrants[entrant].Member(u.Email)
		by = tournaments.ByPlayer(member.Name)
	}
	if req.Policy != "" && u.ID != t.OrganizerID {
		return NewProblem(http.StatusForbidden, domain.CodeForbidden, "Only the organiser chooses how a withdrawal counts.")
	}
	return s.tournamentAction(c, p, body, t.ID, func(r tournaments.TournamentRequest) (tournaments.TournamentDone, error) {
		return s.tournaments.Withdraw(ctx, r, entrant, tournaments.WithdrawPolicy(req.Policy), by, req.Reason)
	})
}

func (s *Server) cancelTournament(c echo.Context) error {
	return s.organiserAction(c, "cancel the tournament", func(ctx context.Context, r tournaments.TournamentRequest, reason string) (tournaments.TournamentDone, error) {
		return s.tournaments.CancelTournament(ctx, r, reason)
	})
}
