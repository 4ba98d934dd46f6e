package webhook

import (
	"testing"
	"time"
)

func TestRetryAt(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		attempts int
		wait     time.Duration // zero: given up
	}{
		{0, 0},
		{1, 5 * time.Second},
		{2, 5 * time.Minute},
		{3, 30 * time.Minute},
		{4, 2 * time.Hour},
		{5, 5 * time.Hour},
		{6, 10 * time.Hour},
		{7, 10 * time.Hour},
		{8, 0},
		{9, 0},
	}
	for _, tt := range tests {
		for range 50 { // the jitter is random: a few draws
			got := RetryAt(Schedule, tt.attempts, now)
			if tt.wait == 0 {
				if !got.IsZero() {
					t.Fatalf("after attempt %d: retry at %v, want given up", tt.attempts, got)
				}
				continue
			}
			if d := got.Sub(now); d < tt.wait || d > tt.wait+tt.wait/5 {
				t.Fatalf("after attempt %d: retry in %v, want %v to %v", tt.attempts, d, tt.wait, tt.wait+tt.wait/5)
			}
		}
	}
	var total time.Duration
	for _, d := range Schedule {
		total += d
	}
	if total < DefaultDisableAfter {
		t.Errorf("the schedule ends after %v, before an endpoint may be disabled (%v)", total, DefaultDisableAfter)
	}
}
