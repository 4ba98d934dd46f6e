// Package metrics owns what the server tells Prometheus: the names, help
// texts and labels of its metrics, the registry that holds them, and the
// handler that serves them in the text exposition format. The rest of the
// program reports events through small hooks (a request answered, a mail
// sent, a scheduler pass) and never sees a Prometheus type.
package metrics

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/lesspost/lesspost/domain"
)

// BacklogTimeout bounds the store read a scrape makes. Prometheus gives up
// on a scrape after 10 s by default; a store slower than this is reported
// as down instead of making the whole scrape fail.
const BacklogTimeout = 2 * time.Second

// Unmatched is the route label of requests that matched no route.
const Unmatched = "unmatched"

// Metrics is the registry of one server process. Its methods are safe for
// concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec

	mailSent, mailFailed, mailGivenUp prometheus.Counter

	webhooksDelivered, webhooksFailed, webhooksGivenUp prometheus.Counter

	pushDelivered, pushFailed, pushGivenUp prometheus.Counter

	schedulerPasses prometheus.Counter
	schedulerActed  *prometheus.CounterVec
}

// New returns the metrics of a process whose store is monitor; now is the
// clock the backlog's ages are measured with.
func New(monitor domain.Monitor, now func() time.Time, log *slog.Logger) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lesspost_http_requests_total",
			Help: "HTTP requests answered by this instance, by route template, method and status class (2xx, 4xx, ...).",
		}, []string{"route", "method", "status_class"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lesspost_http_request_duration_seconds",
			Help: "Time from a request's arrival to its answer, by route template and method.",
			// A turn takes about a millisecond; the default buckets start at 5 ms.
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		mailSent: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_mail_sent_total",
			Help: "Emails this instance handed to the mail server.",
		}),
		mailFailed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_mail_failed_attempts_total",
			Help: "Delivery attempts of this instance that failed, the last attempts of given-up emails included.",
		}),
		mailGivenUp: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_mail_given_up_total",
			Help: "Emails this instance gave up on after their last attempt failed.",
		}),
		webhooksDelivered: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_webhooks_delivered_total",
			Help: "Webhook messages this instance delivered (the endpoint answered 2xx).",
		}),
		webhooksFailed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_webhooks_failed_attempts_total",
			Help: "Webhook delivery attempts of this instance that failed, the last attempts of given-up messages included.",
		}),
		webhooksGivenUp: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_webhooks_given_up_total",
			Help: "Webhook messages this instance gave up on after their last attempt failed (or a 410 Gone).",
		}),
		pushDelivered: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_push_delivered_total",
			Help: "Web Push messages this instance handed to a push service (it answered 2xx).",
		}),
		pushFailed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_push_failed_attempts_total",
			Help: "Web Push attempts of this instance that failed, the subscriptions found gone and the last attempts of given-up messages included.",
		}),
		pushGivenUp: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_push_given_up_total",
			Help: "Web Push messages this instance gave up on: refused, their subscription gone, or their last retry failed.",
		}),
		schedulerPasses: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lesspost_scheduler_passes_total",
			Help: "Passes of this instance's scheduler over the due games and tournaments.",
		}),
		schedulerActed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lesspost_scheduler_ticks_total",
			Help: "Games (reminders, time-outs) and tournaments (rounds) this instance's scheduler acted on, by kind.",
		}, []string{"kind"}),
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.duration, m.mailSent, m.mailFailed, m.mailGivenUp, m.schedulerPasses, m.schedulerActed,
		m.webhooksDelivered, m.webhooksFailed, m.webhooksGivenUp, m.pushDelivered, m.pushFailed, m.pushGivenUp,
		&backlogCollector{monitor: monitor, now: now, log: log},
	)
	// Both kinds are exported from the start, so that a rate over them
	// is defined before the first tick.
	for _, kind := range []string{"game", "tournament"} {
		m.schedulerActed.WithLabelValues(kind)
	}
	return m
}

// Handler serves the metrics in the exposition format Prometheus asks for.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// ObserveRequest counts an answered request. route is the route template
// it matched (such as /v1/games/:id), or "" if none: never the raw path,
// whose ids would make a series per game.
func (m *Metrics) ObserveRequest(route, method string, status int, elapsed time.Duration) {
	if route == "" {
		route = Unmatched
	}
	method = knownMethod(method)
	m.requests.WithLabelValues(route, method, statusClass(status)).Inc()
	m.duration.WithLabelValues(route, method).Observe(elapsed.Seconds())
}

// knownMethod bounds the method label: a client may send any token there.
func knownMethod(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return method
	}
	return "other"
}

// statusClass is "2xx" for 200 to 299, and so on.
func statusClass(status int) string {
	if status < 100 || status > 599 {
		return "other"
	}
	return strconv.Itoa(status/100) + "xx"
}

// MailSent counts an email handed to the mail server (notify.Observer).
func (m *Metrics) MailSent() { m.mailSent.Inc() }

// MailFailed counts a failed delivery attempt, and a given-up email if it
// was the last (notify.Observer).
func (m *Metrics) MailFailed(givenUp bool) {
	m.mailFailed.Inc()
	if givenUp {
		m.mailGivenUp.Inc()
	}
}

// WebhookDelivered counts a delivered webhook message (webhook.Observer).
func (m *Metrics) WebhookDelivered() { m.webhooksDelivered.Inc() }

// WebhookFailed counts a failed webhook attempt, and a given-up message if
// it was the last (webhook.Observer).
func (m *Metrics) WebhookFailed(givenUp bool) {
	m.webhooksFailed.Inc()
	if givenUp {
		m.webhooksGivenUp.Inc()
	}
}

// PushDelivered counts a push message a push service took
// (webpush.Observer).
func (m *Metrics) PushDelivered() { m.pushDelivered.Inc() }

// PushFailed counts a failed push attempt, and a given-up message if it was
// the last (webpush.Observer).
func (m *Metrics) PushFailed(givenUp bool) {
	m.pushFailed.Inc()
	if givenUp {
		m.pushGivenUp.Inc()
	}
}

// SchedulerPass counts a pass of the scheduler.
func (m *Metrics) SchedulerPass() { m.schedulerPasses.Inc() }

// SchedulerActed counts n games or tournaments (kind) the scheduler acted on.
func (m *Metrics) SchedulerActed(kind string, n int) {
	m.schedulerActed.WithLabelValues(kind).Add(float64(n))
}

// backlogCollector reads the store's backlog at each scrape. The backlog
// is the same for every instance on a database, so these gauges are
// aggregated with max, not sum.
type backlogCollector struct {
	monitor domain.Monitor
	now     func() time.Time
	log     *slog.Logger
}

var (
	backlogUp = prometheus.NewDesc("lesspost_backlog_up",
		"1 if this scrape read the store's backlog, 0 if the read failed or took too long (the backlog gauges are then missing).", nil, nil)
	outboxPending = prometheus.NewDesc("lesspost_outbox_pending",
		"Emails in the outbox neither delivered nor given up.", nil, nil)
	outboxOldestAge = prometheus.NewDesc("lesspost_outbox_oldest_pending_age_seconds",
		"Age of the oldest email neither delivered nor given up; 0 when there is none.", nil, nil)
	outboxFailed = prometheus.NewDesc("lesspost_outbox_failed",
		"Emails given up and still kept (see --mail-retention): each is a player who was not told.", nil, nil)
	dueGames = prometheus.NewDesc("lesspost_scheduler_due_games",
		"Active games whose reminder or time-out is due and not yet handled.", nil, nil)
	dueTournaments = prometheus.NewDesc("lesspost_scheduler_due_tournaments",
		"Tournaments whose round change is due and not yet handled.", nil, nil)
	schedulerLag = prometheus.NewDesc("lesspost_scheduler_lag_seconds",
		"How long the oldest due game or tournament has waited for the scheduler; 0 when none is due.", nil, nil)
	webhooksDue = prometheus.NewDesc("lesspost_webhooks_due",
		"Webhook messages of enabled endpoints due to be sent now (first attempts and retries).", nil, nil)
	pushDue = prometheus.NewDesc("lesspost_push_due",
		"Web Push messages due to be sent now (first attempts and retries).", nil, nil)
)

// webhookBacklog is a store that also counts its due webhook and push
// messages (hooks.WebhookStore, hooks.PushDeliveryStore).
type webhookBacklog interface {
	WebhookBacklog(ctx context.Context, now time.Time) (int, error)
	PushBacklog(ctx context.Context, now time.Time) (int, error)
}

func (c *backlogCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{backlogUp, outboxPending, outboxOldestAge, outboxFailed, dueGames, dueTournaments, schedulerLag,
		webhooksDue, pushDue} {
		ch <- d
	}
}

func (c *backlogCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), BacklogTimeout)
	defer cancel()
	now := c.now()
	b, err := c.monitor.Backlog(ctx, now)
	hooks, pushes := -1, -1
	if wb, ok := c.monitor.(webhookBacklog); ok && err == nil {
		if hooks, err = wb.WebhookBacklog(ctx, now); err == nil {
			pushes, err = wb.PushBacklog(ctx, now)
		}
	}
	if err != nil {
		c.log.Warn("metrics: read the backlog", "error", err)
		ch <- prometheus.MustNewConstMetric(backlogUp, prometheus.GaugeValue, 0)
		return
	}
	gauge := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v)
	}
	gauge(backlogUp, 1)
	gauge(outboxPending, float64(b.MailPending))
	gauge(outboxOldestAge, age(now, b.OldestPending))
	gauge(outboxFailed, float64(b.MailFailed))
	gauge(dueGames, float64(b.GamesDue))
	gauge(dueTournaments, float64(b.TournamentsDue))
	gauge(schedulerLag, age(now, b.OldestDue))
	if hooks >= 0 {
		gauge(webhooksDue, float64(hooks))
		gauge(pushDue, float64(pushes))
	}
}

// age is how long before now t was, in seconds: 0 for the zero time (none)
// and for a t after now (another instance's clock runs ahead).
func age(now, t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return max(now.Sub(t).Seconds(), 0)
}
