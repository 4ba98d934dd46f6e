package main

import (
	"fmt"
	"net/http"
	"net/smtp"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/notify/smtptest"
	"github.com/lesspost/lesspost/repo/repotest"
)

// replyServer runs the server with reply addresses and its SMTP listener,
// on the test's store (SQLite, or PostgreSQL under LESSPOST_TEST_STORE),
// and returns it with the listener's address.
func replyServer(t *testing.T, mail *smtptest.Server) (*server, string) {
	t.Helper()
	keys := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(keys, []byte(strings.Repeat("k", 32)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, repotest.DSN(t), mail.Addr, "--secret-file", keys,
		"--reply-address", "play@lesspost.test", "--smtp-listen-addr", "127.0.0.1:0")
	listening := regexp.MustCompile(`"msg":"smtp listening","addr":"([^"]+)"`)
	var addr string
	waitFor(t, func() bool {
		m := listening.FindStringSubmatch(s.logs.String())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	})
	return s, addr
}

// exampleRE finds the example turn of a your-turn email: "Reply to this
// email with your turn, e.g. <turn>, or resign."
var exampleRE = regexp.MustCompile(`e\.g\. (\S+), or resign`)

// replyTo replies to m from the address it went to as a mail client does:
// the text on top, the quoted email below its attribution line, in the
// thread of m, to its Reply-To.
func replyTo(t *testing.T, listener string, m *smtptest.Mail, id, text, header string) {
	t.Helper()
	from, replyTo := m.To[0], strings.Trim(m.Header.Get("Reply-To"), "<> ")
	var quote strings.Builder
	for line := range strings.SplitSeq(m.Text, "\n") {
		quote.WriteString("> " + strings.TrimRight(line, "\r") + "\r\n")
	}
	if header != "" {
		header += "\r\n"
	}
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s>\r\nIn-Reply-To: %s\r\n%s"+
		"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\nOn Sun, 1 Mar 2026 at 12:00, Less <games@lesspost.test> wrote:\r\n%s",
		from, replyTo, m.Subject(), id, m.Header.Get("Message-Id"), header, text, quote.String())
	if err := smtp.SendMail(listener, nil, from, []string{replyTo}, []byte(raw)); err != nil {
		t.Fatalf("reply to %s: %v", replyTo, err)
	}
}

// yourTurn waits for an email with a reply address not answered yet and an
// example turn, and returns it with the turn. Who moves next is the game's
// business (Les's chooser may move twice in a row).
func yourTurn(t *testing.T, mail *smtptest.Server, answered map[string]bool) (*smtptest.Mail, string) {
	t.Helper()
	var m *smtptest.Mail
	var ex []string
	waitFor(t, func() bool {
		for _, c := range mail.Messages() {
			rt := strings.Trim(c.Header.Get("Reply-To"), "<> ")
			if ex = exampleRE.FindStringSubmatch(c.Text); strings.HasPrefix(rt, "play+") && !answered[rt] && ex != nil {
				m, answered[rt] = c, true
				return true
			}
		}
		return false
	})
	return m, ex[1]
}

// mailKinds counts the kinds of a game's mail.
func mailKinds(s *server, token, gameID string) map[string]int {
	var list struct {
		Mail []struct {
			Kind string `json:"kind"`
		} `json:"mail"`
	}
	s.call("GET", "/v1/games/"+gameID+"/mail", token, nil, http.StatusOK, &list)
	out := map[string]int{}
	for _, m := range list.Mail {
		out[m.Kind]++
	}
	return out
}

// A whole game of Less and one of Les played only by replying to the
// emails, over real SMTP both ways: each seat answers its your-turn email
// with the turn it suggests, until one resigns by reply. Along the way, the
// hostile cases the listener and the use case meet together: the same
// reply delivered twice plays once and is answered once; a reply to an
// earlier email is refused kindly; a forged From plays nothing and answers
// the stranger nothing; a reply the receiving server found forged plays
// nothing and the seat is told; an out-of-office answer is ignored.
func TestPlayOnlyByReplying(t *testing.T) {
	for _, tt := range []struct {
		name string
		body map[string]any
	}{
		{"less", map[string]any{"board": map[string]any{"walls": strings.Repeat("0", 60)}}},
		{"les", map[string]any{"game": "les", "board": map[string]any{"side": 3}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mail := smtptest.Start(t)
			s, listener := replyServer(t, mail)
			organiser := s.login(mail, "org@example.org")
			players := [2]string{"ann@example.org", "bob@example.org"}
			tt.body["players"] = []map[string]any{{"name": "Ann", "email": players[0]}, {"name": "Bob", "email": players[1]}}
			var g game
			s.call("POST", "/v1/games", organiser, tt.body, http.StatusCreated, &g)
			answered := map[string]bool{}
			const plies = 6
			var first *smtptest.Mail
			for ply := range plies {
				m, turn := yourTurn(t, mail, answered)
				if ply == 0 {
					first = m
				}
				id := fmt.Sprintf("%s-%d@client.example", g.ID, ply)
				replyTo(t, listener, m, id, turn, "")
				if ply == 2 {
					replyTo(t, listener, m, id, turn, "") // a relay delivers it again
				}
			}
			last, _ := yourTurn(t, mail, answered)
			replyTo(t, listener, first, "old@client.example", "resign", "") // the email of ply 0
			replyTo(t, listener, last, "ooo@client.example", "I am away until Monday.", "Auto-Submitted: auto-replied")
			forged := *last
			forged.To = []string{"mallory@example.net"}
			replyTo(t, listener, &forged, "forged@client.example", "resign", "")
			replyTo(t, listener, last, "dmarc@client.example", "resign",
				"Authentication-Results: mx.lesspost.test; dmarc=fail header.from=example.org")
			replyTo(t, listener, last, "resign@client.example", "resign", "")

			var state struct {
				Status string `json:"status"`
				Ply    int    `json:"ply"`
			}
			waitFor(t, func() bool {
				s.call("GET", "/v1/games/"+g.ID, organiser, nil, http.StatusOK, &state)
				return state.Status == "finished"
			})
			if state.Ply != plies {
				t.Errorf("the game ended at ply %d, want %d: each reply played once", state.Ply, plies)
			}
			// Confirmations: one per turn played (the resignation's is
			// the game's result); refusals: the earlier email, and the
			// stranger's reply and the forged one, told to the seat.
			waitFor(t, func() bool {
				k := mailKinds(s, organiser, g.ID)
				return k["reply_accepted"] == plies && k["reply_refused"] == 3
			})
			if n := len(mail.To("mallory@example.net")); n != 0 {
				t.Errorf("the forger got %d emails", n)
			}
			// The earlier email's seat hears of its refusal, the last
			// email's seat of the stranger's reply.
			told := func(addr, what string) bool {
				return slices.ContainsFunc(mail.To(addr), func(m *smtptest.Mail) bool { return strings.Contains(m.Text, what) })
			}
			waitFor(t, func() bool {
				return told(first.To[0], "earlier turn") && told(last.To[0], "mallory@example.net") && told(last.To[0], "sender checks")
			})
		})
	}
}
