package storetest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/players"
)

// playersStore is the port of players (named so that Store can embed it
// beside accounts.Store, which shares UserByID).
type playersStore = players.Store

// claimHandle runs ClaimHandle in a unit of work of its own; a refusal rolls it
// back, as the use case does.
func claimHandle(t *testing.T, s Store, userID int64, handle string, now time.Time) bool {
	t.Helper()
	var ok bool
	err := s.Transact(t.Context(), func(st domain.StoreTx) error {
		var err error
		ok, err = st.(players.StoreTx).ClaimHandle(t.Context(), userID, handle, players.Fold(handle), now, now.Add(players.Retired))
		if err == nil && !ok {
			return errRefused
		}
		return err
	})
	if err != nil && err != errRefused {
		t.Fatal(err)
	}
	return ok
}

var errRefused = domain.Errorf(domain.KindConflict, players.CodeHandleTaken, "taken")

func holder(t *testing.T, s Store, handle string, now time.Time) int64 {
	t.Helper()
	id, ok, err := s.HandleHolder(t.Context(), players.Fold(handle), now)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return 0
	}
	return id
}

func currentHandle(t *testing.T, s Store, userID int64) string {
	t.Helper()
	p, err := s.Profile(t.Context(), userID)
	if err != nil {
		t.Fatal(err)
	}
	return p.Handle
}

// testHandles: a handle is unique whatever its letter case, shown as
// chosen; its owner may change its case; nobody holds an unclaimed one.
func testHandles(t *testing.T, s Store) {
	ann, bob := ensureUser(t, s, "ann@example.org"), ensureUser(t, s, "bob@example.org")
	if got := currentHandle(t, s, ann.ID); got != "" {
		t.Errorf("a new account's handle = %q; want none", got)
	}
	if !claimHandle(t, s, ann.ID, "Ann", T0) {
		t.Fatal("Ann could not claim a free handle")
	}
	if got := currentHandle(t, s, ann.ID); got != "Ann" {
		t.Errorf("handle = %q; want Ann as chosen", got)
	}
	for _, h := range []string{"Ann", "ann", "ANN"} {
		if got := holder(t, s, h, T0); got != ann.ID {
			t.Errorf("holder of %s = %d; want Ann's %d", h, got, ann.ID)
		}
	}
	if claimHandle(t, s, bob.ID, "aNN", T0) {
		t.Error("Bob claimed Ann's handle in another case")
	}
	if got := currentHandle(t, s, bob.ID); got != "" {
		t.Errorf("Bob's handle after a refusal = %q; want none", got)
	}
	if !claimHandle(t, s, ann.ID, "ANN", T0.Add(time.Minute)) {
		t.Fatal("Ann could not change her handle's case")
	}
	if got := currentHandle(t, s, ann.ID); got != "ANN" {
		t.Errorf("handle after a case change = %q; want ANN", got)
	}
	if got := holder(t, s, "nobody", T0); got != 0 {
		t.Errorf("holder of an unclaimed handle = %d; want none", got)
	}
}

// testHandleRetirement: a changed handle still leads to its owner, and is
// nobody else's, until its retirement ends; its owner may take it back.
func testHandleRetirement(t *testing.T, s Store) {
	ann, bob := ensureUser(t, s, "ann@example.org"), ensureUser(t, s, "bob@example.org")
	claimHandle(t, s, ann.ID, "ann", T0)
	if !claimHandle(t, s, ann.ID, "annie", T0.Add(time.Hour)) {
		t.Fatal("Ann could not change her handle")
	}
	if got := currentHandle(t, s, ann.ID); got != "annie" {
		t.Errorf("handle = %q; want annie", got)
	}
	retired := T0.Add(time.Hour + players.Retired)
	if got := holder(t, s, "ann", retired.Add(-time.Millisecond)); got != ann.ID {
		t.Errorf("holder of the retired handle = %d; want Ann's %d", got, ann.ID)
	}
	if claimHandle(t, s, bob.ID, "ann", retired.Add(-time.Millisecond)) {
		t.Error("Bob took Ann's handle before its retirement ended")
	}
	if got := holder(t, s, "ann", retired); got != 0 {
		t.Errorf("holder of the handle after its retirement = %d; want none", got)
	}
	// Ann's own old handle she takes back at once, and annie retires.
	if !claimHandle(t, s, ann.ID, "Ann", T0.Add(2*time.Hour)) {
		t.Fatal("Ann could not take back her retired handle")
	}
	if got := currentHandle(t, s, ann.ID); got != "Ann" {
		t.Errorf("handle = %q; want Ann", got)
	}
	if got := holder(t, s, "annie", T0.Add(3*time.Hour)); got != ann.ID {
		t.Errorf("holder of annie = %d; want Ann's %d (retired)", got, ann.ID)
	}
	later := T0.Add(2*time.Hour + players.Retired)
	if !claimHandle(t, s, bob.ID, "annie", later) {
		t.Error("Bob could not take annie after its retirement ended")
	}
	if got := holder(t, s, "annie", later); got != bob.ID {
		t.Errorf("holder of annie = %d; want Bob's %d", got, bob.ID)
	}
	if got := currentHandle(t, s, ann.ID); got != "Ann" {
		t.Errorf("Ann's handle = %q; want Ann", got)
	}
}

// testRetiredHandles: an account's retired handles still held are
// counted, with the end of the first one's retirement.
func testRetiredHandles(t *testing.T, s Store) {
	ann, bob := ensureUser(t, s, "ann@example.org"), ensureUser(t, s, "bob@example.org")
	count := func(userID int64, now time.Time) (int, time.Time) {
		t.Helper()
		var n int
		var first time.Time
		if err := s.Transact(t.Context(), func(st domain.StoreTx) (err error) {
			n, first, err = st.(players.StoreTx).RetiredHandles(t.Context(), userID, now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return n, first
	}
	if n, first := count(ann.ID, T0); n != 0 || !first.IsZero() {
		t.Errorf("a new account's retired handles: %d, first free %v", n, first)
	}
	claimHandle(t, s, ann.ID, "ann1", T0)
	claimHandle(t, s, ann.ID, "ann2", T0.Add(time.Hour))
	claimHandle(t, s, ann.ID, "ann3", T0.Add(2*time.Hour))
	claimHandle(t, s, bob.ID, "bob1", T0)
	claimHandle(t, s, bob.ID, "bob2", T0)
	if n, first := count(ann.ID, T0.Add(2*time.Hour)); n != 2 || !first.Equal(T0.Add(time.Hour+players.Retired)) {
		t.Errorf("retired handles: %d, first free %v; want 2, %v", n, first, T0.Add(time.Hour+players.Retired))
	}
	if n, _ := count(ann.ID, T0.Add(time.Hour+players.Retired)); n != 1 {
		t.Errorf("retired handles once the first is free: %d; want 1", n)
	}
}

// testHandleRace: of accounts claiming one handle at once, one gets it.
func testHandleRace(t *testing.T, s Store) {
	const n = 4
	var ids []int64
	for i := range n {
		ids = append(ids, ensureUser(t, s, string(rune('a'+i))+"@example.org").ID)
	}
	var wg sync.WaitGroup
	won := make([]bool, n)
	for i, id := range ids {
		wg.Go(func() {
			err := s.Transact(context.Background(), func(st domain.StoreTx) error {
				ok, err := st.(players.StoreTx).ClaimHandle(context.Background(), id, "Zed", "zed", T0, T0.Add(players.Retired))
				if err == nil && !ok {
					return errRefused
				}
				won[i] = ok
				return err
			})
			if err != nil && err != errRefused {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	winners := 0
	for i, w := range won {
		if w {
			winners++
			if got := holder(t, s, "zed", T0); got != ids[i] {
				t.Errorf("holder = %d; want the winner %d", got, ids[i])
			}
		}
	}
	if winners != 1 {
		t.Errorf("%d accounts got the handle; want 1", winners)
	}
}

// testProfiles: a profile is stored whole and read with the handle; an
// account without one reads the zero profile.
func testProfiles(t *testing.T, s Store) {
	ann := ensureUser(t, s, "ann@example.org")
	p, err := s.Profile(t.Context(), ann.ID)
	if err != nil || p.Handle != "" || p.Country != "" || len(p.Languages) != 0 || p.Bio != "" || p.HideFinished || p.Unlisted {
		t.Errorf("profile of a new account = %+v, %v; want the zero profile", p, err)
	}
	want := players.Profile{Country: "DE", Languages: []string{"de", "en"}, Bio: "Line one\n<b>& two</b>", HideFinished: true, Unlisted: true}
	save := func(p players.Profile) {
		t.Helper()
		if err := s.Transact(t.Context(), func(st domain.StoreTx) error {
			return st.(players.StoreTx).SaveProfile(t.Context(), ann.ID, p, T0)
		}); err != nil {
			t.Fatal(err)
		}
	}
	save(want)
	claimHandle(t, s, ann.ID, "ann", T0)
	want.Handle = "ann"
	got, err := s.Profile(t.Context(), ann.ID)
	if err != nil || got.Handle != want.Handle || got.Country != want.Country || !slices.Equal(got.Languages, want.Languages) ||
		got.Bio != want.Bio || got.HideFinished != want.HideFinished || got.Unlisted != want.Unlisted {
		t.Errorf("profile = %+v, %v; want %+v", got, err, want)
	}
	// The unit of work reads what it is about to change.
	if err := s.Transact(t.Context(), func(st domain.StoreTx) error {
		got, err := st.(players.StoreTx).Profile(t.Context(), ann.ID)
		if err != nil || got.Handle != "ann" || got.Country != "DE" || !slices.Equal(got.Languages, want.Languages) {
			t.Errorf("profile in a unit of work = %+v, %v; want %+v", got, err, want)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	save(players.Profile{Country: "FR"})
	got, err = s.Profile(t.Context(), ann.ID)
	if err != nil || got.Handle != "ann" || got.Country != "FR" || len(got.Languages) != 0 || got.Bio != "" || got.HideFinished || got.Unlisted {
		t.Errorf("profile after a second save = %+v, %v", got, err)
	}
}
