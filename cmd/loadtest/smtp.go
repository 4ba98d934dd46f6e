package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/lesspost/lesspost/notify/smtptest"
)

// sink is an SMTP server that accepts every message and keeps none: the
// far end of the turn -> SMTP hand-off measurement. Sign-in emails are the
// exception: their text is printed the way the server's log prints emails,
// so "play --login-from-log" works against the sink's output too.
type sink struct {
	messages, bytes atomic.Int64
	mu              sync.Mutex
	out             io.Writer
}

func runSMTP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("smtp", `Runs an SMTP server on --addr that accepts every message and discards it, and
prints how many it got every 10 s. Sign-in emails are printed in full, as a
server without SMTP prints emails, so --login-from-log can read this output.
Point the server at it with --smtp-host/--smtp-port --smtp-tls none --smtp-from.`, stderr)
	addr := fs.String("addr", "127.0.0.1:2525", "`address` to listen on")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	s := &sink{out: stdout}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &sinkSession{s: s}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = time.Minute, time.Minute
	srv.MaxMessageBytes = 10 << 20
	fmt.Fprintf(stdout, "smtp sink listening on %s\n", ln.Addr())
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		last := int64(0)
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				n := s.messages.Load()
				s.mu.Lock()
				fmt.Fprintf(stdout, "%s smtp sink: %d messages (%d bytes), %.0f/s over the last 10s\n",
					time.Now().UTC().Format(time.RFC3339), n, s.bytes.Load(), float64(n-last)/10)
				s.mu.Unlock()
				last = n
			}
		}
	}()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && ctx.Err() == nil {
		return err
	}
	fmt.Fprintf(stdout, "smtp sink: %d messages in all\n", s.messages.Load())
	return nil
}

type sinkSession struct {
	s  *sink
	to string
}

func (ss *sinkSession) Reset()        { ss.to = "" }
func (ss *sinkSession) Logout() error { return nil }
func (ss *sinkSession) Mail(string, *smtp.MailOptions) error {
	return nil
}

func (ss *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = to
	return nil
}

func (ss *sinkSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.messages.Add(1)
	ss.s.bytes.Add(int64(len(raw)))
	// Cheap test first: only sign-in emails link to /login (quoted-printable
	// leaves those characters alone); parsing every message would cost CPU
	// the server under test needs.
	if bytes.Contains(raw, []byte("/login#t")) {
		if m, err := smtptest.Parse(raw); err == nil {
			ss.s.mu.Lock()
			fmt.Fprintf(ss.s.out, "----- email to %s\n%s\n----- end of email\n", ss.to, m.Text)
			ss.s.mu.Unlock()
		}
	}
	return nil
}
