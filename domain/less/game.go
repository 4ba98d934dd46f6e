package less

import (
	"errors"
	"fmt"

	"github.com/lesspost/lesspost/domain/ruleset"
)

// Preset names a rule set (docs/rules.md#presets).
type Preset string

const (
	// PresetClassic is the rules as written, for two or four players.
	PresetClassic Preset = "classic"
	// PresetCodeCup is CodeCup 2017 play: four players, early_stop, 20 turns.
	PresetCodeCup Preset = "codecup"
)

// Options are a game's variants (T3, E3).
type Options struct {
	// EarlyStop lets a player end a turn after at least one move (T3).
	EarlyStop bool
	// MaxTurns is the number of turns each player gets before the game ends (E3).
	MaxTurns int
}

// DefaultMaxTurns is E3's default for the number of players.
func DefaultMaxTurns(players int) int {
	if players == 4 {
		return 20
	}
	return 40
}

// MaxTurnsLimit bounds MaxTurns: no correspondence game needs more.
const MaxTurnsLimit = 1000

// ErrOptions is wrapped by every error about a preset or options.
var ErrOptions = errors.New("invalid options")

// PresetOptions returns the options of a preset for a board size.
func PresetOptions(p Preset, size int) (Options, error) {
	switch p {
	case PresetClassic, "":
		return Options{MaxTurns: DefaultMaxTurns(Players(size))}, nil
	case PresetCodeCup:
		if size != 8 {
			return Options{}, fmt.Errorf("%w: the codecup preset is for four players on 8x8", ErrOptions)
		}
		return Options{EarlyStop: true, MaxTurns: 20}, nil
	default:
		return Options{}, fmt.Errorf("%w: unknown preset %q (classic, codecup)", ErrOptions, p)
	}
}

func (o Options) validate() error {
	if o.MaxTurns < 1 || o.MaxTurns > MaxTurnsLimit {
		return fmt.Errorf("%w: max_turns %d, want 1 to %d", ErrOptions, o.MaxTurns, MaxTurnsLimit)
	}
	return nil
}

// Reason says how a game ended.
type Reason string

const (
	ReasonComplete    Reason = "complete"    // E1, E2
	ReasonTurnLimit   Reason = "turn_limit"  // E3
	ReasonResignation Reason = "resignation" // E8
	ReasonTimeout     Reason = "timeout"     // E8
	// ReasonAdjudicated: a tournament round's deadline passed; scored as if
	// the turn limit were reached (E3–E7).
	ReasonAdjudicated Reason = "adjudicated"
)

// Result is the score of a finished game (E4–E8). Arrays are indexed by Side.
type Result struct {
	Reason Reason
	// Draw is true for equal totals; then Winner and Margin mean nothing.
	Draw   bool
	Winner Side
	Margin int
	Counts [2]int // moves counted (T4)
	Needed [2]int // still needed at the end (E4)
	Totals [2]int // Counts + Needed (E5)
	// BlockedCorner is true when E7 decided the result: the loser still has
	// a piece on its own start corner.
	BlockedCorner bool
	// Loser is the side that resigned or ran out of time (E8).
	Loser Side
}

// Played is one turn of a game's history.
type Played struct {
	Color Color
	Turn  Turn
	Outcome
	// Auto marks a pass the game made for a player who had no choice: his
	// team is complete (E2) or no legal move is possible (T2), or his time
	// ran out (TimedOut).
	Auto bool
	// TimedOut marks a turn passed because the player's time ran out.
	TimedOut bool
}

// Engine is a game of Less being played: the start, the options, the current
// position, the counts and, once over, the result. It keeps no history: Play
// returns what was played, for the caller to store. It is not safe for
// concurrent use.
type Engine struct {
	start  Position
	opts   Options
	pos    Position
	counts [4]int // by Color
	ply    int
	result *Result
}

// ErrGameOver is returned for a move or resignation after the end.
// It is the ruleset interface's, so that callers who know no game's rules
// recognise it.
var ErrGameOver = ruleset.ErrGameOver

// NewGame starts a game from a position (the start position or any set-up
// one) with options. A position in which the game is already decided is
// refused. Any automatic passes at the start (T2) are returned.
func NewGame(start Position, opts Options) (*Engine, []Played, error) {
	if start.board == nil {
		return nil, nil, fmt.Errorf("%w: no board", ErrPosition)
	}
	if err := opts.validate(); err != nil {
		return nil, nil, err
	}
	start.earlyStop = opts.EarlyStop
	g := &Engine{start: start, opts: opts, pos: start}
	if g.decided() {
		return nil, nil, fmt.Errorf("%w: the game would be over before it starts", ErrPosition)
	}
	return g, g.passWhileForced(nil), nil
}

// State is everything a Game is, as plain data for storage.
type State struct {
	Start    Position
	Options  Options
	Position Position
	Counts   [4]int // by Color
	Ply      int
	Result   *Result
}

// State returns the game as plain data; RestoreGame turns it back into a Game.
func (g *Engine) State() State {
	st := State{Start: g.start, Options: g.opts, Position: g.pos, Counts: g.counts, Ply: g.ply}
	if g.result != nil {
		r := *g.result
		st.Result = &r
	}
	return st
}

// RestoreGame rebuilds a game from stored State.
func RestoreGame(st State) (*Engine, error) {
	if st.Start.board == nil || st.Position.board == nil || st.Start.board.walls != st.Position.board.walls {
		return nil, fmt.Errorf("%w: start and current position must share a board", ErrPosition)
	}
	if err := st.Options.validate(); err != nil {
		return nil, err
	}
	if st.Ply < 0 {
		return nil, fmt.Errorf("%w: ply %d", ErrPosition, st.Ply)
	}
	g := &Engine{start: st.Start, opts: st.Options, pos: st.Position, counts: st.Counts, ply: st.Ply}
	g.start.earlyStop, g.pos.earlyStop = st.Options.EarlyStop, st.Options.EarlyStop
	if st.Result != nil {
		r := *st.Result
		g.result = &r
	}
	return g, nil
}

// clone is a copy of the game that plays on without changing g. Positions
// are values and share only their board, which nothing changes.
func (g *Engine) clone() *Engine {
	c := *g
	if g.result != nil {
		r := *g.result
		c.result = &r
	}
	return &c
}

// Start is the position the game started from.
func (g *Engine) Start() Position { return g.start }

// Options are the game's options.
func (g *Engine) Options() Options { return g.opts }

// Position is the current position.
func (g *Engine) Position() Position { return g.pos }

// Ply is the number of turns played, automatic passes included.
func (g *Engine) Ply() int { return g.ply }

// Count is colour c's move count (T4).
func (g *Engine) Count(c Color) int { return g.counts[c] }

// SideCount is the side's move count: the sum over its colours.
func (g *Engine) SideCount(s Side) int {
	n := 0
	for _, c := range SideColors(s, g.pos.Size()) {
		n += g.counts[c]
	}
	return n
}

// Over reports whether the game has ended.
func (g *Engine) Over() bool { return g.result != nil }

// Result is the result once the game is over.
func (g *Engine) Result() (Result, bool) {
	if g.result == nil {
		return Result{}, false
	}
	return *g.result, true
}

// Play judges and plays the mover's turn. It returns what was played: the
// turn and any automatic passes that followed it. On error nothing changes.
func (g *Engine) Play(t Turn) ([]Played, error) {
	if g.result != nil {
		return nil, ErrGameOver
	}
	next, out, err := g.pos.Play(t)
	if err != nil {
		return nil, err
	}
	played := g.record(nil, Played{Color: g.pos.toMove, Turn: t, Outcome: out}, next)
	return g.passWhileForced(played), nil
}

// Preview judges the mover's turn and returns the position it leads to,
// without playing it.
func (g *Engine) Preview(t Turn) (Position, Outcome, error) {
	if g.result != nil {
		return Position{}, Outcome{}, ErrGameOver
	}
	return g.pos.Play(t)
}

func (g *Engine) record(played []Played, p Played, next Position) []Played {
	g.ply++
	g.counts[p.Color] += p.Counted
	g.pos = next
	if g.decided() {
		g.finish(ReasonComplete)
	} else if g.ply >= g.opts.MaxTurns*Players(g.pos.Size()) {
		g.finish(ReasonTurnLimit)
	}
	return append(played, p)
}

// decided reports whether the placement ends the game (E1, E2).
func (g *Engine) decided() bool {
	white, black := g.pos.Complete(SideWhite), g.pos.Complete(SideBlack)
	if g.pos.Size() == 8 {
		return white && black
	}
	return white || black
}

// passWhileForced plays Nil for every player in turn who has no choice:
// a complete team's player (E2) or one with no legal move (T2).
func (g *Engine) passWhileForced(played []Played) []Played {
	for g.result == nil {
		s := g.pos.BeginTurn()
		if _, ok := s.anyMove(); ok {
			break
		}
		next, out, err := s.End()
		if err != nil {
			panic("less: a forced pass was refused: " + err.Error())
		}
		played = g.record(played, Played{Color: g.pos.toMove, Turn: Turn{}, Outcome: out, Auto: true}, next)
	}
	return played
}

// Adjudicate ends an unfinished game as if the turn limit were reached
// (E3–E7): totals are counts plus what each side still needs.
func (g *Engine) Adjudicate() error {
	if g.result != nil {
		return ErrGameOver
	}
	g.finish(ReasonAdjudicated)
	return nil
}

// PassOnTime ends the mover's turn because his time ran out, in games whose
// time-out policy passes rather than forfeits: no moves, and the turn counts
// 3 as every turn that ends with points left does (T4). The automatic passes
// that follow are returned with it.
func (g *Engine) PassOnTime() ([]Played, error) {
	if g.result != nil {
		return nil, ErrGameOver
	}
	next, out := g.pos.PassOnTime()
	played := g.record(nil, Played{Color: g.pos.toMove, Turn: Turn{}, Outcome: out, Auto: true, TimedOut: true}, next)
	return g.passWhileForced(played), nil
}

// PassOnTime is the position after the mover's turn is passed because his
// time ran out, and its outcome (see Game.PassOnTime). Unlike Play(Nil),
// which T2 allows only when no legal move is possible, it never fails:
// whoever replays a stored game passes its time-out turns with it.
func (p Position) PassOnTime() (Position, Outcome) {
	s := p.BeginTurn()
	next := s.pos
	next.toMove = next.next(next.toMove)
	out := Outcome{Counted: Budget, Completed: s.SideComplete()}
	if out.Completed {
		out.Counted = 0
	}
	return next, out
}

// Resign ends the game: side s loses by max(10, the margin E6 would give its
// opponent) (E8).
func (g *Engine) Resign(s Side) error { return g.concede(s, ReasonResignation) }

// TimeOut ends the game: side s lost on time (E8).
func (g *Engine) TimeOut(s Side) error { return g.concede(s, ReasonTimeout) }

func (g *Engine) concede(s Side, why Reason) error {
	if g.result != nil {
		return ErrGameOver
	}
	r := g.score(why)
	// E8 compares with the margin E6 alone would give (not E7's): the
	// difference of totals, when it favours the opponent.
	margin := max(10, r.Totals[s]-r.Totals[s.Other()])
	r.Draw, r.Winner, r.Margin, r.Loser, r.BlockedCorner = false, s.Other(), margin, s, false
	g.result = &r
	return nil
}

func (g *Engine) finish(why Reason) {
	r := g.score(why)
	g.result = &r
}

// score computes counts, needed and totals, and the result by E7 then E6.
func (g *Engine) score(why Reason) Result {
	r := Result{Reason: why}
	var blocked [2]bool
	for _, s := range []Side{SideWhite, SideBlack} {
		r.Counts[s] = g.SideCount(s)
		if !g.pos.Complete(s) {
			r.Needed[s] = g.pos.Needed(s)
		}
		r.Totals[s] = r.Counts[s] + r.Needed[s]
		for _, c := range SideColors(s, g.pos.Size()) {
			blocked[s] = blocked[s] || g.pos.pieces[c]&StartCorner(c, g.pos.Size()) != 0
		}
	}
	switch {
	case blocked[SideWhite] != blocked[SideBlack]:
		r.BlockedCorner = true
		r.Winner, r.Margin = SideWhite, 10
		if blocked[SideWhite] {
			r.Winner = SideBlack
		}
	case r.Totals[SideWhite] == r.Totals[SideBlack]:
		r.Draw = true
	case r.Totals[SideWhite] < r.Totals[SideBlack]:
		r.Winner, r.Margin = SideWhite, r.Totals[SideBlack]-r.Totals[SideWhite]
	default:
		r.Winner, r.Margin = SideBlack, r.Totals[SideWhite]-r.Totals[SideBlack]
	}
	r.Loser = r.Winner.Other()
	return r
}
