package games_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// fullTurn is a turn the mover may play: the first legal moves, on, until
// the turn may end and nothing is left to spend.
func fullTurn(t *testing.T, g ruleset.Game) string {
	t.Helper()
	partial := ""
	for {
		l, err := g.Legal(partial)
		if err != nil {
			t.Fatal(err)
		}
		if l.CanEnd && (l.Left == 0 || len(l.Choices) == 0) {
			return l.Partial
		}
		if partial != "" {
			partial += ":"
		}
		partial += l.Choices[0].From + l.Choices[0].To
	}
}

// Replaying the first n plies draws the board as it stood after ply n, for
// every n of a game with a pass on time and a resignation; the game replayed
// from is unchanged.
func TestReplayGivesEveryEarlierBoard(t *testing.T) {
	for _, players := range []int{2, 4} {
		g, history, err := less.Rules{}.Start(ruleset.Options{Players: players, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		boards := []any{} // boards[n]: after n plies
		board := func() {
			b, err := g.Board("")
			if err != nil {
				t.Fatal(err)
			}
			for len(boards) <= g.Ply() {
				boards = append(boards, b)
			}
		}
		board()
		for i := range 9 {
			var played []ruleset.Played
			if i == 4 {
				played, err = g.TimeOut(true) // a pass on time
			} else {
				played, err = g.Play(fullTurn(t, g))
			}
			if err != nil {
				t.Fatal(err)
			}
			history = append(history, played...)
			board()
		}
		if err := g.Resign("white"); err != nil {
			t.Fatal(err)
		}
		before, _ := g.Encode()
		for n := range len(history) + 1 {
			r, reached, err := games.Replay(g, history, n)
			if err != nil {
				t.Fatalf("%d players: Replay(%d): %v", players, n, err)
			}
			if reached != n || r.Ply() != n {
				t.Errorf("%d players: Replay(%d) reached %d, ply %d", players, n, reached, r.Ply())
			}
			got, _ := r.Board("")
			if !reflect.DeepEqual(got, boards[n]) {
				t.Errorf("%d players: the board after %d plies differs from the one played", players, n)
			}
			if _, over := r.Result(); over {
				t.Errorf("%d players: replayed to ply %d the game is over (it ended by resigning after ply %d)", players, n, len(history))
			}
		}
		if after, _ := g.Encode(); string(after) != string(before) {
			t.Errorf("%d players: replaying changed the game", players)
		}
	}
}

func TestReplayRefusesPliesOutsideTheHistory(t *testing.T) {
	g, history, err := less.Rules{}.Start(ruleset.Options{Players: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	played, err := g.Play(fullTurn(t, g))
	if err != nil {
		t.Fatal(err)
	}
	history = append(history, played...)
	for _, n := range []int{-1, 2} {
		var de *domain.Error
		if _, _, err := games.Replay(g, history, n); !errors.As(err, &de) || de.Kind != domain.KindInvalid {
			t.Errorf("Replay(%d) = %v, want invalid", n, err)
		}
	}
	// A history the rules refuse is damaged data, not the caller's mistake.
	bad := []ruleset.Played{{Color: "white", Ply: "a1a2"}}
	if _, _, err := games.Replay(g, bad, 1); !errors.Is(err, domain.ErrStoredData) {
		t.Errorf("Replay of a broken history = %v, want ErrStoredData", err)
	}
}
