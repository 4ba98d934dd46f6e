package main

import (
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// One pass of the scheduler times out a game whose deadline passed and
// starts a tournament round that is due, wakes the outbox, and a second
// pass finds nothing to do.
func TestSchedulerPass(t *testing.T) {
	ctx := t.Context()
	db := openTestDB(t)
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if err := accountsAt(db, start).RequestLogin(ctx, "org@example.org", ""); err != nil {
		t.Fatal(err)
	}
	mail, _ := db.DueMail(ctx, start, 1)
	grant, err := accountsAt(db, start).ExchangeLogin(ctx, mail[0].Secret, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	players := []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}
	g, err := serviceAt(db, start).CreateGame(ctx, games.NewGameSpec{Players: players,
		Time: games.TimeControl{Kind: games.TimePerTurn, PerTurn: 24 * time.Hour}, Params: less.Params{Walls: strings.Repeat("0", 60)}.Map()}, grant.Session.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	tour, err := tournamentsAt(db, start).CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin, Players: players,
		Starts: []time.Time{start.Add(time.Hour)}, RoundLength: 48 * time.Hour}, grant.Session.User.ID)
	if err != nil {
		t.Fatal(err)
	}

	now := start.Add(25 * time.Hour)
	woken := 0
	var observed schedulerCounts
	s := &scheduler{app: games.NewService(games.Config{Store: db, Now: func() time.Time { return now }}),
		tournaments: tournaments.NewService(tournaments.Config{Store: db, Now: func() time.Time { return now }}),
		db:          db, log: slog.New(slog.DiscardHandler), now: func() time.Time { return now },
		interval: time.Hour, queued: func() { woken++ }, observe: &observed}
	s.pass(ctx)
	if woken != 2 {
		t.Errorf("the outbox was woken %d times, want 2 (game, tournament)", woken)
	}
	if got, _ := db.Game(ctx, g.ID); !got.Over() {
		t.Errorf("the game was not timed out: it is not over")
	} else if r, _ := got.Result(); r.Reason != string(less.ReasonTimeout) {
		t.Errorf("the game was not timed out: %+v", r)
	}
	if got, _ := db.Tournament(ctx, tour.ID); got.Rounds[0].Status != tournaments.RoundRunning {
		t.Errorf("round 1 is %s", got.Rounds[0].Status)
	}
	s.pass(ctx)
	if woken != 2 {
		t.Errorf("a second pass acted again (%d wake-ups)", woken)
	}
	if want := (schedulerCounts{passes: 2, acted: map[string]int{"game": 1, "tournament": 1}}); !reflect.DeepEqual(observed, want) {
		t.Errorf("observed %+v, want %+v", observed, want)
	}
}

// schedulerCounts counts what the scheduler reports for metrics.
type schedulerCounts struct {
	passes int
	acted  map[string]int
}

func (c *schedulerCounts) SchedulerPass() { c.passes++ }

func (c *schedulerCounts) SchedulerActed(kind string, n int) {
	if c.acted == nil {
		c.acted = map[string]int{}
	}
	c.acted[kind] += n
}

// A pass deletes what the store no longer needs: mail older than the
// retention period, ended sessions, login codes that expired unsent, rate
// limit buckets that are full again.
func TestSchedulerPrunes(t *testing.T) {
	ctx := t.Context()
	db := openTestDB(t)
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if err := accountsAt(db, start).RequestLogin(ctx, "org@example.org", ""); err != nil {
		t.Fatal(err)
	}
	mail, _ := db.DueMail(ctx, start, 1)
	if _, err := accountsAt(db, start).ExchangeLogin(ctx, mail[0].Secret, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkSent(ctx, mail[0].ID, start); err != nil {
		t.Fatal(err)
	}
	now := start.Add(40 * 24 * time.Hour)
	if err := accountsAt(db, now.Add(-time.Hour)).RequestLogin(ctx, "ann@example.org", ""); err != nil { // never delivered
		t.Fatal(err)
	}
	for _, at := range []time.Time{start, now} { // refilled by now, and not yet
		if _, _, err := db.TakeRequest(ctx, at.String(), time.Hour, 0, at); err != nil {
			t.Fatal(err)
		}
	}
	count := func(query string) int {
		t.Helper()
		var n int
		err := db.WithTx(ctx, func(tx *sqlite.Tx) error { return tx.QueryRowContext(ctx, query).Scan(&n) })
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	s := &scheduler{app: games.NewService(games.Config{Store: db, Now: func() time.Time { return now }}),
		tournaments: tournaments.NewService(tournaments.Config{Store: db, Now: func() time.Time { return now }}),
		db:          db, log: slog.New(slog.DiscardHandler), now: func() time.Time { return now },
		interval: time.Hour, queued: func() {}, mailRetention: 30 * 24 * time.Hour}
	s.pass(ctx)
	for query, want := range map[string]int{
		`SELECT count(*) FROM outbox`:                                       1, // ann's login mail, given up
		`SELECT count(*) FROM outbox WHERE secret IS NOT NULL`:              0,
		`SELECT count(*) FROM outbox WHERE failed_at IS NULL`:               0,
		`SELECT count(*) FROM sessions`:                                     0,
		`SELECT count(*) FROM login_tokens`:                                 1, // ann's, kept for the hourly cap
		`SELECT count(*) FROM login_tokens WHERE email = 'org@example.org'`: 0,
		`SELECT count(*) FROM rate_limits`:                                  1,
	} {
		if got := count(query); got != want {
			t.Errorf("%s = %d, want %d", query, got, want)
		}
	}
}

// serviceAt is the use cases on db with the clock stopped at now.
func serviceAt(db *sqlite.DB, now time.Time) *games.Service {
	return games.NewService(games.Config{Store: db, Now: func() time.Time { return now }})
}

// accountsAt is the use cases of accounts with the clock stopped at now.
func accountsAt(db *sqlite.DB, now time.Time) *accounts.Service {
	return accounts.NewService(accounts.Config{Store: db, Now: func() time.Time { return now }})
}

// tournamentsAt is the use cases of tournaments on db with the clock
// stopped at now.
func tournamentsAt(db *sqlite.DB, now time.Time) *tournaments.Service {
	return tournaments.NewService(tournaments.Config{Store: db, Now: func() time.Time { return now }})
}
