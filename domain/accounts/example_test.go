package accounts_test

import (
	"context"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/memstore"
)

// Signing in on the memory store: an address asks for a login email, the
// token it carries starts a session (and the account, on first login), and
// the refresh token gets the next grant of the same session.
func ExampleService() {
	ctx := context.Background()
	store := memstore.New()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	users := accounts.NewService(accounts.Config{Store: store, Now: func() time.Time { return now }})

	if err := users.RequestLogin(ctx, "ann@example.org", "en"); err != nil {
		fmt.Println(err)
		return
	}
	mail := store.Queued()
	fmt.Println("mailed:", mail[0].Kind, "to", mail[0].Email)

	grant, err := users.ExchangeLogin(ctx, mail[0].Secret, accounts.SessionTTL)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("signed in:", grant.Session.User.Email)

	next, err := users.Refresh(ctx, grant.RefreshToken)
	fmt.Println("refreshed:", next.Session.ID == grant.Session.ID, err)
	// The spent refresh token, presented again, ends the session.
	_, err = users.Refresh(ctx, grant.RefreshToken)
	_, gone := users.ActiveSession(ctx, grant.Session.ID)
	fmt.Println("reused:", err != nil, "session ended:", gone != nil)
	// Output:
	// mailed: login to ann@example.org
	// signed in: ann@example.org
	// refreshed: true <nil>
	// reused: true session ended: true
}
