package sqlite

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// The fixture is a database written by the code of schema 0011 (before
// games kept their ruleset's state opaquely): a 2-player game under way, a
// 4-player game on a generated board, a finished game, a game with a clock
// and a tournament's game. Its golden file holds what each game looked like
// then. Regenerate both only with the code of that schema:
//
//	LESSPOST_WRITE_FIXTURE=1 go test -run TestSchema11Fixture ./repo/sqlite/
const (
	schema11DB     = "testdata/schema11.db"
	schema11Golden = "testdata/schema11.json"
)

// fixtureGame is what must survive a migration of a game, in the types the
// golden file was written with (colours were less.Color numbers then).
type fixtureGame struct {
	ID       string
	Preset   less.Preset
	Seed     *uint64
	Seats    []fixtureSeat
	Size     int
	Walls    string
	Start    string
	Position string
	ToMove   string
	Ply      int
	Counts   [4]int
	Result   *less.Result
	Clock    games.Clock
	Turns    []fixtureTurn
	Tourney  *games.TournamentRef
	Version  int
}

type fixtureSeat struct {
	Color less.Color
	games.Player
	TokenVersion int
}

type fixtureTurn struct {
	Ply      int
	Color    less.Color
	Notation string
	Used     int
	Counted  int
	Auto     bool
	TimedOut bool
	PlayedAt time.Time
}

func fixtureColor(t *testing.T, name string) less.Color {
	t.Helper()
	c, err := less.ParseColor(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func summarize(t *testing.T, db *DB, id string) fixtureGame {
	t.Helper()
	g, err := db.Game(t.Context(), id)
	if err != nil {
		t.Fatalf("Game %s: %v", id, err)
	}
	turns, err := db.Turns(t.Context(), id)
	if err != nil {
		t.Fatalf("Turns %s: %v", id, err)
	}
	lg := lessOf(t, g)
	st := lg.Game.State()
	f := fixtureGame{ID: g.ID, Preset: lg.Preset, Seed: lg.Seed, Size: st.Start.Size(),
		Walls: st.Start.Board().Walls(), Start: st.Start.String(), Position: st.Position.String(),
		ToMove: st.Position.ToMove().String(), Ply: st.Ply, Counts: st.Counts, Result: st.Result, Clock: g.Clock,
		Tourney: g.Tournament, Version: g.Version}
	for _, s := range g.Seats {
		f.Seats = append(f.Seats, fixtureSeat{Color: fixtureColor(t, s.Color), Player: s.Player, TokenVersion: s.TokenVersion})
	}
	for _, x := range turns {
		f.Turns = append(f.Turns, fixtureTurn{Ply: x.Ply, Color: fixtureColor(t, x.Color), Notation: x.Notation,
			Used: x.Used, Counted: x.Counted, Auto: x.Auto, TimedOut: x.TimedOut, PlayedAt: x.PlayedAt})
	}
	return f
}

// playAny plays the first legal turn of the game's mover.
func playAny(t *testing.T, db *DB, id string, now time.Time) {
	t.Helper()
	g, err := db.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	pos := lessOf(t, g).Game.Position()
	turn := pos.LegalTurns()[0]
	c := pos.ToMove()
	if err := submitTurn(t.Context(), db, id, seatOf(c), g.Ply(), turn.String(), now); err != nil {
		t.Fatalf("play %s in %s: %v", turn, id, err)
	}
}

func TestSchema11FixtureWrite(t *testing.T) {
	if os.Getenv("LESSPOST_WRITE_FIXTURE") == "" {
		t.Skip("LESSPOST_WRITE_FIXTURE is not set")
	}
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	creator := signUp(t, db, "ada@example.org", now)
	var ids []string
	create := func(spec games.NewGameSpec) string {
		g := mustCreate(t, db, spec, creator.ID, now)
		ids = append(ids, g.ID)
		return g.ID
	}
	// A 2-player game under way.
	two := create(twoPlayerSpec("ada@example.org", "bob@example.org"))
	playAny(t, db, two, now)
	playAny(t, db, two, now)
	// A 4-player game on a generated board.
	seed := uint64(42)
	four := create(games.NewGameSpec{Players: []games.Player{
		{Name: "Yellow", Email: "y@example.org"}, {Name: "Black", Email: "b@example.org"},
		{Name: "White", Email: "w@example.org"}, {Name: "Red", Email: "r@example.org", Locale: "de"},
	}, Seed: &seed})
	playAny(t, db, four, now)
	// A finished game.
	done := create(twoPlayerSpec("ada@example.org", "cy@example.org"))
	playAny(t, db, done, now)
	if err := resignGame(t.Context(), db, done, seatOf(less.Black), now); err != nil {
		t.Fatal(err)
	}
	// A game with a clock.
	spec := twoPlayerSpec("ada@example.org", "dee@example.org")
	spec.Time = games.TimeControl{Kind: games.TimePerTurn, PerTurn: 72 * time.Hour,
		Reminders: []time.Duration{24 * time.Hour}, Timeout: games.TimeoutForfeit}
	clocked := create(spec)
	playAny(t, db, clocked, now.Add(time.Hour))
	// A tournament's game.
	tour, err := db.tournamentsAt(now).CreateTournament(t.Context(), tournaments.NewTournamentSpec{Name: "Autumn", Format: tournaments.RoundRobin,
		Players:    []games.Player{{Name: "Eve", Email: "eve@example.org"}, {Name: "Fay", Email: "fay@example.org"}},
		FirstStart: now.Add(time.Hour), Interval: 7 * 24 * time.Hour}, creator.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.tournamentsAt(now.Add(2*time.Hour)).TickTournament(t.Context(), tour.ID); err != nil {
		t.Fatal(err)
	}
	tid, err := queryIDs(t.Context(), db.read, `SELECT id FROM games WHERE tournament_id = ?`, tour.ID)
	if err != nil || len(tid) != 1 {
		t.Fatalf("tournament games %v: %v", tid, err)
	}
	ids = append(ids, tid[0])

	var golden []fixtureGame
	for _, id := range ids {
		golden = append(golden, summarize(t, db, id))
	}
	if _, err := db.writeConn.ExecContext(t.Context(), `VACUUM INTO ?`, schema11DB+".new"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.Rename(schema11DB+".new", schema11DB); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(golden, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(schema11Golden, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSchema11FixturePlaysOn opens a database written by the schema-0011
// code with today's code (its migrations run), reads every game as it was,
// and plays on.
func TestSchema11FixturePlaysOn(t *testing.T) {
	b, err := os.ReadFile(schema11Golden)
	if err != nil {
		t.Fatal(err)
	}
	var golden []fixtureGame
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.db")
	copyFile(t, schema11DB, path)
	db := openTest(t, path)
	// The rows keep the ruleset's state opaquely: no column of Less's own is left.
	cols, err := queryIDs(t.Context(), db.read, `SELECT name FROM pragma_table_info('games') ORDER BY cid`)
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []string{"id", "creator_id", "to_move", "ply", "status", "version", "created_at", "updated_at", "clock",
		"deadline_at", "due_at", "tournament_id", "tournament", "watch_version", "ruleset", "state"}
	if !reflect.DeepEqual(cols, wantCols) {
		t.Errorf("columns of games = %v, want %v", cols, wantCols)
	}
	for _, want := range golden {
		if got := summarize(t, db, want.ID); !reflect.DeepEqual(got, want) {
			t.Errorf("game %s after migration:\n got %+v\nwant %+v", want.ID, got, want)
		}
	}
	now := time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)
	for _, want := range golden {
		if want.Result != nil {
			if err := resignGame(t.Context(), db, want.ID, seatOf(less.White), now); err == nil {
				t.Errorf("game %s: resigned a finished game", want.ID)
			}
			continue
		}
		playAny(t, db, want.ID, now)
		got := summarize(t, db, want.ID)
		if got.Ply != want.Ply+1 || len(got.Turns) != len(want.Turns)+1 ||
			(len(want.Turns) > 0 && !reflect.DeepEqual(got.Turns[:len(want.Turns)], want.Turns)) || got.Version <= want.Version {
			t.Errorf("game %s: after a turn ply %d, %d turns, version %d; was ply %d, %d turns, version %d",
				want.ID, got.Ply, len(got.Turns), got.Version, want.Ply, len(want.Turns), want.Version)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
