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

func players(n int) []games.Player {
	var out []games.Player
	for i := range n {
		out = append(out, games.Player{Name: fmt.Sprintf("P%d", i), Email: fmt.Sprintf("p%d@example.org", i)})
	}
	return out
}

func TestCreateTournament(t *testing.T) {
	first := t0.Add(time.Hour)
	day := 24 * time.Hour
	tests := []struct {
		name   string
		spec   tournaments.NewTournamentSpec
		rounds int
		ok     bool
	}{
		{"round robin of 5", tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin, Players: players(5), FirstStart: first, Interval: 3 * day}, 5, true},
		{"double round robin of 4", tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.DoubleRoundRobin, Players: players(4), FirstStart: first, Interval: day}, 6, true},
		{"swiss", tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 3, Players: players(6),
			Starts: []time.Time{first, first.Add(2 * day), first.Add(4 * day)}, RoundLength: day}, 3, true},
		{"too many swiss rounds", tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 6, Players: players(6), FirstStart: first, Interval: day}, 0, false},
		{"one player", tournaments.NewTournamentSpec{Name: "Solo", Format: tournaments.RoundRobin, Players: players(1), FirstStart: first, Interval: day}, 0, false},
		{"same email twice", tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin, Players: append(players(2), players(1)...), FirstStart: first, Interval: day}, 0, false},
		{"no schedule", tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin, Players: players(2)}, 0, false},
		{"starts in the past", tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin, Players: players(2), Starts: []time.Time{t0.Add(-day)}, RoundLength: day}, 0, false},
		{"round longer than the gap", tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 2, Players: players(4),
			Starts: []time.Time{first, first.Add(day)}, RoundLength: 2 * day}, 0, false},
		{"unknown format", tournaments.NewTournamentSpec{Name: "Cup", Format: "ladder", Players: players(4), FirstStart: first, Interval: day}, 0, false},
		{"name with a newline", tournaments.NewTournamentSpec{Name: "Cup\nBcc: x", Format: tournaments.RoundRobin, Players: players(2), FirstStart: first, Interval: day}, 0, false},
		// The limit is MaxNameLength characters, not a person's name's.
		{"longest name", tournaments.NewTournamentSpec{Name: strings.Repeat("é", tournaments.MaxNameLength), Format: tournaments.RoundRobin, Players: players(2), FirstStart: first, Interval: day}, 1, true},
		{"name too long", tournaments.NewTournamentSpec{Name: strings.Repeat("é", tournaments.MaxNameLength+1), Format: tournaments.RoundRobin, Players: players(2), FirstStart: first, Interval: day}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour, err := tournaments.CreateTournament(tt.spec, "t_1", testCreator, t0, 100)
			if (err == nil) != tt.ok {
				t.Fatalf("CreateTournament: %v", err)
			}
			if err != nil {
				return
			}
			if len(tour.Rounds) != tt.rounds || tour.Status != tournaments.TournamentScheduled {
				t.Fatalf("%d rounds, status %s", len(tour.Rounds), tour.Status)
			}
			for i, r := range tour.Rounds {
				if r.Seed != 100+uint64(i) || !r.Deadline.After(r.Start) || (i > 0 && r.Start.Before(tour.Rounds[i-1].Deadline)) {
					t.Errorf("round %d: %+v", i+1, r)
				}
			}
			if !tour.NextDue().Equal(tour.Rounds[0].Start) {
				t.Errorf("next due %v", tour.NextDue())
			}
		})
	}
}

// A round of a round robin: games to create for live pairings, a bye as a
// win, and a closed round counted in the standings.
func TestTournamentRounds(t *testing.T) {
	tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players: players(3), FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, "t_1", testCreator, t0, 7)
	if err != nil {
		t.Fatal(err)
	}
	r, toPlay, err := tour.StartRound(t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Games) != 2 || len(toPlay) != 1 || tour.Status != tournaments.TournamentRunning {
		t.Fatalf("round 1: %+v, to play %v", r.Games, toPlay)
	}
	spec := tour.GameSpec(r, toPlay[0])
	if *spec.Seed != 7 || len(spec.Players) != 2 {
		t.Errorf("game spec %+v", spec)
	}
	r.Games[toPlay[0]].GameID = "g_1"
	win := ruleset.Result{Reason: string(less.ReasonComplete), Winners: []string{black}, Winner: int(less.SideBlack), Margin: 4}
	if !tour.RecordResult("g_1", win, t0.Add(2*time.Hour)) {
		t.Fatal("the result of g_1 was not recorded")
	}
	if err := tour.CloseRound(t0.Add(2 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	o := tour.Rounds[0].Games[toPlay[0]].Outcome
	if o.Score != 0 || o.Margin != -4 {
		t.Errorf("outcome %+v, want Black by 4", o)
	}
	st := tour.Standings()
	if st[0].Points != 1 {
		t.Errorf("standings %+v", st)
	}
	if _, err := tour.Withdraw(9, tournaments.WithdrawForfeit, tournaments.ByOrganiser, "", t0); err == nil {
		t.Error("withdrew a player who does not exist")
	}
}

// A round must last at least one turn's time of its games (a per-turn
// control's turn, a bank's initial time), and a knockout's deciding game
// too: else its unfinished games are adjudicated before a player could use
// the time he was promised, from the start if nobody moved. A round's own
// time control is held to its round; one listed for a round that a round
// robin with registration has not planned yet, to the rounds' common
// length.
func TestRoundsOutlastATurn(t *testing.T) {
	first := t0.Add(time.Hour)
	perTurn := func(d time.Duration) games.TimeControl {
		return games.TimeControl{Kind: games.TimePerTurn, PerTurn: d}
	}
	bank := games.TimeControl{Kind: games.TimeBank, Initial: 240 * time.Hour, Increment: 36 * time.Hour}
	swiss := func(interval time.Duration, tc games.TimeControl, rounds ...games.TimeControl) tournaments.NewTournamentSpec {
		return tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 3, Players: players(4), FirstStart: first,
			Interval: interval, Time: tc, RoundTimes: rounds}
	}
	tests := []struct {
		name string
		spec tournaments.NewTournamentSpec
		want string // "" accepted; else a part of the refusal
	}{
		{"rounds of a day, turns of 3 days", swiss(day, perTurn(3*day)), "round 1 lasts 1 day, less than one turn's time (3 days)"},
		{"rounds as long as a turn", swiss(3*day, perTurn(3*day)), ""},
		{"rounds shorter than the bank", swiss(7*day, bank), "round 1 lasts 7 days, less than one turn's time (10 days)"},
		{"rounds as long as the bank", swiss(10*day, bank), ""},
		{"no clock, hourly rounds", swiss(time.Hour, games.TimeControl{}), ""},
		{"a round's own longer turns", swiss(3*day, perTurn(day), games.TimeControl{}, perTurn(5*day)), "round 2 lasts 3 days, less than one turn's time (5 days)"},
		{"a round's own shorter turns", swiss(day, perTurn(3*day), perTurn(day), perTurn(day), perTurn(day)), ""},
		{"a round's own listed starts", tournaments.NewTournamentSpec{Name: "Open", Format: tournaments.Swiss, Rounds: 2, Players: players(4),
			Starts: []time.Time{first, first.Add(5 * day)}, RoundLength: 2 * day, Time: perTurn(day), RoundTimes: []games.TimeControl{{}, perTurn(3 * day)}},
			"round 2 lasts 2 days"},
		{"a round not planned before registration closes", tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
			FirstStart: first.Add(day), Interval: 2 * day, Time: perTurn(day), Registration: &tournaments.Registration{},
			RoundTimes: []games.TimeControl{{}, {}, {}, {}, perTurn(3 * day)}}, "round 5 (planned if more players sign up) lasts 2 days"},
		{"rounds a registration may add, under the tournament's time", tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
			Players: players(3), FirstStart: first, Interval: 3 * day, Time: perTurn(5 * day),
			RoundTimes: []games.TimeControl{perTurn(day), perTurn(day), perTurn(day)}}, "round 4 (planned if more players sign up) lasts 3 days"},
		{"a deciding game shorter than a turn", tournaments.NewTournamentSpec{Name: "KO", Format: tournaments.Knockout, Players: players(4),
			FirstStart: first, Interval: 4 * day, Time: perTurn(3 * day), TiebreakLength: day}, "a deciding game lasts 1 day"},
		{"a deciding game as long as a turn", tournaments.NewTournamentSpec{Name: "KO", Format: tournaments.Knockout, Players: players(4),
			FirstStart: first, Interval: 4 * day, Time: perTurn(3 * day), TiebreakLength: 3 * day}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tournaments.CreateTournament(tt.spec, "t_1", testCreator, t0, 7)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (domain.CodeOf(err) != domain.CodeInvalidInput || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("CreateTournament: %v; want %s saying %q", err, domain.CodeInvalidInput, tt.want)
			}
		})
	}
}
