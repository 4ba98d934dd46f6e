package notify

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// timedMail plays the first turn of a 3-days-per-turn game, runs the
// scheduler at the 24 h reminder of Black, and renders the due mail.
func timedMail(t *testing.T, locale string) (db *sqlite.DB, gameID string, msgs map[domain.NoticeKind]Message) {
	t.Helper()
	ctx := t.Context()
	db, err := sqlite.Open(ctx, repotest.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if err := accountsAt(db, now).RequestLogin(ctx, "org@example.org", locale); err != nil {
		t.Fatal(err)
	}
	login, _ := db.DueMail(ctx, now, 1)
	grant, err := accountsAt(db, now).ExchangeLogin(ctx, login[0].Secret, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	g, err := serviceAt(db, now).CreateGame(ctx, games.NewGameSpec{
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org", Locale: locale}, {Name: "Bob", Email: "bob@example.org", Locale: locale}},
		Time:    games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour}, Params: less.Params{Walls: strings.Repeat("0", 60)}.Map(),
	}, grant.Session.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Hour)
	_, _, err = games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Now: now,
		Compute: func(g games.Game) (sqlite.Change, error) {
			c := g.ToMove()
			sub, err := games.SubmitTurn(g, games.Actor{SeatColor: &c}, 0, "e5e4:e4d4:d4c4", now)
			return sqlite.Change{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, err
		}})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := serviceAt(db, now.Add(2*24*time.Hour+time.Minute)).TickGame(ctx, g.ID); !ok || err != nil {
		t.Fatalf("tick: %v %v", ok, err)
	}
	due, _ := db.DueMail(ctx, now.Add(3*24*time.Hour), 100)
	r := &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"}
	msgs = map[domain.NoticeKind]Message{}
	for _, m := range due {
		if m.Notice.Kind == domain.NoticeLogin || m.Notice.Kind == domain.NoticeInvitation {
			continue
		}
		msg, err := r.Render(ctx, m)
		if err != nil {
			t.Fatalf("render %s: %v", m.Notice.Kind, err)
		}
		msg.Subject = strings.ReplaceAll(msg.Subject, shortID(g.ID), "abcdef")
		msg.Text = strings.ReplaceAll(msg.Text, g.ID, "g_abcdefghij")
		msgs[m.Notice.Kind] = msg
	}
	return db, g.ID, msgs
}

// The reminder of every language (golden), and the deadline in the
// your-turn email it follows.
func TestGoldenReminder(t *testing.T) {
	for _, locale := range languages {
		t.Run(locale, func(t *testing.T) {
			_, _, msgs := timedMail(t, locale)
			reminder, ok := msgs[domain.NoticeReminder]
			if !ok {
				t.Fatalf("no reminder among %v", msgs)
			}
			if !strings.Contains(reminder.Text, "2026-11-24 13:00 UTC") {
				t.Errorf("the reminder does not give the deadline:\n%s", reminder.Text)
			}
			if turn := msgs[domain.NoticeYourTurn]; !strings.Contains(turn.Text, "2026-11-24 13:00 UTC") {
				t.Errorf("the your-turn email does not give the deadline:\n%s", turn.Text)
			}
			golden(t, filepath.Join("testdata", "golden", "reminder."+locale+".txt"), goldenText(reminder))
		})
	}
}

// A reminder whose turn was played before it could be sent is dropped.
func TestObsoleteReminderIsDropped(t *testing.T) {
	ctx := t.Context()
	db, gameID, _ := timedMail(t, "en")
	now := time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC)
	_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: gameID, Now: now,
		Compute: func(g games.Game) (sqlite.Change, error) {
			c := g.ToMove()
			sub, err := games.SubmitTurn(g, games.Actor{SeatColor: &c}, 1, "a1a3:a3a4:a2a3", now)
			return sqlite.Change{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, err
		}})
	if err != nil {
		t.Fatal(err)
	}
	sender := &flakySender{}
	r := &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"}
	w := NewWorker(db, sender, r, slog.New(slog.DiscardHandler), func() time.Time { return now })
	if _, err := w.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	for _, m := range sender.sent {
		if strings.Contains(m.Text, "is due by") {
			t.Errorf("an obsolete reminder went out:\n%s", m.Text)
		}
	}
	mail, _ := db.GameMail(ctx, gameID)
	for _, m := range mail {
		if m.Status != "sent" {
			t.Errorf("mail %+v left pending", m)
		}
	}
}
