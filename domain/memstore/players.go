package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain/players"
)

// handle is a handle an account holds: its current one (retired zero), or
// one it left, held until retired.
type handle struct {
	userID  int64
	shown   string
	retired time.Time
}

func (h handle) heldAt(now time.Time) bool { return h.retired.IsZero() || h.retired.After(now) }

// HandleHolder implements players.Reader.
func (s *Store) HandleHolder(ctx context.Context, folded string, now time.Time) (int64, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	h, ok := s.data.handles[folded]
	if !ok || !h.heldAt(now) {
		return 0, false, nil
	}
	return h.userID, true, nil
}

// Profile implements players.Reader.
func (s *Store) Profile(ctx context.Context, userID int64) (players.Profile, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.profile(userID), nil
}

func (t *tx) Profile(ctx context.Context, userID int64) (players.Profile, error) {
	return t.data.profile(userID), nil
}

func (d *data) profile(userID int64) players.Profile {
	p := d.profiles[userID]
	p.Languages = slices.Clone(p.Languages)
	p.Handle = ""
	for _, h := range d.handles {
		if h.userID == userID && h.retired.IsZero() {
			p.Handle = h.shown
		}
	}
	return p
}

func (t *tx) ClaimHandle(ctx context.Context, userID int64, shown, folded string, now, retireUntil time.Time) (bool, error) {
	if h, ok := t.data.handles[folded]; ok && h.userID != userID && h.heldAt(now) {
		return false, nil
	}
	for k, h := range t.data.handles {
		if h.userID == userID && h.retired.IsZero() && k != folded {
			h.retired = retireUntil
			t.data.handles[k] = h
		}
	}
	t.data.handles[folded] = handle{userID: userID, shown: shown}
	return true, nil
}

func (t *tx) RetiredHandles(ctx context.Context, userID int64, now time.Time) (int, time.Time, error) {
	n, first := 0, time.Time{}
	for _, h := range t.data.handles {
		if h.userID == userID && !h.retired.IsZero() && h.heldAt(now) {
			n++
			if first.IsZero() || h.retired.Before(first) {
				first = h.retired
			}
		}
	}
	return n, first, nil
}

func (t *tx) SaveProfile(ctx context.Context, userID int64, p players.Profile, now time.Time) error {
	p.Handle = ""
	p.Languages = slices.Clone(p.Languages)
	t.data.profiles[userID] = p
	return nil
}
