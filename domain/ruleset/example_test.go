package ruleset_test

import (
	"errors"
	"fmt"

	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/ruleset/rulesettest"
)

// A game of Less through the interface alone: start it, check and play a
// ply, and read the board to draw.
func Example() {
	g, _, err := less.Rules{}.Start(ruleset.Options{Players: 2, Params: map[string]string{"walls": openBoard}})
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Ruleset(), g.Colors(), "to move:", g.ToMove())

	ply := "e5e4:e4d4:d4c4"
	if err := g.Check(ply); err != nil {
		panic(err)
	}
	played, err := g.Play(ply)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s played %s, %d points used\n", played[0].Color, played[0].Ply, played[0].Used)

	b, err := g.Board(g.LastShown(played))
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Layout, b.Rows, "rows,", len(b.Pieces), "pieces, path", b.Path)
	// Output:
	// less [white black] to move: white
	// white played e5e4:e4d4:d4c4, 3 points used
	// squares 6 rows, 8 pieces, path [{e5 e4} {e4 d4} {d4 c4}]
}

// openBoard is a 6×6 board of Less without walls.
const openBoard = "000000000000000000000000000000000000000000000000000000000000"

// A ply the rules refuse says which rule it breaks and where.
func ExampleGame_Check() {
	g, _, err := less.Rules{}.Start(ruleset.Options{Players: 2, Params: map[string]string{"walls": openBoard}})
	if err != nil {
		panic(err)
	}
	var refused *ruleset.Error
	if err := g.Check("e5e4:e4e2"); errors.As(err, &refused) {
		fmt.Println(refused.Code, "in part", refused.Index+1)
	}
	// Output: nothing_to_jump in part 2
}

// What the mover may do next, for a page to offer: Les's setter places
// four stones, one at a time.
func ExampleGame_Legal() {
	g, _, err := les.Rules{}.Start(ruleset.Options{Players: 2})
	if err != nil {
		panic(err)
	}
	legal, err := g.Legal("")
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Stage(), len(legal.Choices) > 0, legal.Choices[0].From == "", legal.Choices[0].Kind, legal.CanEnd)
	// Output: setup true true place false
}

// The end of a game: a resignation, and the result as the record writes it.
func ExampleGame_Resign() {
	g, _, err := less.Rules{}.Start(ruleset.Options{Players: 2, Params: map[string]string{"walls": openBoard}})
	if err != nil {
		panic(err)
	}
	if err := g.Resign("white"); err != nil {
		panic(err)
	}
	r, over := g.Result()
	fmt.Println(over, r.Reason, r.Winners, r.Text)
	_, err = g.Play("e5e4")
	fmt.Println(errors.Is(err, ruleset.ErrGameOver))
	// Output:
	// true resignation [black] black+10
	// true
}

// A registry holds the games a server knows; a third one is one Register
// call away (here the toy of rulesettest).
func ExampleRegistry_Register() {
	games := ruleset.NewRegistry(less.Rules{}, les.Rules{})
	games.Register(rulesettest.Toy{})
	toy, _ := games.Get("toy")
	g, _, err := toy.Start(ruleset.Options{Players: 2})
	if err != nil {
		panic(err)
	}
	for _, ply := range []string{"a1", "a2", "b1", "b2", "c1"} {
		if _, err := g.Play(ply); err != nil {
			panic(err)
		}
	}
	r, _ := g.Result()
	fmt.Println(games.Names(), games.Default().Name())
	fmt.Println(r.Line)
	// Output:
	// [less les toy] less
	// White won (three in a row)
}
