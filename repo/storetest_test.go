package repo

import (
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/storetest"
)

// The SQLite store keeps the contract of domain.Store.
func TestStoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) domain.Store { return newStore(t) })
}

// The SQLite store keeps the contract of domain.RateLimiter.
func TestRateLimiterContract(t *testing.T) {
	storetest.RunRateLimiter(t, func(t *testing.T) storetest.RateLimitStore { return newStore(t) })
}
