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
