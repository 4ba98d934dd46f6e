package storetest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
)

// pushSub is a subscription of owner to endpoint, with keys that tell
// versions apart by seed.
func pushSub(owner, endpoint string, seed byte, expires time.Time) hooks.PushSubscription {
	return hooks.PushSubscription{Owner: owner, Endpoint: endpoint,
		P256DH: bytes.Repeat([]byte{seed}, hooks.PushP256DHSize), Auth: bytes.Repeat([]byte{seed + 1}, hooks.PushAuthSize),
		ExpiresAt: expires, CreatedAt: T0}
}

func savePush(t *testing.T, s Store, p hooks.PushSubscription) (id int64, created bool) {
	t.Helper()
	transact(t, s, func(ctx context.Context, tx *unit) (err error) {
		id, created, err = tx.SavePushSubscription(ctx, p)
		return err
	})
	return id, created
}

func listPush(t *testing.T, s Store, owner string, now time.Time) []hooks.PushSubscription {
	t.Helper()
	got, err := s.PushSubscriptions(t.Context(), owner, now)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// describePush prints a list as "endpoint/seed/expiry" items, to compare.
func describePush(ps []hooks.PushSubscription) string {
	var b bytes.Buffer
	for _, p := range ps {
		fmt.Fprintf(&b, "[%s %s %d %d %v %v] ", p.Owner, p.Endpoint, p.P256DH[0], p.Auth[0], p.ExpiresAt.UnixMilli(), p.CreatedAt.UnixMilli())
	}
	return b.String()
}

// testPushSubscriptions: a subscription is kept per owner and endpoint;
// saving it again updates it in place (same id, not created); the list
// is the owner's live ones, oldest first, and is readable in a unit of
// work; deleting takes the owner's id only; deleting an endpoint takes it
// from every owner, with whatever expired.
func testPushSubscriptions(t *testing.T, s Store) {
	const ann, bob = "ann@example.org", "bob@example.org"
	later := T0.Add(time.Hour)
	a1, created := savePush(t, s, pushSub(ann, "https://push.example/a1", 1, time.Time{}))
	if !created {
		t.Error("a new subscription was not created")
	}
	second := pushSub(ann, "https://push.example/a2", 3, later)
	second.CreatedAt = T0.Add(time.Second)
	a2, _ := savePush(t, s, second)
	shared, _ := savePush(t, s, pushSub(bob, "https://push.example/a1", 5, time.Time{})) // one browser, two addresses
	if a1 == a2 || a1 == shared {
		t.Fatalf("ids %d, %d, %d are not distinct", a1, a2, shared)
	}
	again := pushSub(ann, "https://push.example/a1", 7, T0.Add(2*time.Hour))
	id, created := savePush(t, s, again)
	if id != a1 || created {
		t.Errorf("saving an endpoint again = %d, created %v; want %d, false", id, created, a1)
	}
	again.ID, second.ID = a1, a2
	want := describePush([]hooks.PushSubscription{again, second})
	if got := describePush(listPush(t, s, ann, T0)); got != want {
		t.Errorf("list = %s\nwant    %s", got, want)
	}
	if got := listPush(t, s, ann, later); len(got) != 1 || got[0].ID != a1 {
		t.Errorf("after a2 expired the list is %s; want a1 alone", describePush(got))
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		got, err := tx.PushSubscriptions(ctx, ann, T0)
		if err != nil || len(got) != 2 || got[0].ID != a1 || !bytes.Equal(got[0].Auth, again.Auth) {
			t.Errorf("list in a unit of work = %s, %v", describePush(got), err)
		}
		for _, c := range []struct {
			owner string
			id    int64
			ok    bool
		}{{bob, a2, false}, {ann, a2 + shared + 100, false}, {ann, a2, true}, {ann, a2, false}} {
			ok, err := tx.DeletePushSubscription(ctx, c.owner, c.id)
			if err != nil || ok != c.ok {
				t.Errorf("DeletePushSubscription(%s, %d) = %v, %v; want %v", c.owner, c.id, ok, err, c.ok)
			}
		}
		return nil
	})
	// A rolled back unit of work keeps nothing.
	_ = s.Transact(t.Context(), func(st domain.StoreTx) error {
		tx := newUnit(st)

		if _, _, err := tx.SavePushSubscription(t.Context(), pushSub(ann, "https://push.example/lost", 9, time.Time{})); err != nil {
			return err
		}
		return domain.ErrStale
	})
	if got := listPush(t, s, ann, T0); len(got) != 1 || got[0].ID != a1 {
		t.Errorf("after deleting a2 and a rollback the list is %s", describePush(got))
	}
	savePush(t, s, pushSub(bob, "https://push.example/old", 11, T0.Add(time.Minute)))
	var n int
	transact(t, s, func(ctx context.Context, tx *unit) (err error) {
		n, err = tx.DeletePushEndpoint(ctx, "https://push.example/a1", T0.Add(time.Minute))
		return err
	})
	if n != 3 {
		t.Errorf("DeletePushEndpoint deleted %d; want 3 (ann's and bob's a1, bob's expired one)", n)
	}
	for _, owner := range []string{ann, bob} {
		if got := listPush(t, s, owner, T0); len(got) != 0 {
			t.Errorf("%s still has %s", owner, describePush(got))
		}
	}
}

// testPushSubscriptionCap: the use case refuses an address's subscription
// beyond hooks.MaxPushSubscriptions, but still updates one it has, and
// counts expired ones out.
func testPushSubscriptionCap(t *testing.T, s Store) {
	const ann = "ann@example.org"
	u := ensureUser(t, s, ann)
	now := T0
	svc := hooks.NewPush(hooks.PushConfig{Store: s, Now: func() time.Time { return now }})
	cred := games.Credentials{UserID: u.ID, UserEmail: ann}
	sub := func(i int, expires time.Time) hooks.PushSubscription {
		p := pushSub("", fmt.Sprintf("https://push.example/%d", i), 4, expires)
		p.P256DH = validP256DH
		return p
	}
	if _, _, err := svc.SubscribePush(t.Context(), cred, sub(0, T0.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < hooks.MaxPushSubscriptions; i++ {
		if _, _, err := svc.SubscribePush(t.Context(), cred, sub(i, time.Time{})); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := svc.SubscribePush(t.Context(), cred, sub(99, time.Time{})); domain.CodeOf(err) != hooks.CodeTooManyPushSubscription {
		t.Errorf("one too many = %v; want %s", err, hooks.CodeTooManyPushSubscription)
	}
	if got, created, err := svc.SubscribePush(t.Context(), cred, sub(5, time.Time{})); err != nil || created || got.Owner != ann {
		t.Errorf("an update at the cap = %+v, %v, %v; want kept, not created", got, created, err)
	}
	now = T0.Add(time.Hour) // subscription 0 expired: room for one
	if _, created, err := svc.SubscribePush(t.Context(), cred, sub(99, time.Time{})); err != nil || !created {
		t.Errorf("after one expired = %v, %v; want created", created, err)
	}
}

// validP256DH is a point of P-256 (the curve's generator, uncompressed).
var validP256DH = []byte{4,
	0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4, 0x40, 0xf2,
	0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96,
	0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a, 0x7c, 0x0f, 0x9e, 0x16,
	0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce, 0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5}

// testPushKey: the first key pair offered is kept; later offers, also
// concurrent ones, get it back.
func testPushKey(t *testing.T, s Store) {
	keys, ok := s.(hooks.PushKeys)
	if !ok {
		t.Fatalf("%T keeps no VAPID key (hooks.PushKeys)", s)
	}
	first := hooks.PushKey{Private: bytes.Repeat([]byte{1}, 32), Public: bytes.Repeat([]byte{2}, 65)}
	got, err := keys.PushKey(t.Context(), first, T0)
	if err != nil || !bytes.Equal(got.Private, first.Private) || !bytes.Equal(got.Public, first.Public) {
		t.Fatalf("first PushKey = %v, %v; want the candidate", got, err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			other := hooks.PushKey{Private: bytes.Repeat([]byte{byte(10 + i)}, 32), Public: bytes.Repeat([]byte{3}, 65)}
			got, err := keys.PushKey(t.Context(), other, T0)
			if err != nil || !bytes.Equal(got.Private, first.Private) || !bytes.Equal(got.Public, first.Public) {
				t.Errorf("a later PushKey = %v, %v; want the first pair", got, err)
			}
		})
	}
	wg.Wait()
}

// testPushRenewal: a replaced subscription moves to its new endpoint for
// every address that had it, proven by its auth secret; a wrong secret
// moves nothing.
func testPushRenewal(t *testing.T, s Store) {
	const ann, bob = "ann@example.org", "bob@example.org"
	ua, ub := ensureUser(t, s, ann), ensureUser(t, s, bob)
	now := T0
	svc := hooks.NewPush(hooks.PushConfig{Store: s, Now: func() time.Time { return now }})
	browser := hooks.PushSubscription{Endpoint: "https://push.example/old", P256DH: validP256DH, Auth: bytes.Repeat([]byte{7}, 16)}
	for _, u := range []domain.User{ua, ub} {
		if _, _, err := svc.SubscribePush(t.Context(), games.Credentials{UserID: u.ID, UserEmail: u.Email}, browser); err != nil {
			t.Fatal(err)
		}
	}
	other := browser
	other.Endpoint = "https://push.example/other"
	if _, _, err := svc.SubscribePush(t.Context(), games.Credentials{UserID: ua.ID, UserEmail: ann}, other); err != nil {
		t.Fatal(err)
	}
	renewed := hooks.PushSubscription{Endpoint: "https://push.example/new", P256DH: validP256DH, Auth: bytes.Repeat([]byte{8}, 16)}
	now = T0.Add(time.Minute)
	if n, err := svc.RenewPushSubscription(t.Context(), browser.Endpoint, bytes.Repeat([]byte{6}, 16), renewed); n != 0 || domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("renewal with a wrong secret = %d, %v; want not found", n, err)
	}
	if n, err := svc.RenewPushSubscription(t.Context(), browser.Endpoint, browser.Auth, renewed); n != 2 || err != nil {
		t.Errorf("renewal = %d, %v; want 2 moved", n, err)
	}
	for owner, want := range map[string][]string{ann: {"https://push.example/other", "https://push.example/new"}, bob: {"https://push.example/new"}} {
		got := listPush(t, s, owner, now)
		var endpoints []string
		for _, p := range got {
			endpoints = append(endpoints, p.Endpoint)
			if p.Endpoint == renewed.Endpoint && (!bytes.Equal(p.Auth, renewed.Auth) || !p.CreatedAt.Equal(now)) {
				t.Errorf("%s's renewed subscription %s", owner, describePush([]hooks.PushSubscription{p}))
			}
		}
		if fmt.Sprint(endpoints) != fmt.Sprint(want) {
			t.Errorf("%s has %v; want %v", owner, endpoints, want)
		}
	}
	if n, err := svc.RenewPushSubscription(t.Context(), browser.Endpoint, browser.Auth, renewed); n != 0 || domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("renewing again = %d, %v; want not found", n, err)
	}
}

// testPushSeatScope: a move link makes subscriptions for its game and link
// version, sees and deletes only those, may make only
// hooks.MaxSeatPushSubscriptions of them, and renewing the link ends
// them; the account sees and deletes them all.
func testPushSeatScope(t *testing.T, s Store) {
	const bob = "bob@example.org"
	u := ensureUser(t, s, bob)
	g := insertGame(t, s, "g1")
	svc := hooks.NewPush(hooks.PushConfig{Store: s, Now: func() time.Time { return T0 }})
	black := "black"
	account := games.Credentials{UserID: u.ID, UserEmail: bob}
	link := games.Credentials{GameID: "g1", Seat: &black, LinkVersion: 1}
	browser := func(i int) hooks.PushSubscription {
		return hooks.PushSubscription{Endpoint: fmt.Sprintf("https://push.example/%d", i), P256DH: validP256DH,
			Auth: bytes.Repeat([]byte{byte(i)}, hooks.PushAuthSize)}
	}
	ids := func(ps []hooks.PushSubscription, err error) []int64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	wide, _, err := svc.SubscribePush(t.Context(), account, browser(0))
	if err != nil {
		t.Fatal(err)
	}
	mine, created, err := svc.SubscribePush(t.Context(), link, browser(0)) // the same browser, for the game alone
	if err != nil || !created || mine.ID == wide.ID || mine.Owner != bob || mine.Game != "g1" || mine.Color != black || mine.LinkVersion != 1 {
		t.Fatalf("SubscribePush with the link = %+v, %v, %v; want a new subscription for g1", mine, created, err)
	}
	if wide.Game != "" {
		t.Errorf("the account's subscription is scoped: %+v", wide)
	}
	if got := ids(svc.PushSubscriptions(t.Context(), link)); !slices.Equal(got, []int64{mine.ID}) {
		t.Errorf("the link lists %v; want only %d", got, mine.ID)
	}
	if err := svc.UnsubscribePush(t.Context(), link, wide.ID); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("the link deleting the account's subscription = %v; want not_found", err)
	}
	if got := ids(svc.PushSubscriptions(t.Context(), account)); !slices.Equal(got, []int64{wide.ID, mine.ID}) {
		t.Errorf("the account lists %v; want %d and %d", got, wide.ID, mine.ID)
	}
	for i := 1; i < hooks.MaxSeatPushSubscriptions; i++ {
		if _, _, err := svc.SubscribePush(t.Context(), link, browser(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := svc.SubscribePush(t.Context(), link, browser(99)); domain.CodeOf(err) != hooks.CodeTooManyPushSubscription {
		t.Errorf("a link's subscription beyond its share = %v; want %s", err, hooks.CodeTooManyPushSubscription)
	}
	if _, _, err := svc.SubscribePush(t.Context(), account, browser(99)); err != nil {
		t.Errorf("the account beside a full link: %v", err)
	}

	rotate(t, s, g, black, T0.Add(time.Minute))
	if got := ids(svc.PushSubscriptions(t.Context(), account)); len(got) != 2 || got[0] != wide.ID {
		t.Errorf("after the renewal the account lists %v; want %d and its second browser", got, wide.ID)
	}
	if _, err := svc.PushSubscriptions(t.Context(), link); domain.CodeOf(err) != domain.CodeLinkReplaced {
		t.Errorf("the replaced link lists: %v; want %s", err, domain.CodeLinkReplaced)
	}
	renewed := games.Credentials{GameID: "g1", Seat: &black, LinkVersion: 2}
	if got := ids(svc.PushSubscriptions(t.Context(), renewed)); len(got) != 0 {
		t.Errorf("the renewed link lists %v; want none", got)
	}
}

// testPushCapConcurrently: subscribes for one address at once, on several
// connections, never take it beyond hooks.MaxPushSubscriptions.
func testPushCapConcurrently(t *testing.T, s Store) {
	const ann = "ann@example.org"
	u := ensureUser(t, s, ann)
	svc := hooks.NewPush(hooks.PushConfig{Store: s, Now: func() time.Time { return T0 }})
	cred := games.Credentials{UserID: u.ID, UserEmail: ann}
	sub := func(i int) hooks.PushSubscription {
		return hooks.PushSubscription{Endpoint: fmt.Sprintf("https://push.example/%d", i), P256DH: validP256DH,
			Auth: bytes.Repeat([]byte{1}, hooks.PushAuthSize)}
	}
	for i := range hooks.MaxPushSubscriptions - 2 {
		if _, _, err := svc.SubscribePush(t.Context(), cred, sub(i)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			_, _, err := svc.SubscribePush(t.Context(), cred, sub(100+i))
			if err != nil && domain.CodeOf(err) != hooks.CodeTooManyPushSubscription {
				t.Errorf("a concurrent subscribe: %v", err)
			}
		})
	}
	wg.Wait()
	if got := listPush(t, s, ann, T0); len(got) != hooks.MaxPushSubscriptions {
		t.Errorf("after concurrent subscribes the address has %d subscriptions; want %d", len(got), hooks.MaxPushSubscriptions)
	}
}
