package metrics

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"

	"github.com/lesspost/lesspost/domain"
)

// monitor is a store whose backlog the test sets.
type monitor struct {
	backlog domain.Backlog
	err     error
	at      time.Time // the now of the last read
}

func (m *monitor) Backlog(_ context.Context, now time.Time) (domain.Backlog, error) {
	m.at = now
	return m.backlog, m.err
}

// The backlog gauges are read from the store at each scrape, ages measured
// from the scrape's now; a failed read reports down and no gauges rather
// than failing the scrape.
func TestBacklog(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		mon  monitor
		want map[string]float64 // every lesspost_ gauge
	}{
		{
			name: "something waits",
			mon: monitor{backlog: domain.Backlog{MailPending: 3, OldestPending: now.Add(-90 * time.Second), MailFailed: 2,
				GamesDue: 4, TournamentsDue: 1, OldestDue: now.Add(-time.Minute)}},
			want: map[string]float64{"lesspost_backlog_up": 1, "lesspost_outbox_pending": 3,
				"lesspost_outbox_oldest_pending_age_seconds": 90, "lesspost_outbox_failed": 2, "lesspost_scheduler_due_games": 4,
				"lesspost_scheduler_due_tournaments": 1, "lesspost_scheduler_lag_seconds": 60},
		},
		{
			name: "nothing waits",
			want: map[string]float64{"lesspost_backlog_up": 1, "lesspost_outbox_pending": 0,
				"lesspost_outbox_oldest_pending_age_seconds": 0, "lesspost_outbox_failed": 0, "lesspost_scheduler_due_games": 0,
				"lesspost_scheduler_due_tournaments": 0, "lesspost_scheduler_lag_seconds": 0},
		},
		{
			name: "a clock ahead of ours",
			mon:  monitor{backlog: domain.Backlog{MailPending: 1, OldestPending: now.Add(time.Second), GamesDue: 1, OldestDue: now.Add(time.Second)}},
			want: map[string]float64{"lesspost_backlog_up": 1, "lesspost_outbox_pending": 1,
				"lesspost_outbox_oldest_pending_age_seconds": 0, "lesspost_outbox_failed": 0, "lesspost_scheduler_due_games": 1,
				"lesspost_scheduler_due_tournaments": 0, "lesspost_scheduler_lag_seconds": 0},
		},
		{
			name: "the store fails",
			mon:  monitor{err: errors.New("database is locked")},
			want: map[string]float64{"lesspost_backlog_up": 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(&tt.mon, func() time.Time { return now }, slog.New(slog.DiscardHandler))
			got := map[string]float64{}
			for name, v := range samples(t, m) {
				if strings.HasPrefix(name, "lesspost_") && !strings.HasSuffix(name, "_total") && !strings.Contains(name, "_http_") {
					got[name] = v
				}
			}
			if !maps.Equal(got, tt.want) {
				t.Errorf("gauges %v, want %v", got, tt.want)
			}
			if !tt.mon.at.Equal(now) {
				t.Errorf("the backlog was read at %v, want %v", tt.mon.at, now)
			}
		})
	}
}

// samples gathers m and sums each family's gauge and counter values.
func samples(t *testing.T, m *Metrics) map[string]float64 {
	t.Helper()
	mfs, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		for _, s := range mf.GetMetric() {
			out[mf.GetName()] += s.GetGauge().GetValue() + s.GetCounter().GetValue()
		}
	}
	return out
}

// Requests are counted by route template, a bounded method and the status
// class; a request that matched no route is one series, whatever its path.
func TestObserveRequest(t *testing.T) {
	m := New(&monitor{}, time.Now, slog.New(slog.DiscardHandler))
	requests := []struct {
		route, method string
		status        int
	}{
		{"/v1/games/:id", "GET", 200},
		{"/v1/games/:id", "GET", 304},
		{"/v1/games/:id", "GET", 404},
		{"/v1/games/:id/turns", "POST", 201},
		{"/v1/games/:id/turns", "POST", 201},
		{"", "GET", 404},
		{"", "BREW", 405},
		{"/v1/games", "POST", 0},
	}
	for _, r := range requests {
		m.ObserveRequest(r.route, r.method, r.status, 3*time.Millisecond)
	}
	want := map[[3]string]float64{
		{"/v1/games/:id", "GET", "2xx"}:        1,
		{"/v1/games/:id", "GET", "3xx"}:        1,
		{"/v1/games/:id", "GET", "4xx"}:        1,
		{"/v1/games/:id/turns", "POST", "2xx"}: 2,
		{Unmatched, "GET", "4xx"}:              1,
		{Unmatched, "other", "4xx"}:            1,
		{"/v1/games", "POST", "other"}:         1,
	}
	for labels, n := range want {
		if got := testutil.ToFloat64(m.requests.WithLabelValues(labels[:]...)); got != n {
			t.Errorf("requests%v = %v, want %v", labels, got, n)
		}
	}
	if got := testutil.CollectAndCount(m.requests); got != len(want) {
		t.Errorf("%d request series, want %d", got, len(want))
	}
	if got := testutil.CollectAndCount(m.duration); got != 5 {
		t.Errorf("%d latency series, want 5 (route and method)", got)
	}
}

// Every metric follows Prometheus' naming conventions (promlint: units,
// _total on counters, help texts).
func TestNamesLint(t *testing.T) {
	m := New(&monitor{}, time.Now, slog.New(slog.DiscardHandler))
	m.ObserveRequest("/v1/games", "POST", 201, time.Millisecond)
	m.MailSent()
	m.MailFailed(true)
	m.SchedulerPass()
	m.SchedulerActed("game", 2)
	m.WebhookDelivered()
	m.WebhookFailed(false)
	m.WebhookFailed(true)
	mfs, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	problems, err := promlint.NewWithMetricFamilies(mfs).Lint()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
	counts := samples(t, m)
	for name, n := range map[string]float64{"lesspost_mail_sent_total": 1, "lesspost_mail_failed_attempts_total": 1,
		"lesspost_mail_given_up_total": 1, "lesspost_scheduler_passes_total": 1, "lesspost_scheduler_ticks_total": 2,
		"lesspost_webhooks_delivered_total": 1, "lesspost_webhooks_failed_attempts_total": 2, "lesspost_webhooks_given_up_total": 1} {
		if counts[name] != n {
			t.Errorf("%s = %v, want %v", name, counts[name], n)
		}
	}
}

// BenchmarkObserveRequest is what counting costs each request.
func BenchmarkObserveRequest(b *testing.B) {
	m := New(&monitor{}, time.Now, slog.New(slog.DiscardHandler))
	for b.Loop() {
		m.ObserveRequest("/v1/games/:id/turns", "POST", 201, 3*time.Millisecond)
	}
}
