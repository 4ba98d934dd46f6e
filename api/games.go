package api

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
)

type playerRequest struct {
	Name   string `json:"name"`
	Email  string `json:"email"`
	Locale string `json:"locale"`
	// Handle names a player by his account's handle instead of a name and
	// address (see Server.invitees).
	Handle string `json:"handle"`
}

func (p playerRequest) player() games.Player {
	return games.Player{Name: p.Name, Email: p.Email, Locale: p.Locale}
}

type boardRequest struct {
	Side  *int    `json:"side"` // Les
	Seed  *string `json:"seed"` // Less
	Walls string  `json:"walls"`
}

type optionsRequest struct {
	EarlyStop *bool `json:"early_stop"`
	MaxTurns  *int  `json:"max_turns"`
}

type setupRequest struct {
	Pieces map[string][]string `json:"pieces"`
	ToMove string              `json:"to_move"`
}

type createGameRequest struct {
	Game    string          `json:"game"`
	Players []playerRequest `json:"players"`
	Board   *boardRequest   `json:"board"`
	Preset  string          `json:"preset"`
	Options *optionsRequest `json:"options"`
	Setup   *setupRequest   `json:"setup"`
	Time    *timeRequest    `json:"time"`
}

func (r createGameRequest) spec() (games.NewGameSpec, error) {
	switch r.Game {
	case les.RulesetName:
		return r.lesSpec()
	case "", less.RulesetName:
	default:
		return r.otherSpec()
	}
	var spec games.NewGameSpec
	params := less.Params{Preset: less.Preset(r.Preset)}
	for _, p := range r.Players {
		spec.Players = append(spec.Players, p.player())
	}
	if b := r.Board; b != nil {
		if b.Side != nil {
			return spec, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "board.side is for Les games; a Less board has a seed or walls")
		}
		params.Walls = b.Walls
		if b.Seed != nil {
			seed, err := strconv.ParseUint(*b.Seed, 10, 64)
			if err != nil {
				return spec, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "board.seed is a whole number from 0 to 18446744073709551615, written as a string")
			}
			params.Seed = &seed
		}
	}
	if o := r.Options; o != nil {
		params.EarlyStop, params.MaxTurns = o.EarlyStop, o.MaxTurns
	}
	tc, err := r.Time.control()
	if err != nil {
		return spec, err
	}
	spec.Time = tc
	if st := r.Setup; st != nil {
		setup := less.Setup{Pieces: map[less.Color][]less.Square{}}
		var err error
		if setup.ToMove, err = less.ParseColor(st.ToMove); err != nil {
			return spec, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "setup.to_move: %v", err)
		}
		for name, squares := range st.Pieces {
			c, err := less.ParseColor(name)
			if err != nil {
				return spec, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "setup.pieces: %v", err)
			}
			for _, text := range squares {
				sq, err := less.ParseSquare(text)
				if err != nil {
					return spec, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "setup.pieces.%s: %v", c, err)
				}
				setup.Pieces[c] = append(setup.Pieces[c], sq)
			}
		}
		params.Setup = &setup
	}
	spec.Params = params.Map()
	return spec, nil
}

// createGame creates a game and emails each player his invitation with his
// own move link. The creator gets the game, never the players' links.
func (s *Server) createGame(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeGamesCreate)
	if err != nil {
		return err
	}
	var req createGameRequest
	body, err := decodeJSONBody(c, &req)
	if err != nil {
		return err
	}
	var named []*playerRequest
	for i := range req.Players {
		named = append(named, &req.Players[i])
	}
	invited, err := s.invitees(c.Request().Context(), named...)
	if err != nil {
		return err
	}
	spec, err := req.spec()
	if err != nil {
		return hideInvitees(err, invited)
	}
	idem, err := idempotency(c, p, body)
	if err != nil {
		return err
	}
	actor := games.Actor{UserID: p.session.User.ID, UserEmail: p.session.User.Email}
	present := func(g *games.Game) (domain.Response, error) {
		v, err := s.viewGame(g, actor)
		if err != nil {
			return domain.Response{}, err
		}
		b, err := json.Marshal(v)
		return domain.Response{Status: http.StatusCreated, Body: b}, err
	}
	done, err := s.app.CreateGameOnce(c.Request().Context(), spec, p.session.User.ID, idem, present)
	if err != nil {
		return hideInvitees(err, invited)
	}
	if done.Replayed {
		var created struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(done.Response.Body, &created); err != nil {
			return fmt.Errorf("stored response: %w", err)
		}
		c.Response().Header().Set(echo.HeaderLocation, "/v1/games/"+created.ID)
		c.Response().Header().Set("Idempotent-Replayed", "true")
		return c.JSONBlob(done.Response.Status, done.Response.Body)
	}
	s.wakeMail()
	c.Response().Header().Set(echo.HeaderLocation, "/v1/games/"+done.Game.ID)
	if idem != nil {
		return c.JSONBlob(done.Response.Status, done.Response.Body) // what a retry gets, to the byte
	}
	v, err := s.viewGame(&done.Game, actor)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, v)
}

// readableGame authenticates the caller and loads a game he may see.
func (s *Server) readableGame(c echo.Context, scope string) (games.Game, games.Actor, *principal, error) {
	p, err := s.caller(c, scope)
	if err != nil {
		return games.Game{}, games.Actor{}, nil, err
	}
	g, a, err := s.app.ReadGame(c.Request().Context(), c.Param("id"), p.credentials())
	if err != nil {
		return games.Game{}, games.Actor{}, nil, err
	}
	return g, a, p, nil
}

// getGame returns a game. Its ETag is the game's version: a client polling
// with If-None-Match gets 304 until something happens.
func (s *Server) getGame(c echo.Context) error {
	g, a, _, err := s.readableGame(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	etag := `"v` + strconv.Itoa(g.Version) + `"`
	c.Response().Header().Set("ETag", etag)
	if match := c.Request().Header.Get("If-None-Match"); match != "" && etagMatches(match, etag) {
		return c.NoContent(http.StatusNotModified)
	}
	v, err := s.viewGame(&g, a)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

func etagMatches(header, etag string) bool {
	for _, candidate := range strings.Split(header, ",") {
		candidate = strings.TrimPrefix(strings.TrimSpace(candidate), "W/")
		if candidate == etag || candidate == "*" {
			return true
		}
	}
	return false
}

type moveOptionView struct {
	From string `json:"from"`
	To   string `json:"to"`
	Cost int    `json:"cost"`
	Jump bool   `json:"jump"`
	Kind string `json:"kind"` // step, jump (Less); place, color (Les)
}

type movesView struct {
	Turn   string           `json:"turn"`
	Used   int              `json:"used"`
	Left   int              `json:"left"`
	CanEnd bool             `json:"can_end"`
	Moves  []moveOptionView `json:"moves"`
}

// legalMoves lists the legal moves from the current position, after the
// moves of the turn so far (query "turn"), optionally of one piece ("from"),
// with their costs: what the play page shows when a piece is tapped.
func (s *Server) legalMoves(c echo.Context) error {
	g, _, _, err := s.readableGame(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	if g.Over() {
		return ruleset.ErrGameOver
	}
	var from string
	if v := c.QueryParam("from"); v != "" && g.Rules.Ruleset() != less.RulesetName {
		from = strings.ToLower(v) // Les places stones: no move starts anywhere
	} else if v != "" {
		sq, err := less.ParseSquare(v)
		if err != nil {
			return NewProblem(http.StatusBadRequest, "invalid_request", "from: "+err.Error())
		}
		from = sq.String()
	}
	legal, err := g.Rules.Legal(c.QueryParam("turn"))
	if err != nil {
		return err
	}
	out := movesView{Turn: legal.Partial, Used: legal.Used, Left: legal.Left, CanEnd: legal.CanEnd, Moves: []moveOptionView{}}
	for _, m := range legal.Choices {
		if from == "" || m.From == from {
			out.Moves = append(out.Moves, moveOptionView{From: m.From, To: m.To, Cost: m.Cost, Jump: m.Kind == "jump", Kind: m.Kind})
		}
	}
	return c.JSON(http.StatusOK, out)
}

type turnsView struct {
	Turns []turnView `json:"turns"`
}

func (s *Server) listTurns(c echo.Context) error {
	g, _, _, err := s.readableGame(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	rows, err := s.app.Turns(c.Request().Context(), g.ID)
	if err != nil {
		return err
	}
	out := turnsView{Turns: make([]turnView, len(rows))}
	for i, t := range rows {
		out.Turns[i] = viewStoredTurn(t)
	}
	return c.JSON(http.StatusOK, out)
}

type playerView struct {
	Color string `json:"color"`
	Name  string `json:"name"`
}

type setupView struct {
	Pieces map[string][]string `json:"pieces"`
	ToMove string              `json:"to_move"`
}

type recordView struct {
	ID      string       `json:"id"`
	Game    string       `json:"game"`
	Board   boardView    `json:"board"`
	Preset  string       `json:"preset"`
	Options optionsView  `json:"options"`
	Players []playerView `json:"players"`
	Setup   *setupView   `json:"setup"`
	Turns   []turnView   `json:"turns"`
	Result  *resultView  `json:"result"`
	Record  string       `json:"record"`
}

// record exports the game record: the engine's text format (like PGN), or
// the same as JSON.
func (s *Server) record(c echo.Context) error {
	g, a, _, err := s.readableGame(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	rows, err := s.app.Turns(c.Request().Context(), g.ID)
	if err != nil {
		return err
	}
	switch g.Rules.Ruleset() {
	case les.RulesetName:
		e, err := lesGame(&g)
		if err != nil {
			return err
		}
		return s.lesRecord(c, &g, e, rows)
	case less.RulesetName:
	default:
		return otherRecord(c, &g, rows)
	}
	lg, err := lessGame(&g)
	if err != nil {
		return err
	}
	text, err := recordText(&g, rows, gameTags(&g))
	if err != nil {
		return err
	}
	if c.QueryParam("format") != "json" {
		c.Response().Header().Set("Content-Disposition", `inline; filename="`+g.ID+`.less"`)
		return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(text))
	}
	v, err := s.viewLessGame(&g, lg, a)
	if err != nil {
		return err
	}
	out := recordView{ID: g.ID, Game: less.RulesetName, Board: v.Board, Preset: v.Preset, Options: v.Options, Result: v.Result, Record: text,
		Turns: make([]turnView, len(rows))}
	for _, seat := range g.Seats {
		out.Players = append(out.Players, playerView{Color: seat.Color, Name: seat.Name})
	}
	if st := lg.Game.Start(); !st.Equal(less.StartPosition(st.Board(), st.EarlyStop())) {
		out.Setup = &setupView{Pieces: pieces(st), ToMove: st.ToMove().String()}
	}
	for i, t := range rows {
		out.Turns[i] = viewStoredTurn(t)
	}
	return c.JSON(http.StatusOK, out)
}

type turnRequest struct {
	Turn string `json:"turn"`
	Ply  *int   `json:"ply"`
}

type previewView struct {
	Game      string              `json:"game"`
	Turn      string              `json:"turn"`
	Moves     []moveOptionView    `json:"moves"`
	Used      int                 `json:"used"`
	Counted   int                 `json:"counted"`
	Completed bool                `json:"completed"`
	Pieces    map[string][]string `json:"pieces"`
	Diagram   string              `json:"diagram"`
}

// previewTurn judges a turn without playing it: the resulting position, or
// the rule it breaks.
func (s *Server) previewTurn(c echo.Context) error {
	g, a, _, err := s.readableGame(c, accounts.ScopeGamesPlay)
	if err != nil {
		return err
	}
	var req turnRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	after, played, err := games.PreviewTurn(g, a, req.Turn)
	if err != nil {
		return err
	}
	if after.Ruleset() == les.RulesetName && len(played) == 1 {
		e, err := les.EngineOf(after)
		if err != nil {
			return err
		}
		diagram, err := e.Diagram(played[0].Ply)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, lesPreviewView{Game: les.RulesetName, Turn: played[0].Ply, Stones: stones(e.Position()),
			Diagram: diagram, GameOver: e.Over()})
	}
	if g.Rules.Ruleset() != less.RulesetName {
		if len(played) == 0 {
			return fmt.Errorf("preview of game %s: nothing played", g.ID)
		}
		return otherPreview(c, &g, after, played[0].Ply)
	}
	before, err := lessGame(&g)
	if err != nil {
		return err
	}
	next, err := lessGame(&games.Game{ID: g.ID, Rules: after})
	if err != nil || len(played) == 0 {
		return fmt.Errorf("preview of game %s: not a Less turn", g.ID)
	}
	turn, err := less.ParseTurn(played[0].Ply)
	if err != nil {
		return fmt.Errorf("preview of game %s: %w", g.ID, err)
	}
	moves, out := moveCosts(before.Game.Position(), turn)
	// The pieces stand as the turn left them: passes after it move none.
	pos := next.Game.Position()
	return c.JSON(http.StatusOK, previewView{Game: less.RulesetName, Turn: turn.String(), Moves: moves,
		Used: out.Used, Counted: out.Counted, Completed: out.Completed, Pieces: pieces(pos), Diagram: less.Diagram(pos, turn)})
}

// moveCosts lists the moves of a legal turn from p with what each costs, as
// the legal-moves answer gives them, so that a page shows costs it did not
// compute, and the turn's outcome.
func moveCosts(p less.Position, turn less.Turn) ([]moveOptionView, less.Outcome) {
	out := make([]moveOptionView, 0, len(turn))
	ts := p.BeginTurn()
	for _, m := range turn {
		for _, o := range ts.MovesFrom(m.From) {
			if o.To == m.To {
				kind := "step"
				if o.Jump {
					kind = "jump"
				}
				out = append(out, moveOptionView{From: m.From.String(), To: m.To.String(), Cost: o.Cost, Jump: o.Jump, Kind: kind})
			}
		}
		if ts.Play(m) != nil {
			break // not for a legal turn
		}
	}
	_, outcome, _ := ts.End() // the turn was judged legal
	return out, outcome
}

// viewBoard describes the board to draw (less.View): the position now, or
// after ply ?ply=n of its history (replayed: a page stepping through the
// game), and the path of the latest turn that moved a piece, so that the
// path stays in sight after automatic passes. The play page draws it.
func (s *Server) viewBoard(c echo.Context) error {
	g, _, _, err := s.readableGame(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	rows, err := s.app.Turns(c.Request().Context(), g.ID)
	if err != nil {
		return err
	}
	rules := g.Rules
	history := make([]ruleset.Played, len(rows))
	for i, r := range rows {
		history[i] = r.Played()
	}
	if q := c.QueryParam("ply"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil {
			return NewProblem(http.StatusBadRequest, "invalid_request", "ply must be a whole number.")
		}
		if n != len(rows) {
			if rules, n, err = games.Replay(g.Rules, history, n); err != nil {
				return fmt.Errorf("game %s: %w", g.ID, err)
			}
			history = history[:n]
		}
	}
	b, err := rules.Board(rules.LastShown(history))
	if err != nil {
		return fmt.Errorf("game %s: %w: %w", g.ID, domain.ErrStoredData, err)
	}
	return c.JSON(http.StatusOK, b)
}

type playedView struct {
	Game   any        `json:"game"` // gameView or lesGameView
	Played []turnView `json:"played"`
}

// maxIdempotencyKey bounds the Idempotency-Key header.
const maxIdempotencyKey = 255

// submitTurn plays a turn. The whole change (the new state, the turn, the
// emails it causes and the response for the Idempotency-Key) commits in
// one transaction before anything is acknowledged.
func (s *Server) submitTurn(c echo.Context) error {
	var req turnRequest
	body, err := decodeJSONBody(c, &req)
	if err != nil {
		return err
	}
	if req.Ply == nil {
		return NewProblem(http.StatusBadRequest, "invalid_request", "ply is required: the number of turns played when you made this turn.")
	}
	return s.changeGame(c, body, func(r games.GameRequest) (domain.Response, bool, error) {
		return s.app.SubmitTurn(c.Request().Context(), r, *req.Ply, req.Turn, s.presentPlayed(http.StatusCreated))
	})
}

// resign ends the game: the caller's side loses (rules E8).
func (s *Server) resign(c echo.Context) error {
	body, err := decodeJSONBody(c, &struct{}{})
	if err != nil {
		return err
	}
	return s.changeGame(c, body, func(r games.GameRequest) (domain.Response, bool, error) {
		return s.app.Resign(c.Request().Context(), r, s.presentPlayed(http.StatusOK))
	})
}

// changeGame runs a turn or a resignation, with the Idempotency-Key if the
// request has one, and answers with the game and what was played.
func (s *Server) changeGame(c echo.Context, body []byte,
	change func(games.GameRequest) (domain.Response, bool, error)) error {
	p, err := s.caller(c, accounts.ScopeGamesPlay)
	if err != nil {
		return err
	}
	idem, err := idempotency(c, p, body)
	if err != nil {
		return err
	}
	resp, replayed, err := change(games.GameRequest{GameID: c.Param("id"), By: p.credentials(), Idem: idem,
		Hold: s.waitForMail})
	if err != nil {
		return err
	}
	if replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	} else {
		s.wakeMail()
	}
	return c.JSONBlob(resp.Status, resp.Body)
}

// presentPlayed renders a turn or a resignation as the game after it and
// the turns it played, with the given status.
func (s *Server) presentPlayed(status int) games.Presenter {
	return func(a games.Actor, before *games.Game, done *games.Submitted, now time.Time) (domain.Response, error) {
		v, err := s.viewGame(&done.Game, a)
		if err != nil {
			return domain.Response{}, err
		}
		out, err := json.Marshal(playedView{Game: v, Played: viewPlayed(before.Ply()+1, done.Played, now)})
		if err != nil {
			return domain.Response{}, err
		}
		return domain.Response{Status: status, Body: out}, nil
	}
}

// idempotency reads the Idempotency-Key header. A key is scoped to whoever
// sends it, and bound to what was sent: the same key with another request
// is refused rather than answered with the wrong stored response.
func idempotency(c echo.Context, p *principal, body []byte) (*domain.Idempotency, error) {
	key := c.Request().Header.Get("Idempotency-Key")
	if key == "" {
		return nil, nil
	}
	if len(key) > maxIdempotencyKey || strings.IndexFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0 {
		return nil, NewProblem(http.StatusBadRequest, "invalid_request", "Idempotency-Key is 1 to 255 visible ASCII characters.")
	}
	var scope string
	switch p.use {
	case useSeat:
		scope = "seat:" + p.game + ":" + p.color
	case useWatch:
		scope = "watch:" + p.game
	default:
		scope = "user:" + strconv.FormatInt(p.session.User.ID, 10)
	}
	h := sha256.New()
	h.Write([]byte(c.Request().Method + " " + c.Request().URL.Path + "\n"))
	h.Write(body)
	return &domain.Idempotency{Scope: scope, Key: key, Fingerprint: h.Sum(nil)}, nil
}

type linkSentView struct {
	Status string `json:"status"`
}

// rotateSeatLink renews a seat's move link: old links stop working and the
// new one is emailed to the seat's player (never returned to the caller).
func (s *Server) rotateSeatLink(c echo.Context) error {
	p, err := s.caller(c, accounts.ScopeGamesPlay)
	if err != nil {
		return err
	}
	if err := s.app.RotateSeat(c.Request().Context(), c.Param("id"), p.credentials(), c.Param("color")); err != nil {
		return err
	}
	s.wakeMail()
	return c.JSON(http.StatusAccepted, linkSentView{Status: "sent"})
}

// rotateSpectatorLink replaces the game's spectator link: older links stop
// working. It answers the game, with the new link.
func (s *Server) rotateSpectatorLink(c echo.Context) error {
	p, err := s.caller(c, accounts.ScopeGamesPlay)
	if err != nil {
		return err
	}
	g, a, err := s.app.RotateSpectatorLink(c.Request().Context(), c.Param("id"), p.credentials())
	if err != nil {
		return err
	}
	v, err := s.viewGame(&g, a)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// rematchView answers a rematch: the new game as its caller sees it, and
// for a caller who came with a move link, his own link to the new game.
type rematchView struct {
	Game    any     `json:"game"`
	Created bool    `json:"created"`
	PlayURL *string `json:"play_url"`
}

// rematch starts (or finds) the rematch of a finished game for one of its
// players or its creator: one click on the finished game's page.
func (s *Server) rematch(c echo.Context) error {
	if _, err := decodeJSONBody(c, &struct{}{}); err != nil {
		return err
	}
	p, err := s.caller(c, accounts.ScopeGamesCreate)
	if err != nil {
		return err
	}
	done, err := s.app.Rematch(c.Request().Context(), c.Param("id"), p.credentials())
	if err != nil {
		return err
	}
	actor := games.Actor{UserID: p.session.User.ID, UserEmail: p.session.User.Email}
	out := rematchView{Created: done.Created}
	if done.Seat != "" {
		seat, _ := done.Game.Seat(done.Seat)
		actor = games.Actor{SeatColor: &done.Seat}
		u, err := s.links.MoveURL(done.Game.ID, seat.Color, seat.TokenVersion)
		if err != nil {
			return err
		}
		out.PlayURL = &u
	}
	if out.Game, err = s.viewGame(&done.Game, actor); err != nil {
		return err
	}
	status := http.StatusOK
	if done.Created {
		s.wakeMail()
		status = http.StatusCreated
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/games/"+done.Game.ID)
	return c.JSON(status, out)
}
