package sqlite

import (
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// The backlog counts pending and given-up mail and the due games and
// tournaments, with the oldest of each; delivered mail, games not yet due
// and finished games do not count.
func TestBacklog(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	start := t0.UTC().Truncate(time.Millisecond)

	if b, err := db.Backlog(ctx, start); err != nil || b != (domain.Backlog{}) {
		t.Fatalf("empty store: %+v, %v", b, err)
	}

	organiser := signUp(t, db, "org@example.org", start) // its login mail is delivered
	players := []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}
	perTurn := games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour}
	created := start.Add(time.Minute)
	if _, err := db.serviceAt(created).CreateGame(ctx, games.NewGameSpec{Players: players, Time: perTurn}, organiser.ID); err != nil {
		t.Fatal(err)
	}
	over, err := db.serviceAt(created).CreateGame(ctx, games.NewGameSpec{Players: players, Time: perTurn}, organiser.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := resignGame(ctx, db, over.ID, seatOf(less.White), created); err != nil {
		t.Fatal(err)
	}
	roundStart := start.Add(time.Hour)
	if _, err := db.tournamentsAt(start).CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin, Players: players,
		Starts: []time.Time{roundStart}, RoundLength: 48 * time.Hour}, organiser.ID); err != nil {
		t.Fatal(err)
	}
	// The oldest mail, the tournament's, is given up: the oldest pending
	// is the games'.
	mail, err := db.ClaimMail(ctx, "test", created, time.Minute, 1)
	if err != nil || len(mail) != 1 {
		t.Fatalf("claim: %v, %v", mail, err)
	}
	if err := db.MarkAttemptFailed(ctx, "test", mail[0].ID, domain.MailFailure{Code: "rejected"}, time.Time{}, created); err != nil {
		t.Fatal(err)
	}
	queued, err := db.DueMail(ctx, created, 100)
	if err != nil {
		t.Fatal(err)
	}

	firstReminder := created.Add(perTurn.PerTurn - 24*time.Hour)
	tests := []struct {
		name string
		now  time.Time
		want domain.Backlog
	}{
		{"before anything is due", roundStart.Add(-time.Second),
			domain.Backlog{MailPending: len(queued), OldestPending: created, MailFailed: 1}},
		{"the tournament's round is due", roundStart,
			domain.Backlog{MailPending: len(queued), OldestPending: created, MailFailed: 1, TournamentsDue: 1, OldestDue: roundStart}},
		{"and the game's reminder", firstReminder.Add(time.Hour),
			domain.Backlog{MailPending: len(queued), OldestPending: created, MailFailed: 1, GamesDue: 1, TournamentsDue: 1, OldestDue: roundStart}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := db.Backlog(ctx, tt.now)
			if err != nil {
				t.Fatal(err)
			}
			if b != tt.want {
				t.Errorf("backlog %+v,\nwant     %+v", b, tt.want)
			}
		})
	}
}
