package notify

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/internal/vectors"
)

// lesEngine plays the first plies of a game (all of them for plies < 0).
func lesEngine(t *testing.T, gc vectors.LesGameCase, plies int) *les.Engine {
	t.Helper()
	g, err := les.NewEngine(gc.Size)
	if err != nil {
		t.Fatal(err)
	}
	all := append([]string{gc.Setup, gc.Choice}, gc.Turns...)
	if plies >= 0 {
		all = all[:plies]
	}
	for _, p := range all {
		if _, err := g.PlayPly(p); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// lesMailOf is the mail of a game of Les between Ann (the setter) and Bob
// (the chooser), for Ann, in a locale.
func lesMailOf(g *les.Engine, locale string) *lesMail {
	v := &gameView{game: games.Game{Seats: []games.Seat{
		{Color: "setter", Player: games.Player{Name: "Ann", Email: "ann@example.org"}},
		{Color: "chooser", Player: games.Player{Name: "Bob", Email: "bob@example.org"}}}},
		seat: games.Seat{Color: "setter", Player: games.Player{Name: "Ann", Locale: locale}}}
	return &lesMail{gameView: v, lp: lesPhrasesFor(locale), eng: g}
}

// Every way a game of Les ends is said, with what decided it: the ends
// LE3 decides are played from the vectors (a file without a game of a kind
// skips that case) and said as the vector's result has it; resignations,
// time-outs and adjudications from a game of the package's own.
func TestLesResultText(t *testing.T) {
	// decidedBy plays the vectors' first game decided the way given and
	// says what its line and explanation hold.
	decidedBy := func(decided string, want func(gc vectors.LesGameCase) (line, why string)) func(t *testing.T) (*les.Engine, string, string) {
		return func(t *testing.T) (*les.Engine, string, string) {
			_, gc := lesGameDecided(t, decided, 0)
			line, why := want(gc)
			return lesEngine(t, gc, -1), line, why
		}
	}
	// name is the player of a colour: Bob is the chooser.
	name := func(gc vectors.LesGameCase, color string) string {
		if color == gc.Choice {
			return "Bob"
		}
		return "Ann"
	}
	winner := func(gc vectors.LesGameCase) string { return *gc.Result.Winner }
	fixed := func(plies int, end func(*les.Engine) error, line, why string) func(t *testing.T) (*les.Engine, string, string) {
		return func(t *testing.T) (*les.Engine, string, string) {
			g := lesEngine(t, lesGame(t, "side5"), plies)
			if err := end(g); err != nil {
				t.Fatal(err)
			}
			return g, line, why
		}
	}
	resign := func(seat string) func(*les.Engine) error {
		return func(g *les.Engine) error { return g.Resign(seat) }
	}
	tests := []struct {
		name string
		game func(t *testing.T) (g *les.Engine, line, why string)
	}{
		{"more holes", decidedBy(byCount, func(gc vectors.LesGameCase) (string, string) {
			w := winner(gc)
			n := len(gc.Result.Holes[w])
			holes := fmt.Sprintf("%d holes", gc.Result.Margin)
			if gc.Result.Margin == 1 {
				holes = "1 hole"
			}
			return fmt.Sprintf("%s (%s) won by %s", colorTitle(w), name(gc, w), holes),
				fmt.Sprintf("%s owns more holes than %s, %d to %d: the number of holes decides first.",
					colorTitle(w), colorTitle(otherColor(w)), n, n-gc.Result.Margin)
		})},
		{"the sizes", decidedBy(bySizes, func(gc vectors.LesGameCase) (string, string) {
			w := winner(gc)
			return fmt.Sprintf("%s (%s) won on the sizes of the holes", colorTitle(w), name(gc, w)),
				"the first tie-break decided, the sizes: going down both lists from the largest hole, the first pair that differs is " + colorTitle(w) + "'s hole of "
		})},
		{"the stones around", decidedBy(byAround, func(gc vectors.LesGameCase) (string, string) {
			w := winner(gc)
			return fmt.Sprintf("%s (%s) won on the stones around the holes", colorTitle(w), name(gc, w)),
				colorTitle(w) + "'s hole with "
		})},
		{"alike: a draw", decidedBy(alike, func(vectors.LesGameCase) (string, string) {
			return "a draw", "alike in size and in stones around: the game is drawn."
		})},
		{"no holes: a draw", decidedBy(noHoles, func(vectors.LesGameCase) (string, string) {
			return "a draw", "Nobody owns a hole: the game is drawn."
		})},
		{"resignation", fixed(10, resign("chooser"), "Black (Ann) won by 1 hole (White resigned)", "by at least 1")},
		{"resignation before the choice", fixed(1, resign("chooser"), "Ann won by 1 hole (Bob resigned)", "by at least 1")},
		{"time-out", fixed(11 /* White to move */, func(g *les.Engine) error { _, err := g.TimeOut(false); return err },
			"Black (Ann) won by 1 hole (White ran out of time)", "After a resignation or a time-out")},
		{"adjudicated", fixed(30, (*les.Engine).Adjudicate, "(adjudicated at the end of the round)", "")},
		{"adjudicated before the choice", fixed(1, (*les.Engine).Adjudicate,
			"a draw (adjudicated at the end of the round)", "The game ended before the colours were chosen, so it is drawn.")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, wantLine, wantWhy := tt.game(t)
			r, over := g.Outcome()
			if !over {
				t.Fatal("the game goes on")
			}
			for _, locale := range languages {
				m := lesMailOf(g, locale)
				line, why := m.result(phrasesFor(locale), r)
				if line == "" || why == "" {
					t.Errorf("%s: line %q, why %q", locale, line, why)
				}
				if d := m.gameOver(phrasesFor(locale)).text(); !strings.Contains(d, line) || !strings.Contains(d, why) {
					t.Errorf("%s: the email does not say %q and %q:\n%s", locale, line, why, d)
				}
				if locale == "en" && (!strings.Contains(line, wantLine) || !strings.Contains(why, wantWhy)) {
					t.Errorf("result %+v:\n line %q, want %q in it\n why  %q, want %q in it", r, line, wantLine, why, wantWhy)
				}
			}
		})
	}
}

// storedTurns are the first plies of a game as the store keeps them:
// numbered from 1, by seat, in notation.
func storedTurns(t *testing.T, gc vectors.LesGameCase, plies int) []games.StoredTurn {
	t.Helper()
	all := append([]string{gc.Setup, gc.Choice}, gc.Turns...)[:plies]
	g := lesEngine(t, gc, 0)
	out := make([]games.StoredTurn, len(all))
	for k, text := range all {
		out[k] = games.StoredTurn{Ply: k + 1, Color: g.ToMove(), Notation: text}
		if _, err := g.PlayPly(text); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// The your-turn email says what the opponent played since the recipient's
// last ply, replayed from the stored plies as of the notice: game side9's
// chooser takes Black and moves at once (his own choice is the news), then
// the setter hears of the choice and the turn.
func TestLesYourTurnNews(t *testing.T) {
	tests := []struct {
		seat  string
		ply   int // the notice's; the game has gone on to ply 6
		want  string
		board string // a row of the diagram, the last ply in brackets
	}{
		{"chooser", 1, "it is your turn to choose your colour.\n  - Ann set up Black g12, White g11, Black l13, White j13\n", "g    . . . . . . . . . .(W(B). . .    g"},
		{"chooser", 2, "it is your turn as Black.\n  - You chose Black, so you play first\n", "g    . . . . . . . . . . W B . . .    g"},
		{"setter", 3, "it is your turn as White.\n  - Bob chose Black\n  - Black played f11:q7\n", "q          . . . . . .(B). .          q"},
	}
	for _, tt := range tests {
		turns := storedTurns(t, lesGame(t, "side9"), 6)
		stored := lesEngine(t, lesGame(t, "side9"), 6)
		v := lesMailOf(stored, "en").gameView
		v.game.Rules = stored
		v.seat = v.game.Seats[0]
		if tt.seat == "chooser" {
			v.seat = v.game.Seats[1]
		}
		v.notice = domain.Notice{Kind: domain.NoticeYourTurn, Color: tt.seat, Ply: tt.ply}
		m, err := newLesMail(v, record{turns: upTo(turns, tt.ply)})
		if err != nil {
			t.Fatal(err)
		}
		text := m.yourTurn(phrasesFor("en")).text()
		if !strings.Contains(text, tt.want) || !strings.Contains(text, tt.board) {
			t.Errorf("%s at ply %d: want %q and %q in\n%s", tt.seat, tt.ply, tt.want, tt.board, text)
		}
	}
}
