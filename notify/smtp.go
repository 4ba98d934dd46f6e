package notify

import (
	"context"
	"errors"
	"fmt"
	netmail "net/mail"
	"strings"
	"sync"
	"time"

	"github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"
)

// TLS modes for SMTP.
const (
	TLSStartTLS = "starttls" // plain connection upgraded with STARTTLS, which is required
	TLSImplicit = "tls"      // TLS from the first byte (usually port 465)
	TLSNone     = "none"     // no encryption: only for local catchers such as maildev
)

// SMTPConfig says how to reach the mail server.
type SMTPConfig struct {
	Host     string
	Port     int
	TLS      string // TLSStartTLS, TLSImplicit or TLSNone
	User     string // empty: no authentication
	Password string
	From     string // e.g. "Less <games@example.org>"
	Timeout  time.Duration
}

// SMTPSender delivers messages to an SMTP server over connections go-mail
// opens (TLS, authentication); the message and the transaction are its own
// (compose, transact). A connection
// it opened stays open for the next message until CloseIdleConnections:
// opening one costs more round trips than sending a message over it. It is
// safe for concurrent use; each Send in progress has a connection of its own.
type SMTPSender struct {
	cfg    SMTPConfig
	from   *netmail.Address
	client *mail.Client // the settings; connections are smtp.Clients of their own

	mu   sync.Mutex
	idle []*smtp.Client
}

// NewSMTPSender checks the configuration and returns a sender.
func NewSMTPSender(cfg SMTPConfig) (*SMTPSender, error) {
	if cfg.Host == "" {
		return nil, fmt.Errorf("smtp: no host")
	}
	from, err := netmail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("smtp: sender %q: %w", cfg.From, err)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	// transact sends no NOOP before and no RSET after each message: two
	// round trips a message, which a stale connection does not need (see
	// Send), nor a finished transaction (RFC 5321 4.1.4: MAIL starts a new
	// one). The options say so for the connections go-mail closes.
	opts := []mail.Option{mail.WithPort(cfg.Port), mail.WithTimeout(cfg.Timeout), mail.WithoutNoop(), mail.WithoutRset()}
	switch cfg.TLS {
	case TLSStartTLS, "":
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	case TLSImplicit:
		opts = append(opts, mail.WithSSL())
	case TLSNone:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		return nil, fmt.Errorf("smtp: TLS mode %q, want %s, %s or %s", cfg.TLS, TLSStartTLS, TLSImplicit, TLSNone)
	}
	if cfg.User != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover), mail.WithUsername(cfg.User), mail.WithPassword(cfg.Password))
	}
	client, err := mail.NewClient(cfg.Host, opts...)
	if err != nil {
		return nil, fmt.Errorf("smtp: %w", err)
	}
	return &SMTPSender{cfg: cfg, from: from, client: client}, nil
}

// Send delivers one message, over an idle connection if there is one.
func (s *SMTPSender) Send(ctx context.Context, m Message) error {
	raw, err := s.compose(m, time.Now())
	if err != nil {
		return err
	}
	if conn := s.takeIdle(); conn != nil {
		err := s.transact(conn, m.To, raw)
		if err == nil {
			s.putIdle(conn)
			return nil
		}
		conn.Close()
		if !beforeMail(err) {
			return fmt.Errorf("smtp: send to %s: %w", m.To, err)
		}
		// The server may have closed the connection while it was idle
		// (its timeout, or a limit of messages per connection); nothing
		// was handed over, so a new connection tries again.
	}
	conn, err := s.client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fmt.Errorf("smtp: send to %s: %w: %w", m.To, errDial, err)
	}
	if err := s.transact(conn, m.To, raw); err != nil {
		conn.Close()
		return fmt.Errorf("smtp: send to %s: %w", m.To, err)
	}
	s.putIdle(conn)
	return nil
}

// errMailFrom marks a transaction that failed before the server accepted
// MAIL FROM; errRcptTo and errData name the later steps.
var (
	errMailFrom = errors.New("MAIL FROM")
	errRcptTo   = errors.New("RCPT TO")
	errData     = errors.New("DATA")
)

// transact hands one message to the server: MAIL, RCPT, DATA, the data.
// The message is our own MIME (see compose), so go-mail's message writer is
// not used, only its connection. With a server that offers PIPELINING (RFC
// 2920: all the common ones) the three commands go out in one write and
// the transaction costs two round trips instead of four.
func (s *SMTPSender) transact(conn *smtp.Client, to string, raw []byte) error {
	// Each message gets the whole timeout, as go-mail's own send does: the
	// deadline set when the connection was opened has passed on a
	// connection kept open long enough.
	if err := conn.UpdateDeadline(s.cfg.Timeout); err != nil {
		return fmt.Errorf("%w: %w", errMailFrom, err)
	}
	// The paths go in angle brackets (RFC 5321 4.1.2): servers such as
	// Gmail's refuse them without. The parameters are those go-mail's Mail
	// would add.
	mailCmd := "MAIL FROM:<" + s.from.Address + ">"
	if ok, _ := conn.Extension("8BITMIME"); ok {
		mailCmd += " BODY=8BITMIME"
	}
	if ok, _ := conn.Extension("SMTPUTF8"); ok {
		mailCmd += " SMTPUTF8"
	}
	rcptCmd := "RCPT TO:<" + to + ">"
	if strings.ContainsAny(mailCmd+rcptCmd, "\r\n") {
		return fmt.Errorf("%w: a line break in an address", errMailFrom)
	}
	w := conn.Text.W
	if ok, _ := conn.Extension("PIPELINING"); ok {
		w.WriteString(mailCmd + "\r\n" + rcptCmd + "\r\nDATA\r\n")
		if err := w.Flush(); err != nil {
			return fmt.Errorf("%w: %w", errMailFrom, err)
		}
		// Every reply is read, whatever the first say, so that the
		// connection stays in step.
		_, _, mailErr := conn.Text.ReadResponse(250)
		_, _, rcptErr := conn.Text.ReadResponse(25)
		_, _, dataErr := conn.Text.ReadResponse(354)
		switch {
		case mailErr != nil:
			return fmt.Errorf("%w: %w", errMailFrom, mailErr)
		case rcptErr != nil && dataErr == nil:
			// A server that took DATA with no recipient gets an empty
			// message, which it must refuse (RFC 2920 3.1).
			w.WriteString(".\r\n")
			w.Flush()
			conn.Text.ReadResponse(250)
			return fmt.Errorf("%w: %w", errRcptTo, rcptErr)
		case rcptErr != nil:
			return fmt.Errorf("%w: %w", errRcptTo, rcptErr)
		case dataErr != nil:
			return fmt.Errorf("%w: %w", errData, dataErr)
		}
	} else {
		for _, step := range []struct {
			cmd    string
			expect int
			err    error
		}{{mailCmd, 250, errMailFrom}, {rcptCmd, 25, errRcptTo}, {"DATA", 354, errData}} {
			w.WriteString(step.cmd + "\r\n")
			if err := w.Flush(); err != nil {
				return fmt.Errorf("%w: %w", step.err, err)
			}
			if _, _, err := conn.Text.ReadResponse(step.expect); err != nil {
				return fmt.Errorf("%w: %w", step.err, err)
			}
		}
	}
	// The message goes out in one write, dot-stuffed by dotStuff: the
	// writer go-mail's Data returns stuffs and buffers a message a byte at
	// a time, which was two thirds of the time a send took.
	if _, err := w.Write(dotStuff(raw)); err != nil {
		return fmt.Errorf("%w: %w", errData, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("%w: %w", errData, err)
	}
	if _, _, err := conn.Text.ReadResponse(250); err != nil {
		return fmt.Errorf("end of DATA: %w", err)
	}
	return nil
}

// dotStuff is msg as the data of an SMTP DATA command (RFC 5321 4.5.2):
// every line ends in CRLF, a line that starts with a dot gets another, and
// a line with a lone dot ends it.
func dotStuff(msg []byte) []byte {
	out := make([]byte, 0, len(msg)+len(msg)/64+8)
	lineStart := true
	for i, b := range msg {
		switch {
		case lineStart && b == '.':
			out = append(out, '.')
		case b == '\n' && (i == 0 || msg[i-1] != '\r'):
			out = append(out, '\r')
		}
		out = append(out, b)
		lineStart = b == '\n'
	}
	if !lineStart {
		out = append(out, '\r', '\n')
	}
	return append(out, '.', '\r', '\n')
}

// beforeMail reports whether a send failed before the server had accepted
// MAIL FROM, so that the message cannot have been delivered.
func beforeMail(err error) bool { return errors.Is(err, errMailFrom) }

func (s *SMTPSender) takeIdle() *smtp.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.idle) == 0 {
		return nil
	}
	conn := s.idle[len(s.idle)-1]
	s.idle = s.idle[:len(s.idle)-1]
	return conn
}

func (s *SMTPSender) putIdle(conn *smtp.Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.idle = append(s.idle, conn)
}

// CloseIdleConnections says goodbye (QUIT) on the connections no Send is
// using. The worker calls it when the outbox is empty and when it stops.
func (s *SMTPSender) CloseIdleConnections() {
	s.mu.Lock()
	idle := s.idle
	s.idle = nil
	s.mu.Unlock()
	for _, conn := range idle {
		if err := s.client.CloseWithSMTPClient(conn); err != nil {
			conn.Close()
		}
	}
}
