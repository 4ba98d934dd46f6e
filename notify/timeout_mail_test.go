package notify

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/notify/smtptest"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// A four-player timed game in which a turn is passed on time goes on, and
// every email of it reaches the mail server: the mails after the pass show
// the game replayed through the pass (which Play alone refuses: a Nil turn
// is legal only without a legal move).
func TestMailAfterTimeOutPass(t *testing.T) {
	ctx := t.Context()
	db, err := sqlite.Open(ctx, repotest.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if err := accountsAt(db, now).RequestLogin(ctx, "org@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	login, _ := db.DueMail(ctx, now, 1)
	grant, err := accountsAt(db, now).ExchangeLogin(ctx, login[0].Secret, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	g, err := serviceAt(db, now).CreateGame(ctx, games.NewGameSpec{
		Players: []games.Player{{Name: "Yves", Email: "yves@example.org"}, {Name: "Bea", Email: "bea@example.org"},
			{Name: "Wim", Email: "wim@example.org"}, {Name: "Rut", Email: "rut@example.org"}},
		Time: games.TimeControl{Kind: games.TimePerTurn, PerTurn: 24 * time.Hour}, Params: less.Params{Walls: strings.Repeat("0", 112)}.Map(),
	}, grant.Session.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Clock.Control.Timeout != games.TimeoutPass {
		t.Fatalf("time-out policy %q", g.Clock.Control.Timeout)
	}

	srv := smtptest.Start(t)
	sender, err := NewSMTPSender(SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: TLSNone, From: "games@less.example"})
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorker(db, sender, &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"},
		slog.New(slog.DiscardHandler), func() time.Time { return now })
	deliver := func() {
		t.Helper()
		if _, err := w.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
	}
	play := func() {
		t.Helper()
		_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Now: now,
			Compute: func(g games.Game) (sqlite.Change, error) {
				c := g.ToMove()
				turn, _ := g.Rules.Example()
				sub, err := games.SubmitTurn(g, games.Actor{SeatColor: &c}, g.Ply(), turn, now)
				return sqlite.Change{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, err
			}})
		if err != nil {
			t.Fatal(err)
		}
	}

	deliver() // the invitations
	now = now.Add(24 * time.Hour)
	if ok, err := serviceAt(db, now).TickGame(ctx, g.ID); !ok || err != nil {
		t.Fatalf("tick at the deadline: %v %v", ok, err)
	}
	if g, err = db.Game(ctx, g.ID); err != nil || g.Ply() != 1 || g.Over() {
		t.Fatalf("after the time-out: ply %d, over %v, %v", g.Ply(), g.Over(), err)
	}
	deliver()
	for range 3 {
		now = now.Add(time.Hour)
		play()
		deliver()
	}

	mail, err := db.GameMail(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mail {
		if m.Status != "sent" {
			t.Errorf("%s to %s (ply %d): %s after %d attempts: %s", m.Kind, m.Color, m.Ply, m.Status, m.Attempts, m.LastError)
		}
	}
	// 4 invitations, then a your-turn email after the pass and after each of the 3 turns.
	if got := len(srv.Messages()); got != len(mail)+1 || len(mail) != 8 {
		t.Errorf("%d messages at the mail server (login included), %d in the outbox, want 9 and 8", got, len(mail))
	}
	passed := srv.To("bea@example.org")
	if len(passed) < 2 || !strings.Contains(passed[1].Text, "passed") {
		t.Errorf("Bea's mail after Yves's time-out does not tell it: %d mails", len(passed))
	}
}
