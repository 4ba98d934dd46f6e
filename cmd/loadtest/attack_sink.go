package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/notify/smtptest"
)

// countingSink is the SMTP server of "loadtest attack": unlike the sink of
// "loadtest smtp" it keeps, per recipient, when each message came, its
// subject and which of the attacker's words it carries, and the text of the
// mail to the tool's own accounts, whose sign-in links it reads.
type countingSink struct {
	words []string        // the attacker's free text, to look for
	own   map[string]bool // mailboxes whose text is kept
	srv   *smtp.Server

	mu   sync.Mutex
	got  []sunkMail
	last time.Time // when the latest message came
}

// sunkMail is one message to one recipient.
type sunkMail struct {
	At      time.Time
	To      string // as the server wrote it in RCPT TO
	Mailbox string // domain.Mailbox(To)
	Subject string
	Words   []string // the attacker's words it carries
	Login   bool     // a sign-in link
	Text    string   // kept for own mailboxes only
}

// startCountingSink serves SMTP on ln until Close.
func startCountingSink(ln net.Listener, words []string, own ...string) *countingSink {
	s := &countingSink{words: words, own: map[string]bool{}}
	for _, e := range own {
		s.own[mailboxOf(e)] = true
	}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &countingSession{s: s}, nil }))
	s.srv.Domain = "localhost"
	s.srv.ReadTimeout, s.srv.WriteTimeout = time.Minute, time.Minute
	s.srv.MaxMessageBytes = 10 << 20
	go s.srv.Serve(ln) //nolint:errcheck // ends with Close
	return s
}

func (s *countingSink) Close() { s.srv.Close() }

// add records a message to its recipients.
func (s *countingSink) add(raw []byte, to []string) {
	at := time.Now()
	subject, text := "(unparsable)", ""
	body := string(raw)
	if m, err := smtptest.Parse(raw); err == nil {
		subject, text = m.Subject(), m.Text
		// The decoded parts, and the raw message for words in any header.
		body = m.Subject() + "\n" + m.Text + "\n" + m.HTML + "\n" + body
	}
	var words []string
	for _, w := range s.words {
		if strings.Contains(body, w) {
			words = append(words, w)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rcpt := range to {
		m := sunkMail{At: at, To: rcpt, Mailbox: mailboxOf(rcpt), Subject: subject, Words: words, Login: loginLinkRE.MatchString(text)}
		if s.own[m.Mailbox] {
			m.Text = text
		}
		s.got = append(s.got, m)
	}
	s.last = at
}

// mail is a copy of everything received so far.
func (s *countingSink) mail() []sunkMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.got)
}

// lastAt is when the latest message came (zero: none yet).
func (s *countingSink) lastAt() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// loginToken waits until a sign-in mail to the address email, received
// at or after since, has come, and returns its link's token.
func (s *countingSink) loginToken(ctx context.Context, email string, since time.Time, wait time.Duration) (string, error) {
	deadline := time.Now().Add(wait)
	for {
		for _, m := range slices.Backward(s.mail()) {
			if m.At.Before(since) || !strings.EqualFold(m.To, email) {
				continue
			}
			if match := loginLinkRE.FindStringSubmatch(m.Text); match != nil {
				return match[1], nil
			}
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no sign-in mail to %s came to the SMTP sink within %v: is the server's --smtp-host/--smtp-port this sink?", email, wait)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

type countingSession struct {
	s  *countingSink
	to []string
}

func (cs *countingSession) Reset()        { cs.to = nil }
func (cs *countingSession) Logout() error { return nil }
func (cs *countingSession) Mail(string, *smtp.MailOptions) error {
	return nil
}

func (cs *countingSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	cs.to = append(cs.to, to)
	return nil
}

func (cs *countingSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	cs.s.add(raw, cs.to)
	return nil
}

// mailboxOf is the mailbox an address reaches, as the mail policy keys it:
// normalised (lower case) and without its +tag.
func mailboxOf(email string) string {
	if n, err := domain.NormalizeEmail(email); err == nil {
		email = n
	}
	return domain.Mailbox(email)
}
