package postgres_test

import (
	"testing"

	"github.com/lesspost/lesspost/repo/port"
	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
	"github.com/lesspost/lesspost/repo/storetest"
)

// open opens a store on a fresh database, closed when t ends.
func open(t testing.TB) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(t.Context(), pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// The PostgreSQL store keeps the contract of port.Store.
func TestStoreContract(t *testing.T) {
	storetest.RunStore(t, func(t *testing.T) port.Store { return open(t) })
}

// The PostgreSQL store keeps the contract of domain.RateLimiter.
func TestRateLimiterContract(t *testing.T) {
	storetest.RunRateLimiter(t, func(t *testing.T) storetest.RateLimitStore { return open(t) })
}

// The PostgreSQL store keeps the contract of stored events.
func TestEventsContract(t *testing.T) {
	storetest.RunEvents(t, func(t *testing.T) storetest.EventStore { return open(t) })
}

// The PostgreSQL store keeps the contract of hooks.WebhookStore.
func TestWebhooksContract(t *testing.T) {
	storetest.RunWebhooks(t, func(t *testing.T) port.Store { return open(t) })
}

// The PostgreSQL store keeps the contract of hooks.PushDeliveryStore.
func TestPushDeliveriesContract(t *testing.T) {
	storetest.RunPushDeliveries(t, func(t *testing.T) port.Store { return open(t) })
}
