package main

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// apiGame is the part of the API's Game the load test needs to play.
type apiGame struct {
	ID     string  `json:"id"`
	Status string  `json:"status"`
	Ply    int     `json:"ply"`
	ToMove *string `json:"to_move"`
	Board  struct {
		Size  int    `json:"size"`
		Walls string `json:"walls"`
	} `json:"board"`
	Options struct {
		EarlyStop bool `json:"early_stop"`
		MaxTurns  int  `json:"max_turns"`
	} `json:"options"`
	Pieces map[string][]string `json:"pieces"`
}

// apiPlayed is the answer of POST /v1/games/{id}/turns.
type apiPlayed struct {
	Game   apiGame `json:"game"`
	Played []struct {
		Ply  int    `json:"ply"`
		Turn string `json:"turn"`
	} `json:"played"`
}

// boards caches parsed boards by wall string: a Board is immutable and
// shared read-only, and parsing one per turn would cost the client CPU the
// server needs.
var boards = struct {
	sync.RWMutex
	bySpec map[string]*less.Board // size:walls
}{bySpec: map[string]*less.Board{}}

func boardOf(size int, walls string) (*less.Board, error) {
	key := strconv.Itoa(size) + ":" + walls
	boards.RLock()
	b, ok := boards.bySpec[key]
	boards.RUnlock()
	if ok {
		return b, nil
	}
	b, err := less.ParseBoard(size, walls)
	if err != nil {
		return nil, err
	}
	boards.Lock()
	boards.bySpec[key] = b
	boards.Unlock()
	return b, nil
}

// lessPosition is the current position of a game of Less, read from its
// stored state: what the seeding and the store benchmark pick random turns
// from, faster than walking the ruleset interface's legal choices.
func lessPosition(rules ruleset.Game) (less.Position, error) {
	state, err := rules.Encode()
	if err != nil {
		return less.Position{}, err
	}
	lg, err := less.DecodeGame(state)
	if err != nil {
		return less.Position{}, fmt.Errorf("not a game of Less: %w", err)
	}
	return lg.Game.Position(), nil
}

// position rebuilds the game's current position from its JSON: the board's
// walls, the pieces and the colour to move.
func (g *apiGame) position() (less.Position, error) {
	if g.ToMove == nil {
		return less.Position{}, fmt.Errorf("game %s: nobody to move", g.ID)
	}
	b, err := boardOf(g.Board.Size, g.Board.Walls)
	if err != nil {
		return less.Position{}, fmt.Errorf("game %s: %w", g.ID, err)
	}
	toMove, err := less.ParseColor(*g.ToMove)
	if err != nil {
		return less.Position{}, fmt.Errorf("game %s: %w", g.ID, err)
	}
	placement := less.Placement{}
	for name, squares := range g.Pieces {
		c, err := less.ParseColor(name)
		if err != nil {
			return less.Position{}, fmt.Errorf("game %s: %w", g.ID, err)
		}
		for _, text := range squares {
			sq, err := less.ParseSquare(text)
			if err != nil {
				return less.Position{}, fmt.Errorf("game %s: %w", g.ID, err)
			}
			placement[c] = append(placement[c], sq)
		}
	}
	return less.NewPosition(b, placement, toMove, g.Options.EarlyStop)
}

// pickTurn picks a random legal turn from p. It walks move by move with
// the engine's TurnState (a few microseconds), and only if that walk ends
// where the turn cannot end does it fall back to sampling every legal turn
// (EachTurn, tens of microseconds). Either way the engine judged the turn.
func pickTurn(p less.Position, rng *rand.Rand) (less.Turn, error) {
	if t, ok := walkTurn(p, rng); ok {
		return t, nil
	}
	var pick less.Turn
	n := 0
	p.EachTurn(func(t less.Turn, _ less.Position) bool {
		n++
		if rng.IntN(n) == 0 { // reservoir sampling: each turn equally likely
			pick = append(pick[:0], t...)
		}
		return true
	})
	if n == 0 {
		return nil, fmt.Errorf("no legal turn in %s", p)
	}
	return pick, nil
}

// walkTurn plays random legal moves until the budget is spent or no move is
// left, sometimes stopping early where the rules allow (T3), and reports
// whether the turn it made may end there.
func walkTurn(p less.Position, rng *rand.Rand) (less.Turn, bool) {
	s := p.BeginTurn()
	var turn less.Turn
	var options []less.Move
	for s.Left() > 0 && !s.SideComplete() {
		options = options[:0]
		for _, sq := range s.Position().Pieces(s.Mover()).Squares() {
			for _, o := range s.MovesFrom(sq) {
				options = append(options, less.Move{From: sq, To: o.To})
			}
		}
		if len(options) == 0 || (s.CanEnd() && s.MovesMade() > 0 && rng.IntN(4) == 0) {
			break
		}
		m := options[rng.IntN(len(options))]
		if err := s.Play(m); err != nil {
			return nil, false // cannot happen: MovesFrom lists legal moves
		}
		turn = append(turn, m)
	}
	if _, _, err := s.End(); err != nil {
		return nil, false
	}
	return turn, true
}
