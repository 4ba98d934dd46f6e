package api

import (
	"fmt"
	"strconv"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/internal/catalog"
)

// The JSON shapes of the API. Each is a schema in openapi.yaml with the
// same name; field names are snake_case.

type userView struct {
	ID           int64  `json:"id"`
	Email        string `json:"email"`
	Name         string `json:"name"`
	Locale       string `json:"locale"`
	TimeZone     string `json:"time_zone"`
	VacationDays int    `json:"vacation_days"`
	CalendarURL  string `json:"calendar_url"`
	// ReplyConfirmations: an email confirms each turn played by replying.
	ReplyConfirmations bool      `json:"reply_confirmations"`
	CreatedAt          time.Time `json:"created_at"`
}

func (s *Server) viewUser(u domain.User) (userView, error) {
	cal, err := s.links.CalendarURL(u.ID, u.CalendarVersion)
	if err != nil {
		return userView{}, err
	}
	return userView{ID: u.ID, Email: u.Email, Name: u.Name, Locale: u.Locale, TimeZone: u.TimeZone, VacationDays: u.VacationDays,
		CalendarURL: cal, ReplyConfirmations: u.ReplyConfirmations, CreatedAt: u.CreatedAt}, nil
}

type boardView struct {
	Size  int     `json:"size"`
	Walls string  `json:"walls"`
	Seed  *string `json:"seed,omitempty"` // decimal: a uint64 does not fit a JSON number safely
}

type optionsView struct {
	EarlyStop bool `json:"early_stop"`
	MaxTurns  int  `json:"max_turns"`
}

type seatView struct {
	Color string `json:"color"`
	// Side is the side the seat plays for, as Result names the winner:
	// partners in the four-player game share it.
	Side   string `json:"side"`
	Name   string `json:"name"`
	ToMove bool   `json:"to_move"`
}

type resultView struct {
	Reason        string         `json:"reason"`
	Winner        *string        `json:"winner"` // a side, or null for a draw
	Loser         *string        `json:"loser"`
	Margin        int            `json:"margin"`
	Totals        map[string]int `json:"totals"`
	Counts        map[string]int `json:"counts"`
	Needed        map[string]int `json:"needed"`
	BlockedCorner bool           `json:"blocked_corner"`
	Text          string         `json:"text"`
}

// gameView is a game of Less (LessGame); lesGameView one of Les.
type gameView struct {
	ID           string              `json:"id"`
	Game         string              `json:"game"`
	Status       string              `json:"status"`
	Players      int                 `json:"players"`
	Board        boardView           `json:"board"`
	Preset       string              `json:"preset"`
	Options      optionsView         `json:"options"`
	Seats        []seatView          `json:"seats"`
	Pieces       map[string][]string `json:"pieces"`
	Counts       map[string]int      `json:"counts"`
	Ply          int                 `json:"ply"`
	ToMove       *string             `json:"to_move"`
	YourColors   []string            `json:"your_colors"`
	Locale       string              `json:"locale"`
	Goal         string              `json:"goal"`
	Result       *resultView         `json:"result"`
	Diagram      string              `json:"diagram"`
	SpectatorURL string              `json:"spectator_url,omitempty"`
	Time         timeView            `json:"time"`
	Deadline     *time.Time          `json:"deadline"`
	TimeLeft     *int                `json:"time_left_seconds"`
	Version      int                 `json:"version"`
	CreatedAt    time.Time           `json:"created_at"`
	UpdatedAt    time.Time           `json:"updated_at"`
}

// lessGame is the Less game behind g, for the views of Less's own detail.
func lessGame(g *games.Game) (*less.RulesGame, error) {
	lg, err := less.GameOf(g.Rules)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return lg, nil
}

// lesGame is the Les game behind g, for the views of Les's own detail.
func lesGame(g *games.Game) (*les.Engine, error) {
	e, err := les.EngineOf(g.Rules)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return e, nil
}

// viewGame is the game as the caller may see it: a gameView for Less, a
// lesGameView for Les, an otherGameView for any other game.
func (s *Server) viewGame(g *games.Game, a games.Actor) (any, error) {
	switch g.Rules.Ruleset() {
	case less.RulesetName:
		lg, err := lessGame(g)
		if err != nil {
			return nil, err
		}
		return s.viewLessGame(g, lg, a)
	case les.RulesetName:
		e, err := lesGame(g)
		if err != nil {
			return nil, err
		}
		return s.viewLesGame(g, e, a)
	}
	return s.viewOtherGame(g, a)
}

// gameCommon is what the views of every game show alike.
type gameCommon struct {
	status       string
	toMove       *string
	yourColors   []string
	locale       string
	time         timeView
	deadline     *time.Time
	timeLeft     *int
	spectatorURL string
	// goal is what the caller's (first) colour plays for, in his
	// language; "" for a spectator.
	goal string
}

func (s *Server) gameCommon(g *games.Game, a games.Actor) (gameCommon, error) {
	c := gameCommon{status: "active", yourColors: []string{}, locale: domain.DefaultLocale, time: viewTime(g)}
	for i, color := range a.Seats(g) {
		c.yourColors = append(c.yourColors, color)
		if seat, _ := g.Seat(color); i == 0 {
			c.locale = seat.Locale
		}
	}
	if len(c.yourColors) > 0 {
		goal, err := ruleset.GoalOf(g.Rules, c.yourColors[0])
		if err != nil {
			return gameCommon{}, fmt.Errorf("game %s: %w", g.ID, err)
		}
		c.goal = catalog.Shipped().Say(c.locale, goal)
	}
	if g.Over() {
		c.status = "finished"
	} else {
		toMove := g.ToMove()
		c.toMove = &toMove
	}
	if d := g.Clock.Deadline; !d.IsZero() && !g.Over() {
		left := int(g.Clock.TimeLeft(s.now()) / time.Second)
		c.deadline, c.timeLeft = &d, &left
	}
	if !a.Spectator {
		url, err := s.links.WatchURL(g.ID, g.WatchVersion)
		if err != nil {
			return gameCommon{}, err
		}
		c.spectatorURL = url
	}
	return c, nil
}

func (s *Server) viewLessGame(g *games.Game, lg *less.RulesGame, a games.Actor) (gameView, error) {
	c, err := s.gameCommon(g, a)
	if err != nil {
		return gameView{}, err
	}
	st := lg.Game.State()
	size := st.Start.Size()
	v := gameView{
		ID: g.ID, Game: less.RulesetName, Status: c.status, Players: less.Players(size), Preset: string(lg.Preset),
		Board:   boardView{Size: size, Walls: st.Start.Board().Walls()},
		Options: optionsView{EarlyStop: st.Options.EarlyStop, MaxTurns: st.Options.MaxTurns},
		Pieces:  pieces(st.Position), Counts: map[string]int{}, Ply: st.Ply, ToMove: c.toMove,
		YourColors: c.yourColors, Locale: c.locale, Goal: c.goal, Diagram: less.Diagram(st.Position, nil),
		Time: c.time, Deadline: c.deadline, TimeLeft: c.timeLeft, SpectatorURL: c.spectatorURL,
		Version: g.Version, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt,
	}
	if lg.Seed != nil {
		seed := strconv.FormatUint(*lg.Seed, 10)
		v.Board.Seed = &seed
	}
	toMove := g.ToMove()
	for _, seat := range g.Seats {
		color, err := less.ParseColor(seat.Color)
		if err != nil {
			return gameView{}, fmt.Errorf("game %s: %w", g.ID, err)
		}
		v.Seats = append(v.Seats, seatView{Color: seat.Color, Side: less.SideName(less.SideOf(color), size), Name: seat.Name,
			ToMove: !g.Over() && seat.Color == toMove})
		v.Counts[seat.Color] = st.Counts[color]
	}
	if st.Result != nil {
		v.Result = viewResult(*st.Result, size)
	}
	return v, nil
}

func viewResult(r less.Result, size int) *resultView {
	v := &resultView{Reason: string(r.Reason), Margin: r.Margin, BlockedCorner: r.BlockedCorner,
		Totals: map[string]int{}, Counts: map[string]int{}, Needed: map[string]int{},
		Text: r.Line(size)}
	if !r.Draw {
		w, l := less.SideName(r.Winner, size), less.SideName(r.Loser, size)
		v.Winner, v.Loser = &w, &l
	}
	for _, side := range []less.Side{less.SideWhite, less.SideBlack} {
		name := less.SideName(side, size)
		v.Totals[name], v.Counts[name], v.Needed[name] = r.Totals[side], r.Counts[side], r.Needed[side]
	}
	return v
}

func pieces(p less.Position) map[string][]string {
	out := map[string][]string{}
	for c, squares := range p.Placement() {
		names := make([]string, len(squares))
		for i, sq := range squares {
			names[i] = sq.String()
		}
		out[c.String()] = names
	}
	return out
}

type turnView struct {
	Ply      int       `json:"ply"`
	Color    string    `json:"color"`
	Turn     string    `json:"turn"`
	Used     int       `json:"used"`
	Counted  int       `json:"counted"`
	Auto     bool      `json:"auto"`
	PlayedAt time.Time `json:"played_at"`
}

func viewStoredTurn(t games.StoredTurn) turnView {
	return turnView{Ply: t.Ply, Color: t.Color, Turn: t.Notation, Used: t.Used, Counted: t.Counted, Auto: t.Auto, PlayedAt: t.PlayedAt}
}

func viewPlayed(firstPly int, played []ruleset.Played, at time.Time) []turnView {
	out := make([]turnView, len(played))
	for i, p := range played {
		out[i] = turnView{Ply: firstPly + i, Color: p.Color, Turn: p.Ply, Used: p.Used,
			Counted: p.Counted, Auto: p.Auto, PlayedAt: at}
	}
	return out
}
