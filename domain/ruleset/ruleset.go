// Package ruleset is the one interface every game's rules implement (Less,
// Les, and any next game), in types that both the rulesets and the application layer
// reach: a ruleset's package imports this one and never domain; domain asks a
// game's rules through it and keeps a registry of them by name.
//
// Plies, colours, options and states cross this interface as strings and
// bytes in the ruleset's own notation: the rest of the server stores, sends
// and shows them without knowing what they mean.
package ruleset

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/lesspost/lesspost/domain/view"
)

// Ruleset is one game's rules.
type Ruleset interface {
	// Name is the ruleset's stable name ("less"), stored with every game.
	Name() string
	// Start begins a game from options. Options it refuses give an *Error
	// with a stable code. The plies the rules make by themselves at the
	// start (a forced pass) are returned with the game.
	Start(o Options) (Game, []Played, error)
	// Decode rebuilds a game from what its Encode wrote. An error means the
	// stored state is damaged.
	Decode(state []byte) (Game, error)
	// ImportRecord reads a whole game in the ruleset's record format and
	// returns it with its history.
	ImportRecord(text string) (Game, []Played, error)
	// ForfeitMargin is what a game forfeited without play (a tournament
	// pairing with a withdrawn player) counts as the winner's margin.
	ForfeitMargin() int
}

// Options are what a new game is started from.
type Options struct {
	// Players is the number of seats.
	Players int
	// Seed generates the board when Params names none.
	Seed uint64
	// Params are the ruleset's own options by name, in its own notation
	// (Less: "walls", "seed", "preset", "early_stop", "max_turns", "setup").
	// Names a ruleset does not know are refused.
	Params map[string]string
}

// Game is a game under its rules. It is a value the caller owns: it is not
// safe for concurrent use, and Play changes it.
type Game interface {
	// Ruleset is the name of the game's rules.
	Ruleset() string
	// Colors are the seats' colours in turn order.
	Colors() []string
	// Side is the side the colour plays for, 0 or 1: partners in a team
	// game share one. -1 for a colour the game does not have.
	Side(color string) int
	// Ply is the number of plies played so far.
	Ply() int
	// ToMove is the colour whose turn it is (the last mover's successor once
	// the game is over).
	ToMove() string
	// Result is the result once the game is over.
	Result() (Result, bool)
	// Syntax says whether text is written as a ply of this game at its
	// current stage, without judging it against the position (an illegal
	// ply passes): what tells a ply apart from other text, such as the
	// lines of a reply by email. Text that is not a ply gives an *Error.
	Syntax(text string) error
	// Check parses a ply and checks it against the rules without playing it.
	// An illegal ply gives an *Error with a stable code and the bad index.
	Check(ply string) error
	// Play plays the mover's ply and returns what was played: the ply and any
	// plies the rules then make by themselves.
	Play(ply string) ([]Played, error)
	// Resign ends the game: the colour's side loses.
	Resign(color string) error
	// TimeOut is the mover's time running out. With pass the rules pass his
	// ply (and return what was played); without, his side loses on time.
	TimeOut(pass bool) ([]Played, error)
	// Adjudicate ends the game where it stands, scored as the rules score a
	// game stopped before its end (a tournament round's deadline).
	Adjudicate() error
	// Clone returns a copy that plays on without changing g.
	Clone() Game
	// Restart is the game as it began: the same board and options before
	// any ply, with the plies the rules made by themselves at the start (as
	// Ruleset.Start returns them). Replaying the history on it gives every
	// earlier position (see games.Replay).
	Restart() (Game, []Played, error)
	// Legal says what the mover may do now, after the part of a ply given
	// (in the ply's notation, "" for none): what the page highlights and what
	// each choice costs.
	Legal(partial string) (Legal, error)
	// Record writes the game and its history in the ruleset's record
	// format, with the players' names by colour and tags of the server's
	// own (where and when it was played) after the ruleset's.
	Record(history []Played, players map[string]string, tags ...Tag) (string, error)
	// Board is the board to draw, with the last ply marked ("" for none).
	// A ply that moves nothing (a pass) leaves the board's Path empty.
	Board(last string) (view.Board, error)
	// LastShown is the ply of history (the game's plies so far) that a
	// board marks as the last one (Less: the latest turn that moved a
	// piece, so that its path stays in sight after passes); "" for none.
	LastShown(history []Played) string
	// Diagram is the board drawn in text, for mails and clients without
	// pictures, with the last ply marked as Board marks it.
	Diagram(last string) (string, error)
	// Stage names the kind of ply the mover makes now, for rules whose plies
	// differ within a game (Les: "setup", "choice", "turns"), so that pages
	// and mails say what to do; "" for rules with one kind of ply.
	Stage() string
	// Example is a legal ply the mover could make now, in canonical
	// notation, for help texts and tests; false when there is none (the
	// game is over).
	Example() (string, bool)
	// Encode writes the game's whole state for storage: Decode reads it back.
	Encode() ([]byte, error)
}

// Played is one ply of a game's history.
type Played struct {
	Color string
	Ply   string // in the ruleset's canonical notation
	// Auto marks a ply the rules made for a player who had no choice, and
	// TimedOut one made because the player's time ran out.
	Auto, TimedOut bool
	// Used and Counted are the points of rules that count them (Less: what
	// the ply's moves cost, and what it adds to the mover's count); 0 in
	// rules without.
	Used, Counted int
}

// Tag is one header line of a record: [Name "Value"].
type Tag struct{ Name, Value string }

// Result is how a game ended.
type Result struct {
	// Reason is the ruleset's stable name for how it ended ("complete",
	// "resignation", "timeout", …).
	Reason string
	Draw   bool
	// Winners are the colours of the winning side; empty for a draw.
	Winners []string
	// Winner is the winning side (see Game.Side) unless Draw, and Margin
	// what it won by in the rules' own points (0 for rules without).
	Winner, Margin int
	// Text is the result as the record writes it ("white+2", "draw").
	Text string
	// Line says it in English, for people ("White won by 2 (Black resigned)").
	Line string
}

// Legal is what the mover may do next.
type Legal struct {
	// Partial is the part of the ply made so far, canonical.
	Partial string
	// Used and Left are the budget spent and left in this ply, for rules
	// that have one (0 otherwise).
	Used, Left int
	// CanEnd says the ply may end here.
	CanEnd bool
	// Choices are what may be done next.
	Choices []Choice
}

// Choice is one thing the mover may do next: move a piece From one cell To
// another (From is "" for placing on To), at a cost, of a kind ("step",
// "jump", "place").
type Choice struct {
	From, To string
	Cost     int
	Kind     string
}

// ErrGameOver is a ply, resignation or time-out after the end.
var ErrGameOver = errors.New("the game is over")

// CodeInvalidOptions is Error.Code for options Start refuses; every other
// code is a rule a ply breaks.
const CodeInvalidOptions = "invalid_input"

// NoIndex is Error.Index for an error about the whole ply or the options.
const NoIndex = -1

// Error is a ply or options a ruleset refuses: a stable code, the rule it
// breaks, the 0-based index of the first bad part (NoIndex for the whole),
// and a message for people.
type Error struct {
	Code    string
	Rule    string
	Index   int
	Message string
	// Err is the ruleset's own error, for callers that know the ruleset.
	Err error
}

func (e *Error) Error() string {
	if e.Index == NoIndex {
		return e.Message
	}
	return fmt.Sprintf("%s at %d: %s", e.Code, e.Index+1, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Registry holds rulesets by name. It is safe for concurrent use.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]Ruleset
	names  []string
}

// NewRegistry makes a registry of rulesets; the first is the default. Two
// with one name are a programming error.
func NewRegistry(rs ...Ruleset) *Registry {
	r := &Registry{byName: make(map[string]Ruleset, len(rs))}
	for _, x := range rs {
		r.Register(x)
	}
	return r
}

// Register adds a ruleset after the others: a game of its name can then be
// started, stored and shown like any other. A second ruleset of a name
// already registered is a programming error.
func (r *Registry) Register(x Ruleset) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[x.Name()]; dup {
		panic("ruleset: two rulesets named " + x.Name())
	}
	r.byName[x.Name()] = x
	r.names = append(r.names, x.Name())
}

// Get returns the ruleset of a name.
func (r *Registry) Get(name string) (Ruleset, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	x, ok := r.byName[name]
	return x, ok
}

// Default is the ruleset of a game that names none.
func (r *Registry) Default() Ruleset {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byName[r.names[0]]
}

// Names lists the rulesets' names, the default first.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.names...)
}

// GoalOf is what color plays for in g, for the page and the invitation to
// say in words (view.Goal.Sentence): read from the board as drawn, so that
// the words match the picture, and with the partner of a team game (a
// colour of the same side). A board of squares that marks no target for
// anyone has no goal to say: the zero Goal, whose Sentence is "".
func GoalOf(g Game, color string) (view.Goal, error) {
	b, err := g.Board("")
	if err != nil {
		return view.Goal{}, err
	}
	partner := false
	for _, c := range g.Colors() {
		if c != color && g.Side(color) >= 0 && g.Side(c) == g.Side(color) {
			partner = true
		}
	}
	goal, ok := view.GoalOf(b, color, partner)
	if !ok && !slices.ContainsFunc(b.Highlights, func(h view.Highlight) bool { return h.Kind == view.Target }) {
		return view.Goal{}, nil
	}
	if !ok {
		return view.Goal{}, fmt.Errorf("%s game: no goal marked for %q", g.Ruleset(), color)
	}
	return goal, nil
}
