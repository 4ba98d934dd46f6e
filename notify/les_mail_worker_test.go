package notify

import (
	"bytes"
	"image/png"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/notify/smtptest"
)

// A whole game of Les by email, through the worker and a real SMTP
// server: the invitations, each your-turn (the choice, the first turn, the
// turns) and the game over reach the players, in the seat's thread, each
// with its board picture.
func TestLesMailThroughSMTP(t *testing.T) {
	gc := lesGame(t, "side3") // 11 turns, a draw: one hole each, alike
	lg := newLesGame(t, "en", gc)
	srv := smtptest.Start(t)
	sender, err := NewSMTPSender(SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: TLSNone, From: "games@less.example"})
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorker(lg.db, sender, &Renderer{Store: lg.db, Links: fakeLinks{}, Host: "less.example"},
		slog.New(slog.DiscardHandler), func() time.Time { return lg.now })
	deliver := func() {
		t.Helper()
		if _, err := w.DeliverDue(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	deliver()
	for _, ply := range append([]string{gc.Setup, gc.Choice}, gc.Turns...) {
		lg.play(ply)
		deliver()
	}
	if !lg.g.Over() {
		t.Fatal("the game goes on")
	}

	mail, err := lg.db.GameMail(t.Context(), lg.g.ID)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[domain.NoticeKind]int{}
	for _, m := range mail {
		kinds[m.Kind]++
		if m.Status != "sent" {
			t.Errorf("%s to %s (ply %d): %s after %d attempts: %s", m.Kind, m.Color, m.Ply, m.Status, m.Attempts, m.LastError)
		}
	}
	// Two invitations; a your-turn after the setup, the choice and every
	// turn but the last; two game-overs.
	want := map[domain.NoticeKind]int{domain.NoticeInvitation: 2, domain.NoticeYourTurn: 2 + len(gc.Turns) - 1, domain.NoticeGameOver: 2}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("%d %s emails, want %d (all: %v)", kinds[k], k, n, kinds)
		}
	}
	msgs := srv.Messages()
	if len(msgs) != len(mail) {
		t.Fatalf("%d messages at the mail server, %d in the outbox", len(msgs), len(mail))
	}
	for i, m := range msgs {
		if got := m.Subject(); got != "Les: Ann – Bob [abcdef]" {
			t.Errorf("message %d: subject %q", i, got)
		}
		if m.Text == "" || m.HTML == "" {
			t.Errorf("message %d: a part is empty", i)
		}
		img, err := png.Decode(bytes.NewReader(m.Inline[boardCID]))
		if err != nil || img.Bounds().Dx() < 200 {
			t.Errorf("message %d: board picture: %v", i, err)
		}
	}
	// Each player's mail, in order: what it says, and its thread.
	for _, tt := range []struct {
		addr, seat string
		first      []string // what the first emails say, in order
		last       string
	}{
		{"ann@example.org", "setter", []string{"You set up", "it is your turn as Black.\n  - Bob chose White\n"},
			"the game is over: a draw."},
		{"bob@example.org", "chooser", []string{"Ann sets up the first four stones",
			"it is your turn to choose your colour.\n  - Ann set up Black c5, White d4, Black d2, White b3\n",
			"it is your turn as White.\n  - Black played d3:a1\n"}, "Both own 1 hole, alike in size and in stones around: the game is drawn."},
	} {
		got := srv.To(tt.addr)
		if len(got) < len(tt.first)+1 {
			t.Fatalf("%s got %d emails", tt.addr, len(got))
		}
		for i, want := range tt.first {
			if !strings.Contains(strings.ReplaceAll(got[i].Text, "\r\n", "\n"), want) {
				t.Errorf("%s's email %d lacks %q:\n%s", tt.addr, i, want, got[i].Text)
			}
		}
		if last := got[len(got)-1]; !strings.Contains(last.Text, tt.last) {
			t.Errorf("%s's last email lacks %q:\n%s", tt.addr, tt.last, last.Text)
		}
		thread := "<" + ThreadID(lesGameID, tt.seat) + "@less.example>"
		for i, m := range got {
			if i > 0 && m.Header.Get("In-Reply-To") != thread {
				t.Errorf("%s's email %d answers %q, want %q", tt.addr, i, m.Header.Get("In-Reply-To"), thread)
			}
		}
	}
}
