package tournaments_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// TestTournamentMail plays a three-player round robin through and checks,
// step by step, which tournament mail each change queues and to whom: the
// players of an extended game, then of its deadline's reminder (once), every player and the organiser when a
// round closes (once, however often the scheduler looks), the organiser
// when a player withdraws himself (and the player, not the organiser, when
// the organiser withdraws him), and the
// final standings to every entrant, also the one who withdrew.
func TestTournamentMail(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour, err := f.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org", Locale: "de"}, {Name: "Bob", Email: "bob@example.org"},
			{Name: "Cat", Email: "cat@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	req := tournaments.TournamentRequest{ID: tour.ID}
	seen := len(f.store.Queued())
	// mail lists the tournament mail queued since the last call, as
	// "kind ply email locale".
	mail := func() []string {
		var out []string
		q := f.store.Queued()
		for _, n := range q[seen:] {
			if n.Tournament != "" && n.Kind != domain.NoticeBye {
				out = append(out, fmt.Sprintf("%s %d %s", n.Kind, n.Ply, n.Email))
			}
		}
		seen = len(q)
		slices.Sort(out)
		return out
	}
	tick := func(at time.Time) {
		t.Helper()
		f.now = at
		for range 2 { // the second tick finds nothing more to do
			if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	playing := func() (string, []string) {
		t.Helper()
		cur, err := f.tours.Tournament(ctx, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range cur.Current().Games {
			if g.GameID != "" {
				return g.GameID, []string{cur.Entrants[g.White].Email, cur.Entrants[g.Black].Email}
			}
		}
		t.Fatal("no game in the round")
		return "", nil
	}
	logged := func() int {
		cur, err := f.tours.Tournament(ctx, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		return len(cur.Log)
	}
	check := func(step string, want ...string) {
		t.Helper()
		slices.Sort(want)
		if got := mail(); !slices.Equal(got, want) {
			t.Errorf("%s: mail\n%s\nwant\n%s", step, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}

	start := t0.Add(time.Hour)
	tick(start)
	check("round 1 starts") // invitations and a bye only
	gameID, seats := playing()
	if _, err := f.tours.ExtendGame(ctx, req, gameID, time.Hour, "power cut"); err != nil {
		t.Fatal(err)
	}
	n := logged()
	check("an extension", fmt.Sprintf("tournament_update %d %s", n, seats[0]), fmt.Sprintf("tournament_update %d %s", n, seats[1]))

	// Its deadline nears: both players are reminded, once.
	cur, err := f.tours.Tournament(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	var remindAt time.Time
	for i, g := range cur.Rounds[0].Games {
		if g.GameID == gameID {
			remindAt = cur.Rounds[0].ReminderAt(i)
		}
	}
	if !cur.NextDue().Equal(remindAt) {
		t.Errorf("the event is due at %v; want the reminder at %v", cur.NextDue(), remindAt)
	}
	tick(remindAt.Add(-time.Minute))
	check("before the reminder")
	tick(remindAt)
	check("the round's deadline nears", "round_deadline 1 "+seats[0], "round_deadline 1 "+seats[1])
	tick(remindAt.Add(time.Minute))
	check("a tick after the reminder")

	// The deadline passes: the game, in which nobody moved, is a double
	// forfeit (its players are told), and the round closes.
	tick(start.Add(24*time.Hour + time.Hour))
	n = logged()
	check("round 1 closes",
		"round_results 1 ann@example.org", "round_results 1 bob@example.org", "round_results 1 cat@example.org",
		"round_results 1 org@example.org", fmt.Sprintf("tournament_update %d %s", n, seats[0]), fmt.Sprintf("tournament_update %d %s", n, seats[1]))

	// Cat withdraws herself: the organiser hears of it; withdrawn, she gets
	// no more round results.
	if _, err := f.tours.Withdraw(ctx, req, 2, tournaments.WithdrawForfeit, tournaments.ByPlayer("Cat"), ""); err != nil {
		t.Fatal(err)
	}
	check("a player withdraws", fmt.Sprintf("tournament_update %d org@example.org", logged()))

	if _, err := f.tours.PauseTournament(ctx, req, "holiday"); err != nil {
		t.Fatal(err)
	}
	n = logged()
	check("a pause", fmt.Sprintf("tournament_update %d ann@example.org", n), fmt.Sprintf("tournament_update %d bob@example.org", n))
	if _, err := f.tours.ResumeTournament(ctx, req, ""); err != nil {
		t.Fatal(err)
	}
	n = logged()
	check("the resumption", fmt.Sprintf("tournament_update %d ann@example.org", n), fmt.Sprintf("tournament_update %d bob@example.org", n))

	// Round 2 pairs someone with Cat, who withdrew (a walkover, no game):
	// it closes at once; round 3 is the last.
	tick(start.Add(24 * time.Hour))
	tick(start.Add(24*time.Hour + time.Minute))
	rounds := mail()
	tick(start.Add(48 * time.Hour))
	tick(start.Add(72*time.Hour + time.Hour))
	rounds = append(rounds, mail()...)
	final := []string{"final_standings 3 ann@example.org", "final_standings 3 bob@example.org",
		"final_standings 3 cat@example.org", "final_standings 3 org@example.org"}
	for _, want := range final {
		if !slices.Contains(rounds, want) {
			t.Errorf("the last round: mail %q missing from %q", want, rounds)
		}
	}
	for _, got := range rounds {
		if strings.HasSuffix(got, "cat@example.org") && !strings.HasPrefix(got, "final_standings") {
			t.Errorf("mail %q to a player who withdrew", got)
		}
	}
	cur, err = f.tours.Tournament(ctx, tour.ID)
	if err != nil || cur.Status != tournaments.TournamentFinished {
		t.Fatalf("the tournament: %v, %v; want finished", cur.Status, err)
	}

	// The organiser withdrawing a player is no news to him.
	f2 := newFixture(t)
	tour2, err := f2.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players:    []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}, {Name: "Cat", Email: "cat@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	f2.now = t0.Add(time.Hour)
	if _, err := f2.tours.TickTournament(ctx, tour2.ID); err != nil {
		t.Fatal(err)
	}
	before := len(f2.store.Queued())
	if _, err := f2.tours.Withdraw(ctx, tournaments.TournamentRequest{ID: tour2.ID}, 0, tournaments.WithdrawForfeit, tournaments.ByOrganiser, ""); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range f2.store.Queued()[before:] {
		got = append(got, string(q.Kind)+" "+q.Email)
	}
	// Her game is resigned: its result goes to her opponent and to her.
	if !slices.Contains(got, "tournament_update ann@example.org") || slices.Contains(got, "tournament_update org@example.org") {
		t.Errorf("the organiser withdrew Ann: mail %q; want a tournament_update to her, none to him", got)
	}
}
