package games

import (
	"fmt"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// TimeKind is how a game keeps time.
type TimeKind string

const (
	TimeNone    TimeKind = "none"     // casual: no deadlines
	TimePerTurn TimeKind = "per_turn" // a fixed time for every turn
	TimeBank    TimeKind = "bank"     // each player's own bank, with an increment per turn
)

// TimeoutPolicy is what happens when a player's time runs out.
type TimeoutPolicy string

const (
	// TimeoutForfeit ends the game: the side of the player loses on time
	// (E8). It is the only policy of two-player games.
	TimeoutForfeit TimeoutPolicy = "forfeit"
	// TimeoutPass passes the player's turn (it counts 3, T4); a team whose
	// players time out twice in a row forfeits. Four-player games only.
	TimeoutPass TimeoutPolicy = "pass"
)

// PerTurnPresets are the usual days per turn of correspondence play.
var PerTurnPresets = []int{1, 2, 3, 5, 7, 10, 14}

// LastReminder is how long before his deadline a player gets the last
// reminder email by default; the calendar feed's alarm rings then too.
const LastReminder = time.Hour

// DefaultReminders are when a player is reminded before his deadline.
var DefaultReminders = []time.Duration{24 * time.Hour, LastReminder}

// maxTimeouts is how many time-outs in a row a team may have before it
// forfeits under TimeoutPass.
const maxTimeouts = 2

// TimeControl is a game's time rules.
type TimeControl struct {
	Kind    TimeKind
	PerTurn time.Duration // TimePerTurn
	// TimeBank: the bank each player starts with, what every turn adds, and
	// the most a bank can hold (as Little Golem's 240 h + 36 h per move).
	Initial, Increment, Cap time.Duration
	// Reminders are durations before the deadline, largest first.
	Reminders []time.Duration
	Timeout   TimeoutPolicy
	// AllowVacation lets players' declared vacations move their deadlines.
	AllowVacation bool
}

// Bounds of a time control, so that a typo cannot make a game last a century.
const (
	minTurnTime = time.Hour
	MaxTurnTime = 60 * 24 * time.Hour
	MaxBank     = 365 * 24 * time.Hour
)

// Normalize checks the control for a game of n players and fills in the
// defaults: reminders 24 h and 1 h before, the time-out policy of the player
// count, vacations allowed.
func (tc TimeControl) Normalize(players int) (TimeControl, error) {
	bad := func(format string, args ...any) (TimeControl, error) {
		return TimeControl{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "time control: "+format, args...)
	}
	switch tc.Kind {
	case "", TimeNone:
		return TimeControl{Kind: TimeNone}, nil
	case TimePerTurn:
		if tc.PerTurn < minTurnTime || tc.PerTurn > MaxTurnTime {
			return bad("the time per turn is %v; it must be between 1 hour and 60 days", tc.PerTurn)
		}
	case TimeBank:
		if tc.Initial < minTurnTime || tc.Initial > MaxBank {
			return bad("the initial bank is %v; it must be between 1 hour and 365 days", tc.Initial)
		}
		if tc.Increment < 0 || tc.Increment > MaxTurnTime {
			return bad("the increment is %v; it must be between 0 and 60 days", tc.Increment)
		}
		if tc.Cap == 0 {
			tc.Cap = tc.Initial
		}
		if tc.Cap < tc.Initial || tc.Cap > MaxBank {
			return bad("the cap is %v; it must be at least the initial bank and at most 365 days", tc.Cap)
		}
	default:
		return bad("kind %q: want none, per_turn or bank", tc.Kind)
	}
	if tc.Reminders == nil {
		tc.Reminders = DefaultReminders
	}
	tc.Reminders = slices.Clone(tc.Reminders)
	for _, r := range tc.Reminders {
		if r <= 0 || r > MaxTurnTime {
			return bad("a reminder %v before the deadline: want between 0 and 60 days", r)
		}
	}
	if len(tc.Reminders) > 5 {
		return bad("%d reminders; at most 5", len(tc.Reminders))
	}
	slices.SortFunc(tc.Reminders, func(a, b time.Duration) int { return int((b - a) / time.Second) })
	tc.Reminders = slices.Compact(tc.Reminders)
	switch {
	case tc.Timeout == "" && players == 4:
		tc.Timeout = TimeoutPass
	case tc.Timeout == "":
		tc.Timeout = TimeoutForfeit
	case tc.Timeout == TimeoutPass && players != 4:
		return bad("the pass policy is for four-player games; two players lose on time (E8)")
	case tc.Timeout != TimeoutPass && tc.Timeout != TimeoutForfeit:
		return bad("time-out policy %q: want pass or forfeit", tc.Timeout)
	}
	return tc, nil
}

// Clock is a game's time: the rules and where the current turn stands.
type Clock struct {
	Control TimeControl
	// TurnStart is when the current turn began; Deadline when it must end.
	// Both are zero when the game has no time control or is over.
	TurnStart time.Time
	Deadline  time.Time
	// Banks are each seat's remaining time (TimeBank), by seat in turn
	// order, as of TurnStart for the mover.
	Banks [4]time.Duration
	// Reminded is how many of Control.Reminders were sent (or passed) this
	// turn, for the deadline RemindedFor. When the deadline moves later
	// since (the mover declared a vacation), they are sent again before the
	// new one. Zero RemindedFor (clocks stored before it existed): for the
	// current deadline.
	Reminded    int
	RemindedFor time.Time
	// Streak counts each side's time-outs in a row (TimeoutPass).
	Streak [2]int
	// HaltedAt is when the game's tournament paused it; zero when its
	// clock runs. A halted game has no deadline. Halts are the pauses
	// since the current turn began: like vacations, time in them does not
	// count against the mover (whatever the game says of vacations).
	HaltedAt time.Time `json:",omitempty"`
	Halts    []Period  `json:",omitempty"`
	// Bonus is extra time the organiser gave the current turn.
	Bonus time.Duration `json:",omitempty"`
}

// Period is a span of time, such as a vacation.
type Period struct {
	Start, End time.Time
}

// Away gives the vacations of each seat's player, by seat in turn order;
// it is only consulted when the game allows vacations.
type Away map[int][]Period

// startClock starts the clock of a new game at now.
func (g *Game) startClock(tc TimeControl, now time.Time) {
	g.Clock = Clock{Control: tc}
	for i := range g.Clock.Banks {
		g.Clock.Banks[i] = tc.Initial
	}
	g.startTurn(now)
}

// allowance is the time the mover has for his turn.
func (c *Clock) allowance(mover int) time.Duration {
	if c.Control.Kind == TimeBank {
		if mover < 0 || mover >= len(c.Banks) {
			return 0 // no seat holds the mover: the store refuses such a game
		}
		return c.Banks[mover]
	}
	return c.Control.PerTurn
}

// startTurn starts the mover's turn at now: the deadline is the allowance
// later, not counting the time the mover is away.
func (g *Game) startTurn(now time.Time) {
	c := &g.Clock
	c.Reminded, c.RemindedFor = 0, time.Time{}
	c.Halts, c.Bonus = nil, 0 // they were for the turn that ended
	if c.Control.Kind == TimeNone || c.Control.Kind == "" || g.Over() {
		c.TurnStart, c.Deadline, c.HaltedAt = time.Time{}, time.Time{}, time.Time{}
		return
	}
	if !c.HaltedAt.IsZero() {
		c.HaltedAt = now // the new turn starts halted
	}
	c.TurnStart = now
	g.refreshDeadline()
}

// refreshDeadline recomputes the deadline of the current turn, e.g. after
// the mover declared a vacation.
func (g *Game) refreshDeadline() {
	c := &g.Clock
	if c.TurnStart.IsZero() {
		return
	}
	if !c.HaltedAt.IsZero() {
		c.Deadline = time.Time{}
		return
	}
	mover := g.SeatIndex(g.ToMove())
	c.Deadline = extend(c.TurnStart, c.allowance(mover)+c.Bonus, g.away(mover))
}

// away is the vacations of seat i's player, if the game counts them, and
// the pauses of the game's tournament.
func (g *Game) away(i int) []Period {
	halts := g.Clock.Halts
	if !g.Clock.HaltedAt.IsZero() {
		halts = append(slices.Clone(halts), Period{g.Clock.HaltedAt, maxPeriodEnd})
	}
	if !g.Clock.Control.AllowVacation {
		return halts
	}
	return append(slices.Clone(g.Away[i]), halts...)
}

// maxPeriodEnd ends a pause that has not ended yet.
var maxPeriodEnd = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// haltClock stops a running game's clock (its tournament is paused): no
// deadline runs until resumeClock. changed is false for a game with no
// clock running or halted already.
func haltClock(g Game, now time.Time) (Game, bool) {
	c := &g.Clock
	if g.Over() || c.TurnStart.IsZero() || !c.HaltedAt.IsZero() {
		return g, false
	}
	c.HaltedAt = now
	g.refreshDeadline()
	g.Version++
	g.UpdatedAt = now
	return g, true
}

// resumeClock restarts a halted clock: the pause does not count against
// the player to move, so his deadline is later by as much.
func resumeClock(g Game, now time.Time) (Game, bool) {
	c := &g.Clock
	if c.HaltedAt.IsZero() {
		return g, false
	}
	c.Halts = append(slices.Clone(c.Halts), Period{c.HaltedAt, now})
	c.HaltedAt = time.Time{}
	g.refreshDeadline()
	g.Version++
	g.UpdatedAt = now
	return g, true
}

// extendTurn gives the player to move more time for his turn (the
// organiser of a tournament extended the game); a game without a clock
// is left alone.
func extendTurn(g Game, by time.Duration, now time.Time) (Game, bool) {
	if g.Over() || g.Clock.TurnStart.IsZero() {
		return g, false
	}
	g.Clock.Bonus += by
	g.refreshDeadline()
	g.Version++
	g.UpdatedAt = now
	return g, true
}

// charge takes the time the mover used from his bank and adds the
// increment (TimeBank), at the end of his turn.
func (g *Game) charge(mover int, now time.Time) {
	c := &g.Clock
	if c.Control.Kind != TimeBank || c.TurnStart.IsZero() || mover < 0 || mover >= len(c.Banks) {
		return
	}
	used := now.Sub(c.TurnStart) - overlap(c.TurnStart, now, g.away(mover))
	c.Banks[mover] = min(max(c.Banks[mover]-used, 0)+c.Control.Increment, c.Control.Cap)
}

// extend returns when an allowance that starts at start runs out, if time
// inside the periods does not count.
func extend(start time.Time, allowance time.Duration, periods []Period) time.Time {
	t, left := start, allowance
	for _, p := range sortPeriods(periods) {
		if !p.End.After(t) {
			continue
		}
		if p.Start.After(t) {
			if free := p.Start.Sub(t); left <= free {
				return t.Add(left)
			} else {
				left -= free
			}
		}
		t = p.End
	}
	return t.Add(left)
}

// overlap is how much of [from, to) the periods cover.
func overlap(from, to time.Time, periods []Period) time.Duration {
	var covered time.Duration
	t := from
	for _, p := range sortPeriods(periods) {
		start, end := maxTime(p.Start, t), minTime(p.End, to)
		if end.After(start) {
			covered += end.Sub(start)
			t = end
		}
	}
	return covered
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// NextReminder is when the next reminder of this turn is due; zero if none is left.
func (c *Clock) NextReminder() time.Time {
	if c.Deadline.IsZero() {
		return time.Time{}
	}
	for i := c.reminded(); i < len(c.Control.Reminders); i++ {
		if at := c.Deadline.Add(-c.Control.Reminders[i]); at.After(c.TurnStart) {
			return at
		}
	}
	return time.Time{}
}

// reminded is how many reminders were sent for the current deadline.
func (c *Clock) reminded() int {
	if !c.RemindedFor.IsZero() && c.Deadline.After(c.RemindedFor) {
		return 0
	}
	return c.Reminded
}

// NextDue is when the game next needs the scheduler: a reminder or the
// deadline; zero if never.
func (c *Clock) NextDue() time.Time {
	if r := c.NextReminder(); !r.IsZero() {
		return r
	}
	return c.Deadline
}

// TimeLeft is what remains of the current turn's time at now (never negative).
func (c *Clock) TimeLeft(now time.Time) time.Duration {
	if c.Deadline.IsZero() {
		return 0
	}
	return max(c.Deadline.Sub(now), 0)
}

// Remind records that the reminder due at now is sent, and returns the
// email to send. It fails if no reminder is due: the scheduler then knows
// another run already sent it.
func Remind(g Game, now time.Time) (Game, domain.Notice, error) {
	c := &g.Clock
	at := c.NextReminder()
	if g.Over() || at.IsZero() || at.After(now) || !c.Deadline.After(now) {
		return Game{}, domain.Notice{}, domain.Errorf(domain.KindConflict, domain.CodeNotDue, "no reminder is due")
	}
	c.Reminded = c.reminded()
	for c.Reminded < len(c.Control.Reminders) && !c.Deadline.Add(-c.Control.Reminders[c.Reminded]).After(now) {
		c.Reminded++ // this one, and any older ones it stands for
	}
	c.RemindedFor = c.Deadline
	g.Version++
	return g, domain.Notice{Kind: domain.NoticeReminder, GameID: g.ID, Color: g.ToMove(), Ply: g.Ply()}, nil
}

// TimeOut applies the time-out of the player to move, once his deadline has
// passed: in two-player games and under TimeoutForfeit his side loses on
// time (E8); under TimeoutPass his turn is passed, and his team forfeits on
// its second time-out in a row.
func TimeOut(g Game, now time.Time) (Submitted, error) {
	c := &g.Clock
	if g.Over() || c.Deadline.IsZero() || c.Deadline.After(now) {
		return Submitted{}, domain.Errorf(domain.KindConflict, domain.CodeNotDue, "no deadline has passed")
	}
	rules := g.Rules.Clone()
	mover := g.SeatIndex(g.ToMove())
	side := rules.Side(g.ToMove())
	if mover < 0 || side < 0 || side >= len(c.Streak) {
		return Submitted{}, fmt.Errorf("game %s: %w: no seat for the mover %s", g.ID, domain.ErrStoredData, g.ToMove())
	}
	c.Streak[side]++
	pass := c.Control.Timeout == TimeoutPass && c.Streak[side] < maxTimeouts
	played, err := rules.TimeOut(pass)
	if err != nil {
		return Submitted{}, fmt.Errorf("time out (pass %t): %w", pass, err)
	}
	g.charge(mover, now)
	g.Rules = rules
	g.Version++
	g.UpdatedAt = now
	g.startTurn(now)
	return Submitted{Game: g, Played: played, Notices: AfterPly(&g, played)}, nil
}

// CountsVacations reports whether g has a turn running whose deadline its
// players' vacations move.
func (g *Game) CountsVacations() bool {
	return g.Clock.Control.AllowVacation && !g.Clock.TurnStart.IsZero()
}

// WithVacations is g with its players' vacations as they now are: the
// current deadline recomputed, and a new version even where the deadline
// stays. The version matters as much as the deadline: a change computed
// from the vacations as they were, such as the turn after which the player
// now away is to move, must find the game changed and be computed again,
// or the next deadline would ignore the vacation.
func WithVacations(g Game, away Away) Game {
	g.Away = away
	g.refreshDeadline()
	g.Version++
	return g
}
