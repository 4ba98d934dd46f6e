package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/notify/smtptest"
)

// server is the real program, started by run on a free port.
type server struct {
	t      *testing.T
	base   string
	client *http.Client
	stop   func()
	logs   *syncBuffer
}

// startServer runs the program with SMTP pointed at smtpAddr, and any
// further flags, and waits until it listens. stop shuts it down as a
// signal would.
func startServer(t *testing.T, dbPath, smtpAddr string, flags ...string) *server {
	t.Helper()
	host, port, _ := net.SplitHostPort(smtpAddr)
	ctx, cancel := context.WithCancel(t.Context())
	var logs syncBuffer
	listening := make(chan net.Addr, 1)
	done := make(chan error, 1)
	args := []string{"--addr", "127.0.0.1:0", "--db", dbPath, "--base-url", "http://lesspost.test",
		"--smtp-host", host, "--smtp-port", port, "--smtp-tls", "none", "--smtp-from", "Less <games@lesspost.test>",
		// Retries every 100 ms and never gives up: a loaded CI machine must
		// not exhaust the attempts before the mail server comes back.
		"--mail-retry-delay", "100ms", "--mail-attempts", "1000"}
	args = append(args, flags...)
	go func() {
		done <- run(ctx, args, func(string) string { return "" }, &logs, func(a net.Addr) { listening <- a })
	}()
	s := &server{t: t, client: &http.Client{Transport: apitest.Transport(t, nil)}, logs: &logs}
	select {
	case addr := <-listening:
		s.base = "http://" + addr.String()
	case err := <-done:
		cancel()
		t.Fatalf("run returned before listening: %v\n%s", err, logs.String())
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatalf("not listening after 30s\n%s", logs.String())
	}
	stopped := false
	s.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v\n%s", err, logs.String())
		}
	}
	t.Cleanup(s.stop)
	return s
}

// call sends a JSON request and decodes a JSON answer into out.
func (s *server) call(method, path, token string, body any, wantStatus int, out any) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequestWithContext(s.t.Context(), method, s.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := s.client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != wantStatus {
		s.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.StatusCode, wantStatus, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			s.t.Fatal(err)
		}
	}
}

var (
	codeRE = regexp.MustCompile(`code in the app: (\S+)`)
	linkRE = regexp.MustCompile(`http://lesspost\.test/play/(\S+)#t=(\S+)`)
)

// login signs in through the emailed code and returns the access token.
func (s *server) login(smtp *smtptest.Server, email string) string {
	s.t.Helper()
	before := len(smtp.To(email))
	s.call("POST", "/v1/auth/login", "", map[string]any{"email": email}, http.StatusAccepted, nil)
	waitFor(s.t, func() bool { return len(smtp.To(email)) > before })
	m := smtp.To(email)[before]
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	s.call("POST", "/v1/auth/token", "", map[string]any{"email": email, "code": codeRE.FindStringSubmatch(m.Text)[1]}, http.StatusOK, &tok)
	return tok.AccessToken
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	waitWithin(t, 15*time.Second, cond)
}

// waitWithin polls cond until it holds, failing the test after d.
func waitWithin(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met after %v", d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type game struct {
	ID  string `json:"id"`
	Ply int    `json:"ply"`
}

// Play by email over real SMTP: both invitations arrive; White's link
// from the email plays White's turn; Black's your-turn email arrives in the
// thread of his invitation, and its link plays Black's turn.
func TestPlayByEmailOverSMTP(t *testing.T) {
	smtp := smtptest.Start(t)
	s := startServer(t, filepath.Join(t.TempDir(), "lesspost.db"), smtp.Addr)
	organiser := s.login(smtp, "org@example.org")

	var g game
	s.call("POST", "/v1/games", organiser, map[string]any{
		"players": []map[string]any{{"name": "Ann «the Rook»", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org", "locale": "de"}},
		"board":   map[string]any{"walls": strings.Repeat("0", 60)},
	}, http.StatusCreated, &g)
	waitFor(t, func() bool { return len(smtp.To("ann@example.org")) == 1 && len(smtp.To("bob@example.org")) == 1 })

	ann, bob := smtp.To("ann@example.org")[0], smtp.To("bob@example.org")[0]
	checkEmail(t, ann, "<"+g.ID+".white@lesspost.test>", "")
	checkEmail(t, bob, "<"+g.ID+".black@lesspost.test>", "")
	if to := ann.Header.Get("To"); !strings.Contains(to, "ann@example.org") || strings.Contains(to, "\n") {
		t.Errorf("To: %q", to)
	}
	if !strings.Contains(bob.Text, "Schwarz") {
		t.Errorf("Bob's invitation is not in German:\n%s", bob.Text)
	}
	white := linkRE.FindStringSubmatch(ann.Text)
	if white == nil || white[1] != g.ID {
		t.Fatalf("no move link in Ann's invitation:\n%s", ann.Text)
	}

	s.call("POST", "/v1/games/"+g.ID+"/turns", white[2], map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}, http.StatusCreated, &struct{}{})
	waitFor(t, func() bool { return len(smtp.To("bob@example.org")) == 2 })
	turn := smtp.To("bob@example.org")[1]
	checkEmail(t, turn, "", "<"+g.ID+".black@lesspost.test>")
	if !strings.Contains(turn.Text, "e5e4:e4d4:d4c4") {
		t.Errorf("Bob's email does not show White's turn:\n%s", turn.Text)
	}
	black := linkRE.FindStringSubmatch(turn.Text)
	s.call("POST", "/v1/games/"+g.ID+"/turns", black[2], map[string]any{"turn": "a1a3:a3a4:b2b3", "ply": 1}, http.StatusCreated, &struct{}{})
	waitFor(t, func() bool { return len(smtp.To("ann@example.org")) == 2 })
	checkEmail(t, smtp.To("ann@example.org")[1], "", "<"+g.ID+".white@lesspost.test>")
}

// checkEmail checks what every game email carries: both parts, the board
// picture, the thread and the one-click unsubscribe headers.
func checkEmail(t *testing.T, m *smtptest.Mail, wantID, wantReplyTo string) {
	t.Helper()
	h := m.Header
	if wantID != "" && h.Get("Message-Id") != wantID {
		t.Errorf("Message-ID %q, want %q", h.Get("Message-Id"), wantID)
	}
	if h.Get("Message-Id") == "" {
		t.Error("no Message-ID")
	}
	if h.Get("In-Reply-To") != wantReplyTo || (wantReplyTo != "" && h.Get("References") != wantReplyTo) {
		t.Errorf("In-Reply-To %q, References %q, want %q", h.Get("In-Reply-To"), h.Get("References"), wantReplyTo)
	}
	if !strings.HasPrefix(h.Get("List-Unsubscribe"), "<http://lesspost.test/unsubscribe?t=") ||
		h.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe %q, List-Unsubscribe-Post %q", h.Get("List-Unsubscribe"), h.Get("List-Unsubscribe-Post"))
	}
	if m.Text == "" || !strings.Contains(m.HTML, `src="cid:board@lesspost"`) {
		t.Errorf("parts: text %d bytes, HTML without the board:\n%s", len(m.Text), m.HTML)
	}
	if _, err := png.Decode(bytes.NewReader(m.Inline["board@lesspost"])); err != nil {
		t.Errorf("the board picture does not decode: %v", err)
	}
	if strings.Contains(m.HTML, "<script") || strings.Contains(m.HTML, "http://lesspost.test/assets") {
		t.Error("the HTML part loads something remote or runs script")
	}
}

// The SMTP server is down while a turn is played: the turn is accepted at
// once, the email waits in the outbox through a restart of the server, and
// is delivered once when the mail server is back.
func TestMailSurvivesOutageAndRestart(t *testing.T) {
	smtp := smtptest.Start(t)
	dbPath := filepath.Join(t.TempDir(), "lesspost.db")
	s := startServer(t, dbPath, smtp.Addr)
	organiser := s.login(smtp, "org@example.org")
	var g game
	s.call("POST", "/v1/games", organiser, map[string]any{
		"players": []map[string]any{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}},
		"board":   map[string]any{"walls": strings.Repeat("0", 60)},
	}, http.StatusCreated, &g)
	waitFor(t, func() bool { return len(smtp.To("ann@example.org")) == 1 && len(smtp.To("bob@example.org")) == 1 })
	white := linkRE.FindStringSubmatch(smtp.To("ann@example.org")[0].Text)[2]

	smtp.Close() // the mail server goes down
	s.call("POST", "/v1/games/"+g.ID+"/turns", white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}, http.StatusCreated, nil)

	var mail struct {
		Mail []struct {
			Kind      string `json:"kind"`
			Status    string `json:"status"`
			LastError string `json:"last_error"`
			Attempts  int    `json:"attempts"`
		} `json:"mail"`
	}
	waitFor(t, func() bool {
		s.call("GET", "/v1/games/"+g.ID+"/mail", white, nil, http.StatusOK, &mail)
		last := mail.Mail[len(mail.Mail)-1]
		return last.Attempts >= 1 && last.Status == "pending" && last.LastError != ""
	})
	s.stop() // the server restarts while the email is still owed

	smtp = smtptest.StartAt(t, smtp.Addr) // the mail server comes back
	s = startServer(t, dbPath, smtp.Addr)
	// The SMTP server holds the email a moment before the worker records it
	// as sent, so wait for the record rather than for the delivery.
	waitFor(t, func() bool {
		s.call("GET", "/v1/games/"+g.ID+"/mail", white, nil, http.StatusOK, &mail)
		for _, m := range mail.Mail {
			if m.Status != "sent" {
				return false
			}
		}
		return true
	})
	time.Sleep(300 * time.Millisecond) // room for a wrong second delivery
	if got := smtp.To("bob@example.org"); len(got) != 1 {
		t.Fatalf("Bob got %d emails after the outage, want exactly 1", len(got))
	}
}
