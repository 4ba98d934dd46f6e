package repo

import (
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
)

// myGamesFixture is a store in which ann has seven games in every state,
// and wes one more that is none of ann's business.
type myGamesFixture struct {
	db       *DB
	ann, wes User
	// want is ann's games in MyGames order, named for the messages.
	want  []string
	names map[string]string // game id -> name
	// wesWant is wes's games in order.
	wesWant []string
}

func newMyGamesFixture(t *testing.T) myGamesFixture {
	t.Helper()
	ctx := t.Context()
	db := newStore(t)
	ann := signUp(t, db, "ann@example.org", t0)
	vic := signUp(t, db, "vic@example.org", t0)
	wes := signUp(t, db, "wes@example.org", t0)
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	f := myGamesFixture{db: db, ann: ann, wes: wes, names: map[string]string{}}
	ids := map[string]string{}
	create := func(name string, creator User, white, black string, h int) string {
		g := mustCreate(t, db, twoPlayerSpec(white, black), creator.ID, at(h))
		ids[name], f.names[g.ID] = g.ID, name
		return g.ID
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// Ann's turn since hour 1: she is White and has not moved.
	create("A: her turn since 1", vic, "ann@example.org", "vic@example.org", 1)
	// Ann's turn since hour 5, when Vic moved.
	b := create("B: her turn since 5", ann, "vic@example.org", "ann@example.org", 2)
	must(submitTurn(ctx, db, b, seatOf(less.White), 0, firstTurn, at(5)))
	// Vic's turn since hour 4, when Ann moved.
	c := create("C: his turn since 4", ann, "ann@example.org", "vic@example.org", 3)
	must(submitTurn(ctx, db, c, seatOf(less.White), 0, firstTurn, at(4)))
	// Vic's turn since the game was created at hour 6.
	create("D: his turn since 6", vic, "vic@example.org", "ann@example.org", 6)
	// Created by Ann for others at hour 7: she does not play in it.
	create("E: created by her at 7", ann, "vic@example.org", "wes@example.org", 7)
	// Finished at hour 9: Ann resigned.
	fg := create("F: finished at 9", vic, "ann@example.org", "vic@example.org", 8)
	must(resignGame(ctx, db, fg, seatOf(less.White), at(9)))
	// Finished at hour 11: Vic resigned.
	gg := create("G: finished at 11", ann, "vic@example.org", "ann@example.org", 10)
	must(resignGame(ctx, db, gg, seatOf(less.White), at(11)))
	// Wes's game, without Ann: his turn.
	create("X: wes's", wes, "wes@example.org", "vic@example.org", 12)
	// A game changed after all others, between other people.
	y := create("Y: others'", vic, "vic@example.org", "zed@example.org", 13)
	must(submitTurn(ctx, db, y, seatOf(less.White), 0, firstTurn, at(14)))

	f.want = []string{
		"A: her turn since 1", "B: her turn since 5", // her turn, longest waiting first
		"E: created by her at 7", "D: his turn since 6", "C: his turn since 4", // others, latest first
		"G: finished at 11", "F: finished at 9", // finished, latest first
	}
	f.wesWant = []string{"X: wes's", "E: created by her at 7"}
	return f
}

func (f myGamesFixture) walk(t *testing.T, u User, limit int) (names []string, pages int) {
	t.Helper()
	cursor := ""
	for {
		page, err := f.db.MyGames(t.Context(), u, cursor, limit)
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

func TestMyGamesOrderAndPages(t *testing.T) {
	f := newMyGamesFixture(t)
	tests := []struct {
		limit, pages int
	}{
		{100, 1},
		{7, 1},
		{6, 2},
		{2, 4},
		{1, 7},
	}
	for _, tt := range tests {
		names, pages := f.walk(t, f.ann, tt.limit)
		if !slices.Equal(names, f.want) {
			t.Errorf("limit %d: games\n%q\nwant\n%q", tt.limit, names, f.want)
		}
		if pages != tt.pages {
			t.Errorf("limit %d: %d pages, want %d", tt.limit, pages, tt.pages)
		}
	}
}

func TestMyGamesPagesOfTwo(t *testing.T) {
	f := newMyGamesFixture(t)
	ctx := t.Context()
	cursor := ""
	for i, want := range [][]string{f.want[0:2], f.want[2:4], f.want[4:6], f.want[6:7]} {
		page, err := f.db.MyGames(ctx, f.ann, cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, g := range page.Games {
			got = append(got, f.names[g.ID])
		}
		if !slices.Equal(got, want) {
			t.Errorf("page %d = %q, want %q", i+1, got, want)
		}
		if last := i == 3; (page.Next == "") != last {
			t.Errorf("page %d: next %q", i+1, page.Next)
		}
		cursor = page.Next
	}
}

func TestMyGamesReturnsWholeGames(t *testing.T) {
	f := newMyGamesFixture(t)
	page, err := f.db.MyGames(t.Context(), f.ann, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range page.Games {
		stored, err := f.db.Game(t.Context(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		checkSameGame(t, g, stored)
		mine := g.CreatorID == f.ann.ID || slices.ContainsFunc(g.Seats, func(s domain.Seat) bool { return s.Email == f.ann.Email })
		if !mine {
			t.Errorf("game %s is not ann's", f.names[g.ID])
		}
	}
}

func TestMyGamesOfOthers(t *testing.T) {
	f := newMyGamesFixture(t)
	if names, _ := f.walk(t, f.wes, 1); !slices.Equal(names, f.wesWant) {
		t.Errorf("wes's games = %q, want %q", names, f.wesWant)
	}
	nobody := signUp(t, f.db, "nobody@example.org", t0)
	page, err := f.db.MyGames(t.Context(), nobody, "", 10)
	if err != nil || len(page.Games) != 0 || page.Next != "" {
		t.Errorf("games of a user without any = %+v, %v", page, err)
	}
}

func TestMyGamesBadCursor(t *testing.T) {
	f := newMyGamesFixture(t)
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, c := range []string{
		"!!!",
		"not base64 at all",
		enc("not-a-cursor"),
		enc("1:2"),
		enc("x:1:g_a"),
		enc("0:y:g_a"),
		base64.StdEncoding.EncodeToString([]byte("0:1:g_a")) + "==",
	} {
		page, err := f.db.MyGames(t.Context(), f.ann, c, 2)
		if !errors.Is(err, ErrBadCursor) {
			t.Errorf("cursor %q: page %+v, error %v; want ErrBadCursor", c, page, err)
			continue
		}
		var de *domain.Error
		if !errors.As(err, &de) || de.Kind != domain.KindInvalid {
			t.Errorf("cursor %q: error %v is not a KindInvalid domain error", c, err)
		}
	}
	// A cursor of this server is accepted, whoever's it was.
	page, err := f.db.MyGames(t.Context(), f.ann, "", 2)
	if err != nil || page.Next == "" || strings.Contains(page.Next, "=") {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	if _, err := f.db.MyGames(t.Context(), f.wes, page.Next, 2); err != nil {
		t.Errorf("another user's cursor: %v", err)
	}
}
