package sqlite_test

import (
	"testing"

	"github.com/lesspost/lesspost/repo/port"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/storetest"
)

// openStore opens a store on a fresh file, closed when t ends.
func openStore(t *testing.T) port.Store { return repotest.OpenDSN(t, repotest.Path(t)) }

// The SQLite store keeps the contract of port.Store.
func TestStoreContract(t *testing.T) {
	storetest.RunStore(t, func(t *testing.T) port.Store { return openStore(t) })
}

// The SQLite store keeps the contract of domain.RateLimiter.
func TestRateLimiterContract(t *testing.T) {
	storetest.RunRateLimiter(t, func(t *testing.T) storetest.RateLimitStore { return openStore(t) })
}

// The SQLite store keeps the contract of stored events.
func TestEventsContract(t *testing.T) {
	storetest.RunEvents(t, func(t *testing.T) storetest.EventStore { return openStore(t) })
}

// The SQLite store keeps the contract of hooks.WebhookStore.
func TestWebhooksContract(t *testing.T) {
	storetest.RunWebhooks(t, func(t *testing.T) port.Store { return openStore(t) })
}

// The SQLite store keeps the contract of hooks.PushDeliveryStore.
func TestPushDeliveriesContract(t *testing.T) {
	storetest.RunPushDeliveries(t, func(t *testing.T) port.Store { return openStore(t) })
}
