package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// The JSON shapes of a game of a ruleset registered beside Less and Les,
// that openapi.yaml does not describe: what every game has, read through the
// ruleset interface alone. Its board is drawn from GET /view and its plies
// chosen from GET /moves, as for Less and Les; no line here knows the game.

type otherGameView struct {
	ID           string           `json:"id"`
	Game         string           `json:"game"`
	Status       string           `json:"status"`
	Players      int              `json:"players"`
	Stage        string           `json:"stage,omitempty"`
	Seats        []otherSeatView  `json:"seats"`
	Ply          int              `json:"ply"`
	ToMove       *string          `json:"to_move"`
	YourColors   []string         `json:"your_colors"`
	Locale       string           `json:"locale"`
	Goal         string           `json:"goal"`
	Result       *otherResultView `json:"result"`
	Diagram      string           `json:"diagram"`
	SpectatorURL string           `json:"spectator_url,omitempty"`
	Time         timeView         `json:"time"`
	Deadline     *time.Time       `json:"deadline"`
	TimeLeft     *int             `json:"time_left_seconds"`
	Version      int              `json:"version"`
	CreatedAt    time.Time        `json:"created_at"`
	UpdatedAt    time.Time        `json:"updated_at"`
}

type otherSeatView struct {
	Color  string `json:"color"`
	Name   string `json:"name"`
	ToMove bool   `json:"to_move"`
}

// otherResultView is a result as the ruleset states it: the winning
// colours (none for a draw), and Text, the ruleset's line for people.
type otherResultView struct {
	Reason  string   `json:"reason"`
	Draw    bool     `json:"draw"`
	Winners []string `json:"winners"`
	Margin  int      `json:"margin"`
	Record  string   `json:"record"`
	Text    string   `json:"text"`
}

func (s *Server) viewOtherGame(g *games.Game, a games.Actor) (otherGameView, error) {
	c, err := s.gameCommon(g, a)
	if err != nil {
		return otherGameView{}, err
	}
	diagram, err := g.Rules.Diagram("")
	if err != nil {
		return otherGameView{}, err
	}
	v := otherGameView{ID: g.ID, Game: g.Rules.Ruleset(), Status: c.status, Players: len(g.Seats), Stage: g.Rules.Stage(),
		Ply: g.Rules.Ply(), ToMove: c.toMove, YourColors: c.yourColors, Locale: c.locale, Goal: c.goal,
		Result: viewOtherResult(g), Diagram: diagram, SpectatorURL: c.spectatorURL, Time: c.time,
		Deadline: c.deadline, TimeLeft: c.timeLeft, Version: g.Version, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
	toMove := g.ToMove()
	for _, seat := range g.Seats {
		v.Seats = append(v.Seats, otherSeatView{Color: seat.Color, Name: seat.Name, ToMove: !g.Over() && seat.Color == toMove})
	}
	return v, nil
}

func viewOtherResult(g *games.Game) *otherResultView {
	r, over := g.Rules.Result()
	if !over {
		return nil
	}
	return &otherResultView{Reason: r.Reason, Draw: r.Draw, Winners: append([]string{}, r.Winners...), Margin: r.Margin,
		Record: r.Text, Text: r.Line}
}

// otherSpec is a request for a game of another ruleset: players and a time
// control; the options of Less and Les are refused, not ignored.
func (r createGameRequest) otherSpec() (games.NewGameSpec, error) {
	spec := games.NewGameSpec{Ruleset: r.Game}
	if r.Preset != "" || r.Options != nil || r.Setup != nil || r.Board != nil {
		return spec, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput,
			"board, preset, options and setup are for Less and Les games, not %s", r.Game)
	}
	for _, p := range r.Players {
		spec.Players = append(spec.Players, p.player())
	}
	tc, err := r.Time.control()
	if err != nil {
		return spec, err
	}
	spec.Time = tc
	return spec, nil
}

type otherPreviewView struct {
	Game     string `json:"game"`
	Turn     string `json:"turn"`
	Diagram  string `json:"diagram"`
	GameOver bool   `json:"game_over"`
}

// otherPreview answers a preview of another ruleset's ply: the ply as the
// rules write it and the board after it.
func otherPreview(c echo.Context, g *games.Game, after games.Rules, ply string) error {
	diagram, err := after.Diagram(ply)
	if err != nil {
		return err
	}
	_, over := after.Result()
	return c.JSON(http.StatusOK, otherPreviewView{Game: g.Rules.Ruleset(), Turn: ply, Diagram: diagram, GameOver: over})
}

type otherRecordView struct {
	ID      string           `json:"id"`
	Game    string           `json:"game"`
	Players []playerView     `json:"players"`
	Turns   []turnView       `json:"turns"`
	Result  *otherResultView `json:"result"`
	Record  string           `json:"record"`
}

// otherRecord answers the record of another ruleset's game: its text, or
// the same as JSON.
func otherRecord(c echo.Context, g *games.Game, rows []games.StoredTurn) error {
	text, err := recordText(g, rows, gameTags(g))
	if err != nil {
		return err
	}
	if c.QueryParam("format") != "json" {
		c.Response().Header().Set("Content-Disposition", `inline; filename="`+g.ID+recordExtension(g.Rules.Ruleset())+`"`)
		return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(text))
	}
	out := otherRecordView{ID: g.ID, Game: g.Rules.Ruleset(), Result: viewOtherResult(g), Record: text, Turns: make([]turnView, len(rows))}
	for _, seat := range g.Seats {
		out.Players = append(out.Players, playerView{Color: seat.Color, Name: seat.Name})
	}
	for i, t := range rows {
		out.Turns[i] = viewStoredTurn(t)
	}
	return c.JSON(http.StatusOK, out)
}
