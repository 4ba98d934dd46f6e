package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// newTournament stores a round robin of ann, bob and cat, organised by org,
// whose first round starts an hour after T0.
func newTournament(t *testing.T, s domain.Store, id string) domain.Tournament {
	t.Helper()
	org := ensureUser(t, s, "org@example.org")
	tour, err := domain.CreateTournament(domain.NewTournamentSpec{Name: "Cup", Format: domain.RoundRobin,
		Players: []domain.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"},
			{Name: "Cat", Email: "cat@example.org"}},
		FirstStart: T0.Add(time.Hour), Interval: 24 * time.Hour}, id, org.ID, T0, 7)
	if err != nil {
		t.Fatal(err)
	}
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error { return tx.InsertTournament(ctx, &tour) })
	return tour
}

// A tournament reads back as stored; it is due when its round starts; a
// save from a version that is gone is ErrStale and changes nothing.
func testTournaments(t *testing.T, s domain.Store) {
	ctx := t.Context()
	tour := newTournament(t, s, "t_cup")
	got, err := s.Tournament(ctx, tour.ID)
	if err != nil || got.Name != "Cup" || got.Version != tour.Version || len(got.Entrants) != 3 ||
		!got.CreatedAt.Equal(T0) {
		t.Errorf("Tournament = %+v, %v", got, err)
	}
	if _, err := s.Tournament(ctx, "t_missing"); code(err) != domain.CodeNotFound {
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
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error {
		return tx.SaveTournament(ctx, &renamed, got.Version)
	})
	stale := got
	stale.Name, stale.Version = "Cup III", got.Version+1
	err = s.Transact(ctx, func(tx domain.StoreTx) error { return tx.SaveTournament(ctx, &stale, got.Version) })
	if !errors.Is(err, domain.ErrStale) {
		t.Errorf("saving from a version that is gone: %v, want ErrStale", err)
	}
	if got, err := s.Tournament(ctx, tour.ID); err != nil || got.Name != "Cup II" || got.Version != renamed.Version {
		t.Errorf("after the stale save: %q version %d, %v; want Cup II at %d", got.Name, got.Version, err, renamed.Version)
	}
}

// An account's tournaments are those it organises, those its address plays
// in (following the entrants as they change), and those with an open public
// registration; newest first.
func testAccountTournaments(t *testing.T, s domain.Store) {
	ctx := t.Context()
	org := ensureUser(t, s, "org@example.org")
	other := ensureUser(t, s, "other@example.org")
	closed := newTournament(t, s, "t_closed")
	open, err := domain.CreateTournament(domain.NewTournamentSpec{Name: "Open", Format: domain.Swiss, Rounds: 2,
		FirstStart: T0.Add(48 * time.Hour), Interval: 24 * time.Hour,
		Registration: &domain.Registration{Public: true, Closes: T0.Add(24 * time.Hour)}}, "t_open", other.ID, T0.Add(time.Minute), 7)
	if err != nil {
		t.Fatal(err)
	}
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error { return tx.InsertTournament(ctx, &open) })
	list := func(u domain.User, email string, now time.Time) []string {
		t.Helper()
		ts, err := s.AccountTournaments(ctx, u.ID, email, now, 10)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, tour := range ts {
			ids = append(ids, tour.ID)
		}
		return ids
	}
	eve := domain.User{ID: 999999, Email: "eve@example.org"}
	for _, c := range []struct {
		who  domain.User
		now  time.Time
		want []string
	}{
		{org, T0, []string{"t_open", "t_closed"}}, // his own, and one he can join
		{other, T0, []string{"t_open"}},
		{domain.User{ID: 999998, Email: "bob@example.org"}, T0, []string{"t_open", "t_closed"}},
		{eve, T0, []string{"t_open"}},
		{eve, T0.Add(24 * time.Hour), nil}, // sign-up closed
	} {
		if got := list(c.who, c.who.Email, c.now); !slices.Equal(got, c.want) {
			t.Errorf("%s at %v: %v, want %v", c.who.Email, c.now, got, c.want)
		}
	}
	// Eve joins; Bob's address is corrected to Rob's; the organiser closes sign-up.
	if _, err := open.Join(domain.Entrant{Player: domain.Player{Name: "Eve", Email: "eve@example.org"}}, eve.ID, 0, T0); err != nil {
		t.Fatal(err)
	}
	version := open.Version
	if err := open.CloseRegistration(T0); err != nil {
		t.Fatal(err)
	}
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error { return tx.SaveTournament(ctx, &open, version-1) })
	version = closed.Version
	if err := closed.UpdateEntrant(1, 0, domain.Player{Name: "Rob", Email: "rob@example.org"}, false, false, "typo", T0); err != nil {
		t.Fatal(err)
	}
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error { return tx.SaveTournament(ctx, &closed, version) })
	for _, c := range []struct {
		email string
		want  []string
	}{
		{"eve@example.org", []string{"t_open"}},
		{"bob@example.org", nil},
		{"rob@example.org", []string{"t_closed"}},
		{"zed@example.org", nil}, // the public registration is closed
	} {
		if got := list(domain.User{ID: 999997}, c.email, T0); !slices.Equal(got, c.want) {
			t.Errorf("%s after the changes: %v, want %v", c.email, got, c.want)
		}
	}
}

// A seat given to another player (a tournament's replacement) is stored
// with his name, address and link version, and the game moves to his list.
func testSeatChangesHands(t *testing.T, s domain.Store) {
	ctx := t.Context()
	g := insertGame(t, s, "g_seat")
	ng, notices := domain.Reseat(g, 1, domain.Player{Name: "Cat", Email: "cat@example.org", Locale: "it"}, T0.Add(time.Hour))
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error {
		return tx.UpdateGame(ctx, &g, &domain.GameChange{Game: ng, Notices: notices, Cause: domain.Cause{Scheduled: true}}, T0.Add(time.Hour))
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
