package sqlite

import (
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
)

// A player invited without a locale gets his account's language; without an
// account, the default. Login mail without a locale speaks the account's.
func TestLocaleFallsBackToAccount(t *testing.T) {
	ctx := t.Context()
	db, err := Open(ctx, freshPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if err := db.accountsAt(now).RequestLogin(ctx, "bob@example.org", ""); err != nil {
		t.Fatal(err)
	}
	due, _ := db.DueMail(ctx, now, 10)
	if due[0].Locale != "en" {
		t.Errorf("login mail of a new address in %q, want en", due[0].Locale)
	}
	grant, err := db.accountsAt(now).ExchangeLogin(ctx, due[0].Secret, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := grant.Session
	if _, err := db.accountsAt(t0).UpdateUser(ctx, s.User.ID, accounts.AccountSettings{Name: "Bob", Locale: "it"}); err != nil {
		t.Fatal(err)
	}
	g, err := db.serviceAt(now).CreateGame(ctx, games.NewGameSpec{Players: []games.Player{
		{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}}, s.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Seats[0].Locale != "en" || g.Seats[1].Locale != "it" {
		t.Errorf("seat locales %q, %q; want en, it", g.Seats[0].Locale, g.Seats[1].Locale)
	}
	stored, _ := db.Game(ctx, g.ID)
	if stored.Seats[1].Locale != "it" {
		t.Errorf("stored locale %q", stored.Seats[1].Locale)
	}
	if err := db.accountsAt(now.Add(time.Minute)).RequestLogin(ctx, "bob@example.org", ""); err != nil {
		t.Fatal(err)
	}
	due, _ = db.DueMail(ctx, now.Add(time.Minute), 100)
	if last := due[len(due)-1]; last.Notice.Kind != domain.NoticeLogin || last.Locale != "it" {
		t.Errorf("login mail %+v, want Italian", last)
	}
}
