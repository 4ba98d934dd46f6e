package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// newTournament stores a round robin of ann, bob and cat, organised by org,
// whose first round starts an hour after T0.
func newTournament(t *testing.T, s Store, id string) tournaments.Tournament {
	t.Helper()
	org := ensureUser(t, s, "org@example.org")
	tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"},
			{Name: "Cat", Email: "cat@example.org"}},
		FirstStart: T0.Add(time.Hour), Interval: 24 * time.Hour}, id, org.ID, T0, 7)
	if err != nil {
		t.Fatal(err)
	}
	transactTournament(t, s, func(ctx context.Context, tx tournaments.StoreTx) error { return tx.InsertTournament(ctx, &tour) })
	return tour
}

// A tournament reads back as stored; it is due when its round starts; a
// save from a version that is gone is ErrStale and changes nothing.
func testTournaments(t *testing.T, s Store) {
	ctx := t.Context()
	tour := newTournament(t, s, "t_cup")
	got, err := s.Tournament(ctx, tour.ID)
	if err != nil || got.Name != "Cup" || got.Version != tour.Version || len(got.Entrants) != 3 ||
		!got.CreatedAt.Equal(T0) {
		t.Errorf("Tournament = %+v, %v", got, err)
	}
	if _, err := s.Tournament(ctx, "t_missing"); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("a missing tournament: %v, want %s", err, domain.CodeNotFound)
	}
	for _, c := range []struct {
		now  time.Time
		want []string
	}{{T0.Add(time.Hour - time.Millisecond), nil}, {T0.Add(time.Hour), []string{"t_cup"}}} {
		if ids, err := s.DueTournaments(ctx, c.now, 10); err != nil || !slices.Equal(ids, c.want) {
			t.Errorf("DueTournaments(%v) = %v, %v; want %v", c.now, ids, err, c.want)
		}
	}

	renamed := got
	renamed.Name, renamed.Version = "Cup II", got.Version+1
	transactTournament(t, s, func(ctx context.Context, tx tournaments.StoreTx) error {
		return tx.SaveTournament(ctx, &renamed, got.Version)
	})
	stale := got
	stale.Name, stale.Version = "Cup III", got.Version+1
	err = s.Transact(ctx, func(st domain.StoreTx) error {
		return st.(tournaments.StoreTx).SaveTournament(ctx, &stale, got.Version)
	})
	if !errors.Is(err, domain.ErrStale) {
		t.Errorf("saving from a version that is gone: %v, want ErrStale", err)
	}
	if got, err := s.Tournament(ctx, tour.ID); err != nil || got.Name != "Cup II" || got.Version != renamed.Version {
		t.Errorf("after the stale save: %q version %d, %v; want Cup II at %d", got.Name, got.Version, err, renamed.Version)
	}
}

// An account's tournaments are those it organises, those its address plays
// in (following the entrants as they change), and those with an open public
// registration it is not entered in: each category apart, newest first.
func testAccountTournaments(t *testing.T, s Store) {
	ctx := t.Context()
	org := ensureUser(t, s, "org@example.org")
	other := ensureUser(t, s, "other@example.org")
	closed := newTournament(t, s, "t_closed")
	open, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 2,
		FirstStart: T0.Add(48 * time.Hour), Interval: 24 * time.Hour,
		Registration: &tournaments.Registration{Public: true, Closes: T0.Add(24 * time.Hour)}}, "t_open", other.ID, T0.Add(time.Minute), 7)
	if err != nil {
		t.Fatal(err)
	}
	transactTournament(t, s, func(ctx context.Context, tx tournaments.StoreTx) error { return tx.InsertTournament(ctx, &open) })
	// list gives the ids of each category, as "organising:t_1 playing:t_2".
	list := func(u domain.User, email string, now time.Time) string {
		t.Helper()
		var out []string
		for _, cat := range tournaments.TournamentCategories {
			page, err := s.AccountTournaments(ctx, u.ID, email, now, cat, "", 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, tour := range page.Tournaments {
				out = append(out, string(cat)+":"+tour.ID)
			}
		}
		return strings.Join(out, " ")
	}
	eve := domain.User{ID: 999999, Email: "eve@example.org"}
	for _, c := range []struct {
		who  domain.User
		now  time.Time
		want string
	}{
		{org, T0, "organising:t_closed joinable:t_open"}, // his own, and one he can join
		{other, T0, "organising:t_open joinable:t_open"},
		{domain.User{ID: 999998, Email: "bob@example.org"}, T0, "playing:t_closed joinable:t_open"},
		{eve, T0, "joinable:t_open"},
		{eve, T0.Add(24 * time.Hour), ""}, // sign-up closed
	} {
		if got := list(c.who, c.who.Email, c.now); got != c.want {
			t.Errorf("%s at %v: %q, want %q", c.who.Email, c.now, got, c.want)
		}
	}
	// Eve joins; Bob's address is corrected to Rob's; the organiser closes sign-up.
	if _, err := open.Join(tournaments.Entrant{Player: games.Player{Name: "Eve", Email: "eve@example.org"}}, eve.ID, 0, T0); err != nil {
		t.Fatal(err)
	}
	version := open.Version
	if err := open.CloseRegistration(T0); err != nil {
		t.Fatal(err)
	}
	transactTournament(t, s, func(ctx context.Context, tx tournaments.StoreTx) error {
		return tx.SaveTournament(ctx, &open, version-1)
	})
	version = closed.Version
	if err := closed.UpdateEntrant(1, tournaments.EntrantChange{Name: new("Rob"), Email: new("rob@example.org"), Correction: true, Reason: "typo"}, false, T0); err != nil {
		t.Fatal(err)
	}
	transactTournament(t, s, func(ctx context.Context, tx tournaments.StoreTx) error {
		return tx.SaveTournament(ctx, &closed, version)
	})
	for _, c := range []struct {
		email string
		want  string
	}{
		{"eve@example.org", "playing:t_open"},
		{"bob@example.org", ""},
		{"rob@example.org", "playing:t_closed"},
		{"zed@example.org", ""}, // the public registration is closed
	} {
		if got := list(domain.User{ID: 999997}, c.email, T0); got != c.want {
			t.Errorf("%s after the changes: %q, want %q", c.email, got, c.want)
		}
	}
}

// A category of an account's tournaments pages by cursor, newest first,
// each once, however many share a creation time; a cursor the store did
// not write is refused.
func testAccountTournamentPages(t *testing.T, s Store) {
	ctx := t.Context()
	org := ensureUser(t, s, "org@example.org")
	var want []string
	for i := range 7 {
		spec := tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin, Players: []games.Player{
			{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
			Starts: []time.Time{T0.Add(24 * time.Hour)}, RoundLength: 24 * time.Hour}
		id := fmt.Sprintf("t_page%d", i)
		// Two by two at the same millisecond: the id breaks the tie.
		tour, err := tournaments.CreateTournament(spec, id, org.ID, T0.Add(time.Duration(i/2)*time.Minute), 7)
		if err != nil {
			t.Fatal(err)
		}
		transactTournament(t, s, func(ctx context.Context, tx tournaments.StoreTx) error { return tx.InsertTournament(ctx, &tour) })
		want = append([]string{id}, want...)
	}
	for _, c := range []struct {
		cat   tournaments.TournamentCategory
		email string
		want  []string
	}{
		{tournaments.Organising, "org@example.org", want},
		{tournaments.PlayingIn, "bob@example.org", want},
		{tournaments.CanJoin, "bob@example.org", nil},
	} {
		var got []string
		cursor, pages := "", 0
		for {
			page, err := s.AccountTournaments(ctx, org.ID, c.email, T0, c.cat, cursor, 3)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			if len(page.Tournaments) > 3 || pages > 5 {
				t.Fatalf("%s: page %d has %d tournaments", c.cat, pages, len(page.Tournaments))
			}
			for _, tour := range page.Tournaments {
				got = append(got, tour.ID)
			}
			if cursor = page.Next; cursor == "" {
				break
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s, page by page: %v, want %v", c.cat, got, c.want)
		}
	}
	if _, err := s.AccountTournaments(ctx, org.ID, "", T0, tournaments.Organising, "not a cursor", 3); domain.CodeOf(err) != domain.CodeInvalidCursor {
		t.Errorf("a cursor the store did not write: %v, want %s", err, domain.CodeInvalidCursor)
	}
}

// A seat given to another player (a tournament's replacement) is stored
// with his name, address and link version, and the game moves to his list.
func testSeatChangesHands(t *testing.T, s Store) {
	ctx := t.Context()
	g := insertGame(t, s, "g_seat")
	ng, notices := games.Reseat(g, 1, games.Player{Name: "Cat", Email: "cat@example.org", Locale: "it"}, T0.Add(time.Hour))
	transact(t, s, func(ctx context.Context, tx *unit) error {
		return tx.UpdateGame(ctx, &g, &games.GameChange{Game: ng, Notices: notices, Cause: domain.Cause{Scheduled: true}}, T0.Add(time.Hour))
	})
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Seats[1] != ng.Seats[1] || got.Seats[0] != g.Seats[0] || got.Seats[1].TokenVersion != g.Seats[1].TokenVersion+1 {
		t.Errorf("the seats after the change: %+v, want %+v", got.Seats, ng.Seats)
	}
	for _, c := range []struct {
		email string
		want  int
	}{{"cat@example.org", 1}, {"bob@example.org", 0}} {
		if page, err := s.MyGames(ctx, c.email, "", 10); err != nil || len(page.Games) != c.want {
			t.Errorf("MyGames(%s) = %d games, %v; want %d", c.email, len(page.Games), err, c.want)
		}
	}
}

// A tournament's games read at once: the games asked for, in that order,
// each with its turns, whatever else is stored; the stamp of its games
// moves with any change to one of them.
func testGamesInBulk(t *testing.T, s Store) {
	ctx := t.Context()
	tour := newTournament(t, s, "t_bulk")
	org := ensureUser(t, s, "org@example.org")
	stamp := func() tournaments.GamesStamp {
		t.Helper()
		st, err := s.TournamentGamesStamp(ctx, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := stamp(); st != (tournaments.GamesStamp{}) {
		t.Errorf("the stamp of no games: %+v", st)
	}
	var made []games.Game
	for i, id := range []string{"g_bulk1", "g_bulk2", "g_bulk3"} {
		c := newGameOf(t, id, org, "ann@example.org", "bob@example.org", games.TimeControl{}, T0)
		if i < 2 {
			c.Game.Tournament = &games.TournamentRef{ID: tour.ID, Name: tour.Name, Round: 1}
		}
		transact(t, s, func(ctx context.Context, tx *unit) error {
			return tx.InsertGame(ctx, &c, domain.Cause{By: org.Email}, T0)
		})
		made = append(made, c.Game)
	}
	before := stamp()
	if before.Count != 2 || before.Versions != int64(made[0].Version+made[1].Version) || !before.Updated.Equal(T0) {
		t.Errorf("the stamp of two games: %+v", before)
	}
	played := play(t, s, made[1], T0.Add(time.Minute))
	play(t, s, made[2], T0.Add(2*time.Minute)) // of no tournament
	after := stamp()
	if after.Count != 2 || after.Versions <= before.Versions || !after.Updated.Equal(T0.Add(time.Minute)) {
		t.Errorf("the stamp after a turn: %+v, before %+v", after, before)
	}

	ids := []string{"g_bulk2", "g_missing", "g_bulk1"}
	got, err := s.Games(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "g_bulk2" || got[1].ID != "g_bulk1" || got[0].Version != played.Version || len(got[0].Seats) != 2 {
		t.Errorf("Games(%v) = %+v", ids, got)
	}
	turns, err := s.TurnsOf(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Turns(ctx, "g_bulk2")
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || !slices.Equal(turns["g_bulk2"], want) || len(turns["g_bulk1"]) != 0 || len(turns) > 2 {
		t.Errorf("TurnsOf(%v) = %+v; want g_bulk2's %+v", ids, turns, want)
	}
	if got, err := s.Games(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("Games(nil) = %v, %v", got, err)
	}
	if got, err := s.TurnsOf(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("TurnsOf(nil) = %v, %v", got, err)
	}
}

// transactTournament runs fn as one unit of work on the store's tournament
// writes, which every store's unit of work has.
func transactTournament(t *testing.T, s Store, fn func(ctx context.Context, tx tournaments.StoreTx) error) {
	t.Helper()
	transact(t, s, func(ctx context.Context, tx *unit) error { return fn(ctx, tx.tournamentTx) })
}
