package hooks_test

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/memstore"
)

// A browser subscribes to push for its signed-in account on the memory
// store; subscribing the same endpoint again (a retry) updates it in place.
func ExamplePush() {
	ctx := context.Background()
	store := memstore.New(domain.User{ID: 1, Email: "ann@example.org"})
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	push := hooks.NewPush(hooks.PushConfig{Store: store, Now: func() time.Time { return now }})

	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		fmt.Println(err)
		return
	}
	sub := hooks.PushSubscription{Endpoint: "https://push.example/send/1", P256DH: key.PublicKey().Bytes(),
		Auth: make([]byte, hooks.PushAuthSize)}
	ann := games.Credentials{UserID: 1, UserEmail: "ann@example.org"}
	saved, created, err := push.SubscribePush(ctx, ann, sub)
	fmt.Println("created:", created, "owner:", saved.Owner, err)
	_, created, err = push.SubscribePush(ctx, ann, sub)
	fmt.Println("created again:", created, err)
	list, err := push.PushSubscriptions(ctx, ann)
	fmt.Println("subscriptions:", len(list), err)
	// Output:
	// created: true owner: ann@example.org <nil>
	// created again: false <nil>
	// subscriptions: 1 <nil>
}
