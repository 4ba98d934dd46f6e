package api

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
)

// The JSON shapes of a game of Les (LesGame, LesResult, LesPreview,
// LesRecord in openapi.yaml). Its seats are "setter" and "chooser"; the
// stone colour each plays is known from the choice on.

type lesGameView struct {
	ID           string         `json:"id"`
	Game         string         `json:"game"`
	Status       string         `json:"status"`
	Players      int            `json:"players"`
	Board        lesBoardView   `json:"board"`
	Stage        string         `json:"stage"`
	Seats        []lesSeatView  `json:"seats"`
	Stones       stonesView     `json:"stones"`
	Ply          int            `json:"ply"`
	ToMove       *string        `json:"to_move"`
	YourColors   []string       `json:"your_colors"`
	Locale       string         `json:"locale"`
	Goal         string         `json:"goal"`
	Result       *lesResultView `json:"result"`
	Diagram      string         `json:"diagram"`
	SpectatorURL string         `json:"spectator_url,omitempty"`
	Time         timeView       `json:"time"`
	Deadline     *time.Time     `json:"deadline"`
	TimeLeft     *int           `json:"time_left_seconds"`
	Version      int            `json:"version"`
	CreatedAt    time.Time      `json:"created_at"`
	UpdatedAt    time.Time      `json:"updated_at"`
}

type lesBoardView struct {
	Side   int `json:"side"`
	Points int `json:"points"`
}

type lesSeatView struct {
	Color  string  `json:"color"`
	Name   string  `json:"name"`
	ToMove bool    `json:"to_move"`
	Stone  *string `json:"stone"`
}

type stonesView struct {
	Black []string `json:"black"`
	White []string `json:"white"`
}

type lesResultView struct {
	Reason      string      `json:"reason"`
	Winner      *string     `json:"winner"`
	Loser       *string     `json:"loser"`
	WinnerStone *string     `json:"winner_stone"`
	Margin      int         `json:"margin"`
	DecidedBy   string      `json:"decided_by"`
	Holes       lesHoleView `json:"holes"`
	Text        string      `json:"text"`
}

type lesHoleView struct {
	Black [][2]int `json:"black"`
	White [][2]int `json:"white"`
}

func (s *Server) viewLesGame(g *games.Game, e *les.Engine, a games.Actor) (lesGameView, error) {
	c, err := s.gameCommon(g, a)
	if err != nil {
		return lesGameView{}, err
	}
	diagram, err := e.Diagram("")
	if err != nil {
		return lesGameView{}, fmt.Errorf("game %s: %w", g.ID, err)
	}
	b := e.Position().Board()
	v := lesGameView{ID: g.ID, Game: les.RulesetName, Status: c.status, Players: len(g.Seats),
		Board: lesBoardView{Side: b.Side(), Points: b.Points()}, Stage: e.Stage(),
		Stones: stones(e.Position()), Ply: e.Ply(), ToMove: c.toMove, YourColors: c.yourColors, Locale: c.locale, Goal: c.goal,
		Result: viewLesResult(e), Diagram: diagram, SpectatorURL: c.spectatorURL, Time: c.time,
		Deadline: c.deadline, TimeLeft: c.timeLeft, Version: g.Version, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
	toMove := g.ToMove()
	for _, seat := range g.Seats {
		sv := lesSeatView{Color: seat.Color, Name: seat.Name, ToMove: !g.Over() && seat.Color == toMove}
		if stone, ok := e.StoneColor(seat.Color); ok {
			sv.Stone = &stone
		}
		v.Seats = append(v.Seats, sv)
	}
	return v, nil
}

func stones(p les.Position) stonesView {
	names := func(c les.Color) []string {
		pts := p.Stones(c)
		out := make([]string, len(pts))
		for i, pt := range pts {
			out[i] = pt.String()
		}
		return out
	}
	return stonesView{Black: names(les.Black), White: names(les.White)}
}

// viewLesResult is the result of a finished game; nil while it runs.
func viewLesResult(e *les.Engine) *lesResultView {
	r, over := e.Outcome()
	if !over {
		return nil
	}
	v := &lesResultView{Reason: string(r.Reason), Margin: r.Margin, DecidedBy: r.Decided.String(), Text: e.ResultLine(),
		Holes: lesHoleView{Black: holes(r.Holes[les.Black]), White: holes(r.Holes[les.White])}}
	if !r.Draw {
		w, l := r.Winner.String(), r.Winner.Other().String()
		v.Winner, v.Loser = &w, &l
		if c, ok := e.ColorOf(r.Winner); ok {
			stone := c.String()
			v.WinnerStone = &stone
		}
	}
	return v
}

func holes(hs []les.Hole) [][2]int {
	out := make([][2]int, len(hs))
	for i, h := range hs {
		out[i] = [2]int{h.Size, h.Around}
	}
	return out
}

type lesPreviewView struct {
	Game     string     `json:"game"`
	Turn     string     `json:"turn"`
	Stones   stonesView `json:"stones"`
	Diagram  string     `json:"diagram"`
	GameOver bool       `json:"game_over"`
}

type lesRecordView struct {
	ID      string         `json:"id"`
	Game    string         `json:"game"`
	Board   lesBoardView   `json:"board"`
	Players []playerView   `json:"players"`
	Turns   []turnView     `json:"turns"`
	Result  *lesResultView `json:"result"`
	Record  string         `json:"record"`
}

// lesRecord answers the record of a game of Les: the record text, or the
// same as JSON.
func (s *Server) lesRecord(c echo.Context, g *games.Game, e *les.Engine, rows []games.StoredTurn) error {
	text, err := recordText(g, rows, nil)
	if err != nil {
		return err
	}
	if c.QueryParam("format") != "json" {
		c.Response().Header().Set("Content-Disposition", `inline; filename="`+g.ID+`.les"`)
		return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(text))
	}
	b := e.Position().Board()
	out := lesRecordView{ID: g.ID, Game: les.RulesetName, Board: lesBoardView{Side: b.Side(), Points: b.Points()},
		Result: viewLesResult(e), Record: text, Turns: make([]turnView, len(rows))}
	for _, seat := range g.Seats {
		out.Players = append(out.Players, playerView{Color: seat.Color, Name: seat.Name})
	}
	for i, t := range rows {
		out.Turns[i] = viewStoredTurn(t)
	}
	return c.JSON(http.StatusOK, out)
}

// lesSpec is a request for a game of Les: two players (the setter, then
// the chooser), a board side, a time control. Less's options are refused,
// not ignored: a client that sends them expects them to count.
func (r createGameRequest) lesSpec() (games.NewGameSpec, error) {
	spec := games.NewGameSpec{Ruleset: les.RulesetName, Params: map[string]string{}}
	lessOnly := func(what string) (games.NewGameSpec, error) {
		return spec, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "%s is for Less games, not Les", what)
	}
	switch {
	case r.Preset != "":
		return lessOnly("preset")
	case r.Options != nil:
		return lessOnly("options")
	case r.Setup != nil:
		return lessOnly("setup")
	case r.Board != nil && (r.Board.Seed != nil || r.Board.Walls != ""):
		return lessOnly("board.seed or board.walls")
	}
	for _, p := range r.Players {
		spec.Players = append(spec.Players, p.player())
	}
	if r.Board != nil && r.Board.Side != nil {
		spec.Params[les.ParamSize] = strconv.Itoa(*r.Board.Side)
	}
	tc, err := r.Time.control()
	if err != nil {
		return spec, err
	}
	spec.Time = tc
	return spec, nil
}
