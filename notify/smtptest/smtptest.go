// Package smtptest runs a real SMTP server in the test process, on
// loopback, and keeps every message it receives, parsed into its parts: the
// httptest of email. Tests of lesspost's mail go through real SMTP with it.
package smtptest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Server is an SMTP server that accepts every message.
type Server struct {
	Addr string // host:port it listens on
	Host string
	Port int

	srv   *smtp.Server
	ln    net.Listener
	mu    sync.Mutex
	msgs  []*Mail
	conns int
	got   chan struct{}
	// refuse holds the reply to RCPT TO of addresses the server refuses.
	refuse map[string]*smtp.SMTPError
	// noPipelining hides PIPELINING from EHLO's reply; pipelined counts
	// the reads that brought several commands.
	noPipelining bool
	pipelined    int
}

// Mail is a received message.
type Mail struct {
	From   string
	To     []string
	Raw    []byte
	Header mail.Header
	Text   string            // the text/plain part, decoded
	HTML   string            // the text/html part, decoded
	Inline map[string][]byte // inline parts by Content-ID (without <>)
}

// Start listens on 127.0.0.1 on a free port until the test ends.
func Start(t testing.TB) *Server { return StartAt(t, "127.0.0.1:0") }

// StartAt listens on addr, e.g. to bring a server back on the port of one
// that was stopped.
func StartAt(t testing.TB, addr string) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("smtptest: listen: %v", err)
	}
	s := &Server{Addr: ln.Addr().String(), ln: ln, got: make(chan struct{}, 1)}
	tcp := ln.Addr().(*net.TCPAddr)
	s.Host, s.Port = tcp.IP.String(), tcp.Port
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.conns++
		s.mu.Unlock()
		return &session{s: s, paths: c.Conn().(*strictConn)}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.srv.MaxMessageBytes = 10 << 20
	s.srv.ErrorLog = discard{}
	go s.srv.Serve(strictListener{ln, s})
	t.Cleanup(s.Close)
	return s
}

// Close stops the server; clients then fail to connect, as with a server
// that is down.
func (s *Server) Close() {
	s.ln.Close() // also when Serve has not picked the listener up yet
	s.srv.Close()
}

// Refuse makes the server answer RCPT TO:<addr> with code and message
// (the enhanced status code is taken from the message if it starts with
// one, as real servers write it), as a server that does not know the
// address or is busy does.
func (s *Server) Refuse(addr string, code int, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuse == nil {
		s.refuse = map[string]*smtp.SMTPError{}
	}
	e := &smtp.SMTPError{Code: code, EnhancedCode: smtp.NoEnhancedCode, Message: message}
	var class, subject, detail int
	if n, _ := fmt.Sscanf(message, "%d.%d.%d ", &class, &subject, &detail); n == 3 {
		e.EnhancedCode, e.Message = smtp.EnhancedCode{class, subject, detail}, strings.SplitN(message, " ", 2)[1]
	}
	s.refuse[strings.ToLower(addr)] = e
}

// OfferPipelining says whether the server offers PIPELINING (RFC 2920) to
// the clients that connect from now on; it does from the start.
func (s *Server) OfferPipelining(offer bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noPipelining = !offer
}

// Pipelined counts the times a client's commands arrived several at once.
func (s *Server) Pipelined() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pipelined
}

// Messages returns what was received so far.
func (s *Server) Messages() []*Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Mail(nil), s.msgs...)
}

// Connections returns how many connections clients have opened so far.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// Wait waits until at least n messages have arrived, or fails the test
// after timeout.
func (s *Server) Wait(t testing.TB, n int, timeout time.Duration) []*Mail {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if msgs := s.Messages(); len(msgs) >= n {
			return msgs
		}
		select {
		case <-s.got:
		case <-deadline:
			t.Fatalf("smtptest: %d messages after %v, want %d", len(s.Messages()), timeout, n)
		}
	}
}

// To returns the messages to one address.
func (s *Server) To(addr string) []*Mail {
	var out []*Mail
	for _, m := range s.Messages() {
		for _, to := range m.To {
			if strings.EqualFold(to, addr) {
				out = append(out, m)
			}
		}
	}
	return out
}

type session struct {
	s     *Server
	paths *strictConn
	from  string
	to    []string
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }
func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if err := ss.paths.check(); err != nil {
		return err
	}
	ss.from = from
	return nil
}
func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := ss.paths.check(); err != nil {
		return err
	}
	ss.s.mu.Lock()
	refused := ss.s.refuse[strings.ToLower(to)]
	ss.s.mu.Unlock()
	if refused != nil {
		return refused
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m, err := Parse(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: err.Error()}
	}
	m.From, m.To = ss.from, ss.to
	ss.s.mu.Lock()
	ss.s.msgs = append(ss.s.msgs, m)
	ss.s.mu.Unlock()
	select {
	case ss.s.got <- struct{}{}:
	default:
	}
	return nil
}

// Parse reads a raw message into its header and decoded parts.
func Parse(raw []byte) (*Mail, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("parse message: %w", err)
	}
	m := &Mail{Raw: raw, Header: msg.Header, Inline: map[string][]byte{}}
	if err := m.walk(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), "", msg.Body); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Mail) walk(contentType, encoding, contentID string, body io.Reader) error {
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mediaType = "text/plain"
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("parse part: %w", err)
			}
			id := strings.Trim(p.Header.Get("Content-Id"), "<>")
			if err := m.walk(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), id, p); err != nil {
				return err
			}
		}
	}
	data, err := decode(encoding, body)
	if err != nil {
		return err
	}
	switch {
	case contentID != "":
		m.Inline[contentID] = data
	case mediaType == "text/plain" && m.Text == "":
		m.Text = string(data)
	case mediaType == "text/html" && m.HTML == "":
		m.HTML = string(data)
	}
	return nil
}

func decode(encoding string, r io.Reader) ([]byte, error) {
	switch strings.ToLower(encoding) {
	case "base64":
		return io.ReadAll(base64.NewDecoder(base64.StdEncoding, newlineStripper{r}))
	case "quoted-printable":
		return io.ReadAll(quotedprintable.NewReader(r))
	default:
		return io.ReadAll(r)
	}
}

// newlineStripper drops the line breaks of base64 bodies.
type newlineStripper struct{ r io.Reader }

func (n newlineStripper) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	j := 0
	for _, b := range p[:k] {
		if b != '\r' && b != '\n' {
			p[j] = b
			j++
		}
	}
	return j, err
}

// Subject is the decoded Subject header.
func (m *Mail) Subject() string {
	s, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return m.Header.Get("Subject")
	}
	return s
}

// strictListener hands go-smtp connections that note the paths of MAIL
// and RCPT as the client wrote them. go-smtp takes an address without its
// angle brackets, but RFC 5321 (4.1.2) requires them and real servers,
// Gmail's among them, refuse the command without: so does this one.
type strictListener struct {
	net.Listener
	s *Server
}

func (l strictListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &strictConn{Conn: c, s: l.s}, nil
}

// strictConn reads the client's lines as go-smtp does, and queues whether
// each MAIL FROM and RCPT TO wrote its path in brackets, for the session to
// answer in order (pipelined commands arrive in one read).
type strictConn struct {
	net.Conn
	s       *Server
	mu      sync.Mutex
	partial []byte // an unfinished line
	inData  bool   // between DATA's 354 and the lone dot: message lines
	paths   []bool
}

func (c *strictConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.partial = append(c.partial, p[:n]...)
	commands := 0
	for {
		i := bytes.IndexByte(c.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimRight(string(c.partial[:i]), "\r")
		c.partial = c.partial[i+1:]
		upper := strings.ToUpper(line)
		if c.inData {
			c.inData = line != "."
			continue
		}
		commands++
		switch {
		case upper == "DATA":
			c.inData = true
		case strings.HasPrefix(upper, "MAIL FROM:"), strings.HasPrefix(upper, "RCPT TO:"):
			path := strings.TrimSpace(line[strings.IndexByte(line, ':')+1:])
			c.paths = append(c.paths, strings.HasPrefix(path, "<") && strings.Contains(path, ">"))
		}
	}
	if commands > 1 {
		c.s.mu.Lock()
		c.s.pipelined++
		c.s.mu.Unlock()
	}
	return n, err
}

// Write passes the server's replies on, without PIPELINING in EHLO's if
// the test asked so (go-smtp offers it always).
func (c *strictConn) Write(p []byte) (int, error) {
	c.s.mu.Lock()
	hide := c.s.noPipelining
	c.s.mu.Unlock()
	if hide && bytes.Contains(p, []byte("250-PIPELINING\r\n")) {
		if _, err := c.Conn.Write(bytes.Replace(p, []byte("250-PIPELINING\r\n"), nil, 1)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// check answers the next MAIL or RCPT: a path without brackets is refused
// as Gmail refuses it.
func (c *strictConn) check() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.paths) == 0 {
		return nil
	}
	ok := c.paths[0]
	c.paths = c.paths[1:]
	if !ok {
		return &smtp.SMTPError{Code: 555, EnhancedCode: smtp.EnhancedCode{5, 5, 2}, Message: "Syntax error: the path needs angle brackets"}
	}
	return nil
}

type discard struct{}

func (discard) Printf(string, ...any) {}
func (discard) Println(...any)        {}
