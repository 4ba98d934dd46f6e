package notify

import (
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/internal/vectors"
)

// lesEngine plays the first plies of conformance game i (all of them for
// plies < 0).
func lesEngine(t *testing.T, i, plies int) *les.Engine {
	t.Helper()
	gc := vectors.LoadLes(t).GameCases[i]
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
	v := &gameView{game: domain.Game{Seats: []domain.Seat{
		{Color: "setter", Player: domain.Player{Name: "Ann", Email: "ann@example.org"}},
		{Color: "chooser", Player: domain.Player{Name: "Bob", Email: "bob@example.org"}}}},
		seat: domain.Seat{Color: "setter", Player: domain.Player{Name: "Ann", Locale: locale}}}
	return &lesMail{gameView: v, lp: lesPhrasesFor(locale), eng: g}
}

// Every way a game of Les ends is said, with what decided it.
func TestLesResultText(t *testing.T) {
	tests := []struct {
		name      string
		game      func(t *testing.T) *les.Engine
		line, why string
	}{
		{"more holes (game 0)", func(t *testing.T) *les.Engine { return lesEngine(t, 0, -1) },
			"Black (Bob) won by 2 holes", "Black owns more holes than White, 4 to 2: the number of holes decides first."},
		{"the sizes (game 3)", func(t *testing.T) *les.Engine { return lesEngine(t, 3, -1) },
			"won on the sizes of the holes", "the first tie-break decided, the sizes: going down both lists from the largest hole, the first pair that differs is Black's hole of 36 points against White's of 30."},
		{"the stones around (game 8)", func(t *testing.T) *les.Engine { return lesEngine(t, 8, -1) },
			"White (Bob) won on the stones around the holes", "White's hole with 6 stones around against Black's with 4."},
		{"alike: a draw (game 9)", func(t *testing.T) *les.Engine { return lesEngine(t, 9, -1) },
			"a draw", "Both own 1 hole, alike in size and in stones around: the game is drawn."},
		{"no holes: a draw (game 14)", func(t *testing.T) *les.Engine { return lesEngine(t, 14, -1) },
			"a draw", "Nobody owns a hole: the game is drawn."},
		{"resignation", func(t *testing.T) *les.Engine {
			g := lesEngine(t, 8, 10)
			if err := g.Resign("chooser"); err != nil {
				t.Fatal(err)
			}
			return g
		}, "Black (Ann) won by 1 hole (White resigned)", "by at least 1"},
		{"resignation before the choice", func(t *testing.T) *les.Engine {
			g := lesEngine(t, 8, 1)
			if err := g.Resign("chooser"); err != nil {
				t.Fatal(err)
			}
			return g
		}, "Ann won by 1 hole (Bob resigned)", "by at least 1"},
		{"time-out", func(t *testing.T) *les.Engine {
			g := lesEngine(t, 8, 11) // White to move
			if _, err := g.TimeOut(false); err != nil {
				t.Fatal(err)
			}
			return g
		}, "Black (Ann) won by 1 hole (White ran out of time)", "After a resignation or a time-out"},
		{"adjudicated", func(t *testing.T) *les.Engine {
			g := lesEngine(t, 8, 30)
			if err := g.Adjudicate(); err != nil {
				t.Fatal(err)
			}
			return g
		}, "(adjudicated at the end of the round)", ""},
		{"adjudicated before the choice", func(t *testing.T) *les.Engine {
			g := lesEngine(t, 8, 1)
			if err := g.Adjudicate(); err != nil {
				t.Fatal(err)
			}
			return g
		}, "a draw (adjudicated at the end of the round)", "The game ended before the colours were chosen, so it is drawn."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game(t)
			r, over := g.Outcome()
			if !over {
				t.Fatal("the game goes on")
			}
			for _, locale := range domain.Locales {
				m := lesMailOf(g, locale)
				line, why := m.result(phrasesFor(locale), r)
				if line == "" || why == "" {
					t.Errorf("%s: line %q, why %q", locale, line, why)
				}
				if d := m.gameOver(phrasesFor(locale)).text(); !strings.Contains(d, line) || !strings.Contains(d, why) {
					t.Errorf("%s: the email does not say %q and %q:\n%s", locale, line, why, d)
				}
				if locale == "en" && (!strings.Contains(line, tt.line) || !strings.Contains(why, tt.why)) {
					t.Errorf("result %+v:\n line %q, want %q in it\n why  %q, want %q in it", r, line, tt.line, why, tt.why)
				}
			}
		})
	}
}

// storedTurns are the first plies of conformance game i as the store keeps
// them: numbered from 1, by seat, in notation.
func storedTurns(t *testing.T, i, plies int) []domain.StoredTurn {
	t.Helper()
	gc := vectors.LoadLes(t).GameCases[i]
	all := append([]string{gc.Setup, gc.Choice}, gc.Turns...)[:plies]
	g := lesEngine(t, i, 0)
	out := make([]domain.StoredTurn, len(all))
	for k, text := range all {
		out[k] = domain.StoredTurn{Ply: k + 1, Color: g.ToMove(), Notation: text}
		if _, err := g.PlayPly(text); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// The your-turn email says what the opponent played since the recipient's
// last ply, replayed from the stored plies as of the notice: game 0's
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
		turns := storedTurns(t, 0, 6)
		stored := lesEngine(t, 0, 6)
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
