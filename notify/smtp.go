package notify

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/wneessen/go-mail"
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

// SMTPSender delivers messages to an SMTP server with go-mail.
type SMTPSender struct {
	cfg  SMTPConfig
	opts []mail.Option
}

// NewSMTPSender checks the configuration and returns a sender.
func NewSMTPSender(cfg SMTPConfig) (*SMTPSender, error) {
	if cfg.Host == "" {
		return nil, fmt.Errorf("smtp: no host")
	}
	if err := mail.NewMsg().From(cfg.From); err != nil {
		return nil, fmt.Errorf("smtp: sender %q: %w", cfg.From, err)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	opts := []mail.Option{mail.WithPort(cfg.Port), mail.WithTimeout(cfg.Timeout)}
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
	return &SMTPSender{cfg: cfg, opts: opts}, nil
}

// Send delivers one message. It opens a connection per message: mail is
// rare next to turns, and a fresh connection never trips on a stale one.
func (s *SMTPSender) Send(ctx context.Context, m Message) error {
	msg, err := s.compose(m)
	if err != nil {
		return err
	}
	client, err := mail.NewClient(s.cfg.Host, s.opts...)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp: send to %s: %w", m.To, err)
	}
	return nil
}

// compose builds the MIME message: text and HTML alternatives, the board as
// an inline image, and the threading and unsubscribe headers. go-mail
// encodes names and subjects (RFC 2047), and names were checked for control
// characters when they were entered, so nothing a player typed can add a
// header.
func (s *SMTPSender) compose(m Message) (*mail.Msg, error) {
	msg := mail.NewMsg()
	if err := msg.From(s.cfg.From); err != nil {
		return nil, fmt.Errorf("smtp: from: %w", err)
	}
	if err := msg.AddToFormat(m.ToName, m.To); err != nil {
		return nil, fmt.Errorf("smtp: to %s: %w", m.To, err)
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.MessageID)
	msg.SetDate()
	msg.SetGenHeader("Auto-Submitted", "auto-generated") // RFC 3834: no vacation replies
	if m.ThreadID != "" {
		msg.SetGenHeaderPreformatted(mail.HeaderInReplyTo, "<"+m.ThreadID+">")
		msg.SetGenHeaderPreformatted(mail.HeaderReferences, "<"+m.ThreadID+">")
	}
	if m.Unsubscribe != "" {
		msg.SetGenHeaderPreformatted(mail.HeaderListUnsubscribe, "<"+m.Unsubscribe+">")
		msg.SetGenHeaderPreformatted(mail.HeaderListUnsubscribePost, "List-Unsubscribe=One-Click")
	}
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(mail.TypeTextHTML, m.HTML)
		for _, img := range m.Images {
			err := msg.EmbedReader(img.Name, bytes.NewReader(img.PNG),
				mail.WithFileContentID(img.ContentID), mail.WithFileContentType(mail.ContentType("image/png")))
			if err != nil {
				return nil, fmt.Errorf("smtp: embed %s: %w", img.Name, err)
			}
		}
	}
	return msg, nil
}
