package tournaments_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// swiss4 is a 4-player, 3-round Swiss event starting in an hour.
func swiss4(t *testing.T) tournaments.Tournament {
	t.Helper()
	tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 3,
		Players: players(4), FirstStart: t0.Add(time.Hour), Interval: 2 * day}, "t_1", testCreator, t0, 7)
	if err != nil {
		t.Fatal(err)
	}
	return tour
}

// started is swiss4 with round 1 paired and its games numbered g_1, g_2.
func started(t *testing.T) tournaments.Tournament {
	t.Helper()
	tour := swiss4(t)
	r, toPlay, err := tour.StartRound(t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for n, i := range toPlay {
		r.Games[i].GameID = []string{"g_1", "g_2"}[n]
	}
	return tour
}

var whiteWins = ruleset.Result{Reason: string(less.ReasonComplete), Winner: int(less.SideWhite), Margin: 3}

func TestJoin(t *testing.T) {
	now := t0.Add(time.Minute)
	withReg := func(t *testing.T, r tournaments.Registration) tournaments.Tournament {
		tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 2,
			FirstStart: t0.Add(day), Interval: day, Registration: &r}, "t_1", testCreator, t0, 7)
		if err != nil {
			t.Fatal(err)
		}
		return tour
	}
	ann := games.Player{Name: "Ann", Email: "ann@example.org"}
	tests := []struct {
		name   string
		tour   func(*testing.T) tournaments.Tournament
		invite int
		at     time.Time
		code   string
	}{
		{"by the link", func(t *testing.T) tournaments.Tournament { return withReg(t, tournaments.Registration{}) }, 1, now, ""},
		{"without the link, invitation only", func(t *testing.T) tournaments.Tournament { return withReg(t, tournaments.Registration{}) }, 0, now, tournaments.CodeInviteInvalid},
		{"without the link, public", func(t *testing.T) tournaments.Tournament { return withReg(t, tournaments.Registration{Public: true}) }, 0, now, ""},
		{"by an old link", func(t *testing.T) tournaments.Tournament {
			tour := withReg(t, tournaments.Registration{})
			if err := tour.OpenRegistration(tournaments.Registration{}, true, now); err != nil {
				t.Fatal(err)
			}
			return tour
		}, 1, now, tournaments.CodeInviteInvalid},
		{"after it closes", func(t *testing.T) tournaments.Tournament {
			return withReg(t, tournaments.Registration{Closes: t0.Add(time.Hour)})
		}, 1, t0.Add(time.Hour), tournaments.CodeRegistrationClosed},
		{"after the start", func(t *testing.T) tournaments.Tournament { return withReg(t, tournaments.Registration{}) }, 1, t0.Add(day), tournaments.CodeRegistrationClosed},
		{"closed by the organiser", func(t *testing.T) tournaments.Tournament {
			tour := withReg(t, tournaments.Registration{})
			if err := tour.CloseRegistration(now); err != nil {
				t.Fatal(err)
			}
			return tour
		}, 1, now, tournaments.CodeRegistrationClosed},
		{"full", func(t *testing.T) tournaments.Tournament {
			tour := withReg(t, tournaments.Registration{Limit: 3})
			for _, p := range players(3) {
				if _, err := tour.Join(tournaments.Entrant{Player: p}, 0, 1, now); err != nil {
					t.Fatal(err)
				}
			}
			return tour
		}, 1, now, tournaments.CodeTournamentFull},
		{"twice", func(t *testing.T) tournaments.Tournament {
			tour := withReg(t, tournaments.Registration{})
			if _, err := tour.Join(tournaments.Entrant{Player: ann}, 5, 1, now); err != nil {
				t.Fatal(err)
			}
			return tour
		}, 1, now, tournaments.CodeAlreadyEntered},
		{"no registration", func(t *testing.T) tournaments.Tournament { return swiss4(t) }, 1, now, tournaments.CodeRegistrationClosed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour := tt.tour(t)
			before := len(tour.Entrants)
			_, err := tour.Join(tournaments.Entrant{Player: ann}, 5, tt.invite, tt.at)
			if domain.CodeOf(err) != tt.code {
				t.Fatalf("Join: %v, want %q", err, tt.code)
			}
			if err == nil && (len(tour.Entrants) != before+1 || tour.Log[len(tour.Log)-1].Action != tournaments.ActionJoined) {
				t.Errorf("after joining: %d entrants, log %+v", len(tour.Entrants), tour.Log)
			}
		})
	}
}

// Registration closes as the first round starts: a round robin is planned
// for the players who came, a Swiss event plays no more rounds than they
// can, and an event nobody joined is cancelled.
func TestRegistrationClosesAtTheStart(t *testing.T) {
	tests := []struct {
		format  tournaments.Format
		rounds  int
		joined  int
		want    int
		running bool
	}{
		{tournaments.RoundRobin, 0, 5, 5, true},
		{tournaments.DoubleRoundRobin, 0, 4, 6, true},
		{tournaments.Swiss, 5, 4, 3, true},
		{tournaments.Swiss, 2, 4, 2, true},
		{tournaments.RoundRobin, 0, 1, 1, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.format), func(t *testing.T) {
			tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Open", Format: tt.format, Rounds: tt.rounds,
				FirstStart: t0.Add(day), Interval: 2 * day, RoundLength: day, Registration: &tournaments.Registration{}}, "t_1", testCreator, t0, 7)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range players(tt.joined) {
				if _, err := tour.Join(tournaments.Entrant{Player: p}, 0, 1, t0); err != nil {
					t.Fatal(err)
				}
			}
			r, _, err := tour.StartRound(t0.Add(day))
			if err != nil {
				t.Fatal(err)
			}
			if (r != nil) != tt.running || len(tour.Rounds) != tt.want {
				t.Fatalf("round %v, %d rounds (want %d), status %s", r, len(tour.Rounds), tt.want, tour.Status)
			}
			if !tt.running && tour.Status != tournaments.TournamentCancelled {
				t.Errorf("an event of %d players is %s", tt.joined, tour.Status)
			}
			for i, r := range tour.Rounds {
				if want := t0.Add(day + time.Duration(i)*2*day); !r.Start.Equal(want) || r.Deadline.Sub(r.Start) != day {
					t.Errorf("round %d: %v – %v", i+1, r.Start, r.Deadline)
				}
			}
		})
	}
	if _, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Starts: []time.Time{t0.Add(day)}, RoundLength: day, Registration: &tournaments.Registration{}}, "t_1", testCreator, t0, 7); domain.CodeOf(err) != domain.CodeInvalidInput {
		t.Errorf("a round robin with registration and a list of starts: %v", err)
	}
	for _, reg := range []tournaments.Registration{{Closes: t0.Add(2 * day)}, {Closes: t0.Add(-time.Hour)}, {Limit: 1}, {Limit: 65}} {
		if _, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 1,
			FirstStart: t0.Add(day), Interval: day, Registration: &reg}, "t_1", testCreator, t0, 7); domain.CodeOf(err) != domain.CodeInvalidInput {
			t.Errorf("registration %+v: %v, want %s", reg, err, domain.CodeInvalidInput)
		}
	}
}

// Every control action on a running event, and what it refuses.
func TestTournamentControl(t *testing.T) {
	now := t0.Add(2 * time.Hour)
	tests := []struct {
		name   string
		act    func(*tournaments.Tournament) error
		code   string
		action string // logged
		check  func(*testing.T, *tournaments.Tournament)
	}{
		{"extend a game", func(tour *tournaments.Tournament) error { return tour.ExtendGame("g_1", day, "ill", now) }, "", tournaments.ActionDeadlineExtended,
			func(t *testing.T, tour *tournaments.Tournament) {
				r := tour.Rounds[0]
				for i, g := range r.Games {
					extended := g.GameID == "g_1"
					if got := r.GameDeadline(i).Sub(r.Deadline); (got == day) != extended {
						t.Errorf("game %s is adjudicated %v after the round", g.GameID, got)
					}
				}
			}},
		{"extend without a reason", func(tour *tournaments.Tournament) error { return tour.ExtendGame("g_1", day, "", now) }, domain.CodeInvalidInput, "", nil},
		{"extend a game of no round", func(tour *tournaments.Tournament) error { return tour.ExtendGame("g_9", day, "ill", now) }, domain.CodeNotFound, "", nil},
		{"extend by minutes", func(tour *tournaments.Tournament) error { return tour.ExtendGame("g_1", time.Minute, "ill", now) }, domain.CodeInvalidInput, "", nil},
		{"extend a decided game", func(tour *tournaments.Tournament) error {
			tour.RecordResult("g_1", whiteWins, now)
			return tour.ExtendGame("g_1", day, "ill", now)
		}, domain.CodeGameOver, "", nil},
		{"postpone the running round", func(tour *tournaments.Tournament) error { return tour.PostponeRound(1, day, "holiday", now) }, "", tournaments.ActionRoundPostponed,
			func(t *testing.T, tour *tournaments.Tournament) {
				base := swiss4(t)
				for i, r := range tour.Rounds {
					shift := r.Deadline.Sub(base.Rounds[i].Deadline)
					if shift != day || (i > 0 && r.Start.Sub(base.Rounds[i].Start) != day) {
						t.Errorf("round %d moved by %v", i+1, shift)
					}
				}
			}},
		{"postpone a round of none", func(tour *tournaments.Tournament) error { return tour.PostponeRound(4, day, "holiday", now) }, domain.CodeNotFound, "", nil},
		{"postpone a closed round", func(tour *tournaments.Tournament) error {
			tour.RecordResult("g_1", whiteWins, now)
			tour.RecordResult("g_2", whiteWins, now)
			if err := tour.CloseRound(now); err != nil {
				t.Fatal(err)
			}
			return tour.PostponeRound(1, day, "holiday", now)
		}, tournaments.CodeRoundNotChangeable, "", nil},
		{"pause", func(tour *tournaments.Tournament) error { return tour.Pause("", now) }, "", tournaments.ActionPaused,
			func(t *testing.T, tour *tournaments.Tournament) {
				if !tour.NextDue().IsZero() {
					t.Errorf("a paused event is due at %v", tour.NextDue())
				}
			}},
		{"pause twice", func(tour *tournaments.Tournament) error {
			if err := tour.Pause("", now); err != nil {
				t.Fatal(err)
			}
			return tour.Pause("", now)
		}, tournaments.CodeTournamentPaused, "", nil},
		{"resume", func(tour *tournaments.Tournament) error {
			if err := tour.Pause("", now); err != nil {
				t.Fatal(err)
			}
			_, err := tour.Resume("back", now.Add(3*day))
			return err
		}, "", tournaments.ActionResumed, func(t *testing.T, tour *tournaments.Tournament) {
			base := swiss4(t)
			if shift := tour.Rounds[0].Deadline.Sub(base.Rounds[0].Deadline); shift != 3*day {
				t.Errorf("the running round's deadline moved by %v, want the pause", shift)
			}
			if shift := tour.Rounds[2].Start.Sub(base.Rounds[2].Start); shift != 3*day {
				t.Errorf("round 3 moved by %v", shift)
			}
			if !tour.PausedAt.IsZero() || tour.NextDue().IsZero() {
				t.Errorf("after resuming: paused %v, due %v", tour.PausedAt, tour.NextDue())
			}
		}},
		{"resume a running event", func(tour *tournaments.Tournament) error { _, err := tour.Resume("", now); return err }, tournaments.CodeTournamentNotPaused, "", nil},
		{"override", func(tour *tournaments.Tournament) error {
			tour.RecordResult("g_1", whiteWins, now)
			return tour.Override(1, gameIndex(tour, "g_1"), 0, -2, false, "misclick", now)
		}, "", tournaments.ActionResultOverridden, func(t *testing.T, tour *tournaments.Tournament) {
			g := tour.Rounds[0].Games[gameIndex(tour, "g_1")]
			if g.Outcome.Score != 0 || g.Outcome.Margin != -2 || !g.Overridden {
				t.Errorf("overridden: %+v", g)
			}
			// The scheduler never overwrites the organiser's result.
			if tour.RecordResult("g_1", whiteWins, now) {
				t.Error("the game's result replaced the override")
			}
		}},
		{"override twice the same", func(tour *tournaments.Tournament) error {
			tour.RecordResult("g_1", whiteWins, now)
			for range 2 {
				if err := tour.Override(1, gameIndex(tour, "g_1"), 0, -2, false, "misclick", now); err != nil {
					return err
				}
			}
			return nil
		}, "", tournaments.ActionResultOverridden, func(t *testing.T, tour *tournaments.Tournament) {
			if len(tour.Log) != 1 {
				t.Errorf("the retry was logged again: %+v", tour.Log)
			}
		}},
		{"override a running game", func(tour *tournaments.Tournament) error {
			return tour.Override(1, gameIndex(tour, "g_1"), 1, 2, false, "x", now)
		}, tournaments.CodeRoundNotChangeable, "", nil},
		{"override with a wrong sign", func(tour *tournaments.Tournament) error {
			tour.RecordResult("g_1", whiteWins, now)
			return tour.Override(1, gameIndex(tour, "g_1"), 1, -2, false, "x", now)
		}, domain.CodeInvalidInput, "", nil},
		{"annul", func(tour *tournaments.Tournament) error {
			tour.RecordResult("g_1", whiteWins, now)
			return tour.Override(1, gameIndex(tour, "g_1"), 0, 0, true, "cheating", now)
		}, "", tournaments.ActionResultAnnulled, func(t *testing.T, tour *tournaments.Tournament) {
			for _, s := range tour.Standings() {
				if s.Played != 0 || s.Points != 0 {
					t.Errorf("an annulled game counts: %+v", s)
				}
			}
		}},
		{"late entry into Swiss", func(tour *tournaments.Tournament) error {
			_, err := tour.AddEntrant(tournaments.Entrant{Player: games.Player{Name: "Late", Email: "late@example.org"}}, "", now)
			return err
		}, "", tournaments.ActionEntrantAdded, func(t *testing.T, tour *tournaments.Tournament) {
			if len(tour.Entrants) != 5 || !strings.Contains(tour.Log[len(tour.Log)-1].Detail, "late entry") {
				t.Errorf("after a late entry: %d entrants, %+v", len(tour.Entrants), tour.Log)
			}
			tour.RecordResult("g_1", whiteWins, now)
			tour.RecordResult("g_2", whiteWins, now)
			if err := tour.CloseRound(now); err != nil {
				t.Fatal(err)
			}
			r, _, err := tour.StartRound(now.Add(2 * day))
			if err != nil {
				t.Fatal(err)
			}
			paired := false
			for _, g := range r.Games {
				paired = paired || g.White == 4 || g.Black == 4
			}
			if !paired {
				t.Errorf("the late entry is not paired in round 2: %+v", r.Games)
			}
		}},
		{"late entry with a taken address", func(tour *tournaments.Tournament) error {
			_, err := tour.AddEntrant(tournaments.Entrant{Player: games.Player{Name: "Again", Email: "p1@example.org"}}, "", now)
			return err
		}, tournaments.CodeAlreadyEntered, "", nil},
		{"replace before he played", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Sub"), Email: ptr("sub@example.org"), Replace: true, Reason: "ill"}, false, now)
		}, "", tournaments.ActionEntrantReplaced, func(t *testing.T, tour *tournaments.Tournament) {
			if e := tour.Entrants[1]; e.Email != "sub@example.org" || e.Name != "Sub" {
				t.Errorf("entrant 1 is %+v", e)
			}
		}},
		{"replace after he moved", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Sub"), Email: ptr("sub@example.org"), Replace: true, Reason: "ill"}, true, now)
		}, tournaments.CodeAlreadyPlayed, "", nil},
		{"replace without a reason", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Sub"), Email: ptr("sub@example.org"), Replace: true}, false, now)
		}, domain.CodeInvalidInput, "", nil},
		{"correct a name", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Paul")}, true, now)
		}, "", tournaments.ActionEntrantEdited, func(t *testing.T, tour *tournaments.Tournament) {
			if got := tour.Log[len(tour.Log)-1].Detail; got != "P1 is now called Paul" {
				t.Errorf("logged %q", got)
			}
		}},
		{"correct an address to another player's", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Email: ptr("p2@example.org"), Correction: true}, false, now)
		}, tournaments.CodeAlreadyEntered, "", nil},
		{"a replacement by his own address is none", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("P1"), Email: ptr("p1@example.org"), Replace: true, Reason: "ill"}, true, now)
		}, "", "", func(t *testing.T, tour *tournaments.Tournament) {
			if len(tour.Log) != 0 {
				t.Errorf("a replacement by the same player was logged: %+v", tour.Log)
			}
		}},
		{"a new address is a replacement", func(tour *tournaments.Tournament) error {
			tour.Entrants[1].UserID = 7
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Sub"), Email: ptr("sub@example.org"), Reason: "ill"}, false, now)
		}, "", tournaments.ActionEntrantReplaced, func(t *testing.T, tour *tournaments.Tournament) {
			if e := tour.Entrants[1]; e.Email != "sub@example.org" || e.Name != "Sub" || e.UserID != 0 {
				t.Errorf("entrant 1 is %+v; want Sub, without P1's account", e)
			}
		}},
		{"a new address without a reason", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Sub"), Email: ptr("sub@example.org")}, false, now)
		}, domain.CodeInvalidInput, "", nil},
		{"a new address without the newcomer's name", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Email: ptr("sub@example.org"), Reason: "ill"}, false, now)
		}, domain.CodeInvalidInput, "", nil},
		{"a new address after he moved", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Sub"), Email: ptr("sub@example.org"), Reason: "ill"}, true, now)
		}, tournaments.CodeAlreadyPlayed, "", nil},
		{"a new address after he played a round", func(tour *tournaments.Tournament) error {
			p1 := tour.Rounds[0].Games[gameIndexOf(tour, 1)].GameID
			tour.RecordResult(p1, whiteWins, now)
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Sub"), Email: ptr("sub@example.org"), Reason: "ill"}, false, now)
		}, tournaments.CodeAlreadyPlayed, "", nil},
		{"the same address, differently written, is no replacement", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Paul"), Email: ptr("P1@Example.ORG")}, true, now)
		}, "", tournaments.ActionEntrantEdited, nil},
		{"correct an address before he moved", func(tour *tournaments.Tournament) error {
			tour.Entrants[1].UserID = 7
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Email: ptr("p1@example.net"), Correction: true}, false, now)
		}, "", tournaments.ActionEntrantEdited, func(t *testing.T, tour *tournaments.Tournament) {
			e, was := tour.Entrants[1], swiss4(t).Entrants[1]
			if e.Email != "p1@example.net" || e.Name != "P1" || e.UserID != 7 || e.Locale != was.Locale {
				t.Errorf("entrant 1 is %+v; want P1 at his new address, with his account and language", e)
			}
			if got := tour.Log[len(tour.Log)-1].Detail; got != "the address of P1 was corrected" {
				t.Errorf("logged %q", got)
			}
		}},
		{"correct a name and an address", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("Paul"), Email: ptr("p1@example.net"), Correction: true}, false, now)
		}, "", tournaments.ActionEntrantEdited, func(t *testing.T, tour *tournaments.Tournament) {
			n := len(tour.Log)
			if n < 2 || tour.Log[n-2].Detail != "P1 is now called Paul" || tour.Log[n-1].Detail != "the address of Paul was corrected" {
				t.Errorf("logged %+v", tour.Log)
			}
		}},
		{"correct an address after he moved", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Email: ptr("p1@example.net"), Correction: true}, true, now)
		}, tournaments.CodeAlreadyPlayed, "", nil},
		{"change nothing", func(tour *tournaments.Tournament) error {
			version := tour.Version
			if err := tour.UpdateEntrant(1, tournaments.EntrantChange{Name: ptr("P1")}, true, now); err != nil {
				return err
			}
			if tour.Version != version {
				t.Errorf("a change to nothing moved the version to %d", tour.Version)
			}
			return nil
		}, "", "", nil},
		{"withdraw under forfeit", func(tour *tournaments.Tournament) error {
			_, err := tour.Withdraw(1, tournaments.WithdrawForfeit, tournaments.ByPlayer("P1"), "", now)
			return err
		}, "", tournaments.ActionWithdrawn, func(t *testing.T, tour *tournaments.Tournament) {
			if tour.Entrants[1].Annulled {
				t.Error("a forfeit annulled his games")
			}
		}},
		{"withdraw under an unknown policy", func(tour *tournaments.Tournament) error {
			_, err := tour.Withdraw(1, "vanish", tournaments.ByOrganiser, "", now)
			return err
		}, domain.CodeInvalidInput, "", nil},
		{"cancel keeps finished games", func(tour *tournaments.Tournament) error {
			tour.RecordResult("g_1", whiteWins, now)
			return tour.Cancel(tournaments.ByOrganiser, "venue lost", now)
		}, "", tournaments.ActionCancelled, func(t *testing.T, tour *tournaments.Tournament) {
			if tour.Rounds[0].Status != tournaments.RoundClosed || tour.Status != tournaments.TournamentCancelled {
				t.Errorf("after cancelling: round 1 %s, %s", tour.Rounds[0].Status, tour.Status)
			}
			if len(tour.Outcomes()) != 1 {
				t.Errorf("outcomes after cancelling: %+v", tour.Outcomes())
			}
		}},
		{"act on a cancelled event", func(tour *tournaments.Tournament) error {
			if err := tour.Cancel(tournaments.ByOrganiser, "", now); err != nil {
				t.Fatal(err)
			}
			return tour.PostponeRound(2, day, "x", now)
		}, domain.CodeTournamentOver, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour := started(t)
			version, logged := tour.Version, len(tour.Log)
			err := tt.act(&tour)
			if domain.CodeOf(err) != tt.code {
				t.Fatalf("%v, want %q", err, tt.code)
			}
			if tt.action != "" {
				if len(tour.Log) == logged || tour.Log[len(tour.Log)-1].Action != tt.action || tour.Version == version {
					t.Fatalf("the log %+v (version %d), want %s last", tour.Log, tour.Version, tt.action)
				}
				if e := tour.Log[len(tour.Log)-1]; e.At.IsZero() || e.By.Role == "" || e.Detail == "" {
					t.Errorf("the log entry %+v", e)
				}
			}
			if tt.check != nil {
				tt.check(t, &tour)
			}
		})
	}
}

// gameIndexOf is the index of entrant's pairing in round 1.
func gameIndexOf(tour *tournaments.Tournament, entrant int) int {
	for i, g := range tour.Rounds[0].Games {
		if g.White == entrant || g.Black == entrant {
			return i
		}
	}
	return -1
}

func gameIndex(tour *tournaments.Tournament, id string) int {
	for i, g := range tour.Rounds[0].Games {
		if g.GameID == id {
			return i
		}
	}
	return -1
}

// The annul policy annuls a withdrawn player's games only while he has
// played fewer than half of the rounds (as chess events do).
func TestWithdrawAnnulPolicy(t *testing.T) {
	now := t0.Add(2 * time.Hour)
	for _, tt := range []struct {
		name    string
		rounds  int // played before he withdraws
		annuled bool
	}{
		{"after 1 of 3 rounds", 1, true},
		{"after 2 of 3 rounds", 2, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tour := started(t)
			for r := range tt.rounds {
				if r > 0 {
					round, toPlay, err := tour.StartRound(now)
					if err != nil {
						t.Fatal(err)
					}
					for n, i := range toPlay {
						round.Games[i].GameID = fmt.Sprintf("r%d_%d", round.Number, n)
					}
				}
				for _, g := range tour.Current().Games {
					tour.RecordResult(g.GameID, whiteWins, now)
				}
				if err := tour.CloseRound(now); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := tour.Withdraw(0, tournaments.WithdrawAnnul, tournaments.ByOrganiser, "", now); err != nil {
				t.Fatal(err)
			}
			if tour.Entrants[0].Annulled != tt.annuled {
				t.Fatalf("annulled %t, want %t: %s", tour.Entrants[0].Annulled, tt.annuled, tour.Log[len(tour.Log)-1].Detail)
			}
			for _, s := range tour.Standings() {
				if s.Player == 0 && (s.Played == 0) != tt.annuled {
					t.Errorf("his standing %+v", s)
				}
			}
		})
	}
}

// Before the first round a withdrawal takes the player off the list.
func TestWithdrawBeforeTheStart(t *testing.T) {
	tour := swiss4(t)
	if _, err := tour.Withdraw(2, "", tournaments.ByPlayer("P2"), "", t0); err != nil {
		t.Fatal(err)
	}
	if len(tour.Entrants) != 3 || tour.Entrants[2].Name != "P3" || tour.Log[0].Action != tournaments.ActionLeft {
		t.Errorf("after leaving: %+v, log %+v", tour.Entrants, tour.Log)
	}
}

// A round whose games are all decided is due at once, to be closed; one
// with a game to adjudicate, at the reminder of that game's deadline, then
// at the deadline.
func TestRoundDueWhenDecided(t *testing.T) {
	tour := started(t)
	now := t0.Add(2 * time.Hour)
	r := &tour.Rounds[0]
	if !tour.NextDue().Equal(r.ReminderAt(0)) || !r.ReminderAt(0).Before(r.Deadline) {
		t.Errorf("a round under way is due at %v, want its deadline's reminder %v", tour.NextDue(), r.ReminderAt(0))
	}
	r.Games[0].Reminded, r.Games[1].Reminded = true, true
	if !tour.NextDue().Equal(r.Deadline) {
		t.Errorf("a round reminded is due at %v, want its deadline", tour.NextDue())
	}
	tour.RecordResult("g_1", whiteWins, now)
	if err := tour.ExtendGame("g_2", day, "ill", now); err != nil {
		t.Fatal(err)
	}
	if !tour.NextDue().Equal(r.Deadline.Add(day)) {
		t.Errorf("with g_2 extended the round is due at %v", tour.NextDue())
	}
	tour.RecordResult("g_2", whiteWins, now)
	if due := tour.NextDue(); due.After(now) {
		t.Errorf("a round with every game decided is due at %v, after now", due)
	}
}
