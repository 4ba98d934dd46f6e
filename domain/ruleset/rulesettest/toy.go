// Package rulesettest is a toy third game for tests: three in a row on a
// board of 3×3 squares (tic-tac-toe), written against domain/ruleset alone.
// A test registers it (domain.Rulesets.Register(rulesettest.Toy{})) and
// plays it through the API, the emails and the play page, which must serve
// it without a line that knows it: the proof that a new game is one package
// and one registration line.
//
// White places first, then Black, one stone a ply on an empty square named
// as in Less ("a1" at the top left, columns a–c, rows 1–3). Three of a
// colour in a row, a column or a diagonal win; a full board is a draw. A
// player whose time runs out loses: the toy has no pass.
package rulesettest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/view"
)

// Name is the toy's ruleset name, as games store it and the API takes it.
const Name = "toy"

// colors are the seats in turn order.
var colors = []string{"white", "black"}

// lines are the rows, columns and diagonals, by square index (row*3+col).
var lines = [][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

// Toy is the toy's rules.
type Toy struct{}

// Name implements ruleset.Ruleset.
func (Toy) Name() string { return Name }

// ForfeitMargin implements ruleset.Ruleset: a win is a win.
func (Toy) ForfeitMargin() int { return 1 }

// Start implements ruleset.Ruleset: two players, no options.
func (Toy) Start(o ruleset.Options) (ruleset.Game, []ruleset.Played, error) {
	if o.Players != 2 {
		return nil, nil, &ruleset.Error{Code: ruleset.CodeInvalidOptions, Rule: "players", Index: ruleset.NoIndex,
			Message: fmt.Sprintf("three in a row is for 2 players, not %d", o.Players)}
	}
	for name := range o.Params {
		return nil, nil, &ruleset.Error{Code: ruleset.CodeInvalidOptions, Rule: "options", Index: ruleset.NoIndex,
			Message: fmt.Sprintf("three in a row has no option %q", name)}
	}
	return &Game{}, nil, nil
}

// Decode implements ruleset.Ruleset.
func (Toy) Decode(state []byte) (ruleset.Game, error) {
	var g Game
	if err := json.Unmarshal(state, &g.s); err != nil {
		return nil, fmt.Errorf("toy state: %w", err)
	}
	if len(g.s.Squares) != 9 {
		return nil, fmt.Errorf("toy state: %d squares", len(g.s.Squares))
	}
	return &g, nil
}

// ImportRecord implements ruleset.Ruleset: the plies, one a line, after
// tag lines in brackets; a "#" line ends the moves.
func (Toy) ImportRecord(text string) (ruleset.Game, []ruleset.Played, error) {
	g := &Game{}
	var history []ruleset.Played
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "[") || strings.HasPrefix(line, "#") {
			continue
		}
		played, err := g.Play(line)
		if err != nil {
			return nil, nil, err
		}
		history = append(history, played...)
	}
	return g, history, nil
}

// Game is a game of the toy.
type Game struct{ s state }

// state is what Encode writes.
type state struct {
	// Squares are the board in reading order: "." empty, "w" or "b".
	Squares string          `json:"squares"`
	Ply     int             `json:"ply"`
	Result  *ruleset.Result `json:"result,omitempty"`
}

func (g *Game) squares() []byte {
	if g.s.Squares == "" {
		g.s.Squares = "........."
	}
	return []byte(g.s.Squares)
}

// Ruleset implements ruleset.Game.
func (g *Game) Ruleset() string { return Name }

// Colors implements ruleset.Game.
func (g *Game) Colors() []string { return append([]string(nil), colors...) }

// Side implements ruleset.Game.
func (g *Game) Side(color string) int {
	for i, c := range colors {
		if c == color {
			return i
		}
	}
	return -1
}

// Ply implements ruleset.Game.
func (g *Game) Ply() int { return g.s.Ply }

// ToMove implements ruleset.Game.
func (g *Game) ToMove() string { return colors[g.s.Ply%2] }

// Result implements ruleset.Game.
func (g *Game) Result() (ruleset.Result, bool) {
	if g.s.Result == nil {
		return ruleset.Result{}, false
	}
	return *g.s.Result, true
}

// square reads a square's name: its index, or an *ruleset.Error.
func square(text string) (int, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) != 2 || t[0] < 'a' || t[0] > 'c' || t[1] < '1' || t[1] > '3' {
		return 0, &ruleset.Error{Code: "syntax", Rule: "notation", Index: 0,
			Message: fmt.Sprintf("%q is not a square: write a1 to c3", text)}
	}
	return int(t[1]-'1')*3 + int(t[0]-'a'), nil
}

// name is a square's name by index.
func name(i int) string { return string(rune('a'+i%3)) + string(rune('1'+i/3)) }

// Syntax implements ruleset.Game.
func (g *Game) Syntax(text string) error {
	_, err := square(text)
	return err
}

// Check implements ruleset.Game.
func (g *Game) Check(ply string) error {
	if g.s.Result != nil {
		return ruleset.ErrGameOver
	}
	i, err := square(ply)
	if err != nil {
		return err
	}
	if g.squares()[i] != '.' {
		return &ruleset.Error{Code: "occupied", Rule: "place", Index: 0, Message: name(i) + " is taken"}
	}
	return nil
}

// Play implements ruleset.Game.
func (g *Game) Play(ply string) ([]ruleset.Played, error) {
	if err := g.Check(ply); err != nil {
		return nil, err
	}
	i, _ := square(ply)
	mover := g.ToMove()
	sq := g.squares()
	sq[i] = mover[0]
	g.s.Squares = string(sq)
	g.s.Ply++
	g.judge(mover)
	return []ruleset.Played{{Color: mover, Ply: name(i)}}, nil
}

// judge ends the game after mover's ply where it is won or the board full.
func (g *Game) judge(mover string) {
	sq := g.squares()
	for _, l := range lines {
		if sq[l[0]] == mover[0] && sq[l[1]] == mover[0] && sq[l[2]] == mover[0] {
			g.end(mover, "complete", "three in a row")
			return
		}
	}
	if !strings.Contains(g.s.Squares, ".") {
		g.s.Result = &ruleset.Result{Reason: "complete", Draw: true, Text: "draw", Line: "Draw (the board is full)"}
	}
}

// end ends the game won by winner.
func (g *Game) end(winner, reason, why string) {
	side := g.Side(winner)
	g.s.Result = &ruleset.Result{Reason: reason, Winners: []string{winner}, Winner: side, Margin: 1,
		Text: winner + "+1", Line: strings.ToUpper(winner[:1]) + winner[1:] + " won (" + why + ")"}
}

// other is the other colour.
func other(color string) string {
	if color == colors[0] {
		return colors[1]
	}
	return colors[0]
}

// Resign implements ruleset.Game.
func (g *Game) Resign(color string) error {
	if g.s.Result != nil {
		return ruleset.ErrGameOver
	}
	if g.Side(color) < 0 {
		return fmt.Errorf("no colour %q", color)
	}
	g.end(other(color), "resignation", color+" resigned")
	return nil
}

// TimeOut implements ruleset.Game: the toy has no pass, so the mover loses.
func (g *Game) TimeOut(bool) ([]ruleset.Played, error) {
	if g.s.Result != nil {
		return nil, ruleset.ErrGameOver
	}
	g.end(other(g.ToMove()), "timeout", g.ToMove()+"'s time ran out")
	return nil, nil
}

// Adjudicate implements ruleset.Game: a game stopped early is a draw.
func (g *Game) Adjudicate() error {
	if g.s.Result != nil {
		return ruleset.ErrGameOver
	}
	g.s.Result = &ruleset.Result{Reason: "adjudicated", Draw: true, Text: "draw", Line: "Draw (stopped)"}
	return nil
}

// Clone implements ruleset.Game.
func (g *Game) Clone() ruleset.Game {
	c := *g
	if g.s.Result != nil {
		r := *g.s.Result
		r.Winners = append([]string(nil), r.Winners...)
		c.s.Result = &r
	}
	return &c
}

// Restart implements ruleset.Game.
func (g *Game) Restart() (ruleset.Game, []ruleset.Played, error) { return &Game{}, nil, nil }

// Legal implements ruleset.Game: an empty square to place on, or, after
// one, the end of the ply.
func (g *Game) Legal(partial string) (ruleset.Legal, error) {
	if g.s.Result != nil {
		return ruleset.Legal{}, ruleset.ErrGameOver
	}
	if strings.TrimSpace(partial) != "" {
		if err := g.Check(partial); err != nil {
			return ruleset.Legal{}, err
		}
		i, _ := square(partial)
		return ruleset.Legal{Partial: name(i), CanEnd: true, Choices: []ruleset.Choice{}}, nil
	}
	out := ruleset.Legal{Choices: []ruleset.Choice{}}
	for i, c := range g.squares() {
		if c == '.' {
			out.Choices = append(out.Choices, ruleset.Choice{To: name(i), Kind: "place"})
		}
	}
	return out, nil
}

// Record implements ruleset.Game: tags, then the plies one a line, then
// the result.
func (g *Game) Record(history []ruleset.Played, players map[string]string, tags ...ruleset.Tag) (string, error) {
	var b strings.Builder
	b.WriteString("[Game \"Three in a row\"]\n")
	for _, c := range colors {
		if n, ok := players[c]; ok {
			fmt.Fprintf(&b, "[%s %q]\n", strings.ToUpper(c[:1])+c[1:], n)
		}
	}
	for _, t := range tags {
		fmt.Fprintf(&b, "[%s %q]\n", t.Name, t.Value)
	}
	for _, p := range history {
		b.WriteString(p.Ply + "\n")
	}
	if r, over := g.Result(); over {
		b.WriteString("# " + r.Text + "\n")
	}
	return b.String(), nil
}

// Board implements ruleset.Game: squares, stones, the last placement.
func (g *Game) Board(last string) (view.Board, error) {
	b := view.Board{Layout: view.Squares, Rows: 3, Cols: 3, Walls: []view.Wall{}, Pieces: []view.Piece{}, Highlights: []view.Highlight{}, Path: []view.Step{}}
	sq := g.squares()
	for i := range sq {
		b.Cells = append(b.Cells, view.Cell{Name: name(i), Row: i / 3, Col: i % 3})
	}
	for i := range 3 {
		b.Labels = append(b.Labels, view.Label{Text: string(rune('a' + i)), Row: -1, Col: i},
			view.Label{Text: string(rune('1' + i)), Row: i, Col: -1})
	}
	for _, c := range colors {
		for i, s := range sq {
			if s == c[0] {
				b.Pieces = append(b.Pieces, view.Piece{Cell: name(i), Color: c})
			}
		}
	}
	if strings.TrimSpace(last) != "" {
		i, err := square(last)
		if err != nil {
			return view.Board{}, err
		}
		b.Path = append(b.Path, view.Step{To: name(i)})
	}
	return b, nil
}

// LastShown implements ruleset.Game: the latest placement.
func (g *Game) LastShown(history []ruleset.Played) string {
	if len(history) == 0 {
		return ""
	}
	return history[len(history)-1].Ply
}

// Diagram implements ruleset.Game: W and B stones, the last one lower case.
func (g *Game) Diagram(last string) (string, error) {
	mark := -1
	if strings.TrimSpace(last) != "" {
		i, err := square(last)
		if err != nil {
			return "", err
		}
		mark = i
	}
	var b strings.Builder
	b.WriteString("  a b c\n")
	for r := range 3 {
		b.WriteString(string(rune('1' + r)))
		for c := range 3 {
			i := r*3 + c
			s := strings.ToUpper(string(g.squares()[i]))
			if i == mark {
				s = strings.ToLower(s)
			}
			b.WriteString(" " + s)
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

// Stage implements ruleset.Game: one kind of ply.
func (g *Game) Stage() string { return "" }

// Example implements ruleset.Game: the first empty square.
func (g *Game) Example() (string, bool) {
	if g.s.Result != nil {
		return "", false
	}
	i := strings.IndexByte(string(g.squares()), '.')
	return name(i), i >= 0
}

// Encode implements ruleset.Game.
func (g *Game) Encode() ([]byte, error) {
	g.squares()
	return json.Marshal(g.s)
}
