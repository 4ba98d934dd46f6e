package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// myGames is a store in which ann has seven games in every state, and wes
// one more that is none of ann's business.
type myGames struct {
	s             Store
	ann, vic, wes domain.User
	// want is ann's games in MyGames order, named for the messages.
	want    []string
	wesWant []string
	names   map[string]string // game id -> name
	games   map[string]games.Game
}

func at(h int) time.Time { return T0.Add(time.Duration(h) * time.Hour) }

func newMyGames(t *testing.T, s Store) myGames {
	t.Helper()
	f := myGames{s: s, ann: ensureUser(t, s, "ann@example.org"), vic: ensureUser(t, s, "vic@example.org"),
		wes: ensureUser(t, s, "wes@example.org"), names: map[string]string{}, games: map[string]games.Game{}}
	create := func(name string, creator domain.User, white, black string, h int) games.Game {
		id := fmt.Sprintf("g_%c", name[0])
		g := createGame(t, s, id, creator, white, black, at(h))
		f.names[id], f.games[name] = name, g
		return g
	}
	// Ann's turn since hour 1: she is White and has not moved.
	create("A: her turn since 1", f.vic, "ann@example.org", "vic@example.org", 1)
	// Ann's turn since hour 5, when Vic moved.
	play(t, s, create("B: her turn since 5", f.ann, "vic@example.org", "ann@example.org", 2), at(5))
	// Vic's turn since hour 4, when Ann moved.
	play(t, s, create("C: his turn since 4", f.ann, "ann@example.org", "vic@example.org", 3), at(4))
	// Vic's turn since the game was created at hour 6.
	create("D: his turn since 6", f.vic, "vic@example.org", "ann@example.org", 6)
	// Created by Ann for others at hour 7: she does not play in it.
	create("E: created by her at 7", f.ann, "vic@example.org", "wes@example.org", 7)
	// Finished at hour 9: Ann resigned.
	resign(t, s, create("F: finished at 9", f.vic, "ann@example.org", "vic@example.org", 8), "white", at(9))
	// Finished at hour 11: Vic resigned.
	resign(t, s, create("G: finished at 11", f.ann, "vic@example.org", "ann@example.org", 10), "white", at(11))
	// Wes's game, without Ann: his turn.
	create("X: wes's", f.wes, "wes@example.org", "vic@example.org", 12)
	// A game changed after all others, between other people.
	play(t, s, create("Y: others'", f.vic, "vic@example.org", "zed@example.org", 13), at(14))
	f.want = []string{
		"A: her turn since 1", "B: her turn since 5", // her turn, longest waiting first
		"E: created by her at 7", "D: his turn since 6", "C: his turn since 4", // others, latest first
		"G: finished at 11", "F: finished at 9", // finished, latest first
	}
	f.wesWant = []string{"X: wes's", "E: created by her at 7"}
	return f
}

// walk lists u's games page by page, and counts the pages.
func (f myGames) walk(t *testing.T, u domain.User, limit int) (names []string, pages int) {
	t.Helper()
	cursor := ""
	for {
		page, err := f.s.MyGames(t.Context(), u.Email, cursor, limit)
		if err != nil {
			t.Fatalf("MyGames(cursor %q, limit %d): %v", cursor, limit, err)
		}
		pages++
		if len(page.Games) > limit || len(page.Games) == 0 && page.Next != "" {
			t.Fatalf("page %d has %d games for limit %d, next %q", pages, len(page.Games), limit, page.Next)
		}
		for _, g := range page.Games {
			names = append(names, f.names[g.ID])
		}
		if page.Next == "" {
			return names, pages
		}
		if len(page.Games) != limit {
			t.Errorf("page %d has %d games and a next cursor", pages, len(page.Games))
		}
		if pages > 20 {
			t.Fatal("pagination does not end")
		}
		cursor = page.Next
	}
}

// MyGames gives an address's games, the urgent first, in pages of any size
// that the cursors join without a gap or a repeat; whole games, only the
// address's.
func testMyGamesOrder(t *testing.T, s Store) {
	f := newMyGames(t, s)
	for _, tt := range []struct{ limit, pages int }{{100, 1}, {7, 1}, {6, 2}, {2, 4}, {1, 7}} {
		names, pages := f.walk(t, f.ann, tt.limit)
		if !slices.Equal(names, f.want) || pages != tt.pages {
			t.Errorf("limit %d: %d pages of\n%q\nwant %d of\n%q", tt.limit, pages, names, tt.pages, f.want)
		}
	}
	if names, _ := f.walk(t, f.wes, 1); !slices.Equal(names, f.wesWant) {
		t.Errorf("wes's games = %q, want %q", names, f.wesWant)
	}
	page, err := s.MyGames(t.Context(), f.ann.Email, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range page.Games {
		stored, err := s.Game(t.Context(), g.ID)
		if err != nil || g.Version != stored.Version || !sameState(g, stored) || len(g.Seats) != 2 {
			t.Errorf("MyGames gave %s as %+v; stored %+v, %v", f.names[g.ID], g, stored, err)
		}
	}
	if page, err := s.MyGames(t.Context(), "nobody@example.org", "", 10); err != nil || len(page.Games) != 0 || page.Next != "" {
		t.Errorf("games of an address without any = %+v, %v", page, err)
	}
}

// checkOrder checks u's games, in one page and in pages of two.
func (f myGames) checkOrder(t *testing.T, u domain.User, want []string) {
	t.Helper()
	for _, limit := range []int{100, 2} {
		if names, _ := f.walk(t, u, limit); !slices.Equal(names, want) {
			t.Errorf("%s's games (pages of %d):\n%q\nwant\n%q", u.Email, limit, names, want)
		}
	}
}

// update stores the change compute makes to game name at now, as the use
// cases do.
func (f myGames) update(t *testing.T, name string, now time.Time, compute func(games.Game) (games.GameChange, error)) error {
	t.Helper()
	_, _, err := games.UpdateGame(t.Context(), f.s, nil, games.GameUpdate{GameID: f.games[name].ID, Now: now, Compute: compute})
	return err
}

// The order follows every kind of change: turns, deadlines and the
// vacations that move them, resignations, time-outs, renewed links; and a
// cursor stays valid meanwhile, the pages after it following the order as it
// now is.
func testMyGamesFollowsChanges(t *testing.T, s Store) {
	f := newMyGames(t, s)
	ctx := t.Context()
	first, err := s.MyGames(ctx, f.ann.Email, "", 2)
	if err != nil || len(first.Games) != 2 || first.Next == "" {
		t.Fatalf("first page = %+v, %v", first, err)
	}
	// T lets vacations move its deadline, U does not.
	timed := func(name string, vacation bool, h int) {
		id := fmt.Sprintf("g_%c", name[0])
		c := newGameOf(t, id, f.vic, "ann@example.org", "vic@example.org",
			games.TimeControl{Kind: games.TimePerTurn, PerTurn: 72 * time.Hour, AllowVacation: vacation}, at(h))
		transact(t, s, func(ctx context.Context, tx *unit) error {
			return tx.InsertGame(ctx, &c, domain.Cause{By: f.vic.Email}, at(h))
		})
		f.names[id], f.games[name] = name, c.Game
	}
	rotate := func(name, color string, by domain.User, h int) func() error {
		return func() error {
			return f.update(t, name, at(h), func(g games.Game) (games.GameChange, error) {
				ng, notice, err := games.RotateSeat(g, games.Actor{UserID: by.ID}, color, at(h))
				return games.GameChange{Game: ng, Notices: []domain.Notice{notice}}, err
			})
		}
	}
	play := func(name, color string, h int) func() error {
		return func() error {
			return f.update(t, name, at(h), func(g games.Game) (games.GameChange, error) {
				sub, err := games.SubmitTurn(g, games.Actor{SeatColor: &color}, g.Ply(), opening, at(h))
				return games.GameChange{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, err
			})
		}
	}
	const (
		A, B, C, D, E = "A: her turn since 1", "B: her turn since 5", "C: his turn since 4", "D: his turn since 6", "E: created by her at 7"
		F, G, T, U    = "F: finished at 9", "G: finished at 11", "T: hers, deadline 89", "U: hers, deadline 90"
	)
	steps := []struct {
		name string
		do   func() error
		want []string
	}{
		{"a deadline comes before every game without one",
			func() error { timed(T, true, 17); return nil },
			[]string{T, A, B, E, D, C, G, F}},
		{"the nearest deadline first",
			func() error { timed(U, false, 18); return nil },
			[]string{T, U, A, B, E, D, C, G, F}},
		{"her vacation moves T's deadline, and nothing else of it, after U's",
			func() error {
				// The allowance is the use case's to check, not the store's.
				ann := f.ann
				ann.VacationDays = games.DefaultVacationDays
				_, err := serviceAt(s, at(19)).DeclareVacation(ctx, ann, games.Period{Start: at(20), End: at(68)})
				return err
			},
			[]string{U, T, A, B, E, D, C, G, F}},
		{"her move in A makes it the latest of the others' running games",
			play(A, "white", 21),
			[]string{U, T, B, A, E, D, C, G, F}},
		{"a resignation makes D her latest finished game",
			func() error { resign(t, s, f.games[D], "white", at(22)); return nil },
			[]string{U, T, B, A, E, C, D, G, F}},
		{"the scheduler's time-out finishes U at its deadline",
			func() error {
				acted, err := serviceAt(s, at(18+72)).TickGame(ctx, f.games[U].ID)
				if err == nil && !acted {
					t.Error("the time-out did not happen")
				}
				return err
			},
			[]string{T, B, A, E, C, U, D, G, F}},
		{"a renewed move link is a change: C moves up among the others' games",
			rotate(C, "black", f.ann, 91),
			[]string{T, B, C, A, E, U, D, G, F}},
		{"a renewed link in a finished game makes it her latest finished game",
			rotate(F, "white", f.vic, 92),
			[]string{T, B, C, A, E, F, U, D, G}},
	}
	for _, step := range steps {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		t.Run(step.name, func(t *testing.T) { f.checkOrder(t, f.ann, step.want) })
	}
	// The first page's cursor still leads on: past A and B, as now ordered.
	var names []string
	for cursor := first.Next; cursor != ""; {
		page, err := s.MyGames(ctx, f.ann.Email, cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range page.Games {
			names = append(names, f.names[g.ID])
		}
		cursor = page.Next
	}
	if want := []string{C, A, E, F, U, D, G}; !slices.Equal(names, want) {
		t.Errorf("the pages after the first's cursor = %q, want %q", names, want)
	}
	f.checkOrder(t, f.wes, f.wesWant)
	// An address invited before it had an account sees its game.
	f.checkOrder(t, domain.User{Email: "zed@example.org"}, []string{"Y: others'"})

	// Games changed at the same time go by id, running or finished.
	const I, J = "I: created by her at 93", "J: created by her at 93 too"
	for _, name := range []string{I, J} {
		id := fmt.Sprintf("g_%c", name[0])
		f.names[id], f.games[name] = name, createGame(t, s, id, f.ann, "vic@example.org", "wes@example.org", at(93))
	}
	f.checkOrder(t, f.ann, []string{T, B, I, J, C, A, E, F, U, D, G})
	for _, name := range []string{I, J} {
		resign(t, s, f.games[name], "white", at(94))
	}
	f.checkOrder(t, f.ann, []string{T, B, C, A, E, I, J, F, U, D, G})
}

// DueGames lists running games whose clock needs attention, most overdue
// first; a finished game is not due.
func testDueGames(t *testing.T, s Store) {
	ctx := t.Context()
	org := ensureUser(t, s, "org@example.org")
	perTurn := games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour}
	var games []games.Game
	for i, id := range []string{"g_late", "g_early"} {
		c := newGameOf(t, id, org, "ann@example.org", "bob@example.org", perTurn, T0.Add(-time.Duration(i)*time.Hour))
		transact(t, s, func(ctx context.Context, tx *unit) error {
			return tx.InsertGame(ctx, &c, domain.Cause{By: org.Email}, T0)
		})
		games = append(games, c.Game)
	}
	reminder := T0.Add(2 * 24 * time.Hour) // the reminder of g_late, a day before its deadline
	for _, c := range []struct {
		now   time.Time
		limit int
		want  []string
	}{
		{reminder.Add(-time.Hour - time.Millisecond), 10, nil},
		{reminder.Add(-time.Hour), 10, []string{"g_early"}},
		{reminder, 10, []string{"g_early", "g_late"}},
		{reminder, 1, []string{"g_early"}},
	} {
		if ids, err := s.DueGames(ctx, c.now, c.limit); err != nil || !slices.Equal(ids, c.want) {
			t.Errorf("DueGames(%v, %d) = %v, %v; want %v", c.now, c.limit, ids, err, c.want)
		}
	}
	resign(t, s, games[1], "white", T0.Add(time.Hour))
	if ids, err := s.DueGames(ctx, reminder, 10); err != nil || !slices.Equal(ids, []string{"g_late"}) {
		t.Errorf("DueGames after g_early ended = %v, %v; want g_late", ids, err)
	}
}
