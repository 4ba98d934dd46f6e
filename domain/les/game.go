package les

import (
	"fmt"

	"github.com/lesspost/lesspost/domain/ruleset"
)

// Stage is what the current ply is: the setup, the choice, or a turn.
type Stage int8

const (
	StageSetup  Stage = iota // ply 0, the setter's (LS2)
	StageChoice              // ply 1, the chooser's (LS3)
	StageTurns               // from ply 2, Black first (LS4)
)

// Reason says how a game ended.
type Reason string

const (
	// ReasonNoMove: the mover had no legal first placement (LE1).
	ReasonNoMove Reason = "no_move"
	// ReasonResignation and ReasonTimeout: a player resigned or ran out of
	// time; the other wins (LE1, LE4).
	ReasonResignation Reason = "resignation"
	ReasonTimeout     Reason = "timeout"
	// ReasonAdjudicated: a tournament round's deadline passed; the position
	// is scored as it stands (LE3, LE4).
	ReasonAdjudicated Reason = "adjudicated"
)

// Result is how a game of Les ended.
type Result struct {
	Reason Reason
	// Draw is true when nobody won; then Winner means nothing.
	Draw   bool
	Winner Seat
	// Margin is the winner's holes minus the loser's (LE4); after a
	// resignation or a loss on time at least 1.
	Margin int
	// Decided is the step of LE3 that decided; DecidedNone for a
	// resignation, a loss on time, or an adjudication before the choice.
	Decided Decision
	// Holes are each stone colour's owned holes on the final position,
	// sorted as LE3 compares them.
	Holes [2][]Hole
}

// Played is one ply of a game's history.
type Played struct {
	Ply  int
	Seat Seat
	// Points are the setup's four stones (colours alternating from black)
	// or the turn's placements; none for the choice.
	Points []Point
	// Color is the turn's stone colour, or the colour chosen at ply 1;
	// Black for the setup.
	Color Color
}

// Text is the ply in canonical notation: "e5:e6:g3:g5", "black", "d4:k12".
func (p Played) Text() string {
	if p.Ply == 1 {
		return p.Color.String()
	}
	return joinPoints(p.Points)
}

// Engine is a game of Les being played: the board, the ply, the stones, the
// chooser's colour once chosen and, once over, the result. It keeps no
// history: Play returns what was played, for the caller to store. It
// implements ruleset.Game, whose colours are seat names ("setter",
// "chooser"): the stone colour a seat plays is Les's own detail
// (StoneColor). It is not safe for concurrent use.
type Engine struct {
	board   *Board
	ply     int
	pos     Position
	chooser Color // the chooser's stone colour; meaningful from ply 2
	result  *Result
}

var _ ruleset.Game = (*Engine)(nil)

// NewEngine starts a game on the board of a side (LB1): the setter sets up.
func NewEngine(side int) (*Engine, error) {
	b, err := BoardOf(side)
	if err != nil {
		return nil, err
	}
	return &Engine{board: b, pos: EmptyPosition(b)}, nil
}

// stage is what the current ply is.
func (g *Engine) stage() Stage {
	switch g.ply {
	case 0:
		return StageSetup
	case 1:
		return StageChoice
	}
	return StageTurns
}

// Position is the stones on the board now; from ply 2 its ToMove is the
// mover's colour.
func (g *Engine) Position() Position { return g.pos }

// Mover is the seat whose ply it is (after the end: whose it would be).
func (g *Engine) Mover() Seat {
	switch g.stage() {
	case StageSetup:
		return Setter
	case StageChoice:
		return Chooser
	}
	return g.seatOf(g.pos.toMove)
}

// ColorOf is the stone colour a seat plays, once the chooser has chosen.
func (g *Engine) ColorOf(s Seat) (Color, bool) {
	if g.ply < 2 || (s != Setter && s != Chooser) {
		return 0, false
	}
	if s == Chooser {
		return g.chooser, true
	}
	return g.chooser.Other(), true
}

func (g *Engine) seatOf(c Color) Seat {
	if c == g.chooser {
		return Chooser
	}
	return Setter
}

// StoneColor is the stone colour ("black", "white") the seat ("setter",
// "chooser") plays, once the chooser has chosen (LS3): for the views.
func (g *Engine) StoneColor(seat string) (string, bool) {
	s, err := ParseSeat(seat)
	if err != nil {
		return "", false
	}
	c, ok := g.ColorOf(s)
	if !ok {
		return "", false
	}
	return c.String(), true
}

// Over reports whether the game has ended.
func (g *Engine) Over() bool { return g.result != nil }

// Outcome is the result once the game is over.
func (g *Engine) Outcome() (Result, bool) {
	if g.result == nil {
		return Result{}, false
	}
	return *g.result, true
}

// judge parses and judges the text of the current ply without playing it:
// what it plays and the position after it.
func (g *Engine) judge(text string) (Played, Position, error) {
	if g.result != nil {
		return Played{}, Position{}, ruleset.ErrGameOver
	}
	p := Played{Ply: g.ply, Seat: g.Mover()}
	switch g.stage() {
	case StageSetup:
		setup, err := ParseSetup(text)
		if err != nil {
			return Played{}, Position{}, err
		}
		next, err := SetUp(g.board, setup)
		if err != nil {
			return Played{}, Position{}, err
		}
		p.Points = setup[:]
		return p, next, nil
	case StageChoice:
		c, err := ParseChoice(text)
		if err != nil {
			return Played{}, Position{}, err
		}
		p.Color = c
		return p, g.pos.WithToMove(Black), nil
	}
	t, err := ParseTurn(text)
	if err != nil {
		return Played{}, Position{}, err
	}
	next, err := g.pos.Play(t)
	if err != nil {
		return Played{}, Position{}, err
	}
	p.Points, p.Color = t, g.pos.toMove
	return p, next, nil
}

// PlayPly judges and plays the current ply and returns it. A refused ply
// is a *PlyError and changes nothing.
func (g *Engine) PlayPly(text string) (Played, error) {
	p, next, err := g.judge(text)
	if err != nil {
		return Played{}, err
	}
	if g.ply == 1 {
		g.chooser = p.Color
	}
	g.ply++
	g.pos = next
	// The game ends at the start of a turn without a legal first
	// placement (LE1): this can be the first turn, right after the choice.
	if g.ply >= 2 && g.pos.Over() {
		g.finish(ReasonNoMove)
	}
	return p, nil
}

// ResignSeat ends the game: the seat loses (LE1, LE4).
func (g *Engine) ResignSeat(s Seat) error {
	if s != Setter && s != Chooser {
		return fmt.Errorf("%w: %s", ErrSeat, s)
	}
	return g.concede(s, ReasonResignation)
}

// timeOut ends the game: the mover lost on time (LE1, LE4).
func (g *Engine) timeOut() error { return g.concede(g.Mover(), ReasonTimeout) }

// concede ends the game for the loser's opponent, with margin max(1,
// |difference of owned holes|) on the position as it stands (LE4).
func (g *Engine) concede(loser Seat, why Reason) error {
	if g.result != nil {
		return ruleset.ErrGameOver
	}
	s := g.pos.Score()
	g.result = &Result{Reason: why, Winner: loser.Other(), Margin: max(1, s.Margin), Holes: s.Holes}
	return nil
}

// Adjudicate implements ruleset.Game: it ends the game where it stands,
// scored by LE3 and LE4 (a tournament round's deadline). Before the choice
// no seat has a colour, so the game is a draw.
func (g *Engine) Adjudicate() error {
	if g.result != nil {
		return ruleset.ErrGameOver
	}
	if g.ply < 2 {
		g.result = &Result{Reason: ReasonAdjudicated, Draw: true, Holes: g.pos.Score().Holes}
		return nil
	}
	g.finish(ReasonAdjudicated)
	return nil
}

func (g *Engine) finish(why Reason) {
	s := g.pos.Score()
	g.result = &Result{Reason: why, Draw: s.Draw, Margin: s.Margin, Decided: s.Decided, Holes: s.Holes}
	if !s.Draw {
		g.result.Winner = g.seatOf(s.Winner)
	}
}

// clone is a copy of the game that plays on without changing g: positions
// are values sharing only their board, which nothing changes.
func (g *Engine) clone() *Engine {
	c := *g
	if g.result != nil {
		r := *g.result
		c.result = &r
	}
	return &c
}
