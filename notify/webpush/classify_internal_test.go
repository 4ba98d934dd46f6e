package webpush

import (
	"net/http"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		status     int
		retryAfter string
		want       Result
	}{
		{200, "", Result{Outcome: Delivered}},
		{201, "", Result{Outcome: Delivered}},
		{202, "", Result{Outcome: Delivered}},
		{404, "", Result{Outcome: Gone}},
		{410, "", Result{Outcome: Gone}},
		{429, "30", Result{Outcome: RetryLater, RetryAfter: 30 * time.Second}},
		{429, "", Result{Outcome: RetryLater}},
		{429, "-5", Result{Outcome: RetryLater}},
		{429, "soon", Result{Outcome: RetryLater}},
		{503, "Sun, 01 Mar 2026 12:05:00 GMT", Result{Outcome: RetryLater, RetryAfter: 5 * time.Minute}},
		{503, "Sun, 01 Mar 2026 11:00:00 GMT", Result{Outcome: RetryLater}}, // a date gone by
		{502, "99999999", Result{Outcome: RetryLater, RetryAfter: 7 * 24 * time.Hour}},
		{500, "", Result{Outcome: RetryLater}},
		{400, "", Result{Outcome: Rejected}},
		{401, "", Result{Outcome: Rejected}},
		{403, "", Result{Outcome: Rejected}},
		{413, "", Result{Outcome: Rejected}},
		{301, "", Result{Outcome: Rejected}},
	} {
		h := http.Header{}
		if tt.retryAfter != "" {
			h.Set("Retry-After", tt.retryAfter)
		}
		tt.want.Status = tt.status
		if got := classify(tt.status, h, now); got != tt.want {
			t.Errorf("classify(%d, Retry-After %q) = %+v; want %+v", tt.status, tt.retryAfter, got, tt.want)
		}
	}
}
