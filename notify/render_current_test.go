package notify

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/internal/vectors"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// mailGame is a game played through the use cases on a fresh database, at
// a clock the test moves, whose mail the test renders.
type mailGame struct {
	tb  testing.TB
	db  *sqlite.DB
	svc *games.Service
	now time.Time
	g   games.Game
}

// newMailGame creates a game on a fresh database; id is its id, "" for a
// random one.
func newMailGame(tb testing.TB, spec games.NewGameSpec, id string) *mailGame {
	tb.Helper()
	ctx := tb.Context()
	db, err := sqlite.Open(ctx, repotest.Path(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	mg := &mailGame{tb: tb, db: db, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	var creator domain.User
	err = db.Transact(ctx, func(tx domain.StoreTx) error {
		creator, err = tx.EnsureUser(ctx, "org@example.org", mg.now)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	cfg := games.Config{Store: db, Now: func() time.Time { return mg.now }}
	if id != "" {
		cfg.NewID = func(string) string { return id }
	}
	mg.svc = games.NewService(cfg)
	if mg.g, err = mg.svc.CreateGame(ctx, spec, creator.ID); err != nil {
		tb.Fatal(err)
	}
	return mg
}

// players are n players, with a locale each.
func players(n int) []games.Player {
	all := []games.Player{{Name: "Ann", Email: "ann@example.org", Locale: "en"}, {Name: "Bob", Email: "bob@example.org", Locale: "fr"},
		{Name: "Cat", Email: "cat@example.org", Locale: "de"}, {Name: "Dan", Email: "dan@example.org", Locale: "it"}}
	return all[:n]
}

// reread reads the game as stored.
func (mg *mailGame) reread() {
	mg.tb.Helper()
	var err error
	if mg.g, err = mg.db.Game(mg.tb.Context(), mg.g.ID); err != nil {
		mg.tb.Fatal(err)
	}
}

// mover is the request of the mover's seat, by its link.
func (mg *mailGame) mover() games.GameRequest {
	c := mg.g.ToMove()
	s, _ := mg.g.Seat(c)
	return games.GameRequest{GameID: mg.g.ID, By: games.Credentials{GameID: mg.g.ID, Seat: &c, LinkVersion: s.TokenVersion}}
}

func created(games.Actor, *games.Game, *games.Submitted, time.Time) (domain.Response, error) {
	return domain.Response{Status: 201}, nil
}

// play plays the mover's ply an hour later.
func (mg *mailGame) play(text string) {
	mg.tb.Helper()
	mg.now = mg.now.Add(time.Hour)
	if _, _, err := mg.svc.SubmitTurn(mg.tb.Context(), mg.mover(), mg.g.Ply(), text, created); err != nil {
		mg.tb.Fatalf("ply %d %q by %s: %v", mg.g.Ply(), text, mg.g.ToMove(), err)
	}
	mg.reread()
}

// playLess plays a legal turn of Less: the example the emails show.
func (mg *mailGame) playLess() {
	mg.tb.Helper()
	turn, ok := mg.g.Rules.Example()
	if !ok {
		mg.tb.Fatalf("no legal turn at ply %d", mg.g.Ply())
	}
	mg.play(turn)
}

// resign resigns for the mover.
func (mg *mailGame) resign() {
	mg.tb.Helper()
	mg.now = mg.now.Add(time.Hour)
	if _, _, err := mg.svc.Resign(mg.tb.Context(), mg.mover(), created); err != nil {
		mg.tb.Fatal(err)
	}
	mg.reread()
}

// tick moves the clock to at and does what the game's clock asks then.
func (mg *mailGame) tick(at time.Time) {
	mg.tb.Helper()
	mg.now = at
	if _, err := mg.svc.TickGame(mg.tb.Context(), mg.g.ID); err != nil {
		mg.tb.Fatal(err)
	}
	mg.reread()
}

// due is the mail queued, oldest first.
func (mg *mailGame) due() []domain.OutboxMail {
	mg.tb.Helper()
	due, err := mg.db.DueMail(mg.tb.Context(), mg.now, 10000)
	if err != nil {
		mg.tb.Fatal(err)
	}
	return due
}

// A long game's email, rendered right after its turn (the worker's usual
// case): the position and counts of the game as stored, and the turns
// since the recipient's last.
func BenchmarkRenderCurrentMail(b *testing.B) {
	mg := newMailGame(b, games.NewGameSpec{Players: players(2),
		Params: less.Params{Walls: strings.Repeat("0", 60), MaxTurns: new(60)}.Map()}, "")
	for range 100 {
		mg.playLess()
	}
	due := mg.due()
	i := slices.IndexFunc(due, func(m domain.OutboxMail) bool {
		return m.Notice.Kind == domain.NoticeYourTurn && m.Notice.Ply == mg.g.Ply()
	})
	if i < 0 || mg.g.Ply() != 100 {
		b.Fatalf("no your-turn mail at ply %d", mg.g.Ply())
	}
	r := &Renderer{Store: mg.db, Links: fakeLinks{}, Host: "less.example"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Render(b.Context(), due[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// countingRecords counts the store's reads of turns: the whole record, or
// its end.
type countingRecords struct {
	*sqlite.DB
	whole, tails int
}

func (c *countingRecords) Turns(ctx context.Context, id string) ([]games.StoredTurn, error) {
	c.whole++
	return c.DB.Turns(ctx, id)
}

func (c *countingRecords) TurnsFrom(ctx context.Context, id string, ply int) ([]games.StoredTurn, error) {
	c.tails++
	return c.DB.TurnsFrom(ctx, id, ply)
}

// bothWays renders the game's mail both ways, as the worker does and as a
// late email is (replayed from the whole record), and wants the same
// bytes; an email about the game as it is must not read the whole record.
// Mail seen before is rendered again (late, by then) only with again, one
// in ten of it. It returns how many emails were about the game as it is.
func (mg *mailGame) bothWays(t *testing.T, seen map[int64]bool, again bool) (current int) {
	t.Helper()
	store := &countingRecords{DB: mg.db}
	r := &Renderer{Store: store, Links: fakeLinks{}, Host: "less.example"}
	replayed := &Renderer{Store: mg.db, Links: fakeLinks{}, Host: "less.example", replayAll: true}
	for _, m := range mg.due() {
		if seen[m.ID] && (!again || m.ID%10 != 0) {
			continue
		}
		seen[m.ID] = true
		whole := store.whole
		got, err := r.Render(t.Context(), m)
		want, wantErr := replayed.Render(t.Context(), m)
		what := fmt.Sprintf("%s to %s at ply %d (game at %d)", m.Notice.Kind, m.Notice.Color, m.Notice.Ply, mg.g.Ply())
		if m.Notice.Ply == mg.g.Ply() {
			current++
			if store.whole != whole {
				t.Errorf("%s: read the whole record", what)
			}
		}
		switch {
		case (err != nil) != (wantErr != nil):
			t.Errorf("%s: error %v, replayed %v", what, err, wantErr)
		case !reflect.DeepEqual(got, want):
			t.Errorf("%s differs from the replayed one:\n%s\nreplayed:\n%s", what, got.Text, want.Text)
		}
	}
	return current
}

// Every email reads the same whether built from the stored game and the
// end of its record or replayed from the start: in games of Less for two
// and for four (auto passes, passes on time, a team complete from the
// start), of Les, at every ply, ended in every way.
func TestRenderCurrentAsReplayed(t *testing.T) {
	perTurn := games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour}
	sq := func(names ...string) []less.Square {
		var out []less.Square
		for _, n := range names {
			s, _ := less.ParseSquare(n)
			out = append(out, s)
		}
		return out
	}
	lessGames, lesGames := vectors.Load(t).GameCases, vectors.LoadLes(t).GameCases
	lessVector := func(i int) (less.Params, []string) {
		return less.Params{Walls: lessGames[i].Walls}, lessGames[i].Turns
	}
	lesVector := func(i int) (map[string]string, []string) {
		v := lesGames[i]
		return map[string]string{les.ParamSize: strconv.Itoa(v.Size)}, append([]string{v.Setup, v.Choice}, v.Turns...)
	}
	// Each case plays the vectors' first game of the kind it needs, so that
	// it passes with any valid vectors file; a file without one skips it.
	lessWhere := func(ok func(vectors.GameCase) bool) int { return slices.IndexFunc(lessGames, ok) }
	lesWhere := func(ok func(vectors.LesGameCase) bool) int { return slices.IndexFunc(lesGames, ok) }
	var (
		lessLong = lessWhere(func(g vectors.GameCase) bool { return len(g.Turns) > 10 })
		lessDraw = lessWhere(func(g vectors.GameCase) bool { return g.Result.Winner == nil })
		lessSome = lessWhere(func(g vectors.GameCase) bool { return len(g.Turns) > 7 })
		lesSmall = lesWhere(func(g vectors.LesGameCase) bool {
			return !slices.ContainsFunc(lesGames, func(o vectors.LesGameCase) bool { return o.Size < g.Size })
		})
		lesBlack = lesWhere(func(g vectors.LesGameCase) bool { return g.Choice == "black" && len(g.Turns) > 6 })
		lesSome  = lesWhere(func(g vectors.LesGameCase) bool { return len(g.Turns) > 2 })
	)
	needs := map[string]int{
		"less: two players to the end, reminded, a link renewed":                 lessLong,
		"less: two players, a draw":                                              lessDraw,
		"less: two players, resigned":                                            lessSome,
		"less: two players, lost on time":                                        lessSome,
		"les: to the end":                                                        lesSmall,
		"les: the chooser takes Black and moves at once, reminded, then resigns": lesBlack,
		"les: lost on time":                                                      lesSome,
	}
	tests := []struct {
		name string
		spec func() games.NewGameSpec
		// play plays the game on, calling check after every change.
		play func(mg *mailGame, check func())
	}{
		{"less: two players to the end, reminded, a link renewed", func() games.NewGameSpec {
			p, _ := lessVector(lessLong)
			return games.NewGameSpec{Players: players(2), Params: p.Map(), Time: perTurn}
		}, func(mg *mailGame, check func()) {
			_, turns := lessVector(lessLong)
			for i, text := range turns {
				if i%7 == 3 {
					mg.tick(mg.g.Clock.Deadline.Add(-23 * time.Hour)) // a reminder
					check()
				}
				if i == 10 {
					if err := mg.svc.RotateSeat(mg.tb.Context(), mg.g.ID, mg.mover().By, mg.g.ToMove()); err != nil {
						mg.tb.Fatal(err)
					}
					mg.reread()
					check()
				}
				mg.play(text)
				check()
			}
		}},
		{"less: two players, a draw", func() games.NewGameSpec {
			p, _ := lessVector(lessDraw)
			return games.NewGameSpec{Players: players(2), Params: p.Map()}
		}, func(mg *mailGame, check func()) {
			_, turns := lessVector(lessDraw)
			for _, text := range turns {
				mg.play(text)
				check()
			}
		}},
		{"less: two players, resigned", func() games.NewGameSpec {
			p, _ := lessVector(lessSome)
			return games.NewGameSpec{Players: players(2), Params: p.Map(), Time: perTurn}
		}, func(mg *mailGame, check func()) {
			_, turns := lessVector(lessSome)
			for _, text := range turns[:7] {
				mg.play(text)
				check()
			}
			mg.resign()
		}},
		{"less: two players, lost on time", func() games.NewGameSpec {
			p, _ := lessVector(lessSome)
			return games.NewGameSpec{Players: players(2), Params: p.Map(), Time: perTurn}
		}, func(mg *mailGame, check func()) {
			_, turns := lessVector(lessSome)
			for _, text := range turns[:6] {
				mg.play(text)
				check()
			}
			mg.tick(mg.g.Clock.Deadline)
		}},
		{"less: four players, passes on time", func() games.NewGameSpec {
			return games.NewGameSpec{Players: players(4), Time: perTurn,
				Params: less.Params{Walls: strings.Repeat("0", 112), MaxTurns: new(6)}.Map()}
		}, func(mg *mailGame, check func()) {
			for i := 0; !mg.g.Over(); i++ {
				if i%5 == 2 {
					mg.tick(mg.g.Clock.Deadline)
				} else {
					mg.playLess()
				}
				check()
			}
		}},
		{"less: four players, a team complete from the start", func() games.NewGameSpec {
			return games.NewGameSpec{Players: players(4), Time: perTurn,
				Params: less.Params{Walls: strings.Repeat("0", 112), MaxTurns: new(8), Setup: &less.Setup{Pieces: map[less.Color][]less.Square{
					less.White:  sq("a1", "a2", "b1", "b2"),
					less.Yellow: sq("a7", "a8", "b7", "b8"),
					less.Black:  sq("c3", "c4", "d3", "d4"),
					less.Red:    sq("c5", "c6", "d5", "d6"),
				}, ToMove: less.Yellow}}.Map()}
		}, func(mg *mailGame, check func()) {
			for i := 0; !mg.g.Over(); i++ {
				if i%4 == 1 {
					mg.tick(mg.g.Clock.Deadline)
				} else {
					mg.playLess()
				}
				check()
			}
		}},
		{"les: to the end", func() games.NewGameSpec {
			p, _ := lesVector(lesSmall)
			return games.NewGameSpec{Ruleset: les.RulesetName, Players: players(2), Params: p}
		}, func(mg *mailGame, check func()) {
			_, plies := lesVector(lesSmall)
			for _, text := range plies {
				mg.play(text)
				check()
			}
		}},
		{"les: the chooser takes Black and moves at once, reminded, then resigns", func() games.NewGameSpec {
			p, _ := lesVector(lesBlack)
			return games.NewGameSpec{Ruleset: les.RulesetName, Players: players(2), Params: p, Time: perTurn}
		}, func(mg *mailGame, check func()) {
			_, plies := lesVector(lesBlack)
			for i, text := range plies[:8] {
				if i%4 == 1 {
					mg.tick(mg.g.Clock.Deadline.Add(-23 * time.Hour))
					check()
				}
				mg.play(text)
				check()
			}
			mg.resign()
		}},
		{"les: lost on time", func() games.NewGameSpec {
			p, _ := lesVector(lesSome)
			return games.NewGameSpec{Ruleset: les.RulesetName, Players: players(2), Params: p, Time: perTurn}
		}, func(mg *mailGame, check func()) {
			_, plies := lesVector(lesSome)
			for _, text := range plies[:4] {
				mg.play(text)
				check()
			}
			mg.tick(mg.g.Clock.Deadline)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if i, ok := needs[tt.name]; ok && i < 0 {
				t.Skip("the vectors have no game this case can play")
			}
			mg := newMailGame(t, tt.spec(), "")
			seen := map[int64]bool{}
			current := mg.bothWays(t, seen, false)
			tt.play(mg, func() { current += mg.bothWays(t, seen, false) })
			if !mg.g.Over() {
				t.Fatalf("the game goes on at ply %d", mg.g.Ply())
			}
			current += mg.bothWays(t, seen, true)
			// Most emails are about the game as it is when they are rendered.
			if current*3 < mg.g.Ply() {
				t.Errorf("%d of %d emails about the game as it was, for %d plies", current, len(seen), mg.g.Ply())
			}
		})
	}
}

// tamperedRecords changes what TurnsFrom reads, as a store whose record
// does not match its games would.
type tamperedRecords struct {
	*sqlite.DB
	tamper func([]games.StoredTurn) []games.StoredTurn
}

func (s tamperedRecords) TurnsFrom(ctx context.Context, id string, ply int) ([]games.StoredTurn, error) {
	turns, err := s.DB.TurnsFrom(ctx, id, ply)
	return s.tamper(turns), err
}

// An email about the game as it is reads the last round and one turn,
// and the whole record when those do not hold the recipient's last turn
// up to the notice; a late email reads the whole record up to its ply.
func TestRenderRecord(t *testing.T) {
	mg := newMailGame(t, games.NewGameSpec{Players: players(2), Params: less.Params{Walls: strings.Repeat("0", 60)}.Map()}, "")
	for range 6 {
		mg.playLess()
	}
	later := games.StoredTurn{Ply: 7, Color: "white", Notation: "a1a2"}
	same := func(turns []games.StoredTurn) []games.StoredTurn { return turns }
	tests := []struct {
		name      string
		tamper    func([]games.StoredTurn) []games.StoredTurn
		replayAll bool
		ply       int
		color     string
		tail      bool
		plies     []int
	}{
		{"as stored", same, false, 6, "white", true, []int{4, 5, 6}},
		{"to the other seat", same, false, 6, "black", true, []int{4, 5, 6}},
		{"a turn played since", func(turns []games.StoredTurn) []games.StoredTurn { return append(turns, later) },
			false, 6, "white", true, []int{4, 5, 6}},
		{"a turn missing", func(turns []games.StoredTurn) []games.StoredTurn { return slices.Delete(turns, 1, 2) },
			false, 6, "white", false, []int{1, 2, 3, 4, 5, 6}},
		{"the recipient not among them", func(turns []games.StoredTurn) []games.StoredTurn {
			for i := range turns {
				turns[i].Color = "black"
			}
			return turns
		}, false, 6, "white", false, []int{1, 2, 3, 4, 5, 6}},
		{"late", same, false, 4, "white", false, []int{1, 2, 3, 4}},
		{"replayed", same, true, 6, "white", false, []int{1, 2, 3, 4, 5, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Renderer{Store: tamperedRecords{DB: mg.db, tamper: tt.tamper}, replayAll: tt.replayAll}
			rec, err := r.readRecord(t.Context(), &mg.g, domain.Notice{Kind: domain.NoticeYourTurn, Color: tt.color, Ply: tt.ply})
			if err != nil {
				t.Fatal(err)
			}
			var plies []int
			for _, turn := range rec.turns {
				plies = append(plies, turn.Ply)
			}
			if rec.tail != tt.tail || !slices.Equal(plies, tt.plies) {
				t.Errorf("tail %v, plies %v; want %v, %v", rec.tail, plies, tt.tail, tt.plies)
			}
		})
	}
}
