package memstore_test

import (
	"testing"

	"github.com/lesspost/lesspost/domain/memstore"
	"github.com/lesspost/lesspost/repo/storetest"
)

// The in-memory store keeps the contract the use cases' tests rely on.
func TestStoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store { return memstore.New() })
}

// The in-memory store keeps the events as the SQL stores do.
func TestEventsContract(t *testing.T) {
	storetest.RunEvents(t, func(t *testing.T) storetest.EventStore { return memstore.New() })
}
