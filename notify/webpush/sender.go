// Package webpush sends Web Push messages (RFC 8030) to the browsers that
// subscribed on the play page: each message encrypted for its browser
// (RFC 8291, aes128gcm) and signed with the server's VAPID key (RFC 8292),
// through github.com/SherClockHolmes/webpush-go. Its Worker sends the
// push outbox (hooks.PushDeliveryStore, filled with the events) with the
// webhooks' loop: it calls Send and acts on the Result, deleting
// subscriptions the push service says are gone
// (hooks.Push.ForgetPushEndpoint) and retrying later what it may.
//
// It also builds what a message says (see Payload): the kind of event, the
// game, a title and a line in the subscriber's language, and the page to
// open.
package webpush

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	webpushgo "github.com/SherClockHolmes/webpush-go"

	"github.com/lesspost/lesspost/domain/hooks"
)

// MaxPayload is the largest message Send takes: webpush-go pads every
// message to one 4096-byte record (which also hides its length from the
// push service), the size every push service must accept (RFC 8291
// section 4); what is left after the record's header, the padding
// delimiter and the tag is this.
const MaxPayload = 4096 - 16 - 86 - 1

// Outcome is what became of a message.
type Outcome int

const (
	// Delivered: the push service took the message (201, or 202 when it
	// queues it).
	Delivered Outcome = iota + 1
	// Gone: the subscription is no more (404, 410): the browser
	// unsubscribed, or the push service ended it. Delete it.
	Gone
	// RetryLater: the push service is overloaded or failing (429, 5xx),
	// or did not answer. Send again after RetryAfter, if it said.
	RetryLater
	// Rejected: the push service refused this message (400, 413, 401 and
	// 403 on a VAPID key it does not take, any other answer). Sending it
	// again would fail again; the subscription may still work.
	Rejected
)

func (o Outcome) String() string {
	switch o {
	case Delivered:
		return "delivered"
	case Gone:
		return "gone"
	case RetryLater:
		return "retry_later"
	case Rejected:
		return "rejected"
	}
	return "outcome(" + strconv.Itoa(int(o)) + ")"
}

// Result is what Send learnt.
type Result struct {
	Outcome Outcome
	// Status is the push service's HTTP status; 0 when it did not answer.
	Status int
	// RetryAfter is, for RetryLater, how long the push service asked to
	// wait (its Retry-After); 0 when it did not say.
	RetryAfter time.Duration
}

// Sender sends messages with one VAPID key.
type Sender struct {
	public, private string // base64url, as webpush-go takes them
	subscriber      string // as webpush-go takes it: without "mailto:"
	client          *http.Client
	now             func() time.Time
}

// Config is what a Sender needs.
type Config struct {
	// Key is the server's VAPID key pair (hooks.PushKeys keeps it).
	Key hooks.PushKey
	// Subject is the contact push services see in each message's JWT: a
	// mailto: or an https: URL (RFC 8292 section 2.1).
	Subject string
	// Client sends the requests; nil means a client with a 30-second
	// timeout. Pass one that refuses private addresses (endpoints come
	// from browsers, that is from anyone). Send never follows redirects.
	Client *http.Client
	// Now is the clock, for a Retry-After given as a date; nil: time.Now.
	Now func() time.Time
}

// NewSender checks cfg and returns a Sender.
func NewSender(cfg Config) (*Sender, error) {
	if err := CheckSubject(cfg.Subject); err != nil {
		return nil, err
	}
	priv, err := ecdh.P256().NewPrivateKey(cfg.Key.Private)
	if err != nil {
		return nil, fmt.Errorf("webpush: the VAPID private key: %w", err)
	}
	if pub := priv.PublicKey().Bytes(); string(pub) != string(cfg.Key.Public) {
		return nil, errors.New("webpush: the VAPID public key is not the private key's")
	}
	client := &http.Client{Timeout: 30 * time.Second}
	if cfg.Client != nil {
		c := *cfg.Client // a copy shares the transport; only the redirect policy differs
		client = &c
	}
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &Sender{
		public:  ApplicationServerKey(cfg.Key),
		private: base64.RawURLEncoding.EncodeToString(cfg.Key.Private),
		// webpush-go adds "mailto:" to any subject that is no https: URL.
		subscriber: strings.TrimPrefix(cfg.Subject, "mailto:"),
		client:     client, now: now,
	}, nil
}

// CheckSubject checks a VAPID subject: a mailto: URL with an address, or
// an https: URL with a host.
func CheckSubject(subject string) error {
	u, err := url.Parse(subject)
	switch {
	case err != nil:
	case u.Scheme == "mailto" && strings.Contains(u.Opaque, "@"):
		return nil
	case u.Scheme == "https" && u.Host != "":
		return nil
	}
	return fmt.Errorf("webpush: the VAPID subject %q must be a mailto: address or an https: URL", subject)
}

// GenerateKey makes a new VAPID key pair.
func GenerateKey() (hooks.PushKey, error) {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return hooks.PushKey{}, fmt.Errorf("webpush: generate a VAPID key: %w", err)
	}
	return hooks.PushKey{Private: priv.Bytes(), Public: priv.PublicKey().Bytes()}, nil
}

// ApplicationServerKey is the public key as browsers take it for
// PushManager.subscribe: base64url without padding.
func ApplicationServerKey(k hooks.PushKey) string {
	return base64.RawURLEncoding.EncodeToString(k.Public)
}

// Send sends payload (at most MaxPayload bytes) to a subscription; the push
// service keeps it up to ttl (rounded down to seconds) for a browser that
// is offline. The error is nil only for Delivered; with it, Result says
// what to do.
func (s *Sender) Send(ctx context.Context, sub hooks.PushSubscription, payload []byte, ttl time.Duration) (Result, error) {
	if len(payload) > MaxPayload {
		return Result{Outcome: Rejected}, fmt.Errorf("webpush: a payload of %d bytes is over %d", len(payload), MaxPayload)
	}
	resp, err := webpushgo.SendNotificationWithContext(ctx, payload, &webpushgo.Subscription{
		Endpoint: sub.Endpoint,
		Keys: webpushgo.Keys{
			P256dh: base64.RawURLEncoding.EncodeToString(sub.P256DH),
			Auth:   base64.RawURLEncoding.EncodeToString(sub.Auth),
		},
	}, &webpushgo.Options{
		HTTPClient:      s.client,
		Subscriber:      s.subscriber,
		TTL:             max(int(ttl/time.Second), 0),
		VAPIDPublicKey:  s.public,
		VAPIDPrivateKey: s.private,
	})
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Op != "parse" || ctx.Err() != nil {
			return Result{Outcome: RetryLater}, fmt.Errorf("webpush: send to %s: %w", host(sub.Endpoint), err)
		}
		// Anything before the request: keys or an endpoint it cannot use.
		return Result{Outcome: Rejected}, fmt.Errorf("webpush: prepare a message for %s: %w", host(sub.Endpoint), err)
	}
	defer resp.Body.Close()
	// A short reason for the log; push services explain refusals in the body.
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // so the connection can be reused
	r := classify(resp.StatusCode, resp.Header, s.now())
	if r.Outcome == Delivered {
		return r, nil
	}
	return r, fmt.Errorf("webpush: %s answered %d (%s): %s", host(sub.Endpoint), resp.StatusCode, r.Outcome,
		strings.Join(strings.Fields(string(body)), " "))
}

// classify says what a push service's answer means (RFC 8030 section 5,
// and what the big push services document).
func classify(status int, h http.Header, now time.Time) Result {
	r := Result{Status: status}
	switch {
	case status >= 200 && status < 300:
		r.Outcome = Delivered
	case status == http.StatusNotFound || status == http.StatusGone:
		r.Outcome = Gone
	case status == http.StatusTooManyRequests || status >= 500:
		r.Outcome = RetryLater
		r.RetryAfter = retryAfter(h.Get("Retry-After"), now)
	default:
		r.Outcome = Rejected
	}
	return r
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		return time.Duration(min(max(secs, 0), int64(7*24*time.Hour/time.Second))) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}

// host is the endpoint's host, which a log may name: the rest of the URL
// is the subscription's secret address.
func host(endpoint string) string {
	if u, err := url.Parse(endpoint); err == nil {
		return u.Host
	}
	return "the push service"
}
