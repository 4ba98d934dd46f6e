package inbound

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/lesspost/lesspost/domain"
)

// Listener is an SMTP server for the mail domain's MX (or a relay's
// transport): it takes mail for the reply addresses the server signed and
// nothing else, never relays, and answers 250 to a message only once the
// Inbox keeps it durably. A message it answered otherwise (a 4xx, a dropped
// connection) the sending server delivers again; one kept already is
// answered 250 and not kept twice.
type Listener struct {
	Inbox domain.Inbox
	// Accept says whether mail to an address is taken (a reply address
	// this server signed, see Seat).
	Accept func(addr string) bool
	// Limiter and Rate bound the messages one client address may send:
	// Rate.N at once, then N per Rate.Per. A zero Rate does not limit.
	Limiter domain.RateLimiter
	Rate    Rate
	// TrustedRelays are the addresses of the mail domain's own relays,
	// which deliver everyone's mail from one address: Rate counts what
	// one of them delivers per envelope sender instead, and
	// MaxConnsPerClient does not bound their connections.
	TrustedRelays []netip.Prefix
	// Domain is the name the server greets with (the MX's host name).
	Domain string
	// MaxBytes bounds a message (DefaultMaxBytes if 0); MaxRecipients the
	// recipients of one (10 if 0).
	MaxBytes      int64
	MaxRecipients int
	// MaxConns bounds the connections open at once (DefaultMaxConns if 0),
	// MaxConnsPerClient those from one client address
	// (DefaultMaxConnsPerClient if 0). A connection over either is answered
	// 421 and closed: its sender tries again later.
	MaxConns, MaxConnsPerClient int
	// TLS, if set, offers STARTTLS. Mail servers deliver in the clear when
	// it is not offered.
	TLS *tls.Config
	// Timeout is how long a connection may stay silent, between commands
	// or within a message, before it is closed (DefaultIdleTimeout if 0).
	// A sender that keeps sending is never cut off; its message is bounded
	// by MaxBytes.
	Timeout time.Duration
	Log     *slog.Logger
	Now     func() time.Time
	// Stored, if set, is called after a message was kept (the processor's
	// Wake).
	Stored func()
}

// The listener's defaults. A mail server delivers a reply in well under a
// second and seldom opens more than a few connections to one MX at once;
// RFC 5321 asks a server to wait 5 minutes for a command, which lets idle
// connections pile up for nothing: a sender cut off delivers again.
const (
	DefaultIdleTimeout       = time.Minute
	DefaultMaxConns          = 100
	DefaultMaxConnsPerClient = 10
)

// Rate is a rate limit: N at once, then N per Per.
type Rate struct {
	N   int
	Per time.Duration
}

// The SMTP answers of the listener.
var (
	errUnknownRcpt = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
		Message: "No such mailbox here"}
	errRateLimited = &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 7, 1},
		Message: "Too many messages from your address; try again later"}
	errTryLater = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
		Message: "The message could not be kept; try again later"}
	errNoDATA = &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0},
		Message: "The message was not received whole"}
)

// tooManyConns is the greeting of a connection over the caps.
const tooManyConns = "421 4.7.0 Too many connections; try again later\r\n"

// Serve serves SMTP on ln until ctx ends; connections under way are
// closed then, and their messages not yet kept are delivered again by
// their senders.
func (l *Listener) Serve(ctx context.Context, ln net.Listener) error {
	s := l.server()
	go func() {
		<-ctx.Done()
		_ = s.Close()
	}()
	l.Log.Info("smtp listening", "addr", ln.Addr().String(), "starttls", l.TLS != nil)
	if err := s.Serve(l.capped(ln)); err != nil && !errors.Is(err, smtp.ErrServerClosed) && ctx.Err() == nil {
		return fmt.Errorf("smtp: %w", err)
	}
	return nil
}

// server is the go-smtp server of the listener.
func (l *Listener) server() *smtp.Server {
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		client := clientIP(c.Conn().RemoteAddr())
		return &session{l: l, client: client, relay: l.trusted(client)}, nil
	}))
	s.Domain = l.Domain
	s.MaxMessageBytes = l.MaxBytes
	if s.MaxMessageBytes <= 0 {
		s.MaxMessageBytes = DefaultMaxBytes
	}
	s.MaxRecipients = l.MaxRecipients
	if s.MaxRecipients <= 0 {
		s.MaxRecipients = 10
	}
	// go-smtp's ReadTimeout would bound a whole message from its DATA
	// command on; the connections' own deadlines (silentConn) bound the
	// silence instead.
	s.WriteTimeout = l.idleTimeout()
	s.TLSConfig = l.TLS
	s.ErrorLog = slogLogger{l.Log}
	return s
}

// session is one SMTP connection's transaction. go-smtp offers no AUTH
// without a SessionAuth, so none is offered: the listener is an MX.
type session struct {
	l      *Listener
	client string
	relay  bool // the client is a trusted relay
	from   string
	rcpts  []string
}

func (s *session) Reset() { s.from, s.rcpts = "", nil }

func (s *session) Logout() error { return nil }

// Mail starts a message and counts it against its client's rate, or, from
// a trusted relay, its sender's. The null sender of bounces is taken, and
// kept as "", for the processor to drop.
func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	from = strings.ToLower(from)
	if r := s.l.Rate; r.N > 0 && s.l.Limiter != nil {
		key := "smtp:" + s.client
		if s.relay {
			// Everyone's mail comes through the relay: one sender must not
			// use up the others' rate.
			key = "smtp-sender:" + from
		}
		ok, _, err := s.l.Limiter.TakeRequest(context.Background(), key, r.Per/time.Duration(r.N),
			r.Per-r.Per/time.Duration(r.N), s.l.Now())
		if err != nil {
			s.l.Log.Error("smtp: rate limit", "client", s.client, "error", err)
			return errTryLater
		}
		if !ok {
			s.l.Log.Warn("smtp: rate limited", "client", s.client, "sender", from, "relay", s.relay)
			return errRateLimited
		}
	}
	s.from = from
	return nil
}

// Rcpt takes a reply address this server signed; anything else is unknown
// here, so the listener relays nothing.
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !s.l.Accept(to) {
		s.l.Log.Info("smtp: unknown recipient", "client", s.client, "rcpt", to)
		return errUnknownRcpt
	}
	s.rcpts = append(s.rcpts, to)
	return nil
}

// Data keeps the message, once per recipient, and answers 250 only once it
// is kept: go-smtp answers what Data returns. A message over MaxBytes ends
// the read (go-smtp answers 552 and discards the rest unread into memory).
func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		var smtpErr *smtp.SMTPError
		if errors.As(err, &smtpErr) {
			s.l.Log.Info("smtp: message refused", "client", s.client, "code", smtpErr.Code)
			return smtpErr
		}
		return errNoDATA
	}
	now := s.l.Now()
	ctx := context.Background() // a client that hangs up must not undo a commit under way
	for _, rcpt := range s.rcpts {
		m := domain.InboundMail{DedupeKey: DedupeKey(raw, rcpt), Source: SourceSMTP, Recipient: rcpt,
			EnvelopeFrom: s.from, Raw: raw, ReceivedAt: now}
		stored, err := s.l.Inbox.StoreInbound(ctx, m)
		if err != nil {
			s.l.Log.Error("smtp: keep message", "client", s.client, "error", err)
			return errTryLater
		}
		s.l.Log.Info("smtp: message received", "client", s.client, "rcpt", rcpt, "bytes", len(raw), "duplicate", !stored)
	}
	if s.l.Stored != nil {
		s.l.Stored()
	}
	return nil
}

// trusted says whether a client address is one of TrustedRelays.
func (l *Listener) trusted(client string) bool {
	ip, err := netip.ParseAddr(client)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	for _, p := range l.TrustedRelays {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

func (l *Listener) idleTimeout() time.Duration {
	if l.Timeout > 0 {
		return l.Timeout
	}
	return DefaultIdleTimeout
}

// capped is ln with the listener's caps on connections (a trusted relay's
// count toward MaxConns only): what it accepts over them it answers 421
// and closes, and what it returns closes when silent for the idle timeout.
func (l *Listener) capped(ln net.Listener) net.Listener {
	c := &cappedListener{Listener: ln, l: l, max: l.MaxConns, perClient: l.MaxConnsPerClient, open: map[string]int{}}
	if c.max <= 0 {
		c.max = DefaultMaxConns
	}
	if c.perClient <= 0 {
		c.perClient = DefaultMaxConnsPerClient
	}
	return c
}

type cappedListener struct {
	net.Listener
	l              *Listener
	max, perClient int
	mu             sync.Mutex
	total          int
	open           map[string]int // by client address
}

func (c *cappedListener) Accept() (net.Conn, error) {
	for {
		conn, err := c.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client := clientIP(conn.RemoteAddr())
		if c.admit(client) {
			return &silentConn{Conn: conn, idle: c.l.idleTimeout(), release: sync.OnceFunc(func() { c.release(client) })}, nil
		}
		c.l.Log.Warn("smtp: too many connections; refused", "client", client)
		// A new connection's send buffer is empty: the write does not wait.
		_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = io.WriteString(conn, tooManyConns)
		_ = conn.Close()
	}
}

// admit counts a connection from client, if the caps leave room for it.
func (c *cappedListener) admit(client string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total >= c.max || c.open[client] >= c.perClient && !c.l.trusted(client) {
		return false
	}
	c.total++
	c.open[client]++
	return true
}

func (c *cappedListener) release(client string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total--
	if c.open[client]--; c.open[client] <= 0 {
		delete(c.open, client)
	}
}

// silentConn is an accepted connection that times out when silent for
// idle, and gives back its place under the caps once closed.
type silentConn struct {
	net.Conn
	idle    time.Duration
	release func()
}

func (c *silentConn) Read(b []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(time.Now().Add(c.idle)); err != nil {
		return 0, err
	}
	return c.Conn.Read(b)
}

// Close gives back the connection's place before it closes it: a client
// that sees the connection closed may open another at once.
func (c *silentConn) Close() error {
	c.release()
	return c.Conn.Close()
}

// clientIP is the host of a connection's remote address.
func clientIP(a net.Addr) string {
	if host, _, err := net.SplitHostPort(a.String()); err == nil {
		return host
	}
	return a.String()
}

// slogLogger logs go-smtp's errors (connections that failed) through slog.
type slogLogger struct{ log *slog.Logger }

func (l slogLogger) Printf(format string, v ...any) { l.log.Warn("smtp: " + fmt.Sprintf(format, v...)) }

func (l slogLogger) Println(v ...any) { l.log.Warn("smtp: " + strings.TrimSpace(fmt.Sprintln(v...))) }
