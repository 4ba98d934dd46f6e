package games_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
)

const day = 24 * time.Hour

func timedGame(t *testing.T, players []games.Player, tc games.TimeControl, away games.Away) games.Game {
	t.Helper()
	walls := openWalls
	if len(players) == 4 {
		walls = strings.Repeat("0", 112)
	}
	created, err := games.CreateGame(games.NewGameSpec{Players: players, Time: tc, Params: less.Params{Walls: walls}.Map()},
		testGameID, testCreator, t0, randomSeed, away)
	if err != nil {
		t.Fatal(err)
	}
	return created.Game
}

func notDue(err error) bool {
	var de *domain.Error
	return errors.As(err, &de) && de.Code == "not_due"
}

func TestTimeControlNormalize(t *testing.T) {
	tests := []struct {
		name    string
		tc      games.TimeControl
		players int
		ok      bool
	}{
		{"none", games.TimeControl{}, 2, true},
		{"3 days per turn", games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * day}, 2, true},
		{"too short", games.TimeControl{Kind: games.TimePerTurn, PerTurn: time.Minute}, 2, false},
		{"too long", games.TimeControl{Kind: games.TimePerTurn, PerTurn: 90 * day}, 2, false},
		{"little golem bank", games.TimeControl{Kind: games.TimeBank, Initial: 240 * time.Hour, Increment: 36 * time.Hour, Cap: 240 * time.Hour}, 2, true},
		{"cap below initial", games.TimeControl{Kind: games.TimeBank, Initial: 10 * day, Cap: day}, 2, false},
		{"pass in 2p", games.TimeControl{Kind: games.TimePerTurn, PerTurn: day, Timeout: games.TimeoutPass}, 2, false},
		{"pass in 4p", games.TimeControl{Kind: games.TimePerTurn, PerTurn: day, Timeout: games.TimeoutPass}, 4, true},
		{"unknown kind", games.TimeControl{Kind: "blitz"}, 2, false},
		{"bad reminder", games.TimeControl{Kind: games.TimePerTurn, PerTurn: day, Reminders: []time.Duration{-time.Hour}}, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.tc.Normalize(tt.players)
			if (err == nil) != tt.ok {
				t.Fatalf("Normalize: %v", err)
			}
			if err == nil && got.Kind != games.TimeNone && (len(got.Reminders) == 0 || got.Timeout == "") {
				t.Errorf("defaults not filled in: %+v", got)
			}
		})
	}
	tc, _ := games.TimeControl{Kind: games.TimePerTurn, PerTurn: day}.Normalize(4)
	if tc.Timeout != games.TimeoutPass || tc.Reminders[0] != 24*time.Hour || tc.Reminders[1] != time.Hour {
		t.Errorf("4p defaults %+v", tc)
	}
}

// A reminder fires once and only once; a second run finds nothing due.
func TestReminderOnce(t *testing.T) {
	g := timedGame(t, twoPlayers(), games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * day}, nil)
	deadline := t0.Add(3 * day)
	if !g.Clock.Deadline.Equal(deadline) || !g.Clock.NextDue().Equal(deadline.Add(-24*time.Hour)) {
		t.Fatalf("deadline %v, next due %v", g.Clock.Deadline, g.Clock.NextDue())
	}
	if _, err := games.Tick(g, deadline.Add(-25*time.Hour)); !notDue(err) {
		t.Fatalf("tick before the reminder: %v", err)
	}
	sub, err := games.Tick(g, deadline.Add(-23*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Notices) != 1 || sub.Notices[0].Kind != domain.NoticeReminder || sub.Notices[0].Color != white {
		t.Fatalf("notices %+v", sub.Notices)
	}
	if _, err := games.Tick(sub.Game, deadline.Add(-23*time.Hour)); !notDue(err) {
		t.Fatalf("second tick: %v", err)
	}
	if !sub.Game.Clock.NextDue().Equal(deadline.Add(-time.Hour)) {
		t.Errorf("next due %v, want the 1 h reminder", sub.Game.Clock.NextDue())
	}
	// Late: both reminders are overdue; one email stands for them.
	late, err := games.Tick(g, deadline.Add(-30*time.Minute))
	if err != nil || late.Game.Clock.NextDue() != deadline {
		t.Errorf("late tick: %v, next due %v", err, late.Game.Clock.NextDue())
	}
}

// A two-player time-out ends the game: the side to move loses by at least
// 10 (E8), and both players are emailed.
func TestTimeOutTwoPlayers(t *testing.T) {
	g := timedGame(t, twoPlayers(), games.TimeControl{Kind: games.TimePerTurn, PerTurn: day}, nil)
	if _, err := games.TimeOut(g, t0.Add(day-time.Second)); !notDue(err) {
		t.Fatalf("time-out before the deadline: %v", err)
	}
	sub, err := games.Tick(g, t0.Add(day))
	if err != nil {
		t.Fatal(err)
	}
	r := stateOf(t, sub.Game).Result
	if r == nil || r.Reason != less.ReasonTimeout || r.Loser != less.SideWhite || r.Winner != less.SideBlack || r.Margin < 10 {
		t.Fatalf("result %+v", r)
	}
	if len(sub.Notices) != 2 || sub.Notices[0].Kind != domain.NoticeGameOver {
		t.Errorf("notices %+v", sub.Notices)
	}
	if !sub.Game.Clock.Deadline.IsZero() || !sub.Game.Clock.NextDue().IsZero() {
		t.Error("the clock runs on after the end")
	}
}

// A four-player time-out passes the turn (it counts 3); a team's second
// time-out in a row forfeits.
func TestTimeOutFourPlayers(t *testing.T) {
	g := timedGame(t, fourPlayers(), games.TimeControl{Kind: games.TimePerTurn, PerTurn: day}, nil)
	now := t0.Add(day)
	sub, err := games.TimeOut(g, now)
	if err != nil {
		t.Fatal(err)
	}
	g = sub.Game
	st := stateOf(t, g)
	if g.Over() || st.Position.ToMove() != less.Black || st.Counts[less.Yellow] != 3 {
		t.Fatalf("after Yellow's time-out: over %v, to move %s, counts %v", g.Over(), st.Position.ToMove(), st.Counts)
	}
	if len(sub.Played) != 1 || !sub.Played[0].TimedOut || sub.Notices[0].Kind != domain.NoticeYourTurn || sub.Notices[0].Color != black {
		t.Fatalf("played %+v, notices %+v", sub.Played, sub.Notices)
	}
	if !g.Clock.Deadline.Equal(now.Add(day)) {
		t.Errorf("Black's deadline %v", g.Clock.Deadline)
	}
	// Black plays; White (Yellow's partner) times out: the team's second in a row.
	sub, err = games.SubmitTurn(g, seatActor(black), st.Ply, "a1a3:a3a4:a2a3", now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	g = sub.Game
	sub, err = games.TimeOut(g, g.Clock.Deadline)
	if err != nil {
		t.Fatal(err)
	}
	r := stateOf(t, sub.Game).Result
	if r == nil || r.Reason != less.ReasonTimeout || r.Loser != less.SideWhite {
		t.Fatalf("after the team's second time-out: %+v", r)
	}
}

// A vacation moves the deadline of the player on vacation by the time it
// covers; a game that disallows vacations ignores it.
func TestVacationMovesDeadlines(t *testing.T) {
	const whiteSeat = 0 // White's seat in turn order: White, Black
	away := games.Away{whiteSeat: {{Start: t0.Add(day), End: t0.Add(3 * day)}}}
	tc := games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * day, AllowVacation: true}
	g := timedGame(t, twoPlayers(), tc, away)
	if i := g.SeatIndex(white); i != whiteSeat {
		t.Fatalf("White's seat is %d, want %d", i, whiteSeat)
	}
	if want := t0.Add(5 * day); !g.Clock.Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v (two days of vacation added)", g.Clock.Deadline, want)
	}
	tc.AllowVacation = false
	if g := timedGame(t, twoPlayers(), tc, away); !g.Clock.Deadline.Equal(t0.Add(3 * day)) {
		t.Errorf("vacations counted in a game that disallows them: %v", g.Clock.Deadline)
	}
	// Declared later: WithVacations moves the running deadline.
	tc.AllowVacation = true
	g = timedGame(t, twoPlayers(), tc, nil)
	moved := games.WithVacations(g, away)
	if !moved.Clock.Deadline.Equal(t0.Add(5*day)) || moved.Version != g.Version+1 {
		t.Errorf("refreshed deadline %v, version %d (was %d)", moved.Clock.Deadline, moved.Version, g.Version)
	}
	// Black's vacation leaves White's deadline, but not the version: a turn
	// computed before it must be computed again.
	const blackSeat = 1
	kept := games.WithVacations(g, games.Away{blackSeat: away[whiteSeat]})
	if !kept.Clock.Deadline.Equal(g.Clock.Deadline) || kept.Version != g.Version+1 {
		t.Errorf("after Black's vacation: deadline %v (was %v), version %d (was %d)",
			kept.Clock.Deadline, g.Clock.Deadline, kept.Version, g.Version)
	}
}

// A time bank is charged with the time used (not the vacation) and gets
// the increment, up to the cap.
func TestTimeBank(t *testing.T) {
	tc := games.TimeControl{Kind: games.TimeBank, Initial: 10 * day, Increment: 36 * time.Hour, Cap: 10 * day}
	g := timedGame(t, twoPlayers(), tc, nil)
	if !g.Clock.Deadline.Equal(t0.Add(10 * day)) {
		t.Fatalf("first deadline %v", g.Clock.Deadline)
	}
	sub, err := games.SubmitTurn(g, seatActor(white), 0, firstTurn, t0.Add(4*day))
	if err != nil {
		t.Fatal(err)
	}
	if got := sub.Game.Clock.Banks[sub.Game.SeatIndex(white)]; got != 10*day-4*day+36*time.Hour {
		t.Errorf("White's bank %v", got)
	}
	if !sub.Game.Clock.Deadline.Equal(t0.Add(4*day + 10*day)) {
		t.Errorf("Black's deadline %v", sub.Game.Clock.Deadline)
	}
	// A quick turn cannot raise the bank above the cap.
	sub, err = games.SubmitTurn(sub.Game, seatActor(black), 1, "a1a3:a3a4:a2a3", t0.Add(4*day+time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got := sub.Game.Clock.Banks[sub.Game.SeatIndex(black)]; got != 10*day {
		t.Errorf("Black's bank %v, want the cap", got)
	}
}

func TestCheckVacation(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	existing := []games.Period{{Start: now.Add(10 * day), End: now.Add(20 * day)}} // 10 days
	tests := []struct {
		name string
		p    games.Period
		ok   bool
	}{
		{"fits", games.Period{Start: now.Add(30 * day), End: now.Add(34 * day)}, true},
		{"too long for the year", games.Period{Start: now.Add(30 * day), End: now.Add(35*day + time.Hour)}, false},
		{"overlaps", games.Period{Start: now.Add(19 * day), End: now.Add(21 * day)}, false},
		{"in the past", games.Period{Start: now.Add(-day), End: now.Add(day)}, false},
		{"backwards", games.Period{Start: now.Add(5 * day), End: now.Add(4 * day)}, false},
		{"next year has its own days", games.Period{Start: now.Add(320 * day), End: now.Add(334 * day)}, true},
	}
	for _, tt := range tests {
		if err := games.CheckVacation(tt.p, existing, games.DefaultVacationDays, now); (err == nil) != tt.ok {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if left := games.VacationDaysLeft(existing, 14, now); left != 4 {
		t.Errorf("days left %d, want 4", left)
	}
}

// A paused tournament halts its games' clocks: time in the pause does not
// count against the player to move, whether he moves during it or after,
// with a time per turn or a bank.
func TestHaltClock(t *testing.T) {
	bank := games.TimeControl{Kind: games.TimeBank, Initial: 5 * day, Increment: day, Cap: 10 * day}
	for _, tc := range []games.TimeControl{{Kind: games.TimePerTurn, PerTurn: 3 * day}, bank} {
		t.Run(string(tc.Kind), func(t *testing.T) {
			g := timedGame(t, twoPlayers(), tc, nil)
			deadline := g.Clock.Deadline
			halted, changed := games.HaltClock(g, t0.Add(day))
			if !changed || !halted.Clock.Deadline.IsZero() || !halted.Clock.NextDue().IsZero() {
				t.Fatalf("halted clock: %+v", halted.Clock)
			}
			if _, again := games.HaltClock(halted, t0.Add(day)); again {
				t.Error("halted twice")
			}
			if _, err := games.Tick(halted, deadline.Add(time.Hour)); !notDue(err) {
				t.Errorf("a halted game timed out: %v", err)
			}
			resumed, changed := games.ResumeClock(halted, t0.Add(3*day))
			if !changed || !resumed.Clock.Deadline.Equal(deadline.Add(2*day)) {
				t.Fatalf("after a 2-day pause the deadline is %v, want %v", resumed.Clock.Deadline, deadline.Add(2*day))
			}
			// White moves a day after the pause: he used 2 days of his own.
			sub, err := games.SubmitTurn(resumed, seatActor(white), 0, firstTurn, t0.Add(4*day))
			if err != nil {
				t.Fatal(err)
			}
			if tc.Kind == games.TimeBank && sub.Game.Clock.Banks[0] != 5*day-2*day+day {
				t.Errorf("White's bank is %v, want 4 days", sub.Game.Clock.Banks[0])
			}
			if len(sub.Game.Clock.Halts) != 0 {
				t.Errorf("the pause outlived the turn: %+v", sub.Game.Clock.Halts)
			}
			// A turn that starts during a pause starts halted.
			paused, _ := games.HaltClock(resumed, t0.Add(3*day+time.Hour))
			sub, err = games.SubmitTurn(paused, seatActor(white), 0, firstTurn, t0.Add(4*day))
			if err != nil {
				t.Fatal(err)
			}
			if !sub.Game.Clock.Deadline.IsZero() {
				t.Fatalf("Black's turn began in a pause with a deadline %v", sub.Game.Clock.Deadline)
			}
			after, _ := games.ResumeClock(sub.Game, t0.Add(5*day))
			if want := t0.Add(5 * day).Add(after.Clock.Control.PerTurn); tc.Kind == games.TimePerTurn && !after.Clock.Deadline.Equal(want) {
				t.Errorf("Black's deadline after the pause is %v, want %v", after.Clock.Deadline, want)
			}
		})
	}
}

// An organiser's extension gives the player to move more time this turn.
func TestExtendTurn(t *testing.T) {
	g := timedGame(t, twoPlayers(), games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * day}, nil)
	deadline := g.Clock.Deadline
	ext, changed := games.ExtendTurn(g, day, t0.Add(time.Hour))
	if !changed || !ext.Clock.Deadline.Equal(deadline.Add(day)) {
		t.Fatalf("extended deadline %v, want %v", ext.Clock.Deadline, deadline.Add(day))
	}
	sub, err := games.SubmitTurn(ext, seatActor(white), 0, firstTurn, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := t0.Add(2*time.Hour + 3*day); !sub.Game.Clock.Deadline.Equal(want) {
		t.Errorf("the next turn's deadline %v, want %v: the extension was for one turn", sub.Game.Clock.Deadline, want)
	}
	untimed := timedGame(t, twoPlayers(), games.TimeControl{}, nil)
	if _, changed := games.ExtendTurn(untimed, day, t0); changed {
		t.Error("extended a game without a clock")
	}
}
