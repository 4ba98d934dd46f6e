package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
)

var _ hooks.PushKeys = (*Store)(nil)

// PushSubscriptions lists an address's live subscriptions, oldest first.
func (s *Store) PushSubscriptions(ctx context.Context, owner string, now time.Time) ([]hooks.PushSubscription, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.pushSubscriptions(owner, now), nil
}

func (d *data) pushSubscriptions(owner string, now time.Time) []hooks.PushSubscription {
	var out []hooks.PushSubscription
	for _, p := range d.pushes {
		if p.Owner == owner && (p.ExpiresAt.IsZero() || p.ExpiresAt.After(now)) {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b hooks.PushSubscription) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out
}

// PushKey returns the stored VAPID key pair, storing candidate if there is none.
func (s *Store) PushKey(ctx context.Context, candidate hooks.PushKey, now time.Time) (hooks.PushKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.data.pushKey == nil {
		k := hooks.PushKey{Private: slices.Clone(candidate.Private), Public: slices.Clone(candidate.Public)}
		s.data.pushKey = &k
	}
	return *s.data.pushKey, nil
}

func (t *tx) PushSubscriptions(ctx context.Context, owner string, now time.Time) ([]hooks.PushSubscription, error) {
	return t.data.pushSubscriptions(owner, now), nil
}

func (t *tx) SavePushSubscription(ctx context.Context, sub hooks.PushSubscription) (int64, bool, error) {
	for i, p := range t.data.pushes {
		if p.Owner == sub.Owner && p.Endpoint == sub.Endpoint && p.Game == sub.Game && p.Color == sub.Color {
			sub.ID = p.ID
			t.data.pushes[i] = sub
			return sub.ID, false, nil
		}
	}
	sub.ID = 1
	if n := len(t.data.pushes); n > 0 {
		sub.ID = t.data.pushes[n-1].ID + 1
	}
	t.data.pushes = append(t.data.pushes, sub)
	return sub.ID, true, nil
}

// LockPushOwner does nothing: a unit of work holds the whole store.
func (t *tx) LockPushOwner(context.Context, string) error { return nil }

// dropStalePushes deletes the game-scoped subscriptions of g's seats made
// with a link that is no longer the seat's, or for another address, as
// the SQL stores' trigger seats_push_scope does.
func (d *data) dropStalePushes(g games.Game) {
	d.pushes = slices.DeleteFunc(d.pushes, func(p hooks.PushSubscription) bool {
		if p.Game != g.ID {
			return false
		}
		seat, ok := g.Seat(p.Color)
		return !ok || seat.TokenVersion != p.LinkVersion || seat.Email != p.Owner
	})
}

func (t *tx) DeletePushSubscription(ctx context.Context, owner string, id int64) (bool, error) {
	n := len(t.data.pushes)
	t.data.pushes = slices.DeleteFunc(t.data.pushes, func(p hooks.PushSubscription) bool { return p.ID == id && p.Owner == owner })
	return len(t.data.pushes) < n, nil
}

func (t *tx) DeletePushEndpoint(ctx context.Context, endpoint string, now time.Time) (int, error) {
	n := len(t.data.pushes)
	t.data.pushes = slices.DeleteFunc(t.data.pushes, func(p hooks.PushSubscription) bool {
		return p.Endpoint == endpoint || !p.ExpiresAt.IsZero() && !p.ExpiresAt.After(now)
	})
	return n - len(t.data.pushes), nil
}

func (t *tx) PushSubscriptionsAt(ctx context.Context, endpoint string) ([]hooks.PushSubscription, error) {
	var out []hooks.PushSubscription
	for _, p := range t.data.pushes {
		if p.Endpoint == endpoint {
			out = append(out, p)
		}
	}
	return out, nil
}
