package storetest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/repo/port"
)

// RunPushDeliveries runs the contract of hooks.PushDeliveryStore, and of
// the fan-out of events to push subscriptions, against stores made by
// newStore, each empty.
func RunPushDeliveries(t *testing.T, newStore func(t *testing.T) port.Store) {
	tests := []struct {
		name string
		run  func(t *testing.T, s port.Store)
	}{
		{"FanOutWithTheEvent", testPushFanOut},
		{"ClaimTwoClaimants", testPushClaims},
		{"ClaimConcurrently", testPushClaimConcurrently},
		{"OutcomesBacklogPrune", testPushOutcomes},
		{"GoneSubscription", testPushGone},
		{"ScopedToTheGameAndLink", testPushScopedFanOut},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, newStore(t)) })
	}
}

// pushLog lists an address's push deliveries, newest first, as "kind
// color ply status subscription".
func pushLog(t *testing.T, s port.Store, owner string) ([]string, []hooks.PushDelivery) {
	t.Helper()
	ds, err := s.PushDeliveries(t.Context(), owner, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %d %s %d", d.Event.Kind, d.Event.Color, d.Event.Ply, d.Status, d.SubscriptionID))
	}
	return out, ds
}

func claimPushes(t *testing.T, s port.Store, claimant string, at time.Time, limit int) []hooks.PushJob {
	t.Helper()
	jobs, err := s.ClaimPushes(t.Context(), claimant, at, lease, limit)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

func pushIDs(jobs []hooks.PushJob) []int64 {
	var out []int64
	for _, j := range jobs {
		out = append(out, j.ID)
	}
	return out
}

// Each event of a pushed kind is queued, in the event's unit of work, for
// each live subscription of its address; a turn played is not pushed, and a
// change that fails queues nothing.
func testPushFanOut(t *testing.T, s port.Store) {
	bob, _ := savePush(t, s, pushSub("bob@example.org", "https://push.example/bob", 1, time.Time{}))
	bob2, _ := savePush(t, s, pushSub("bob@example.org", "https://push.example/bob2", 3, time.Time{}))
	savePush(t, s, pushSub("bob@example.org", "https://push.example/old", 5, T0.Add(-time.Second)))
	ann, _ := savePush(t, s, pushSub("ann@example.org", "https://push.example/ann", 7, time.Time{}))
	savePush(t, s, pushSub("carol@example.org", "https://push.example/carol", 9, time.Time{}))
	g := play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute))
	abandonResign(t, s, g)
	tests := []struct {
		owner string
		want  []string
	}{
		{"bob@example.org", []string{fmt.Sprintf("your_turn black 1 pending %d", bob2), fmt.Sprintf("your_turn black 1 pending %d", bob),
			fmt.Sprintf("invitation black 0 pending %d", bob2), fmt.Sprintf("invitation black 0 pending %d", bob)}},
		{"ann@example.org", []string{fmt.Sprintf("invitation white 0 pending %d", ann)}},
		{"carol@example.org", nil},
	}
	for _, tt := range tests {
		got, ds := pushLog(t, s, tt.owner)
		if !slices.Equal(got, tt.want) {
			t.Errorf("push deliveries of %s = %q, want %q", tt.owner, got, tt.want)
		}
		for _, d := range ds {
			if d.Event.GameID != "g1" || d.Event.Email != tt.owner || d.Attempts != 0 || d.NextAttemptAt.IsZero() ||
				!d.NextAttemptAt.Equal(d.Event.At) {
				t.Errorf("delivery = %+v", d)
			}
		}
	}
	if _, ds := pushLog(t, s, "bob@example.org"); !ds[0].Event.At.Equal(T0.Add(time.Minute)) {
		t.Errorf("your_turn at %v, want %v", ds[0].Event.At, T0.Add(time.Minute))
	}
}

// Two claimants never hold one delivery while its lease lasts; a claimed
// job carries its subscription and its owner's language.
func testPushClaims(t *testing.T, s port.Store) {
	ensureUser(t, s, "bob@example.org")
	sub := pushSub("bob@example.org", "https://push.example/bob", 1, time.Time{})
	savePush(t, s, sub)
	play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute))
	now := T0.Add(time.Hour)
	if n, err := s.PushBacklog(t.Context(), now); err != nil || n != 2 {
		t.Errorf("backlog = %d, %v; want 2", n, err)
	}
	a := claimPushes(t, s, "a", now, 1)
	b := claimPushes(t, s, "b", now, 100)
	if len(a) != 1 || len(b) != 1 || a[0].ID == b[0].ID {
		t.Fatalf("a claimed %v, b %v: want one each", pushIDs(a), pushIDs(b))
	}
	j := a[0]
	if j.Subscription.Endpoint != sub.Endpoint || !bytes.Equal(j.Subscription.P256DH, sub.P256DH) ||
		!bytes.Equal(j.Subscription.Auth, sub.Auth) || j.Subscription.Owner != "bob@example.org" || j.Subscription.ID != j.SubscriptionID ||
		j.Locale != domain.DefaultLocale || j.Event.Kind != domain.EventInvitation {
		t.Errorf("claimed job = %+v", j)
	}
	if again := claimPushes(t, s, "c", now.Add(lease-time.Millisecond), 100); len(again) != 0 {
		t.Errorf("c claimed %v while the leases last", pushIDs(again))
	}
	if err := s.ReleasePushes(t.Context(), "a", pushIDs(a)); err != nil {
		t.Fatal(err)
	}
	if c := claimPushes(t, s, "c", now, 100); !slices.Equal(pushIDs(c), pushIDs(a)) {
		t.Errorf("after the release c claimed %v, want %v", pushIDs(c), pushIDs(a))
	}
	// b's lease ends; d takes it over, and b's late outcome is ignored.
	if d := claimPushes(t, s, "d", now.Add(lease), 100); !slices.Contains(pushIDs(d), b[0].ID) {
		t.Fatalf("d claimed %v after the leases ended, want %d among them", pushIDs(d), b[0].ID)
	}
	if err := s.RecordPushAttempt(t.Context(), "b", b[0].ID, hooks.WebhookOutcome{At: now, Delivered: true, Status: 201}); err != nil {
		t.Fatal(err)
	}
	if _, ds := pushLog(t, s, "bob@example.org"); ds[0].Status != hooks.DeliveryPending || ds[0].Attempts != 0 {
		t.Errorf("b's outcome after losing the lease was recorded: %+v", ds[0])
	}
}

// Claimants running at once (workers of several instances) each get
// different deliveries, and together all of them.
func testPushClaimConcurrently(t *testing.T, s port.Store) {
	savePush(t, s, pushSub("ann@example.org", "https://push.example/ann", 1, time.Time{}))
	savePush(t, s, pushSub("bob@example.org", "https://push.example/bob", 3, time.Time{}))
	for i := range 5 {
		play(t, s, insertGame(t, s, fmt.Sprintf("g%d", i)), T0.Add(time.Minute))
	}
	if n := claimConcurrently(t, func(claimant string) ([]int64, error) {
		jobs, err := s.ClaimPushes(t.Context(), claimant, T0.Add(time.Hour), lease, 2)
		return pushIDs(jobs), err
	}); n != 5*3 { // per game: 2 invitations, 1 your_turn
		t.Errorf("claimed %d deliveries, want 15", n)
	}
}

// An attempt's outcome: delivered, retried later, or given up; the backlog
// counts what is due; pruning deletes old finished deliveries only.
func testPushOutcomes(t *testing.T, s port.Store) {
	savePush(t, s, pushSub("bob@example.org", "https://push.example/bob", 1, time.Time{}))
	savePush(t, s, pushSub("ann@example.org", "https://push.example/ann", 3, time.Time{}))
	play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute))
	now := T0.Add(time.Hour)
	jobs := claimPushes(t, s, "w", now, 100)
	if len(jobs) != 3 {
		t.Fatalf("claimed %d, want 3", len(jobs))
	}
	retry := now.Add(5 * time.Minute)
	outcomes := []hooks.WebhookOutcome{
		{At: now, Delivered: true, Status: 201},
		{At: now, Status: 503, Error: "the push service answered 503", Next: retry},
		{At: now, Status: 400, Error: "the push service answered 400"},
	}
	want := map[int64]string{}
	for i, o := range outcomes {
		if err := s.RecordPushAttempt(t.Context(), "w", jobs[i].ID, o); err != nil {
			t.Fatal(err)
		}
		want[jobs[i].ID] = []string{hooks.DeliveryDelivered, hooks.DeliveryPending, hooks.DeliveryFailed}[i]
	}
	var all []hooks.PushDelivery
	for _, owner := range []string{"ann@example.org", "bob@example.org"} {
		_, ds := pushLog(t, s, owner)
		all = append(all, ds...)
	}
	for _, d := range all {
		if d.Status != want[d.ID] || d.Attempts != 1 || !d.LastAttemptAt.Equal(now) {
			t.Errorf("delivery %d = %+v, want %s after one attempt", d.ID, d, want[d.ID])
		}
		switch d.Status {
		case hooks.DeliveryDelivered:
			if !d.DeliveredAt.Equal(now) || !d.NextAttemptAt.IsZero() || d.LastStatus != 201 {
				t.Errorf("delivered = %+v", d)
			}
		case hooks.DeliveryPending:
			if !d.NextAttemptAt.Equal(retry) || d.LastStatus != 503 || d.LastError != "the push service answered 503" {
				t.Errorf("retried = %+v", d)
			}
		}
	}
	for _, c := range []struct {
		at   time.Time
		want int
	}{{now, 0}, {retry, 1}} {
		if n, err := s.PushBacklog(t.Context(), c.at); err != nil || n != c.want {
			t.Errorf("backlog at %v = %d, %v; want %d", c.at, n, err, c.want)
		}
	}
	n, err := s.PrunePushDeliveries(t.Context(), T0.Add(2*time.Minute), 100)
	if err != nil || n != 2 {
		t.Errorf("pruned %d, %v; want the 2 finished", n, err)
	}
	if n := len(claimPushes(t, s, "w", retry, 100)); n != 1 {
		t.Errorf("after pruning %d claimable, want the retried one", n)
	}
}

// A subscription deleted (gone at the push service, or unsubscribed)
// takes its deliveries with it, claimed or not; a late outcome is ignored.
func testPushGone(t *testing.T, s port.Store) {
	sub := pushSub("bob@example.org", "https://push.example/bob", 1, time.Time{})
	savePush(t, s, sub)
	play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute))
	now := T0.Add(time.Hour)
	jobs := claimPushes(t, s, "w", now, 1)
	transact(t, s, func(ctx context.Context, tx *unit) error {
		_, err := tx.DeletePushEndpoint(ctx, sub.Endpoint, now)
		return err
	})
	if err := s.RecordPushAttempt(t.Context(), "w", jobs[0].ID, hooks.WebhookOutcome{At: now, Status: 410, Error: "gone"}); err != nil {
		t.Errorf("an outcome of a delivery gone with its subscription: %v", err)
	}
	if got, _ := pushLog(t, s, "bob@example.org"); len(got) != 0 {
		t.Errorf("deliveries left: %q", got)
	}
	if n, err := s.PushBacklog(t.Context(), now); err != nil || n != 0 {
		t.Errorf("backlog = %d, %v; want 0", n, err)
	}
}

// rotate renews the link of g's seat of color and stores it.
func rotate(t *testing.T, s Store, g games.Game, color string, at time.Time) games.Game {
	t.Helper()
	return change(t, s, g, at, func(g games.Game) (games.Submitted, error) {
		g, n, err := games.RotateSeat(g, games.Actor{SeatColor: &color}, color, at)
		return games.Submitted{Game: g, Notices: []domain.Notice{n}}, err
	})
}

// A subscription scoped to a game is queued only that game's events, and
// only while its link version is the seat's; renewing the seat's link
// deletes it, and what was queued for it, in the same unit of work.
func testPushScopedFanOut(t *testing.T, s port.Store) {
	const bob = "bob@example.org"
	scoped := func(endpoint string, seed byte, game string, version int) hooks.PushSubscription {
		p := pushSub(bob, endpoint, seed, time.Time{})
		p.Game, p.Color, p.LinkVersion = game, "black", version
		return p
	}
	g1, g2 := insertGame(t, s, "g1"), insertGame(t, s, "g2")
	wide, _ := savePush(t, s, pushSub(bob, "https://push.example/phone", 1, time.Time{}))
	inG1, _ := savePush(t, s, scoped("https://push.example/laptop", 3, "g1", 1))
	savePush(t, s, scoped("https://push.example/stale", 5, "g1", 0))
	// The phone may also be on for game 2 alone: a row of its own.
	inG2, created := savePush(t, s, scoped("https://push.example/phone", 1, "g2", 1))
	if !created || inG2 == wide {
		t.Fatalf("the phone's subscription for g2 = %d (created %v); want a new one beside %d", inG2, created, wide)
	}
	g1 = play(t, s, g1, T0.Add(time.Minute))
	play(t, s, g2, T0.Add(time.Minute))
	line := func(id int64) string { return fmt.Sprintf("your_turn black 1 pending %d", id) }
	if got, want := mustLog(t, s, bob), sorted(line(inG2), line(wide), line(inG1), line(wide)); !slices.Equal(got, want) {
		t.Errorf("push deliveries = %q, want %q", got, want)
	}

	rotate(t, s, g1, "black", T0.Add(2*time.Minute))
	if got := listPush(t, s, bob, T0); len(got) != 2 || got[0].ID != wide || got[1].ID != inG2 ||
		got[1].Game != "g2" || got[1].Color != "black" || got[1].LinkVersion != 1 || got[0].Game != "" {
		t.Errorf("after the renewal: %s; want the address-wide %d and g2's %d", describePush(got), wide, inG2)
	}
	if got, want := mustLog(t, s, bob), sorted(line(inG2), line(wide), line(wide)); !slices.Equal(got, want) {
		t.Errorf("after the renewal push deliveries = %q, want %q", got, want)
	}
	// A claimed job carries its subscription's scope, for the worker's
	// own check.
	for _, j := range claimPushes(t, s, "w1", T0.Add(time.Hour), 10) {
		sub := j.Subscription
		if want := j.SubscriptionID == inG2; (sub.Game == "g2" && sub.Color == "black" && sub.LinkVersion == 1) != want ||
			!want && (sub.Game != "" || sub.Color != "" || sub.LinkVersion != 0) {
			t.Errorf("claimed job of subscription %d carries scope %q %q %d", j.SubscriptionID, sub.Game, sub.Color, sub.LinkVersion)
		}
	}
}

// mustLog is pushLog's lines, sorted: the stores queue the subscriptions
// of one event in no set order.
func mustLog(t *testing.T, s port.Store, owner string) []string {
	t.Helper()
	got, _ := pushLog(t, s, owner)
	slices.Sort(got)
	return got
}

func sorted(lines ...string) []string {
	slices.Sort(lines)
	return lines
}
