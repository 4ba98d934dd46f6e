package games_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
)

const (
	testGameID  = "g_test"
	testCreator = int64(7)
	randomSeed  = uint64(42)
	firstTurn   = "e5e4:e4d4:d4c4" // a legal opening for White on a board without walls
)

var (
	t0        = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	openWalls = strings.Repeat("0", 60) // 6x6 without walls
)

func twoPlayers() []games.Player {
	return []games.Player{
		{Name: "Ann", Email: "ann@example.org"},
		{Name: "Bob", Email: "bob@example.org", Locale: "de"},
	}
}

func fourPlayers() []games.Player {
	return []games.Player{
		{Name: "Yves", Email: "yves@example.org"},
		{Name: "Bea", Email: "bea@example.org"},
		{Name: "Wim", Email: "wim@example.org"},
		{Name: "Rut", Email: "rut@example.org"},
	}
}

// The seats' colours as domain names them: Less's colours' names.
var (
	white  = less.White.String()
	black  = less.Black.String()
	yellow = less.Yellow.String()
	red    = less.Red.String()
)

func seatActor(c string) games.Actor { return games.Actor{SeatColor: &c} }

// lessOf is the game's Less rules, for checks of Less's own state.
func lessOf(t *testing.T, g games.Game) *less.RulesGame {
	t.Helper()
	return lessRules(t, g.Rules)
}

// lessRules reads Less's own game from the rules' state, as a store keeps
// it.
func lessRules(t *testing.T, r games.Rules) *less.RulesGame {
	t.Helper()
	state, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	rg, err := less.DecodeGame(state)
	if err != nil {
		t.Fatalf("rules of %s, want Less: %v", r.Ruleset(), err)
	}
	return rg
}

// stateOf is the Less engine's state of the game.
func stateOf(t *testing.T, g games.Game) less.State {
	t.Helper()
	return lessOf(t, g).Game.State()
}

// gameSnapshot is a game as it was, its rules' state included: copies of a
// game share its Rules, so comparing a game with an earlier copy of it
// would not see them changed.
type gameSnapshot struct {
	game  games.Game
	rules []byte // g.Rules.Encode()
}

func snapshotOf(t *testing.T, g games.Game) gameSnapshot {
	t.Helper()
	enc, err := g.Rules.Encode()
	if err != nil {
		t.Fatalf("encode the rules: %v", err)
	}
	return gameSnapshot{game: g, rules: enc}
}

// changed reports whether g differs from the game of the snapshot.
func (s gameSnapshot) changed(t *testing.T, g games.Game) bool {
	t.Helper()
	return !reflect.DeepEqual(g, s.game) || !bytes.Equal(snapshotOf(t, g).rules, s.rules)
}

func account(id int64, email string) games.Actor {
	return games.Actor{UserID: id, UserEmail: email}
}

func sq(t *testing.T, s string) less.Square {
	t.Helper()
	q, err := less.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func squares(t *testing.T, names ...string) []less.Square {
	out := make([]less.Square, len(names))
	for i, n := range names {
		out[i] = sq(t, n)
	}
	return out
}

func newGame(t *testing.T, spec games.NewGameSpec) games.Game {
	t.Helper()
	created, err := games.CreateGame(spec, testGameID, testCreator, t0, randomSeed, nil)
	if err != nil {
		t.Fatalf("CreateGame: %v", err)
	}
	return created.Game
}

func openGame(t *testing.T) games.Game {
	return newGame(t, games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls}.Map()})
}

// afterFirstTurn is a 2-player game in which White has played firstTurn.
func afterFirstTurn(t *testing.T) games.Game {
	t.Helper()
	sub, err := games.SubmitTurn(openGame(t), seatActor(white), 0, firstTurn, t0.Add(time.Minute))
	if err != nil {
		t.Fatalf("first turn: %v", err)
	}
	return sub.Game
}

func resigned(t *testing.T) games.Game {
	t.Helper()
	sub, err := games.Resign(openGame(t), seatActor(black), t0.Add(time.Minute))
	if err != nil {
		t.Fatalf("Resign: %v", err)
	}
	return sub.Game
}

// wantError checks that err is a *domain.Error of the kind and code.
func wantError(t *testing.T, err error, kind domain.Kind, code string) *domain.Error {
	t.Helper()
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("error = %v (%T), want *domain.Error %d %s", err, err, kind, code)
	}
	if de.Kind != kind || de.Code != code {
		t.Fatalf("error = kind %d code %s (%v), want kind %d code %s", de.Kind, de.Code, de, kind, code)
	}
	return de
}

func invitations(colors ...string) []domain.Notice {
	return invitationsAt(0, colors...)
}

// invitationsAt are the invitations of a game that starts at ply (after
// automatic passes).
func invitationsAt(ply int, colors ...string) []domain.Notice {
	var out []domain.Notice
	for _, c := range colors {
		out = append(out, domain.Notice{Kind: domain.NoticeInvitation, GameID: testGameID, Color: c, Ply: ply})
	}
	return out
}

func gameOverNotices(g *games.Game) []domain.Notice {
	var out []domain.Notice
	for _, s := range g.Seats {
		out = append(out, domain.Notice{Kind: domain.NoticeGameOver, GameID: g.ID, Color: s.Color, Ply: g.Ply()})
	}
	return out
}

func seatColors(g *games.Game) []string {
	var out []string
	for _, s := range g.Seats {
		out = append(out, s.Color)
	}
	return out
}

func TestCreateGame(t *testing.T) {
	yes, no, thirty := true, false, 30
	seed := uint64(7)
	tests := []struct {
		name      string
		spec      func(t *testing.T) games.NewGameSpec
		size      int
		colors    []string
		preset    less.Preset
		opts      less.Options
		seed      *uint64 // nil: no seed recorded
		walls     string  // "" : the walls of the recorded seed
		toMove    less.Color
		ply       int
		notices   []domain.Notice
		checkGame func(t *testing.T, c games.Created)
	}{
		{
			name: "two players on the given walls",
			spec: func(*testing.T) games.NewGameSpec {
				return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls}.Map()}
			},
			size:    6,
			colors:  []string{white, black},
			preset:  less.PresetClassic,
			opts:    less.Options{MaxTurns: 40},
			walls:   openWalls,
			toMove:  less.White,
			notices: invitations(white, black),
		},
		{
			name: "wall string with surrounding white space",
			spec: func(*testing.T) games.NewGameSpec {
				return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: " " + openWalls + "\n"}.Map()}
			},
			size:    6,
			colors:  []string{white, black},
			preset:  less.PresetClassic,
			opts:    less.Options{MaxTurns: 40},
			walls:   openWalls,
			toMove:  less.White,
			notices: invitations(white, black),
		},
		{
			name:    "four players",
			spec:    func(*testing.T) games.NewGameSpec { return games.NewGameSpec{Players: fourPlayers(), Seed: &seed} },
			size:    8,
			colors:  []string{yellow, black, white, red},
			preset:  less.PresetClassic,
			opts:    less.Options{MaxTurns: 20},
			seed:    &seed,
			toMove:  less.Yellow,
			notices: invitations(yellow, black, white, red),
		},
		{
			name:    "a given seed generates the board and is recorded",
			spec:    func(*testing.T) games.NewGameSpec { return games.NewGameSpec{Players: twoPlayers(), Seed: &seed} },
			size:    6,
			colors:  []string{white, black},
			preset:  less.PresetClassic,
			opts:    less.Options{MaxTurns: 40},
			seed:    &seed,
			toMove:  less.White,
			notices: invitations(white, black),
		},
		{
			name:    "no board: the random seed is used and recorded",
			spec:    func(*testing.T) games.NewGameSpec { return games.NewGameSpec{Players: twoPlayers()} },
			size:    6,
			colors:  []string{white, black},
			preset:  less.PresetClassic,
			opts:    less.Options{MaxTurns: 40},
			seed:    func() *uint64 { s := randomSeed; return &s }(),
			toMove:  less.White,
			notices: invitations(white, black),
		},
		{
			name: "codecup preset",
			spec: func(*testing.T) games.NewGameSpec {
				return games.NewGameSpec{Players: fourPlayers(), Seed: &seed, Params: less.Params{Preset: less.PresetCodeCup}.Map()}
			},
			size:    8,
			colors:  []string{yellow, black, white, red},
			preset:  less.PresetCodeCup,
			opts:    less.Options{EarlyStop: true, MaxTurns: 20},
			seed:    &seed,
			toMove:  less.Yellow,
			notices: invitations(yellow, black, white, red),
		},
		{
			name: "options override the preset",
			spec: func(*testing.T) games.NewGameSpec {
				return games.NewGameSpec{Players: fourPlayers(), Seed: &seed, Params: less.Params{Preset: less.PresetCodeCup, EarlyStop: &no, MaxTurns: &thirty}.Map()}
			},
			size:    8,
			colors:  []string{yellow, black, white, red},
			preset:  less.PresetCodeCup,
			opts:    less.Options{EarlyStop: false, MaxTurns: 30},
			seed:    &seed,
			toMove:  less.Yellow,
			notices: invitations(yellow, black, white, red),
		},
		{
			name: "early stop on a classic game",
			spec: func(*testing.T) games.NewGameSpec {
				return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, EarlyStop: &yes}.Map()}
			},
			size:    6,
			colors:  []string{white, black},
			preset:  less.PresetClassic,
			opts:    less.Options{EarlyStop: true, MaxTurns: 40},
			walls:   openWalls,
			toMove:  less.White,
			notices: invitations(white, black),
		},
		{
			name: "custom setup with its colour to move",
			spec: func(t *testing.T) games.NewGameSpec {
				return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, Setup: &less.Setup{
					Pieces: map[less.Color][]less.Square{
						less.White: squares(t, "c3", "c4", "d3", "d4"),
						less.Black: squares(t, "a1", "a2", "b1", "b2"),
					},
					ToMove: less.Black,
				}}.Map()}
			},
			size:    6,
			colors:  []string{white, black},
			preset:  less.PresetClassic,
			opts:    less.Options{MaxTurns: 40},
			walls:   openWalls,
			toMove:  less.Black,
			notices: invitations(white, black),
			checkGame: func(t *testing.T, c games.Created) {
				want := "white:c3,c4,d3,d4 black:a1,a2,b1,b2 to-move:black"
				if got := stateOf(t, c.Game).Start.String(); got != want {
					t.Errorf("start = %s, want %s", got, want)
				}
			},
		},
		{
			// White is hemmed in (T2): the game passes for him at once, and
			// Black, to move, is told so besides being invited.
			name: "setup with an automatic pass at the start",
			spec: func(t *testing.T) games.NewGameSpec {
				return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: hemmedWalls(), Setup: hemmedSetup(t)}.Map()}
			},
			size:   6,
			colors: []string{white, black},
			preset: less.PresetClassic,
			opts:   less.Options{MaxTurns: 40},
			walls:  hemmedWalls(),
			toMove: less.Black,
			ply:    1,
			notices: append(invitationsAt(1, white, black),
				domain.Notice{Kind: domain.NoticeYourTurn, GameID: testGameID, Color: black, Ply: 1}),
			checkGame: func(t *testing.T, c games.Created) {
				if len(c.History) != 1 || !c.History[0].Auto || c.History[0].Color != white || c.History[0].Ply != less.Turn(nil).String() {
					t.Errorf("history = %+v, want one automatic pass by White", c.History)
				}
				if start := stateOf(t, c.Game).Start; start.ToMove() != less.White {
					t.Errorf("start has %s to move, want white", start.ToMove())
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.spec(t)
			c, err := games.CreateGame(spec, testGameID, testCreator, t0, randomSeed, nil)
			if err != nil {
				t.Fatalf("CreateGame: %v", err)
			}
			g := c.Game
			if g.ID != testGameID || g.CreatorID != testCreator || g.Version != 1 || !g.CreatedAt.Equal(t0) || !g.UpdatedAt.Equal(t0) {
				t.Errorf("game = id %s creator %d version %d created %v updated %v", g.ID, g.CreatorID, g.Version, g.CreatedAt, g.UpdatedAt)
			}
			if got := seatColors(&g); !slices.Equal(got, tt.colors) {
				t.Errorf("seats = %v, want %v", got, tt.colors)
			}
			for i, s := range g.Seats {
				p := spec.Players[i]
				locale := p.Locale // "" stays "": the store fills in the account's language
				if s.Name != p.Name || s.Email != p.Email || s.Locale != locale || s.TokenVersion != 1 {
					t.Errorf("seat %d = %+v, want player %+v, locale %s, token version 1", i, s, p, locale)
				}
			}
			lg := lessOf(t, g)
			if lg.Preset != tt.preset {
				t.Errorf("preset = %q, want %q", lg.Preset, tt.preset)
			}
			st := lg.Game.State()
			if st.Options != tt.opts || st.Start.EarlyStop() != tt.opts.EarlyStop || st.Position.EarlyStop() != tt.opts.EarlyStop {
				t.Errorf("options = %+v (early stop in positions %v, %v), want %+v", st.Options, st.Start.EarlyStop(), st.Position.EarlyStop(), tt.opts)
			}
			if st.Start.Size() != tt.size || st.Position.Size() != tt.size {
				t.Errorf("size = %d, want %d", st.Start.Size(), tt.size)
			}
			switch {
			case tt.seed == nil && lg.Seed != nil:
				t.Errorf("seed = %d, want none", *lg.Seed)
			case tt.seed != nil && (lg.Seed == nil || *lg.Seed != *tt.seed):
				t.Errorf("seed = %v, want %d", lg.Seed, *tt.seed)
			}
			walls := tt.walls
			if walls == "" {
				b, err := less.GenerateBoard(tt.size, *tt.seed)
				if err != nil {
					t.Fatal(err)
				}
				walls = b.Walls()
			}
			if got := st.Start.Board().Walls(); got != walls {
				t.Errorf("walls = %s, want %s", got, walls)
			}
			if st.Position.ToMove() != tt.toMove || st.Ply != tt.ply || st.Result != nil {
				t.Errorf("state: %s to move at ply %d, result %v; want %s at ply %d", st.Position.ToMove(), st.Ply, st.Result, tt.toMove, tt.ply)
			}
			if g.ToMove() != tt.toMove.String() || g.Ply() != tt.ply || g.Over() {
				t.Errorf("game: %s to move at ply %d, over %v; want %s at ply %d", g.ToMove(), g.Ply(), g.Over(), tt.toMove, tt.ply)
			}
			if tt.ply == 0 && (!st.Position.Equal(st.Start) || st.Counts != [4]int{}) {
				t.Errorf("position %s counts %v, want the start %s and no counts", st.Position, st.Counts, st.Start)
			}
			if spec.Params[less.ParamSetup] == "" && !st.Start.Equal(less.StartPosition(st.Start.Board(), tt.opts.EarlyStop)) {
				t.Errorf("start = %s, want the start position", st.Start)
			}
			if !reflect.DeepEqual(c.Notices, tt.notices) {
				t.Errorf("notices = %+v, want %+v", c.Notices, tt.notices)
			}
			if tt.checkGame != nil {
				tt.checkGame(t, c)
			}
		})
	}
}

// hemmedWalls are walls that, with hemmedSetup, leave White no move at all.
func hemmedWalls() string {
	w := []byte(openWalls)
	for _, i := range []int{
		57, // f3|f4
		46, // e3|e4
		31, // between c5 and d5
		32, // between c6 and d6
	} {
		w[i] = '1'
	}
	return string(w)
}

// hemmedSetup has White on its start corner, walled in by Black's pieces:
// every step is blocked and every jump crosses a wall.
func hemmedSetup(t *testing.T) *less.Setup {
	return &less.Setup{
		Pieces: map[less.Color][]less.Square{
			less.White: squares(t, "e5", "e6", "f5", "f6"),
			less.Black: squares(t, "d5", "d6", "e4", "f4"),
		},
		ToMove: less.White,
	}
}

func TestCreateGameRefuses(t *testing.T) {
	seed := uint64(7)
	zero, tooMany := 0, less.MaxTurnsLimit+1
	withPlayer := func(i int, p games.Player) []games.Player {
		ps := twoPlayers()
		ps[i] = p
		return ps
	}
	tests := []struct {
		name string
		spec func(t *testing.T) games.NewGameSpec
	}{
		{"no players", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Params: less.Params{Walls: openWalls}.Map()}
		}},
		{"one player", func(*testing.T) games.NewGameSpec { return games.NewGameSpec{Players: twoPlayers()[:1]} }},
		{"three players", func(*testing.T) games.NewGameSpec { return games.NewGameSpec{Players: fourPlayers()[:3]} }},
		{"five players", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: append(fourPlayers(), games.Player{Name: "Eve", Email: "eve@example.org"})}
		}},
		{"a game the server does not know", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Ruleset: "chess"}
		}},
		{"an option the rules do not know", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: map[string]string{"colour": "red"}}
		}},
		{"seed and walls together", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Seed: &seed, Walls: openWalls}.Map()}
		}},
		{"walls too short", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls[1:]}.Map()}
		}},
		{"walls with a bad digit", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: "3" + openWalls[1:]}.Map()}
		}},
		{"walls of an 8x8 board for two players", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: strings.Repeat("0", 112)}.Map()}
		}},
		{"codecup preset with two players", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, Preset: less.PresetCodeCup}.Map()}
		}},
		{"unknown preset", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, Preset: "blitz"}.Map()}
		}},
		{"max turns 0", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, MaxTurns: &zero}.Map()}
		}},
		{"max turns over the limit", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, MaxTurns: &tooMany}.Map()}
		}},
		{"setup with three pieces", func(t *testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, Setup: &less.Setup{
				Pieces: map[less.Color][]less.Square{
					less.White: squares(t, "c3", "c4", "d3"),
					less.Black: squares(t, "a1", "a2", "b1", "b2"),
				}, ToMove: less.White}}.Map()}
		}},
		{"setup with two pieces on one square", func(t *testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, Setup: &less.Setup{
				Pieces: map[less.Color][]less.Square{
					less.White: squares(t, "c3", "c4", "d3", "a1"),
					less.Black: squares(t, "a1", "a2", "b1", "b2"),
				}, ToMove: less.White}}.Map()}
		}},
		{"setup with a piece off the board", func(t *testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, Setup: &less.Setup{
				Pieces: map[less.Color][]less.Square{
					less.White: squares(t, "c3", "c4", "d3", "g7"),
					less.Black: squares(t, "a1", "a2", "b1", "b2"),
				}, ToMove: less.White}}.Map()}
		}},
		{"setup with a colour not in play to move", func(t *testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, Setup: &less.Setup{
				Pieces: map[less.Color][]less.Square{
					less.White: squares(t, "c3", "c4", "d3", "d4"),
					less.Black: squares(t, "a1", "a2", "b1", "b2"),
				}, ToMove: less.Yellow}}.Map()}
		}},
		{"setup in which the game is already decided", func(t *testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, Setup: &less.Setup{
				Pieces: map[less.Color][]less.Square{
					less.White: squares(t, "a1", "a2", "b1", "b2"), // White's target corner
					less.Black: squares(t, "c3", "c4", "d3", "d4"),
				}, ToMove: less.Black}}.Map()}
		}},
		{"blank name", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: withPlayer(1, games.Player{Name: "  ", Email: "bob@example.org"}), Params: less.Params{Walls: openWalls}.Map()}
		}},
		{"name with a line break", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: withPlayer(0, games.Player{Name: "Ann\r\nBcc: x", Email: "ann@example.org"}), Params: less.Params{Walls: openWalls}.Map()}
		}},
		{"email with a display name", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: withPlayer(1, games.Player{Name: "Bob", Email: "Bob <bob@example.org>"}), Params: less.Params{Walls: openWalls}.Map()}
		}},
		{"missing email", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: withPlayer(1, games.Player{Name: "Bob"}), Params: less.Params{Walls: openWalls}.Map()}
		}},
		// Which languages are spoken is the catalogue's, checked at the edge
		// (the contract's Locale); the domain refuses what is no language tag.
		{"locale not a language tag", func(*testing.T) games.NewGameSpec {
			return games.NewGameSpec{Players: withPlayer(1, games.Player{Name: "Bob", Email: "bob@example.org", Locale: "Portuguese"}), Params: less.Params{Walls: openWalls}.Map()}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := games.CreateGame(tt.spec(t), testGameID, testCreator, t0, randomSeed, nil)
			if err == nil {
				t.Fatalf("CreateGame succeeded: %+v", c.Game)
			}
			wantError(t, err, domain.KindInvalid, domain.CodeInvalidInput)
		})
	}
}

func TestCreateGameNormalizesPlayers(t *testing.T) {
	c, err := games.CreateGame(games.NewGameSpec{Players: []games.Player{
		{Name: "  Ann  ", Email: "Ann@Example.ORG", Locale: "fr"},
		{Name: "Bob", Email: "bob@example.org"},
	}, Params: less.Params{Walls: openWalls}.Map()}, testGameID, testCreator, t0, randomSeed, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := games.Player{Name: "Ann", Email: "ann@example.org", Locale: "fr"}
	if c.Game.Seats[0].Player != want {
		t.Errorf("seat = %+v, want %+v", c.Game.Seats[0].Player, want)
	}
	if c.Game.Seats[1].Locale != "" {
		t.Errorf("unchosen locale = %q, want \"\" (the store fills in the account's)", c.Game.Seats[1].Locale)
	}
}

func TestSubmitTurn(t *testing.T) {
	now := t0.Add(time.Hour)
	tests := []struct {
		name  string
		game  func(t *testing.T) games.Game
		actor games.Actor
		ply   int
		turn  string
		// want on success
		mover  less.Color
		played string
		// want on error
		kind      domain.Kind
		code      string
		turnCode  less.Code
		turnIndex int
	}{
		{name: "the seat to move plays", game: openGame, actor: seatActor(white), turn: firstTurn,
			mover: less.White, played: firstTurn},
		{name: "any accepted input style", game: openGame, actor: seatActor(white), turn: " e5-e4, e4-d4  d4-c4 :",
			mover: less.White, played: firstTurn},
		{name: "an account whose email holds the seat", game: openGame, actor: account(99, "ann@example.org"), turn: firstTurn,
			mover: less.White, played: firstTurn},
		{name: "Black after White", game: afterFirstTurn, actor: seatActor(black), ply: 1, turn: "a2a3:a3a4:b2b3",
			mover: less.Black, played: "a2a3:a3a4:b2b3"},

		{name: "another seat", game: openGame, actor: seatActor(black), turn: firstTurn,
			kind: domain.KindForbidden, code: domain.CodeNotYourTurn},
		{name: "an account holding another seat", game: openGame, actor: account(99, "bob@example.org"), turn: firstTurn,
			kind: domain.KindForbidden, code: domain.CodeNotYourTurn},
		{name: "a stranger", game: openGame, actor: account(99, "eve@example.org"), turn: firstTurn,
			kind: domain.KindForbidden, code: domain.CodeForbidden},
		{name: "the creator without a seat", game: openGame, actor: account(testCreator, "org@example.org"), turn: firstTurn,
			kind: domain.KindForbidden, code: domain.CodeForbidden},
		{name: "a spectator", game: openGame, actor: games.Actor{Spectator: true}, turn: firstTurn,
			kind: domain.KindForbidden, code: domain.CodeForbidden},
		{name: "nobody", game: openGame, actor: games.Actor{}, turn: firstTurn,
			kind: domain.KindForbidden, code: domain.CodeForbidden},
		{name: "a ply from the future", game: openGame, actor: seatActor(white), ply: 1, turn: firstTurn,
			kind: domain.KindConflict, code: domain.CodeStalePly},
		{name: "a stale ply of the player to move", game: afterFirstTurn, actor: seatActor(black), ply: 0, turn: "a2a3:a3a4:b2b3",
			kind: domain.KindConflict, code: domain.CodeStalePly},
		{
			// The same turn sent twice (a retry without Idempotency-Key, or
			// two tabs): the second was made against a position that is gone.
			name: "a stale ply of a turn already played", game: afterFirstTurn, actor: seatActor(white), ply: 0, turn: firstTurn,
			kind: domain.KindConflict, code: domain.CodeStalePly,
		},
		{name: "illegal move", game: openGame, actor: seatActor(white), turn: "e5e4:a1a2",
			kind: domain.KindIllegalTurn, code: domain.CodeIllegalTurn, turnCode: less.CodeNotYourPiece, turnIndex: 1},
		{name: "occupied square", game: openGame, actor: seatActor(white), turn: "e5e6",
			kind: domain.KindIllegalTurn, code: domain.CodeIllegalTurn, turnCode: less.CodeOccupied, turnIndex: 0},
		{name: "incomplete turn", game: openGame, actor: seatActor(white), turn: "e5e4",
			kind: domain.KindIllegalTurn, code: domain.CodeIllegalTurn, turnCode: less.CodeIncomplete, turnIndex: less.NoIndex},
		{name: "pass with moves available", game: openGame, actor: seatActor(white), turn: "Nil",
			kind: domain.KindIllegalTurn, code: domain.CodeIllegalTurn, turnCode: less.CodeIncomplete, turnIndex: less.NoIndex},
		{name: "syntax error", game: openGame, actor: seatActor(white), turn: "move my piece",
			kind: domain.KindIllegalTurn, code: domain.CodeIllegalTurn, turnCode: less.CodeSyntax, turnIndex: less.NoIndex},
		{name: "empty text", game: openGame, actor: seatActor(white), turn: "",
			kind: domain.KindIllegalTurn, code: domain.CodeIllegalTurn, turnCode: less.CodeSyntax, turnIndex: less.NoIndex},
		{name: "after the game ended", game: resigned, actor: seatActor(white), ply: 0, turn: firstTurn,
			kind: domain.KindConflict, code: domain.CodeGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game(t)
			before := snapshotOf(t, g)
			sub, err := games.SubmitTurn(g, tt.actor, tt.ply, tt.turn, now)
			if before.changed(t, g) {
				t.Errorf("SubmitTurn changed its input game")
			}
			if tt.code != "" {
				if err == nil {
					t.Fatalf("SubmitTurn succeeded, want %s", tt.code)
				}
				de := wantError(t, err, tt.kind, tt.code)
				if tt.kind == domain.KindIllegalTurn {
					if de.Turn == nil || de.Turn.Code != string(tt.turnCode) || de.Turn.Index != tt.turnIndex {
						t.Errorf("Turn = %+v, want code %s index %d", de.Turn, tt.turnCode, tt.turnIndex)
					}
				} else if de.Turn != nil {
					t.Errorf("Turn = %+v on a %s error", de.Turn, de.Code)
				}
				return
			}
			if err != nil {
				t.Fatalf("SubmitTurn: %v", err)
			}
			ng := sub.Game
			if ng.Version != g.Version+1 || !ng.UpdatedAt.Equal(now) || !ng.CreatedAt.Equal(g.CreatedAt) {
				t.Errorf("version %d updated %v created %v; want %d, %v, %v", ng.Version, ng.UpdatedAt, ng.CreatedAt, g.Version+1, now, g.CreatedAt)
			}
			ns, gs := stateOf(t, ng), stateOf(t, g)
			if ns.Ply != gs.Ply+1 || ns.Counts[tt.mover] != gs.Counts[tt.mover]+3 {
				t.Errorf("ply %d counts %v after the turn", ns.Ply, ns.Counts)
			}
			next := less.Black
			if tt.mover == less.Black {
				next = less.White
			}
			if ns.Position.ToMove() != next || ng.ToMove() != next.String() {
				t.Errorf("%s (%s) to move, want %s", ns.Position.ToMove(), ng.ToMove(), next)
			}
			out := less.Outcome{Used: 3, Counted: 3}
			wantPlayed := []ruleset.Played{{Color: tt.mover.String(), Ply: tt.played, Used: out.Used, Counted: out.Counted}}
			if !reflect.DeepEqual(sub.Played, wantPlayed) {
				t.Errorf("played = %+v, want %+v", sub.Played, wantPlayed)
			}
			wantNotices := []domain.Notice{{Kind: domain.NoticeYourTurn, GameID: g.ID, Color: next.String(), Ply: ns.Ply}}
			if !reflect.DeepEqual(sub.Notices, wantNotices) {
				t.Errorf("notices = %+v, want %+v", sub.Notices, wantNotices)
			}
			if !reflect.DeepEqual(ng.Seats, g.Seats) || ng.ID != g.ID || ng.CreatorID != g.CreatorID || !ns.Start.Equal(gs.Start) {
				t.Errorf("the turn changed more than the state: %+v", ng)
			}
		})
	}
}

// In the four-player game only the next player is told it is his turn.
func TestSubmitTurnFourPlayers(t *testing.T) {
	seed := uint64(3)
	g := newGame(t, games.NewGameSpec{Players: fourPlayers(), Seed: &seed})
	for i, want := range []less.Color{less.Black, less.White, less.Red, less.Yellow} {
		st := stateOf(t, g)
		mover := st.Position.ToMove()
		turns := st.Position.LegalTurns()
		if len(turns) == 0 {
			t.Fatalf("no legal turn for %s", mover)
		}
		// An account playing the seat by its email works for every colour.
		actor := account(int64(100+i), g.Seats[slices.IndexFunc(g.Seats, func(s games.Seat) bool { return s.Color == mover.String() })].Email)
		sub, err := games.SubmitTurn(g, actor, st.Ply, turns[0].String(), t0.Add(time.Duration(i+1)*time.Minute))
		if err != nil {
			t.Fatalf("turn %d by %s: %v", i+1, mover, err)
		}
		g = sub.Game
		st = stateOf(t, g)
		wantNotices := []domain.Notice{{Kind: domain.NoticeYourTurn, GameID: g.ID, Color: want.String(), Ply: st.Ply}}
		if st.Position.ToMove() != want || !reflect.DeepEqual(sub.Notices, wantNotices) {
			t.Errorf("after %s: %s to move, notices %+v; want %+v", mover, st.Position.ToMove(), sub.Notices, wantNotices)
		}
	}
}

// A whole game from the conformance vectors (testdata/conformance/
// less-vectors.json, game_cases[0]) played through the game service.
func TestSubmitTurnPlaysAWholeGame(t *testing.T) {
	const walls = "000001000100000000000000000010100100001002000001000100000010"
	turns := []string{"f5d5:e5c5:c5b5", "a2c2:b1c1:c1c3", "f6d6:e6c6:b5b4", "c2c4:c3c5:b2c2", "d5b5:b5b3:d6b6",
		"c2c3:c5d5:d5e5", "b4b2:c6a6:b3b1", "c4c5:a1a2:a2c2", "a6a5:a5a4:b6a6", "c2c4:c5d5:c4c5", "a6a5:a5a3:a4a2",
		"e5e6:c5e5:d5f5", "b1c1:c1b1:a3a1"}
	g := newGame(t, games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: walls}.Map()})
	for i, text := range turns {
		now := t0.Add(time.Duration(i+1) * time.Hour)
		st := stateOf(t, g)
		mover := st.Position.ToMove().String()
		sub, err := games.SubmitTurn(g, seatActor(mover), st.Ply, text, now)
		if err != nil {
			t.Fatalf("turn %d %q by %s: %v", i+1, text, mover, err)
		}
		if len(sub.Played) == 0 || sub.Played[0].Color != mover || sub.Played[0].Ply != text || sub.Played[0].Auto {
			t.Errorf("turn %d: played %+v", i+1, sub.Played)
		}
		if sub.Game.Version != g.Version+1 || !sub.Game.UpdatedAt.Equal(now) {
			t.Errorf("turn %d: version %d updated %v", i+1, sub.Game.Version, sub.Game.UpdatedAt)
		}
		g = sub.Game
		last := i == len(turns)-1
		if g.Over() != last {
			t.Fatalf("turn %d: over = %v", i+1, g.Over())
		}
		st = stateOf(t, g)
		want := []domain.Notice{{Kind: domain.NoticeYourTurn, GameID: g.ID, Color: st.Position.ToMove().String(), Ply: st.Ply}}
		if last {
			want = gameOverNotices(&g)
			if len(want) != 2 {
				t.Fatalf("game over notices = %+v", want)
			}
		}
		if !reflect.DeepEqual(sub.Notices, want) {
			t.Errorf("turn %d: notices %+v, want %+v", i+1, sub.Notices, want)
		}
	}
	st := stateOf(t, g)
	r := st.Result
	want := less.Result{Reason: less.ReasonComplete, Winner: less.SideWhite, Margin: 2,
		Counts: [2]int{21, 18}, Totals: [2]int{21, 23}}
	if r.Reason != want.Reason || r.Draw || r.Winner != want.Winner || r.Margin != want.Margin || r.Counts != want.Counts || r.Totals != want.Totals {
		t.Errorf("result = %+v, want white by 2 with %+v", *r, want)
	}
	if res, over := g.Result(); !over || res.Reason != string(want.Reason) || res.Draw || res.Winner != int(want.Winner) ||
		res.Margin != want.Margin || !slices.Equal(res.Winners, []string{white}) {
		t.Errorf("g.Result() = %+v, %v; want white by 2", res, over)
	}
	if g.Version != 1+len(turns) || st.Ply != len(turns) {
		t.Errorf("version %d ply %d, want %d and %d", g.Version, st.Ply, 1+len(turns), len(turns))
	}
	// Nothing more can be done with a finished game.
	for _, c := range []string{white, black} {
		_, err := games.SubmitTurn(g, seatActor(c), st.Ply, "Nil", t0.Add(48*time.Hour))
		wantError(t, err, domain.KindConflict, domain.CodeGameOver)
		_, _, err = games.PreviewTurn(g, seatActor(c), "Nil")
		wantError(t, err, domain.KindConflict, domain.CodeGameOver)
		_, err = games.Resign(g, seatActor(c), t0.Add(48*time.Hour))
		wantError(t, err, domain.KindConflict, domain.CodeGameOver)
	}
}

func TestPreviewTurn(t *testing.T) {
	g := openGame(t)
	before := snapshotOf(t, g)
	next, out, err := games.PreviewTurn(g, seatActor(white), "e5-e4 e4-d4 d4-c4")
	if err != nil {
		t.Fatalf("PreviewTurn: %v", err)
	}
	sub, err := games.SubmitTurn(g, seatActor(white), 0, firstTurn, t0)
	if err != nil {
		t.Fatal(err)
	}
	pos, want := lessRules(t, next).Game.Position(), stateOf(t, sub.Game).Position
	if !pos.Equal(want) || len(out) != 1 || out[0].Used != 3 || out[0].Counted != 3 || !reflect.DeepEqual(out, sub.Played) {
		t.Errorf("preview = %s %+v, want %s %+v", pos, out, want, sub.Played)
	}
	if before.changed(t, g) {
		t.Error("PreviewTurn changed the game")
	}
	tests := []struct {
		name  string
		game  games.Game
		actor games.Actor
		turn  string
		kind  domain.Kind
		code  string
	}{
		{"another seat", g, seatActor(black), firstTurn, domain.KindForbidden, domain.CodeNotYourTurn},
		{"a spectator", g, games.Actor{Spectator: true}, firstTurn, domain.KindForbidden, domain.CodeForbidden},
		{"illegal", g, seatActor(white), "e5e4", domain.KindIllegalTurn, domain.CodeIllegalTurn},
		{"syntax", g, seatActor(white), "?", domain.KindIllegalTurn, domain.CodeIllegalTurn},
		{"game over", resigned(t), seatActor(white), firstTurn, domain.KindConflict, domain.CodeGameOver},
	}
	for _, tt := range tests {
		_, _, err := games.PreviewTurn(tt.game, tt.actor, tt.turn)
		if err == nil {
			t.Errorf("%s: PreviewTurn succeeded", tt.name)
			continue
		}
		wantError(t, err, tt.kind, tt.code)
	}
}

func TestResign(t *testing.T) {
	now := t0.Add(time.Hour)
	seed := uint64(5)
	fourGame := func(t *testing.T) games.Game {
		return newGame(t, games.NewGameSpec{Players: fourPlayers(), Seed: &seed})
	}
	tests := []struct {
		name  string
		game  func(t *testing.T) games.Game
		actor games.Actor
		loser less.Side
		// exact margin, 0 for "at least 10"
		margin int
	}{
		// On a board without walls the start is symmetric: E6 would give
		// nobody a margin, so E8's minimum applies.
		{name: "White on his turn", game: openGame, actor: seatActor(white), loser: less.SideWhite, margin: 10},
		{name: "Black on White's turn", game: openGame, actor: seatActor(black), loser: less.SideBlack, margin: 10},
		{name: "an account holding a seat", game: openGame, actor: account(99, "bob@example.org"), loser: less.SideBlack, margin: 10},
		{name: "White on Black's turn", game: afterFirstTurn, actor: seatActor(white), loser: less.SideWhite},
		{name: "4 players: Red, not on his turn, for his team", game: fourGame, actor: seatActor(red), loser: less.SideBlack},
		{name: "4 players: White for his team", game: fourGame, actor: seatActor(white), loser: less.SideWhite},
		{name: "4 players: Yellow on his turn", game: fourGame, actor: account(99, "yves@example.org"), loser: less.SideWhite},
		// Black is far behind: E6 would give White 13.
		{name: "far behind", game: farBehind, actor: seatActor(black), loser: less.SideBlack, margin: 13},
		{name: "far ahead", game: farBehind, actor: seatActor(white), loser: less.SideWhite, margin: 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game(t)
			sub, err := games.Resign(g, tt.actor, now)
			if err != nil {
				t.Fatalf("Resign: %v", err)
			}
			ng := sub.Game
			r := stateOf(t, ng).Result
			if !ng.Over() || r == nil {
				t.Fatal("the game is not over")
			}
			if r.Reason != less.ReasonResignation || r.Draw || r.Loser != tt.loser || r.Winner != tt.loser.Other() || r.Margin < 10 {
				t.Errorf("result = %+v, want %d losing by at least 10", *r, tt.loser)
			}
			if tt.margin != 0 && r.Margin != tt.margin {
				t.Errorf("margin = %d, want %d", r.Margin, tt.margin)
			}
			// E8: max(10, the margin E6 would give the opponent), E6 being
			// the difference of totals (E5: count plus needed).
			gs := stateOf(t, g)
			total := func(s less.Side) int {
				n := gs.Position.Needed(s)
				for _, c := range less.SideColors(s, gs.Position.Size()) {
					n += gs.Counts[c]
				}
				return n
			}
			if want := max(10, total(tt.loser)-total(tt.loser.Other())); r.Margin != want {
				t.Errorf("margin = %d, want max(10, %d - %d) = %d", r.Margin, total(tt.loser), total(tt.loser.Other()), want)
			}
			if ply := stateOf(t, ng).Ply; ng.Version != g.Version+1 || !ng.UpdatedAt.Equal(now) || ply != gs.Ply {
				t.Errorf("version %d updated %v ply %d", ng.Version, ng.UpdatedAt, ply)
			}
			if len(sub.Played) != 0 {
				t.Errorf("played = %+v, want nothing", sub.Played)
			}
			if want := gameOverNotices(&ng); len(want) != len(g.Seats) || !reflect.DeepEqual(sub.Notices, want) {
				t.Errorf("notices = %+v, want %+v", sub.Notices, want)
			}
			if g.Over() {
				t.Error("Resign changed its input game")
			}
			_, err = games.Resign(ng, tt.actor, now)
			wantError(t, err, domain.KindConflict, domain.CodeGameOver)
		})
	}
}

// farBehind is a 2-player game in which White is nearly home and Black, to
// move, has hardly started.
func farBehind(t *testing.T) games.Game {
	return newGame(t, games.NewGameSpec{Players: twoPlayers(), Params: less.Params{Walls: openWalls, Setup: &less.Setup{
		Pieces: map[less.Color][]less.Square{
			less.White: squares(t, "a1", "a2", "b1", "c2"), // needs 1
			less.Black: squares(t, "a3", "b3", "c1", "c3"), // needs 14
		},
		ToMove: less.Black,
	}}.Map()})
}

func TestResignRefuses(t *testing.T) {
	g := openGame(t)
	for _, a := range []struct {
		name  string
		actor games.Actor
	}{
		{"spectator", games.Actor{Spectator: true}},
		{"stranger", account(99, "eve@example.org")},
		{"creator without a seat", account(testCreator, "org@example.org")},
		{"nobody", games.Actor{}},
	} {
		_, err := games.Resign(g, a.actor, t0)
		if err == nil {
			t.Errorf("%s resigned", a.name)
			continue
		}
		wantError(t, err, domain.KindForbidden, domain.CodeForbidden)
	}
}

func TestRotateSeat(t *testing.T) {
	now := t0.Add(time.Hour)
	tests := []struct {
		name  string
		game  func(t *testing.T) games.Game
		actor games.Actor
		color string
		kind  domain.Kind // 0: allowed
		code  string
	}{
		{name: "the seat itself", game: openGame, actor: seatActor(white), color: white},
		{name: "the seat, not on its turn", game: openGame, actor: seatActor(black), color: black},
		{name: "an account holding the seat", game: openGame, actor: account(99, "bob@example.org"), color: black},
		{name: "the creator", game: openGame, actor: account(testCreator, "org@example.org"), color: black},
		{name: "after the game", game: resigned, actor: seatActor(white), color: white},
		{name: "another seat", game: openGame, actor: seatActor(white), color: black,
			kind: domain.KindForbidden, code: domain.CodeForbidden},
		{name: "an account holding another seat", game: openGame, actor: account(99, "ann@example.org"), color: black,
			kind: domain.KindForbidden, code: domain.CodeForbidden},
		{name: "a stranger", game: openGame, actor: account(99, "eve@example.org"), color: white,
			kind: domain.KindForbidden, code: domain.CodeForbidden},
		{name: "a spectator", game: openGame, actor: games.Actor{Spectator: true}, color: white,
			kind: domain.KindForbidden, code: domain.CodeForbidden},
		{name: "nobody", game: openGame, actor: games.Actor{}, color: white,
			kind: domain.KindForbidden, code: domain.CodeForbidden},
		{name: "a seat the game does not have", game: openGame, actor: account(testCreator, "org@example.org"), color: red,
			kind: domain.KindNotFound, code: domain.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game(t)
			ng, notice, err := games.RotateSeat(g, tt.actor, tt.color, now)
			if tt.kind != 0 {
				if err == nil {
					t.Fatal("RotateSeat succeeded")
				}
				wantError(t, err, tt.kind, tt.code)
				return
			}
			if err != nil {
				t.Fatalf("RotateSeat: %v", err)
			}
			for _, s := range ng.Seats {
				want := 1
				if s.Color == tt.color {
					want = 2
				}
				if s.TokenVersion != want {
					t.Errorf("%s token version = %d, want %d", s.Color, s.TokenVersion, want)
				}
			}
			if ng.Version != g.Version+1 || !ng.UpdatedAt.Equal(now) || stateOf(t, ng).Ply != stateOf(t, g).Ply {
				t.Errorf("version %d updated %v", ng.Version, ng.UpdatedAt)
			}
			want := domain.Notice{Kind: domain.NoticeNewLink, GameID: g.ID, Color: tt.color, Ply: stateOf(t, g).Ply}
			if notice != want {
				t.Errorf("notice = %+v, want %+v", notice, want)
			}
			// A second rotation bumps it again.
			ng2, _, err := games.RotateSeat(ng, tt.actor, tt.color, now)
			if err != nil {
				t.Fatal(err)
			}
			if s, _ := ng2.Seat(tt.color); s.TokenVersion != 3 || ng2.Version != g.Version+2 {
				t.Errorf("after two rotations: token version %d, game version %d", s.TokenVersion, ng2.Version)
			}
		})
	}
}

// RotateSeat takes the game by value like SubmitTurn and Resign: the
// caller's copy must keep its old token version.
func TestRotateSeatLeavesItsInputAlone(t *testing.T) {
	g := openGame(t)
	if _, _, err := games.RotateSeat(g, seatActor(white), white, t0); err != nil {
		t.Fatal(err)
	}
	if s, _ := g.Seat(white); s.TokenVersion != 1 {
		t.Errorf("the caller's game now has token version %d for White, want 1", s.TokenVersion)
	}
}

func TestActorCanRead(t *testing.T) {
	g := openGame(t)
	tests := []struct {
		name  string
		actor games.Actor
		read  bool
		seats []string
	}{
		{"seat link", games.Actor{SeatColor: ptr(white)}, true, []string{white}},
		{"spectator", games.Actor{Spectator: true}, true, nil},
		{"creator", account(testCreator, "org@example.org"), true, nil},
		{"account holding a seat", account(99, "bob@example.org"), true, []string{black}},
		{"stranger", account(99, "eve@example.org"), false, nil},
		{"seat email without an account", games.Actor{UserEmail: "ann@example.org"}, false, []string{white}},
		{"nobody", games.Actor{}, false, nil},
	}
	for _, tt := range tests {
		if got := tt.actor.CanRead(&g); got != tt.read {
			t.Errorf("%s: CanRead = %v, want %v", tt.name, got, tt.read)
		}
		if got := tt.actor.Seats(&g); !slices.Equal(got, tt.seats) {
			t.Errorf("%s: Seats = %v, want %v", tt.name, got, tt.seats)
		}
	}
	// One address may not hold two seats, however it is written, unless it
	// is the creator's own.
	spec := games.NewGameSpec{Players: []games.Player{
		{Name: "Ann", Email: "ann@example.org"}, {Name: "Ann too", Email: "ANN@Example.org"},
	}, Creator: "org@example.org", Params: less.Params{Walls: openWalls}.Map()}
	_, err := games.CreateGame(spec, testGameID, testCreator, t0, randomSeed, nil)
	wantError(t, err, domain.KindInvalid, domain.CodeDuplicateAddress)
	spec.Creator = "ann@example.org"
	both := newGame(t, spec)
	if got := account(99, "ann@example.org").Seats(&both); !slices.Equal(got, []string{white, black}) {
		t.Errorf("Seats of a creator holding both = %v", got)
	}
}

func TestErrorOf(t *testing.T) {
	own := domain.Errorf(domain.KindForbidden, domain.CodeForbidden, "no")
	// The rules give a Less turn error in the ruleset interface's form, and
	// options they refuse as an invalid-options error (less.Rules.Start).
	te := &less.TurnError{Code: less.CodeOccupied, Index: 2, Message: "taken"}
	re := &ruleset.Error{Code: string(te.Code), Rule: te.Code.Rule(), Index: te.Index, Message: te.Message, Err: te}
	refused := func(err error) error {
		return &ruleset.Error{Code: ruleset.CodeInvalidOptions, Index: ruleset.NoIndex, Message: err.Error(), Err: err}
	}
	tests := []struct {
		name string
		err  error
		kind domain.Kind // 0: nil
		code string
		same *domain.Error
	}{
		{"nil", nil, 0, "", nil},
		{"a domain error", own, domain.KindForbidden, domain.CodeForbidden, own},
		{"a wrapped domain error", fmt.Errorf("ctx: %w", own), domain.KindForbidden, domain.CodeForbidden, own},
		{"a turn error", fmt.Errorf("play: %w", re), domain.KindIllegalTurn, domain.CodeIllegalTurn, nil},
		{"game over", fmt.Errorf("x: %w", less.ErrGameOver), domain.KindConflict, domain.CodeGameOver, nil},
		{"game over in any rules", fmt.Errorf("x: %w", ruleset.ErrGameOver), domain.KindConflict, domain.CodeGameOver, nil},
		{"bad board", refused(fmt.Errorf("%w: short", less.ErrBoard)), domain.KindInvalid, domain.CodeInvalidInput, nil},
		{"bad position", refused(fmt.Errorf("%w: overlap", less.ErrPosition)), domain.KindInvalid, domain.CodeInvalidInput, nil},
		{"bad options", fmt.Errorf("start: %w", refused(fmt.Errorf("%w: max", less.ErrOptions))), domain.KindInvalid, domain.CodeInvalidInput, nil},
		{"anything else", errors.New("disk full"), 0, "", nil},
		// A damaged row is the server's problem, whatever the engine said about it.
		{"stored data", fmt.Errorf("read game g: %w: %w", domain.ErrStoredData, refused(fmt.Errorf("%w: short", less.ErrBoard))), 0, "", nil},
		{"a stored turn", fmt.Errorf("%w: %w", domain.ErrStoredData, re), 0, "", nil},
		{"a nil *Error", fmt.Errorf("x: %w", (*domain.Error)(nil)), 0, "", nil},
	}
	for _, tt := range tests {
		got, ok := domain.ErrorOf(tt.err)
		if ok != (got != nil) {
			t.Errorf("%s: ErrorOf = %v, %v", tt.name, got, ok)
		}
		if tt.kind == 0 {
			if ok {
				t.Errorf("%s: ErrorOf = %v, want none", tt.name, got)
			}
			continue
		}
		if !ok || got.Kind != tt.kind || got.Code != tt.code {
			t.Errorf("%s: ErrorOf = %+v, want kind %d code %s", tt.name, got, tt.kind, tt.code)
			continue
		}
		if tt.same != nil && got != tt.same {
			t.Errorf("%s: ErrorOf built a new error instead of returning the domain error", tt.name)
		}
		if tt.kind == domain.KindIllegalTurn && (got.Turn != re || got.Message != "taken") {
			t.Errorf("%s: Turn = %+v, message %q", tt.name, got.Turn, got.Message)
		}
	}
}
