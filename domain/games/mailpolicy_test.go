package games_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
)

// asRequester is ctx of a request by the account (or seat) caller from
// the client address client, as the HTTP edge makes it.
func asRequester(ctx context.Context, caller, client string) context.Context {
	return domain.WithRequester(ctx, domain.Requester{Caller: caller, Client: client})
}

// The sender's limits count requests that mail strangers beyond a game's
// course, per caller and per client address: past them a request is
// refused whole (nothing stored, nothing mailed), with the wait; the
// scheduler, which acts for nobody, is not limited, nor is a game's course
// (turns), nor mail to the caller himself.
func TestMailPolicySenderLimits(t *testing.T) {
	newGame := func(i int, to string) games.NewGameSpec {
		return games.NewGameSpec{Players: []games.Player{{Name: "Org", Email: "org@example.org"},
			{Name: fmt.Sprint("P", i), Email: to}}, Params: less.Params{Walls: openWalls}.Map()}
	}
	t.Run("requests per caller", func(t *testing.T) {
		f := newFixture(t)
		ctx := asRequester(t.Context(), "user:1", "ip:192.0.2.1")
		limit := domain.DefaultMailLimits.CallerPerHour
		for i := range limit {
			if _, err := f.svc.CreateGame(ctx, newGame(i, fmt.Sprintf("p%d@example.org", i)), creatorID); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
		}
		queued := len(f.store.Queued())
		_, err := f.svc.CreateGame(ctx, newGame(limit, "one-more@example.org"), creatorID)
		de, _ := domain.ErrorOf(err)
		if domain.CodeOf(err) != domain.CodeMailLimited || de.RetryAfter <= 0 || de.RetryAfter > time.Hour/time.Duration(limit) {
			t.Fatalf("game %d: %v (%+v), want %s with a wait of at most %v", limit, err, de, domain.CodeMailLimited, time.Hour/time.Duration(limit))
		}
		if n := len(f.store.Queued()); n != queued {
			t.Errorf("the refused request queued %d mails", n-queued)
		}
		// Another account from another address is not held back; one from
		// the same address shares its limit, which is twice as large.
		other := asRequester(t.Context(), "user:2", "ip:192.0.2.2")
		if _, err := f.svc.CreateGame(other, newGame(0, "x@example.org"), creatorID); err != nil {
			t.Errorf("another requester: %v", err)
		}
		// The course of a game: turns mail the opponent without limit.
		g, err := f.svc.CreateGame(other, newGame(1, "y@example.org"), creatorID)
		if err != nil {
			t.Fatal(err)
		}
		white := games.Credentials{UserID: creatorID, UserEmail: "org@example.org"}
		if _, _, err := f.svc.SubmitTurn(ctx, games.GameRequest{GameID: g.ID, By: white}, 0, opening, present); err != nil {
			t.Errorf("a turn by the limited caller: %v", err)
		}
		// The scheduler (no requester) is not limited.
		if _, err := f.svc.CreateGame(t.Context(), newGame(2, "z@example.org"), creatorID); err != nil {
			t.Errorf("no requester: %v", err)
		}
		// An hour later the caller has his allowance again.
		f.now = f.now.Add(time.Hour)
		if _, err := f.svc.CreateGame(ctx, newGame(limit, "one-more@example.org"), creatorID); err != nil {
			t.Errorf("an hour later: %v", err)
		}
	})
	t.Run("requests per client address", func(t *testing.T) {
		f := newFixture(t)
		limit := domain.DefaultMailLimits.ClientPerHour
		for i := range limit {
			ctx := asRequester(t.Context(), fmt.Sprint("user:", i), "ip:192.0.2.1") // a new account each time
			if _, err := f.svc.CreateGame(ctx, newGame(i, fmt.Sprintf("p%d@example.org", i)), creatorID); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
		}
		ctx := asRequester(t.Context(), "user:new", "ip:192.0.2.1")
		if _, err := f.svc.CreateGame(ctx, newGame(limit, "one-more@example.org"), creatorID); domain.CodeOf(err) != domain.CodeMailLimited {
			t.Errorf("request %d from one address: %v, want %s", limit, err, domain.CodeMailLimited)
		}
	})
	t.Run("mail to one stranger", func(t *testing.T) {
		f := newFixture(t)
		ctx := asRequester(t.Context(), "user:1", "ip:192.0.2.1")
		limit := domain.DefaultMailLimits.PairPerDay
		// Renewing Ann's link mails her; the creator's doing, not hers.
		for i := range limit {
			if err := f.svc.RotateSeat(ctx, f.game.ID, creator, "white"); err != nil {
				t.Fatalf("renewal %d: %v", i, err)
			}
		}
		before, _ := f.store.Game(t.Context(), f.game.ID)
		err := f.svc.RotateSeat(ctx, f.game.ID, creator, "white")
		if domain.CodeOf(err) != domain.CodeMailLimited {
			t.Fatalf("renewal %d: %v, want %s", limit, err, domain.CodeMailLimited)
		}
		if after, _ := f.store.Game(t.Context(), f.game.ID); after.Version != before.Version {
			t.Errorf("the refused renewal changed the game: version %d → %d", before.Version, after.Version)
		}
		// The same from another account at the same client address: the
		// address's allowance for Ann is spent too.
		if err := f.svc.RotateSeat(asRequester(t.Context(), "user:2", "ip:192.0.2.1"), f.game.ID, creator, "white"); domain.CodeOf(err) != domain.CodeMailLimited {
			t.Errorf("from the same address: %v, want %s", err, domain.CodeMailLimited)
		}
		// Bob is another stranger; Ann renewing her own link is her doing.
		if err := f.svc.RotateSeat(ctx, f.game.ID, creator, "black"); err != nil {
			t.Errorf("Bob's link: %v", err)
		}
		if err := f.svc.RotateSeat(ctx, f.game.ID, seat(f.game, "white"), "white"); domain.CodeOf(err) == domain.CodeMailLimited {
			t.Errorf("Ann's own renewal: %v", err)
		}
		// A game against a stranger who has not answered: its turns go on,
		// without mail to him once the sender's allowance for him is spent.
		g, err := f.svc.CreateGame(ctx, newGame(0, "fresh@example.org"), creatorID)
		if err != nil {
			t.Fatal(err)
		}
		for range limit - 1 {
			if err := f.svc.RotateSeat(ctx, g.ID, creator, "black"); err != nil {
				t.Fatal(err)
			}
		}
		queued := len(f.store.Queued())
		if _, _, err := f.svc.SubmitTurn(ctx, games.GameRequest{GameID: g.ID, By: creator}, 0, opening, present); err != nil {
			t.Fatalf("a turn once the stranger's allowance is spent: %v", err)
		}
		if after, _ := f.store.Game(t.Context(), g.ID); after.Ply() != 1 || len(f.store.Queued()) != queued {
			t.Errorf("the turn: ply %d, %d mails; want played, and no mail to the stranger", after.Ply(), len(f.store.Queued())-queued)
		}
	})
}

// Suppression and the budget are the mailbox's: another +tag of a
// suppressed address is refused, and shares the budget.
func TestMailPolicyMailbox(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if err := f.store.Suppress(ctx, "sv@example.org", f.now); err != nil {
		t.Fatal(err)
	}
	for _, to := range []string{"sv@example.org", "sv+1@example.org", "SV+2@example.org", "sv+bar@example.org"} {
		spec := games.NewGameSpec{Players: []games.Player{{Name: "Org", Email: "org@example.org"}, {Name: "Sv", Email: to}},
			Params: less.Params{Walls: openWalls}.Map()}
		if _, err := f.svc.CreateGame(ctx, spec, creatorID); domain.CodeOf(err) != domain.CodeAddressSuppressed {
			t.Errorf("inviting %s: %v, want %s", to, err, domain.CodeAddressSuppressed)
		}
	}
	budget := domain.DefaultMailLimits.RecipientPerDay
	for i := range budget {
		spec := games.NewGameSpec{Players: []games.Player{{Name: "Org", Email: "org@example.org"},
			{Name: "V", Email: fmt.Sprintf("v+%d@example.org", i)}}, Params: less.Params{Walls: openWalls}.Map()}
		if _, err := f.svc.CreateGame(ctx, spec, creatorID); err != nil {
			t.Fatalf("invitation %d: %v", i, err)
		}
	}
	spec := games.NewGameSpec{Players: []games.Player{{Name: "Org", Email: "org@example.org"}, {Name: "V", Email: "v@example.org"}},
		Params: less.Params{Walls: openWalls}.Map()}
	if _, err := f.svc.CreateGame(ctx, spec, creatorID); domain.CodeOf(err) != domain.CodeRecipientBudgetSpent {
		t.Errorf("invitation %d to one mailbox: %v, want %s", budget, err, domain.CodeRecipientBudgetSpent)
	}
}

// One mailbox holds one seat of a game, however its addresses are tagged:
// each more would be one email more to it for every invitation (see
// tournaments' TestOneMailboxOnePlace for an event's places).
func TestOneMailboxOnePlace(t *testing.T) {
	f := newFixture(t)
	spec := games.NewGameSpec{Players: []games.Player{{Name: "A", Email: "vic+w@example.org"}, {Name: "B", Email: "vic+b@example.org"}},
		Params: less.Params{Walls: openWalls}.Map()}
	if _, err := f.svc.CreateGame(t.Context(), spec, creatorID); domain.CodeOf(err) != domain.CodeDuplicateAddress {
		t.Errorf("two seats of one mailbox: %v, want %s", err, domain.CodeDuplicateAddress)
	}
	spec.Players = []games.Player{{Name: "A", Email: "org+w@example.org"}, {Name: "B", Email: "org@example.org"}}
	if _, err := f.svc.CreateGame(t.Context(), spec, creatorID); err != nil {
		t.Errorf("the creator's own seats: %v", err)
	}
}
