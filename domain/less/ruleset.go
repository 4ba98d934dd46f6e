package less

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/view"
)

// RulesetName is the name Less is stored and registered under.
const RulesetName = "less"

// Rules is Less behind the ruleset interface.
type Rules struct{}

var _ ruleset.Ruleset = Rules{}

// Name implements ruleset.Ruleset.
func (Rules) Name() string { return RulesetName }

// The names of Less's own options (ruleset.Options.Params).
const (
	ParamWalls     = "walls"      // a wall string (B4); with "seed" it is refused
	ParamSeed      = "seed"       // a board generator seed (B5), decimal
	ParamPreset    = "preset"     // a preset name; default classic
	ParamEarlyStop = "early_stop" // "true" or "false", overriding the preset
	ParamMaxTurns  = "max_turns"  // a number, overriding the preset
	ParamSetup     = "setup"      // a start position as Position.String writes it
)

// Params are Less's options in typed form; Map gives them as Start takes
// them. The zero value is a classic game on a generated board.
type Params struct {
	// A board: a seed or a wall string (not both), or neither (the seed
	// Start is given).
	Seed  *uint64
	Walls string
	// A preset, and options that override it.
	Preset    Preset
	EarlyStop *bool
	MaxTurns  *int
	// Setup is a custom start position: any legal placement, any colour
	// to move.
	Setup *Setup
}

// Setup is a custom start position.
type Setup struct {
	Pieces map[Color][]Square
	ToMove Color
}

// Map gives the params by name, as ruleset.Options.Params.
func (p Params) Map() map[string]string {
	m := map[string]string{}
	if p.Walls != "" {
		m[ParamWalls] = p.Walls
	}
	if p.Seed != nil {
		m[ParamSeed] = strconv.FormatUint(*p.Seed, 10)
	}
	if p.Preset != "" {
		m[ParamPreset] = string(p.Preset)
	}
	if p.EarlyStop != nil {
		m[ParamEarlyStop] = strconv.FormatBool(*p.EarlyStop)
	}
	if p.MaxTurns != nil {
		m[ParamMaxTurns] = strconv.Itoa(*p.MaxTurns)
	}
	if p.Setup != nil {
		m[ParamSetup] = p.Setup.String()
	}
	return m
}

// String writes the set-up as ParsePosition reads it.
func (s *Setup) String() string {
	var sb strings.Builder
	for _, c := range slices.Sorted(maps.Keys(s.Pieces)) {
		if len(s.Pieces[c]) == 0 {
			continue
		}
		sb.WriteString(c.String() + ":")
		for i, sq := range s.Pieces[c] {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(sq.String())
		}
		sb.WriteByte(' ')
	}
	sb.WriteString("to-move:" + s.ToMove.String())
	return sb.String()
}

// ForfeitMargin implements ruleset.Ruleset: as a resignation with nothing
// else to go by (E8).
func (Rules) ForfeitMargin() int { return 10 }

// Start implements ruleset.Ruleset: 2 players play on 6x6, 4 on 8x8.
func (Rules) Start(o ruleset.Options) (ruleset.Game, []ruleset.Played, error) {
	bad := func(err error) error {
		return &ruleset.Error{Code: ruleset.CodeInvalidOptions, Index: ruleset.NoIndex, Message: err.Error(), Err: err}
	}
	var size int
	switch o.Players {
	case 2:
		size = 6
	case 4:
		size = 8
	default:
		return nil, nil, bad(fmt.Errorf("%w: a game has 2 or 4 players, not %d", ErrOptions, o.Players))
	}
	p := o.Params
	for name := range p {
		switch name {
		case ParamWalls, ParamSeed, ParamPreset, ParamEarlyStop, ParamMaxTurns, ParamSetup:
		default:
			return nil, nil, bad(fmt.Errorf("%w: no option %q", ErrOptions, clip(name)))
		}
	}
	var board *Board
	var seed *uint64
	var err error
	_, haveSeed := p[ParamSeed]
	switch {
	case haveSeed && p[ParamWalls] != "":
		return nil, nil, bad(fmt.Errorf("%w: give a board seed or a wall string, not both", ErrOptions))
	case p[ParamWalls] != "":
		if board, err = ParseBoard(size, p[ParamWalls]); err != nil {
			return nil, nil, bad(err)
		}
	default:
		s := o.Seed
		if haveSeed {
			if s, err = strconv.ParseUint(p[ParamSeed], 10, 64); err != nil {
				return nil, nil, bad(fmt.Errorf("%w: seed %q", ErrOptions, clip(p[ParamSeed])))
			}
		}
		if board, err = GenerateBoard(size, s); err != nil {
			return nil, nil, bad(err)
		}
		seed = &s
	}
	preset := Preset(p[ParamPreset])
	if preset == "" {
		preset = PresetClassic
	}
	opts, err := PresetOptions(preset, size)
	if err != nil {
		return nil, nil, bad(err)
	}
	if v, ok := p[ParamEarlyStop]; ok {
		if opts.EarlyStop, err = strconv.ParseBool(v); err != nil {
			return nil, nil, bad(fmt.Errorf("%w: early_stop %q", ErrOptions, clip(v)))
		}
	}
	if v, ok := p[ParamMaxTurns]; ok {
		if opts.MaxTurns, err = strconv.Atoi(v); err != nil {
			return nil, nil, bad(fmt.Errorf("%w: max_turns %q", ErrOptions, clip(v)))
		}
	}
	start := StartPosition(board, opts.EarlyStop)
	if v, ok := p[ParamSetup]; ok {
		if start, err = ParsePosition(board, v, opts.EarlyStop); err != nil {
			return nil, nil, bad(err)
		}
	}
	g, history, err := NewGame(start, opts)
	if err != nil {
		return nil, nil, bad(err)
	}
	return &RulesGame{Game: g, Preset: preset, Seed: seed}, RulesPlayed(history), nil
}

// storedState is a game's state as Less stores it (RulesGame.Encode).
type storedState struct {
	Size      int     `json:"size"`
	Walls     string  `json:"walls"`
	Seed      *string `json:"seed"` // decimal: a uint64 does not fit every JSON reader's numbers
	Preset    Preset  `json:"preset"`
	EarlyStop bool    `json:"early_stop"`
	MaxTurns  int     `json:"max_turns"`
	Start     string  `json:"start"`
	Position  string  `json:"position"`
	Counts    [4]int  `json:"counts"`
	Ply       int     `json:"ply"`
	Result    *stored `json:"result"`
}

// stored is Result with JSON names (same fields, same order).
type stored struct {
	Reason        Reason `json:"reason"`
	Draw          bool   `json:"draw"`
	Winner        Side   `json:"winner"`
	Margin        int    `json:"margin"`
	Counts        [2]int `json:"counts"`
	Needed        [2]int `json:"needed"`
	Totals        [2]int `json:"totals"`
	BlockedCorner bool   `json:"blocked_corner"`
	Loser         Side   `json:"loser"`
}

// Decode implements ruleset.Ruleset.
func (Rules) Decode(state []byte) (ruleset.Game, error) {
	g, err := DecodeGame(state)
	if err != nil {
		return nil, err // not a nil *RulesGame in a non-nil interface
	}
	return g, nil
}

// GameOf is a copy of the game of Less behind g, for the views made for
// Less alone (the API's LessGame shape, Less's emails), which show what
// only Less has: counts, sides, the result's totals. An error for a game
// of other rules. Code for every game reads g through ruleset.Game and
// never needs this.
func GameOf(g ruleset.Game) (*RulesGame, error) {
	lg, ok := g.(*RulesGame)
	if !ok || lg == nil {
		return nil, fmt.Errorf("a game of %s, not of Less", g.Ruleset())
	}
	return lg.Clone().(*RulesGame), nil
}

// DecodeGame reads a game of Less from what Encode wrote, as Less's own
// type: for tools and tests that work with Less's positions (the load
// test's random turns) from a stored game.
func DecodeGame(state []byte) (*RulesGame, error) {
	var s storedState
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, fmt.Errorf("less state: %w", err)
	}
	board, err := ParseBoard(s.Size, s.Walls)
	if err != nil {
		return nil, fmt.Errorf("less state: %w", err)
	}
	st := State{Options: Options{EarlyStop: s.EarlyStop, MaxTurns: s.MaxTurns}, Counts: s.Counts, Ply: s.Ply}
	if st.Start, err = ParsePosition(board, s.Start, s.EarlyStop); err != nil {
		return nil, fmt.Errorf("less state: start: %w", err)
	}
	if st.Position, err = ParsePosition(board, s.Position, s.EarlyStop); err != nil {
		return nil, fmt.Errorf("less state: position: %w", err)
	}
	if s.Result != nil {
		r := Result(*s.Result)
		st.Result = &r
	}
	g, err := RestoreGame(st)
	if err != nil {
		return nil, fmt.Errorf("less state: %w", err)
	}
	rg := &RulesGame{Game: g, Preset: s.Preset}
	if s.Seed != nil {
		seed, err := strconv.ParseUint(*s.Seed, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("less state: seed: %w", err)
		}
		rg.Seed = &seed
	}
	return rg, nil
}

// ImportRecord implements ruleset.Ruleset.
func (Rules) ImportRecord(text string) (ruleset.Game, []ruleset.Played, error) {
	r, err := ParseRecord(text)
	if err != nil {
		return nil, nil, err
	}
	return &RulesGame{Game: r.Game, Preset: r.Preset, Seed: r.Seed}, RulesPlayed(r.History), nil
}

// RulesGame is a Less game behind the ruleset interface, with what its
// record keeps besides the engine's state: the preset and the board's seed.
// Code that needs Less's own detail (the API's Less views) reads the fields.
type RulesGame struct {
	Game   *Engine
	Preset Preset
	Seed   *uint64 // nil for a board given by its wall string
}

var _ ruleset.Game = (*RulesGame)(nil)

// Ruleset implements ruleset.Game.
func (g *RulesGame) Ruleset() string { return RulesetName }

// Colors implements ruleset.Game.
func (g *RulesGame) Colors() []string {
	cs := Colors(g.Game.start.Size())
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// Side implements ruleset.Game: Yellow plays with White, Red with Black.
func (g *RulesGame) Side(color string) int {
	c, err := ParseColor(color)
	if err != nil || !slices.Contains(Colors(g.Game.start.Size()), c) {
		return -1
	}
	return int(SideOf(c))
}

// Ply implements ruleset.Game.
func (g *RulesGame) Ply() int { return g.Game.ply }

// ToMove implements ruleset.Game.
func (g *RulesGame) ToMove() string { return g.Game.pos.toMove.String() }

// Result implements ruleset.Game.
func (g *RulesGame) Result() (ruleset.Result, bool) {
	res, over := g.Game.Result()
	if !over {
		return ruleset.Result{}, false
	}
	out := ruleset.Result{Reason: string(res.Reason), Draw: res.Draw, Winner: int(res.Winner), Margin: res.Margin,
		Text: ResultText(g.Game),
		Line: res.Line(g.Game.start.Size())}
	if !res.Draw {
		for _, c := range SideColors(res.Winner, g.Game.start.Size()) {
			out.Winners = append(out.Winners, c.String())
		}
	}
	return out, true
}

// turnError gives a Less turn error the interface's form, keeping it
// reachable with errors.As.
func turnError(err error) error {
	var te *TurnError
	if errors.As(err, &te) {
		return &ruleset.Error{Code: string(te.Code), Rule: te.Code.Rule(), Index: te.Index, Message: te.Message, Err: te}
	}
	return err
}

// Syntax implements ruleset.Game: the text is a turn (N1, N2), its squares
// not yet judged against the board.
func (g *RulesGame) Syntax(text string) error {
	_, err := ParseTurn(text)
	return turnError(err)
}

// Check implements ruleset.Game.
func (g *RulesGame) Check(ply string) error {
	t, err := ParseTurn(ply)
	if err != nil {
		return turnError(err)
	}
	_, _, err = g.Game.Preview(t)
	return turnError(err)
}

// Play implements ruleset.Game.
func (g *RulesGame) Play(ply string) ([]ruleset.Played, error) {
	t, err := ParseTurn(ply)
	if err != nil {
		return nil, turnError(err)
	}
	played, err := g.Game.Play(t)
	if err != nil {
		return nil, turnError(err)
	}
	return RulesPlayed(played), nil
}

// Resign implements ruleset.Game.
func (g *RulesGame) Resign(color string) error {
	c, err := ParseColor(color)
	if err != nil {
		return err
	}
	return g.Game.Resign(SideOf(c))
}

// TimeOut implements ruleset.Game.
func (g *RulesGame) TimeOut(pass bool) ([]ruleset.Played, error) {
	if pass {
		played, err := g.Game.PassOnTime()
		return RulesPlayed(played), err
	}
	return nil, g.Game.TimeOut(SideOf(g.Game.pos.toMove))
}

// Adjudicate implements ruleset.Game: scored as at the turn limit (E3–E7).
func (g *RulesGame) Adjudicate() error { return g.Game.Adjudicate() }

// Clone implements ruleset.Game.
func (g *RulesGame) Clone() ruleset.Game {
	c := *g
	c.Game = g.Game.clone()
	return &c
}

// Restart implements ruleset.Game: the start position and options, with
// the passes the rules make at the start (T2).
func (g *RulesGame) Restart() (ruleset.Game, []ruleset.Played, error) {
	e, history, err := NewGame(g.Game.start, g.Game.opts)
	if err != nil {
		return nil, nil, err
	}
	return &RulesGame{Game: e, Preset: g.Preset, Seed: g.Seed}, RulesPlayed(history), nil
}

// Legal implements ruleset.Game: the moves of every piece of the mover
// after the moves of the turn so far, with their costs.
func (g *RulesGame) Legal(partial string) (ruleset.Legal, error) {
	if g.Game.Over() {
		return ruleset.Legal{}, ErrGameOver
	}
	var soFar Turn
	if text := strings.TrimSpace(partial); text != "" {
		var err error
		if soFar, err = ParseTurn(text); err != nil {
			return ruleset.Legal{}, turnError(err)
		}
	}
	ts := g.Game.pos.BeginTurn()
	for _, m := range soFar {
		if err := ts.Play(m); err != nil {
			return ruleset.Legal{}, turnError(err)
		}
	}
	out := ruleset.Legal{Used: ts.Used(), Left: ts.Left(), CanEnd: ts.CanEnd(), Choices: []ruleset.Choice{}}
	if len(soFar) > 0 {
		out.Partial = soFar.String()
	}
	for _, sq := range ts.Position().Pieces(ts.Mover()).Squares() {
		for _, o := range ts.MovesFrom(sq) {
			kind := "step"
			if o.Jump {
				kind = "jump"
			}
			out.Choices = append(out.Choices, ruleset.Choice{From: sq.String(), To: o.To.String(), Cost: o.Cost, Kind: kind})
		}
	}
	return out, nil
}

// Record implements ruleset.Game.
func (g *RulesGame) Record(history []ruleset.Played, players map[string]string, tags ...ruleset.Tag) (string, error) {
	r := Record{Game: g.Game, Players: map[Color]string{}, Preset: g.Preset, Seed: g.Seed}
	for _, t := range tags {
		r.Extra = append(r.Extra, Tag{Name: t.Name, Value: t.Value})
	}
	for c, name := range players {
		col, err := ParseColor(c)
		if err != nil {
			return "", err
		}
		r.Players[col] = name
	}
	for _, p := range history {
		lp, err := PlayedFrom(p)
		if err != nil {
			return "", err
		}
		r.History = append(r.History, lp)
	}
	return r.String(), nil
}

// Board implements ruleset.Game.
func (g *RulesGame) Board(last string) (view.Board, error) {
	t, err := parseLast(last)
	if err != nil {
		return view.Board{}, err
	}
	return View(g.Game.pos, t), nil
}

// LastShown implements ruleset.Game: the latest turn that moved a piece. A
// ply that does not read as a turn is returned, for Board to refuse.
func (g *RulesGame) LastShown(history []ruleset.Played) string {
	for i := len(history) - 1; i >= 0; i-- {
		if t, err := ParseTurn(history[i].Ply); err != nil || len(t) > 0 {
			return history[i].Ply
		}
	}
	return ""
}

// Diagram implements ruleset.Game.
func (g *RulesGame) Diagram(last string) (string, error) {
	t, err := parseLast(last)
	if err != nil {
		return "", err
	}
	return Diagram(g.Game.pos, t), nil
}

// Stage implements ruleset.Game: Less has one kind of ply.
func (g *RulesGame) Stage() string { return "" }

// Example implements ruleset.Game.
func (g *RulesGame) Example() (string, bool) {
	if g.Game.Over() {
		return "", false
	}
	t, ok := g.Game.pos.ExampleTurn()
	return t.String(), ok
}

// parseLast reads the turn to mark on a board: none for "".
func parseLast(last string) (Turn, error) {
	if last == "" {
		return nil, nil
	}
	return ParseTurn(last)
}

// Encode implements ruleset.Game.
func (g *RulesGame) Encode() ([]byte, error) {
	st := g.Game.State()
	s := storedState{Size: st.Start.Size(), Walls: st.Start.Board().Walls(), Preset: g.Preset,
		EarlyStop: st.Options.EarlyStop, MaxTurns: st.Options.MaxTurns, Start: st.Start.String(),
		Position: st.Position.String(), Counts: st.Counts, Ply: st.Ply}
	if g.Seed != nil {
		seed := strconv.FormatUint(*g.Seed, 10)
		s.Seed = &seed
	}
	if st.Result != nil {
		r := stored(*st.Result)
		s.Result = &r
	}
	return json.Marshal(s)
}

// PlayedFrom reads a ply in the interface's form back in Less's own. The
// interface does not say whether the turn completed the mover's side:
// Completed is false.
func PlayedFrom(p ruleset.Played) (Played, error) {
	c, err := ParseColor(p.Color)
	if err != nil {
		return Played{}, err
	}
	t, err := ParseTurn(p.Ply)
	if err != nil {
		return Played{}, err
	}
	return Played{Color: c, Turn: t, Auto: p.Auto, TimedOut: p.TimedOut,
		Outcome: Outcome{Used: p.Used, Counted: p.Counted}}, nil
}

// RulesPlayed gives Less's history the interface's form.
func RulesPlayed(ps []Played) []ruleset.Played {
	out := make([]ruleset.Played, len(ps))
	for i, p := range ps {
		out[i] = ruleset.Played{Color: p.Color.String(), Ply: p.Turn.String(), Auto: p.Auto, TimedOut: p.TimedOut,
			Used: p.Used, Counted: p.Counted}
	}
	return out
}
