package les

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/view"
)

// RulesetName is the name Les is stored and registered under.
const RulesetName = "les"

// ParamSize is Les's one option (ruleset.Options.Params): the board's side,
// MinSide to MaxSide, DefaultSide when absent (LB1).
const ParamSize = "size"

// Rules is Les behind the ruleset interface. Its games are *Engine.
type Rules struct{}

var _ ruleset.Ruleset = Rules{}

// Name implements ruleset.Ruleset.
func (Rules) Name() string { return RulesetName }

// Start implements ruleset.Ruleset: two players on the board of side
// "size"; the setter plays first and the rules make no ply of their own.
func (Rules) Start(o ruleset.Options) (ruleset.Game, []ruleset.Played, error) {
	bad := func(err error) error {
		return &ruleset.Error{Code: ruleset.CodeInvalidOptions, Index: ruleset.NoIndex, Message: err.Error(), Err: err}
	}
	if o.Players != 2 {
		return nil, nil, bad(fmt.Errorf("%w: Les is for 2 players, not %d", ErrOptions, o.Players))
	}
	side := DefaultSide
	for name, v := range o.Params {
		if name != ParamSize {
			return nil, nil, bad(fmt.Errorf("%w: no option %q (Les has %q)", ErrOptions, clip(name), ParamSize))
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, nil, bad(fmt.Errorf("%w: size %q, want a number from %d to %d", ErrOptions, clip(v), MinSide, MaxSide))
		}
		side = n
	}
	g, err := NewEngine(side)
	if err != nil {
		return nil, nil, bad(fmt.Errorf("%w: %w", ErrOptions, err))
	}
	return g, nil, nil
}

// ForfeitMargin implements ruleset.Ruleset: as a resignation, at least one
// hole (LE4).
func (Rules) ForfeitMargin() int { return 1 }

// ImportRecord implements ruleset.Ruleset. A refused record is a
// *RecordError; an illegal ply in it wraps a *PlyError.
func (Rules) ImportRecord(text string) (ruleset.Game, []ruleset.Played, error) {
	r, err := ParseRecord(text)
	if err != nil {
		return nil, nil, err
	}
	return r.Game, RulesPlayed(r.History), nil
}

// Ruleset implements ruleset.Game.
func (g *Engine) Ruleset() string { return RulesetName }

// Colors implements ruleset.Game: Les's seats in turn order, "setter" and
// "chooser" (LS1). They are not stone colours: see StoneColor.
func (g *Engine) Colors() []string { return []string{Setter.String(), Chooser.String()} }

// Side implements ruleset.Game: the setter is side 0, the chooser side 1;
// -1 for any other name.
func (g *Engine) Side(seat string) int {
	s, err := ParseSeat(seat)
	if err != nil {
		return -1
	}
	return int(s)
}

// Ply implements ruleset.Game.
func (g *Engine) Ply() int { return g.ply }

// ToMove implements ruleset.Game: the seat whose ply it is.
func (g *Engine) ToMove() string { return g.Mover().String() }

// Result implements ruleset.Game.
func (g *Engine) Result() (ruleset.Result, bool) {
	r, over := g.Outcome()
	if !over {
		return ruleset.Result{}, false
	}
	out := ruleset.Result{Reason: string(r.Reason), Draw: r.Draw, Margin: r.Margin,
		Text: g.ResultText(), Line: g.ResultLine()}
	if !r.Draw {
		out.Winner = int(r.Winner)
		out.Winners = []string{r.Winner.String()}
	}
	return out, true
}

// plyError gives a refused ply the interface's form, keeping the engine's
// error reachable with errors.As.
func plyError(err error) error {
	var pe *PlyError
	if errors.As(err, &pe) {
		return &ruleset.Error{Code: string(pe.Code), Rule: pe.Code.Rule(), Index: pe.Index, Message: pe.Message, Err: pe}
	}
	return err
}

// Syntax implements ruleset.Game: the text is written as the current
// stage's ply, a setup (LN1), the choice (LN2) or a turn (LN3), its points
// not yet judged against the board.
func (g *Engine) Syntax(text string) error {
	var err error
	switch g.stage() {
	case StageSetup:
		_, err = ParseSetup(text)
	case StageChoice:
		_, err = ParseChoice(text)
	default:
		_, err = ParseTurn(text)
	}
	return plyError(err)
}

// Check implements ruleset.Game: the ply is judged (LN4), not played.
func (g *Engine) Check(ply string) error {
	_, _, err := g.judge(ply)
	return plyError(err)
}

// Play implements ruleset.Game.
func (g *Engine) Play(ply string) ([]ruleset.Played, error) {
	p, err := g.PlayPly(ply)
	if err != nil {
		return nil, plyError(err)
	}
	return RulesPlayed([]Played{p}), nil
}

// Resign implements ruleset.Game: the seat ("setter", "chooser") loses.
func (g *Engine) Resign(seat string) error {
	s, err := ParseSeat(seat)
	if err != nil {
		return err
	}
	return g.ResignSeat(s)
}

// TimeOut implements ruleset.Game: the mover loses on time. Les has no pass
// (LT4): asked to pass, it refuses with ErrNoPass and changes nothing.
func (g *Engine) TimeOut(pass bool) ([]ruleset.Played, error) {
	if g.Over() {
		return nil, ruleset.ErrGameOver
	}
	if pass {
		return nil, ErrNoPass
	}
	return nil, g.timeOut()
}

// Clone implements ruleset.Game.
func (g *Engine) Clone() ruleset.Game { return g.clone() }

// Restart implements ruleset.Game: the empty board of the same side, the
// setter to set up (LB1).
func (g *Engine) Restart() (ruleset.Game, []ruleset.Played, error) {
	e, err := NewEngine(g.board.Side())
	if err != nil {
		return nil, nil, err
	}
	return e, nil, nil
}

// Legal implements ruleset.Game: where the mover's next stone may go, after
// the part of the ply given. In the setup (partial: its points so far) the
// stones alternate from black (LS2) and CanEnd is true once the four are
// placed; at the choice the choices are the colours (Kind "color", To
// "black" or "white"); in a turn the first placements, then the second
// (Kind "place", From ""), and CanEnd says the turn may stop (LT3). Costs
// are 0. A partial ply that breaks a rule gives its *ruleset.Error.
func (g *Engine) Legal(partial string) (ruleset.Legal, error) {
	if g.Over() {
		return ruleset.Legal{}, ruleset.ErrGameOver
	}
	out := ruleset.Legal{Choices: []ruleset.Choice{}}
	blank := strings.TrimFunc(partial, unicode.IsSpace) == ""
	var pts []Point
	if !blank && g.stage() != StageChoice {
		var err error
		if pts, err = ParsePoints(partial); err != nil {
			return ruleset.Legal{}, plyError(err)
		}
		out.Partial = joinPoints(pts)
	}
	place := func(next []Point) {
		for _, pt := range next {
			out.Choices = append(out.Choices, ruleset.Choice{To: pt.String(), Kind: "place"})
		}
	}
	switch g.stage() {
	case StageSetup:
		s := BeginSetup(g.board)
		for _, pt := range pts {
			if err := s.Add(pt); err != nil {
				return ruleset.Legal{}, plyError(err)
			}
		}
		out.CanEnd = s.Placed() == 4
		place(s.Next())
	case StageChoice:
		if blank {
			for _, c := range []Color{Black, White} {
				out.Choices = append(out.Choices, ruleset.Choice{To: c.String(), Kind: "color"})
			}
			break
		}
		c, err := ParseChoice(partial)
		if err != nil {
			return ruleset.Legal{}, plyError(err)
		}
		out.Partial, out.CanEnd = c.String(), true
	default:
		s := g.pos.BeginTurn()
		for _, pt := range pts {
			if err := s.Add(pt); err != nil {
				return ruleset.Legal{}, plyError(err)
			}
		}
		out.CanEnd = s.CanEnd()
		place(s.Next())
	}
	return out, nil
}

// Record implements ruleset.Game: players are named by seat ("setter",
// "chooser").
func (g *Engine) Record(history []ruleset.Played, players map[string]string, tags ...ruleset.Tag) (string, error) {
	r := Record{Game: g, Players: map[Seat]string{}}
	for _, t := range tags {
		r.Extra = append(r.Extra, Tag{Name: t.Name, Value: t.Value})
	}
	for seat, name := range players {
		s, err := ParseSeat(seat)
		if err != nil {
			return "", err
		}
		r.Players[s] = name
	}
	for i, p := range history {
		lp, err := g.PlayedFrom(i, p)
		if err != nil {
			return "", err
		}
		r.History = append(r.History, lp)
	}
	return r.String(), nil
}

// PlayedFrom reads ply number i of a history in the interface's form
// back in Les's own.
func (g *Engine) PlayedFrom(i int, p ruleset.Played) (Played, error) {
	s, err := ParseSeat(p.Color)
	if err != nil {
		return Played{}, err
	}
	out := Played{Ply: i, Seat: s}
	if i == 1 {
		if out.Color, err = ParseChoice(p.Ply); err != nil {
			return Played{}, fmt.Errorf("ply 1 %q: %w", clip(p.Ply), err)
		}
		return out, nil
	}
	if out.Points, err = ParsePoints(p.Ply); err != nil {
		return Played{}, fmt.Errorf("ply %d %q: %w", i, clip(p.Ply), err)
	}
	if i >= 2 {
		c, ok := g.ColorOf(s)
		if !ok {
			return Played{}, fmt.Errorf("ply %d: the colours are not chosen", i)
		}
		out.Color = c
	}
	return out, nil
}

// RulesPlayed gives Les's history the interface's form: the seat as the
// colour, the ply in canonical notation.
func RulesPlayed(ps []Played) []ruleset.Played {
	out := make([]ruleset.Played, len(ps))
	for i, p := range ps {
		out[i] = ruleset.Played{Color: p.Seat.String(), Ply: p.Text()}
	}
	return out
}

// Board implements ruleset.Game: the board now, with last (a ply's text:
// a setup or a turn; a choice or "" shows none) marked, and the owned holes
// once the game is over.
func (g *Engine) Board(last string) (view.Board, error) {
	pts, err := lastPoints(last)
	if err != nil {
		return view.Board{}, err
	}
	return View(g.pos, pts, g.Over()), nil
}

// LastShown implements ruleset.Game: the latest ply (a choice marks
// nothing).
func (g *Engine) LastShown(history []ruleset.Played) string {
	if len(history) == 0 {
		return ""
	}
	return history[len(history)-1].Ply
}

// Stage implements ruleset.Game: "setup", "choice" or "turns".
func (g *Engine) Stage() string { return stageNames[g.stage()] }

var stageNames = map[Stage]string{StageSetup: "setup", StageChoice: "choice", StageTurns: "turns"}

// Diagram draws the board now in ASCII (see Diagram), with last marked and
// the owned holes once the game is over.
func (g *Engine) Diagram(last string) (string, error) {
	pts, err := lastPoints(last)
	if err != nil {
		return "", err
	}
	return Diagram(g.pos, pts, g.Over()), nil
}

// lastPoints reads the points of a ply to show: none for "" or a choice.
func lastPoints(last string) ([]Point, error) {
	if strings.TrimFunc(last, unicode.IsSpace) == "" {
		return nil, nil
	}
	if _, err := ParseChoice(last); err == nil {
		return nil, nil
	}
	return ParsePoints(last)
}

// storedState is a game's state as Les stores it (Engine.Encode). New
// fields get new names; a reader that finds none of a field takes its zero.
type storedState struct {
	Size    int           `json:"size"`
	Ply     int           `json:"ply"`
	Chooser string        `json:"chooser,omitempty"` // the chooser's colour, from ply 2
	Black   string        `json:"black"`             // stones in board order, ':'-separated
	White   string        `json:"white"`
	Result  *storedResult `json:"result,omitempty"`
}

type storedResult struct {
	Reason  Reason `json:"reason"`
	Draw    bool   `json:"draw,omitempty"`
	Winner  string `json:"winner,omitempty"` // a seat
	Margin  int    `json:"margin"`
	Decided string `json:"decided"`
}

// Encode implements ruleset.Game: compact JSON. The holes of a result are
// not stored: they are the final position's.
func (g *Engine) Encode() ([]byte, error) {
	s := storedState{Size: g.board.side, Ply: g.ply,
		Black: strings.Join(g.board.names(g.pos.stones[Black]), ":"),
		White: strings.Join(g.board.names(g.pos.stones[White]), ":")}
	if g.ply >= 2 {
		s.Chooser = g.chooser.String()
	}
	if r := g.result; r != nil {
		s.Result = &storedResult{Reason: r.Reason, Draw: r.Draw, Margin: r.Margin, Decided: r.Decided.String()}
		if !r.Draw {
			s.Result.Winner = r.Winner.String()
		}
	}
	return json.Marshal(s)
}

// EngineOf is a copy of the game of Les behind g, for the views made for
// Les alone (the API's LesGame shape, Les's emails), which show what only
// Les has: stones, the seats' colours, holes. An error for a game of other
// rules. Code for every game reads g through ruleset.Game and never needs
// this.
func EngineOf(g ruleset.Game) (*Engine, error) {
	e, ok := g.(*Engine)
	if !ok || e == nil {
		return nil, fmt.Errorf("a game of %s, not of Les", g.Ruleset())
	}
	return e.clone(), nil
}

// Decode implements ruleset.Ruleset.
func (Rules) Decode(state []byte) (ruleset.Game, error) {
	g, err := decode(state)
	if err != nil {
		return nil, fmt.Errorf("les state: %w", err)
	}
	return g, nil
}

func decode(state []byte) (*Engine, error) {
	var s storedState
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, err
	}
	g, err := NewEngine(s.Size)
	if err != nil {
		return nil, err
	}
	stones := func(text string) ([]Point, error) {
		if text == "" {
			return nil, nil
		}
		return ParsePoints(text)
	}
	black, err := stones(s.Black)
	if err != nil {
		return nil, fmt.Errorf("black: %w", err)
	}
	white, err := stones(s.White)
	if err != nil {
		return nil, fmt.Errorf("white: %w", err)
	}
	// Turns alternate from Black's at ply 2, and a turn places one or two
	// stones after the setup's four.
	toMove := Color(max(s.Ply-2, 0) % 2)
	if g.pos, err = NewPosition(g.board, black, white, toMove); err != nil {
		return nil, err
	}
	stoneCount, turns := len(black)+len(white), max(s.Ply-2, 0)
	switch {
	case s.Ply < 0:
		return nil, fmt.Errorf("%w: ply %d", ErrPosition, s.Ply)
	case s.Ply == 0 && stoneCount != 0, s.Ply == 1 && (len(black) != 2 || len(white) != 2):
		return nil, fmt.Errorf("%w: %d black and %d white stones at ply %d", ErrPosition, len(black), len(white), s.Ply)
	case s.Ply >= 2 && (stoneCount < 4+turns || stoneCount > 4+2*turns):
		return nil, fmt.Errorf("%w: %d stones after %d turns", ErrPosition, stoneCount, turns)
	}
	g.ply = s.Ply
	if s.Ply >= 2 {
		if g.chooser, err = ParseColor(s.Chooser); err != nil {
			return nil, fmt.Errorf("chooser: %w", err)
		}
	} else if s.Chooser != "" {
		return nil, fmt.Errorf("%w: a chooser's colour at ply %d", ErrPosition, s.Ply)
	}
	if s.Result != nil {
		r := Result{Reason: s.Result.Reason, Draw: s.Result.Draw, Margin: s.Result.Margin, Holes: g.pos.Score().Holes}
		switch r.Reason {
		case ReasonNoMove, ReasonResignation, ReasonTimeout, ReasonAdjudicated:
		default:
			return nil, fmt.Errorf("result: unknown reason %q", clip(string(r.Reason)))
		}
		var ok bool
		if r.Decided, ok = parseDecision(s.Result.Decided); !ok {
			return nil, fmt.Errorf("result: unknown decision %q", clip(s.Result.Decided))
		}
		if !r.Draw {
			if r.Winner, err = ParseSeat(s.Result.Winner); err != nil {
				return nil, fmt.Errorf("result: %w", err)
			}
		}
		g.result = &r
	}
	return g, nil
}

// Example is a legal ply of the current stage, to show people how one is
// written: a setup, the choice, or a turn of two placements where one is
// legal. ok is false once the game is over.
func (g *Engine) Example() (ply string, ok bool) {
	if g.Over() {
		return "", false
	}
	switch g.stage() {
	case StageSetup:
		return exampleSetup(BeginSetup(g.board), nil)
	case StageChoice:
		return Black.String(), true
	}
	var best Turn
	g.pos.EachTurn(func(t Turn) bool {
		if len(t) > len(best) {
			best = append(Turn(nil), t...)
		}
		return len(best) < 2
	})
	return best.String(), len(best) > 0
}

// exampleSetup completes a setup from s, which placed the points so far:
// the first legal one in board order, trying the next where a stone leaves
// the last one nowhere to go.
func exampleSetup(s SetupState, placed []Point) (string, bool) {
	if s.Placed() == 4 {
		return joinPoints(placed), true
	}
	for _, pt := range s.Next() {
		next := s
		if next.Add(pt) != nil {
			continue
		}
		if out, ok := exampleSetup(next, append(placed, pt)); ok {
			return out, true
		}
	}
	return "", false
}
