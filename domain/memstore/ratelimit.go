package memstore

import (
	"context"
	"time"

	"github.com/lesspost/lesspost/domain"
)

var _ domain.RateLimiter = (*Store)(nil)

// TakeRequest implements domain.RateLimiter: the generic cell rate
// algorithm, on a bucket per key kept in memory; it commits at once.
func (s *Store) TakeRequest(ctx context.Context, key string, interval, tolerance time.Duration, now time.Time) (bool, time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data.takeRequest(key, interval, tolerance, now)
}

// ReturnRequest implements domain.RateLimiter.
func (s *Store) ReturnRequest(ctx context.Context, key string, interval time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.data.full[key]; ok {
		s.data.full[key] = f.Add(-interval)
	}
	return nil
}

// takeRequest takes one request from key's bucket (see domain.RateLimiter).
func (d *data) takeRequest(key string, interval, tolerance time.Duration, now time.Time) (bool, time.Duration, error) {
	f := d.full[key]
	if f.Before(now) {
		f = now
	}
	if wait := f.Sub(now) - tolerance; wait > 0 {
		return false, wait, nil
	}
	d.full[key] = f.Add(interval)
	return true, 0, nil
}
