package repo_test

import (
	"testing"

	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/storetest"
)

// The SQLite store keeps the contract of repo.Store.
func TestStoreContract(t *testing.T) {
	storetest.RunStore(t, func(t *testing.T) repo.Store {
		db, err := repo.Open(t.Context(), repotest.Path(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

// The SQLite store keeps the contract of domain.RateLimiter.
func TestRateLimiterContract(t *testing.T) {
	storetest.RunRateLimiter(t, func(t *testing.T) storetest.RateLimitStore { return repotest.OpenDSN(t, repotest.Path(t)) })
}

// The SQLite store keeps the contract of stored events.
func TestEventsContract(t *testing.T) {
	storetest.RunEvents(t, func(t *testing.T) storetest.EventStore {
		db, err := repo.Open(t.Context(), repotest.Path(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}
