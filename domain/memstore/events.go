package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
)

var _ domain.EventReader = (*Store)(nil)

// addEvents keeps the events of a change; units of work run one at a time,
// so their order is the commit order.
func (t *tx) addEvents(evs []domain.Event, now time.Time) {
	for _, e := range evs {
		t.data.lastEvent++
		e.Pos, e.At = domain.EventPos{Seq: t.data.lastEvent}, now
		t.data.events = append(t.data.events, e)
	}
}

// Events implements domain.EventReader.
func (s *Store) Events(ctx context.Context, f domain.EventFilter, after domain.EventPos, limit int) ([]domain.Event, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []domain.Event
	for _, e := range s.data.events {
		if len(out) < limit && after.Less(e.Pos) && f.Match(&e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// LastEvent implements domain.EventReader.
func (s *Store) LastEvent(ctx context.Context) (domain.EventPos, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.data.events) == 0 {
		return domain.EventPos{}, nil
	}
	return s.data.events[len(s.data.events)-1].Pos, nil
}

// EventCursor implements domain.EventReader. Positions are Seq alone, from
// 1, never reused.
func (s *Store) EventCursor(ctx context.Context, p domain.EventPos) (domain.EventCursorState, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if p.Tx != 0 {
		return domain.EventCursorUnknown, nil
	}
	kept := slices.ContainsFunc(s.data.events, func(e domain.Event) bool { return e.Pos == p })
	beforeAll := len(s.data.events) == 0 || p.Less(s.data.events[0].Pos)
	return domain.EventCursorOf(kept, p.Seq > s.data.lastEvent, beforeAll), nil
}

// PruneEvents deletes up to limit events created before before.
func (s *Store) PruneEvents(ctx context.Context, before time.Time, limit int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	s.data.events = slices.DeleteFunc(s.data.events, func(e domain.Event) bool {
		if n < limit && e.At.Before(before) {
			n++
			return true
		}
		return false
	})
	return n, nil
}
