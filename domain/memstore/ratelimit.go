package memstore

import (
	"context"
	"time"

	"github.com/lesspost/lesspost/domain"
)

var _ domain.RateLimiter = (*Store)(nil)

// TakeRequest implements domain.RateLimiter: the generic cell rate
// algorithm, on a bucket per key kept in memory.
func (s *Store) TakeRequest(ctx context.Context, key string, interval, tolerance time.Duration, now time.Time) (bool, time.Duration, error) {
	s.limitsMu.Lock()
	defer s.limitsMu.Unlock()
	if s.full == nil {
		s.full = map[string]time.Time{}
	}
	f := s.full[key]
	if f.Before(now) {
		f = now
	}
	if wait := f.Sub(now) - tolerance; wait > 0 {
		return false, wait, nil
	}
	s.full[key] = f.Add(interval)
	return true, 0, nil
}

// ReturnRequest implements domain.RateLimiter.
func (s *Store) ReturnRequest(ctx context.Context, key string, interval time.Duration) error {
	s.limitsMu.Lock()
	defer s.limitsMu.Unlock()
	if f, ok := s.full[key]; ok {
		s.full[key] = f.Add(-interval)
	}
	return nil
}
