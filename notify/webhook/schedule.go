package webhook

import (
	"math/rand/v2"
	"time"
)

// Schedule is the default wait before each retry of a failed delivery, the
// one Svix and Standard Webhooks suggest: the first retry 5 seconds after
// the first attempt, the last about 28 hours after it. A delivery whose
// last retry fails is given up.
var Schedule = []time.Duration{
	5 * time.Second,
	5 * time.Minute,
	30 * time.Minute,
	2 * time.Hour,
	5 * time.Hour,
	10 * time.Hour,
	10 * time.Hour,
}

// jitter spreads a wait by up to a fifth of it, later never earlier, so
// that deliveries that failed together (an endpoint down) are not retried
// all at once.
func jitter(d time.Duration) time.Duration {
	return d + rand.N(d/5+1)
}

// RetryAt is when a delivery whose attempts-th attempt failed at now is
// tried again, with jitter; zero when schedule is exhausted.
func RetryAt(schedule []time.Duration, attempts int, now time.Time) time.Time {
	if attempts < 1 || attempts > len(schedule) {
		return time.Time{}
	}
	return now.Add(jitter(schedule[attempts-1]))
}
