package tournaments

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// TournamentStatus is where a tournament stands.
type TournamentStatus string

const (
	TournamentScheduled TournamentStatus = "scheduled" // no round has started
	TournamentRunning   TournamentStatus = "running"
	TournamentFinished  TournamentStatus = "finished"
	TournamentCancelled TournamentStatus = "cancelled"
)

// RoundStatus is where a round stands.
type RoundStatus string

const (
	RoundPending RoundStatus = "pending" // waits for its start
	RoundRunning RoundStatus = "running" // its games are being played
	RoundClosed  RoundStatus = "closed"  // every game has a result
)

// Entrant is a player of a tournament, or in a team event a team of two
// (Player and Partner); entrants are numbered by their index in
// Tournament.Entrants. Members lists who plays for it, Title names it.
type Entrant struct {
	games.Player
	// Partner is Player's team mate in a team event; nil otherwise.
	Partner *games.Player `json:",omitempty"`
	// Team is the team's name as given; "" names it by its members.
	Team      string `json:",omitempty"`
	Withdrawn bool
	// Annulled: he withdrew under WithdrawAnnul having played fewer than
	// half his games, so none of his games count, for him or his opponents.
	Annulled bool `json:",omitempty"`
	// UserID is the account that joined by registration; 0 when typed in
	// by the organiser.
	UserID int64 `json:",omitempty"`
	// Entered is the number of the log entry that entered him (he joined,
	// or the organiser added him); 0 for none.
	Entered int `json:",omitempty"`
}

// TournamentGame is one pairing of a round, its game and, once decided, its outcome.
type TournamentGame struct {
	Pairing
	GameID  string         // "" for a bye or a forfeit decided without play
	Outcome *PairingResult // nil while the game runs
	// Annulled: the organiser annulled the result; it counts for nobody.
	Annulled bool `json:",omitempty"`
	// Overridden: the organiser set the outcome (see the log for why).
	Overridden bool `json:",omitempty"`
	// Extra is how much later than its round's deadline this game is
	// adjudicated: the organiser extended it.
	Extra time.Duration `json:",omitempty"`
	// Return marks the second game of a simultaneous pair: the pairing of
	// the game before it, colours reversed (see Tournament.Simultaneous).
	Return bool `json:",omitempty"`
	// Reminded: its players were told the round's deadline is near
	// (domain.NoticeRoundDeadline), once.
	Reminded bool `json:",omitempty"`
	// Decider is the deciding game of a knockout match left level by its
	// games (see knockout.go): added to the round when they end, the lower
	// seed White, adjudicated Extra after the round's deadline.
	Decider bool `json:",omitempty"`
	// Unplayed: nobody made a move in the game by its deadline, so it
	// scored a double forfeit (see ScoreUnplayed), not its adjudication.
	Unplayed bool `json:",omitempty"`
}

// Round is one round of a tournament. Every game of a round is played on
// the same board, from Seed (B5): the same conditions for everyone.
type Round struct {
	Number   int // 1-based
	Start    time.Time
	Deadline time.Time // unfinished games are adjudicated then (E3–E7)
	Status   RoundStatus
	Seed     uint64
	Games    []TournamentGame
}

// Tournament is a scheduled competition of two-player games.
type Tournament struct {
	ID          string
	Name        string
	OrganizerID int64
	Format      Format
	// Simultaneous: each pairing plays two games at once on the round's
	// board, colours reversed, as Little Golem's events do. Each game
	// scores on its own (a pairing is worth 2 points: 2–0, 1½–½ or 1–1),
	// so the standings, tie-breaks and records count games as ever; a bye
	// is two games won, a forfeit two games lost.
	Simultaneous bool `json:",omitempty"`
	// Teams: a team event. Each entrant is a team of two, and each pairing
	// plays a four-player game, team against team (see tournament_teams.go).
	Teams    bool `json:",omitempty"`
	Entrants []Entrant
	Rounds   []Round
	// Bracket is a knockout's slots by round, as each round is paired:
	// entrants, Bye for an empty slot; slots 2k and 2k+1 play match k.
	Bracket [][]int `json:",omitempty"`
	// KnockoutTiebreak decides a knockout match level on points and
	// margins (see knockout.go); "" for a tournament stored before there
	// was a choice, which keeps TiebreakSeed.
	KnockoutTiebreak KnockoutTiebreak `json:",omitempty"`
	// TiebreakLength is how long a deciding game lasts before it is
	// adjudicated; zero: as long as its round.
	TiebreakLength time.Duration `json:",omitempty"`
	// Seeding is how the entrants' order (their seeds: a knockout's
	// bracket, a Swiss event's first pairings) is set; "" is SeedingEntry.
	Seeding Seeding           `json:",omitempty"`
	Time    games.TimeControl // of every game, unless its round has its own
	// RoundTimes are the time controls of the first rounds, by round:
	// entry i for round i+1. A zero entry (Kind "") and a round past the
	// list play under Time (see RoundTime).
	RoundTimes []games.TimeControl `json:",omitempty"`
	// Ruleset and Params are every game's rules and their options; a
	// tournament stored before games had rulesets has none: Less.
	Ruleset string
	Params  map[string]string
	Status  TournamentStatus
	// Registration is how players sign up themselves; nil when the
	// organiser typed in every entrant.
	Registration *Registration `json:",omitempty"`
	// Interval is the time between round starts of a schedule given as a
	// first start and an interval: a round robin whose players sign up is
	// planned with it when registration closes.
	Interval time.Duration `json:",omitempty"`
	// PausedAt is when the organiser paused the event; zero when it runs.
	// While paused no round starts or closes and no game's clock runs.
	PausedAt time.Time `json:",omitempty"`
	// Log is every action of the organiser and the players on the event,
	// oldest first, and public: appended to, but for a join and a leave
	// before the start that cancel out, and the oldest entries dropped
	// past a bound (TrimLog).
	Log []LogEntry `json:",omitempty"`
	// Logged is how many entries were ever logged, the latest's number
	// (see LogEntry.Number); 0 for a log stored before they were counted.
	Logged int `json:",omitempty"`
	// Trimmed is how many of the log's oldest entries TrimLog dropped.
	Trimmed   int `json:",omitempty"`
	Version   int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NewTournamentSpec is what an organiser asks for.
type NewTournamentSpec struct {
	Name   string
	Format Format
	Rounds int // Swiss: the number of rounds; round robins have theirs
	// Simultaneous plays every pairing as two games with colours reversed
	// (see Tournament.Simultaneous).
	Simultaneous bool
	Players      []games.Player
	// Teams makes a team event: Players[i] plays with Partners[i], as the
	// team TeamNames[i] (optional; "" or a short list names a team by its
	// members).
	Teams     bool
	Partners  []games.Player
	TeamNames []string
	Time      games.TimeControl
	// RoundTimes gives the first rounds their own time controls (entry i
	// for round i+1), e.g. longer turns for the decisive last rounds; a
	// zero entry (Kind "") and every round past the list use Time.
	RoundTimes []games.TimeControl
	// Ruleset and Params are every game's rules ("" for the default) and
	// their options (ruleset.Options.Params), e.g. Les's board size: every
	// game of a round is on the same board.
	Ruleset string
	Params  map[string]string
	// The schedule: a start per round, or a first start and an interval.
	Starts     []time.Time
	FirstStart time.Time
	Interval   time.Duration
	// RoundLength is how long a round lasts before its unfinished games are
	// adjudicated; default the time to the next start (for the last round,
	// the interval, or the last gap).
	RoundLength time.Duration
	// Registration, if set, opens sign-up: Players may then be fewer than
	// two (even none) and more join until the first round starts.
	Registration *Registration
	// KnockoutTiebreak: a knockout's level matches; "" is TiebreakGame.
	// TiebreakLength: a deciding game's time; 0 its round's length.
	KnockoutTiebreak KnockoutTiebreak
	TiebreakLength   time.Duration
	// Seeding: the entrants' order as given (SeedingEntry, "") or drawn at
	// the start (SeedingRandom).
	Seeding Seeding
}

const (
	maxTournamentPlayers = 64
	minRoundLength       = time.Hour
)

// CreateTournament checks the spec and builds the tournament with its
// schedule; seed gives each round's board.
func CreateTournament(spec NewTournamentSpec, id string, organizerID int64, now time.Time, seed uint64) (Tournament, error) {
	bad := func(format string, args ...any) (Tournament, error) {
		return Tournament{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, format, args...)
	}
	name, err := CheckName(spec.Name)
	if err != nil {
		return Tournament{}, err
	}
	n := len(spec.Players)
	if (n < 2 && spec.Registration == nil) || n > maxTournamentPlayers {
		return bad("a tournament has 2 to %d players, not %d", maxTournamentPlayers, n)
	}
	t := Tournament{ID: id, Name: name, OrganizerID: organizerID, Format: spec.Format, Simultaneous: spec.Simultaneous, Teams: spec.Teams,
		Status: TournamentScheduled, Interval: spec.Interval, Version: 1, CreatedAt: now, UpdatedAt: now}
	if spec.Registration != nil {
		reg, err := checkRegistration(*spec.Registration, n, now)
		if err != nil {
			return Tournament{}, err
		}
		t.Registration = &reg
		// The number of players is known when registration closes: until
		// then it is planned for the most who may come.
		n = max(n, 2, reg.Limit)
		if reg.Limit == 0 {
			n = maxTournamentPlayers
		}
	}
	if spec.Teams && len(spec.Partners) != len(spec.Players) || !spec.Teams && len(spec.Partners)+len(spec.TeamNames) > 0 {
		return bad("a team event gives every player a partner; other events none")
	}
	if len(spec.TeamNames) > len(spec.Players) {
		return bad("%d team names for %d teams", len(spec.TeamNames), len(spec.Players))
	}
	for i, p := range spec.Players {
		e := Entrant{Player: p}
		if spec.Teams {
			e.Partner = &spec.Partners[i]
		}
		if i < len(spec.TeamNames) {
			e.Team = spec.TeamNames[i]
		}
		e, err := t.checkShape(e)
		if err != nil {
			return Tournament{}, err
		}
		if email, in := t.playsIn(&e, -1); in {
			return Tournament{}, domain.Errorf(domain.KindInvalid, domain.CodeDuplicateAddress, "%s is listed twice", email)
		}
		t.Entrants = append(t.Entrants, e)
	}
	if err := t.setSeedingRules(spec); err != nil {
		return Tournament{}, err
	}
	var rounds int
	switch spec.Format {
	case RoundRobin, DoubleRoundRobin, Knockout:
		if spec.Registration != nil {
			// Planned again for the players who came when registration closes.
			if len(spec.Starts) > 0 || spec.Interval == 0 {
				return bad("a %s with registration is scheduled by a first start and an interval", spec.Format)
			}
			n = max(len(spec.Players), 2)
		}
		rounds = plannedRounds(spec.Format, n)
		if spec.Rounds != 0 && spec.Rounds != rounds && spec.Registration == nil {
			return bad("a %s of %d players has %d rounds", spec.Format, n, rounds)
		}
	case Swiss:
		rounds = spec.Rounds
		if rounds < 1 || rounds > n-1 {
			return bad("a Swiss tournament of %d players has 1 to %d rounds", n, n-1)
		}
	default:
		return bad("format %q: want round_robin, double_round_robin, swiss or knockout", spec.Format)
	}
	if first := starts0(spec); spec.Registration != nil && !first.IsZero() && spec.Registration.Closes.After(first) {
		return bad("registration closes after the first round starts")
	}
	if t.Time, err = spec.Time.Normalize(gameSeats(spec.Teams)); err != nil {
		return Tournament{}, err
	}
	if t.RoundTimes, err = normalizeRoundTimes(spec, rounds); err != nil {
		return Tournament{}, err
	}
	// The rules refuse options they do not know now, not at the first round.
	rs, err := domain.RulesetNamed(spec.Ruleset)
	if err != nil {
		return Tournament{}, err
	}
	if err := checkTournamentGame(rs, spec.Teams, seed, spec.Params); err != nil {
		return Tournament{}, err
	}
	t.Ruleset, t.Params = rs.Name(), maps.Clone(spec.Params)
	starts, err := schedule(spec, rounds, now)
	if err != nil {
		return Tournament{}, err
	}
	for i, start := range starts {
		length := spec.RoundLength
		if length == 0 {
			switch {
			case i+1 < len(starts):
				length = starts[i+1].Sub(start)
			case spec.Interval > 0:
				length = spec.Interval
			default:
				length = start.Sub(starts[i-1])
			}
		}
		if i+1 < len(starts) && start.Add(length).After(starts[i+1]) {
			return bad("round %d would end after round %d starts", i+1, i+2)
		}
		if length < minRoundLength {
			return bad("a round lasts at least an hour")
		}
		t.Rounds = append(t.Rounds, Round{Number: i + 1, Start: start, Deadline: start.Add(length),
			Status: RoundPending, Seed: seed + uint64(i)})
	}
	if err := t.checkRoundsOutlastATurn(); err != nil {
		return Tournament{}, err
	}
	return t, nil
}

// checkRoundsOutlastATurn refuses a schedule in which a round (or a
// knockout's deciding game) ends before its games' first turn could time
// out: its unfinished games would be adjudicated before a player had had
// the time the time control promises him, most often from the start. A
// round robin or knockout scheduled by an interval is planned again when
// registration closes (which may open later), every round as long as the
// first: a round not planned yet is held to that, under its own time
// control or the tournament's.
func (t *Tournament) checkRoundsOutlastATurn() error {
	length := func(n int) time.Duration {
		r := t.Rounds[0]
		if n <= len(t.Rounds) {
			r = t.Rounds[n-1]
		}
		return r.Deadline.Sub(r.Start)
	}
	last := max(len(t.Rounds), len(t.RoundTimes))
	if t.Format != Swiss && t.Interval > 0 {
		last = max(last, len(t.Rounds)+1)
	}
	for n := 1; n <= last; n++ {
		turn := firstTurn(t.RoundTime(n))
		if l := length(n); l < turn {
			round := fmt.Sprintf("round %d", n)
			if n > len(t.Rounds) {
				round = fmt.Sprintf("round %d (planned if more players sign up)", n)
			}
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput,
				"%s lasts %s, less than one turn's time (%s): its games would be adjudicated before a player could use his time; make the rounds longer or the turns shorter",
				round, durationText(l, EnglishUnits), durationText(turn, EnglishUnits))
		}
		if t.TiebreakLength > 0 && t.TiebreakLength < turn {
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput,
				"a deciding game lasts %s, less than one turn's time in round %d (%s)",
				durationText(t.TiebreakLength, EnglishUnits), n, durationText(turn, EnglishUnits))
		}
	}
	return nil
}

// firstTurn is the time a game's first turn has under the control: a turn
// of a per-turn control, a player's initial bank; 0 without a clock.
func firstTurn(tc games.TimeControl) time.Duration {
	switch tc.Kind {
	case games.TimePerTurn:
		return tc.PerTurn
	case games.TimeBank:
		return tc.Initial
	}
	return 0
}

// normalizeRoundTimes checks the time control of each round that has its
// own. A round robin whose players sign up learns its number of rounds when
// registration closes, so it may list as many as the most players can play.
func normalizeRoundTimes(spec NewTournamentSpec, rounds int) ([]games.TimeControl, error) {
	if len(spec.RoundTimes) == 0 {
		return nil, nil
	}
	most := rounds
	if spec.Registration != nil && spec.Format != Swiss {
		most = plannedRounds(spec.Format, maxTournamentPlayers)
	}
	if len(spec.RoundTimes) > most {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a time control for round %d: the tournament has %d rounds", len(spec.RoundTimes), most)
	}
	out := make([]games.TimeControl, len(spec.RoundTimes))
	for i, tc := range spec.RoundTimes {
		if tc.Kind == "" {
			continue // the tournament's
		}
		n, err := tc.Normalize(gameSeats(spec.Teams))
		if de := (*domain.Error)(nil); errors.As(err, &de) {
			return nil, domain.Errorf(de.Kind, de.Code, "round %d's %s", i+1, de.Message)
		} else if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// RoundTime is the time control of round number (1-based): its own, or
// the tournament's.
func (t *Tournament) RoundTime(number int) games.TimeControl {
	if number >= 1 && number <= len(t.RoundTimes) && t.RoundTimes[number-1].Kind != "" {
		return t.RoundTimes[number-1]
	}
	return t.Time
}

// plannedRounds is the number of rounds of a round robin or a knockout of
// n players.
func plannedRounds(f Format, n int) int {
	if f == Knockout {
		return KnockoutRoundCount(n)
	}
	return RoundRobinRoundCount(n, f == DoubleRoundRobin)
}

// starts0 is the first start a spec asks for; zero if none.
func starts0(spec NewTournamentSpec) time.Time {
	if len(spec.Starts) > 0 {
		return spec.Starts[0]
	}
	return spec.FirstStart
}

func schedule(spec NewTournamentSpec, rounds int, now time.Time) ([]time.Time, error) {
	bad := func(format string, args ...any) ([]time.Time, error) {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "schedule: "+format, args...)
	}
	starts := slices.Clone(spec.Starts)
	if len(starts) == 0 {
		if spec.FirstStart.IsZero() || spec.Interval < minRoundLength {
			return bad("give a start per round, or a first start and an interval of at least an hour")
		}
		for i := range rounds {
			starts = append(starts, spec.FirstStart.Add(time.Duration(i)*spec.Interval))
		}
	}
	if len(starts) != rounds {
		return bad("%d starts for %d rounds", len(starts), rounds)
	}
	if rounds == 1 && spec.RoundLength == 0 && spec.Interval == 0 {
		return bad("a single round needs a round length")
	}
	for i, s := range starts {
		if s.Before(now.Add(-time.Minute)) {
			return bad("round %d starts in the past", i+1)
		}
		if i > 0 && !s.After(starts[i-1]) {
			return bad("round %d starts before round %d", i+1, i)
		}
	}
	return starts, nil
}

// withdrawn lists who has withdrawn, by entrant.
func (t *Tournament) withdrawn() []bool {
	out := make([]bool, len(t.Entrants))
	for i, e := range t.Entrants {
		out[i] = e.Withdrawn
	}
	return out
}

// Outcomes lists every decided pairing so far.
func (t *Tournament) Outcomes() []PairingResult {
	var out []PairingResult
	for _, r := range t.Rounds {
		for _, g := range r.Games {
			if t.counts(&g) {
				out = append(out, *g.Outcome)
			}
		}
	}
	return out
}

// counts reports whether a pairing's outcome counts in the standings:
// decided, not annulled, and without a player whose games were annulled.
func (t *Tournament) counts(g *TournamentGame) bool {
	if g.Outcome == nil || g.Annulled {
		return false
	}
	for _, e := range []int{g.White, g.Black} {
		if e >= 0 && e < len(t.Entrants) && t.Entrants[e].Annulled {
			return false
		}
	}
	return true
}

// Standings ranks the entrants (see Standings).
func (t *Tournament) Standings() []Standing {
	lines := Standings(len(t.Entrants), t.Format, t.Outcomes(), t.withdrawn())
	if t.Format == Knockout {
		return t.knockoutStandings(lines)
	}
	return lines
}

// Current is the round being played, or nil.
func (t *Tournament) Current() *Round {
	for i := range t.Rounds {
		if t.Rounds[i].Status == RoundRunning {
			return &t.Rounds[i]
		}
	}
	return nil
}

// next is the first pending round, or nil.
func (t *Tournament) next() *Round {
	for i := range t.Rounds {
		if t.Rounds[i].Status == RoundPending {
			return &t.Rounds[i]
		}
	}
	return nil
}

// NextDue is when the scheduler must next look at the tournament: the
// current round's deadline or the next round's start; zero when done.
func (t *Tournament) NextDue() time.Time {
	if t.Status == TournamentFinished || t.Status == TournamentCancelled || !t.PausedAt.IsZero() {
		return time.Time{}
	}
	if r := t.Current(); r != nil {
		if remind := r.reminderDue(); !remind.IsZero() && remind.Before(r.dueAt()) {
			return remind
		}
		return r.dueAt()
	}
	if r := t.next(); r != nil {
		return r.Start
	}
	return time.Time{}
}

// OutcomeOf is a finished game's outcome from White's side. White holds a
// tournament game's first seat, which plays for side 0.
func OutcomeOf(round int, p Pairing, r ruleset.Result) PairingResult {
	o := PairingResult{Round: round, White: p.White, Black: p.Black, Score: 0.5}
	switch {
	case r.Draw:
	case r.Winner == 0:
		o.Score, o.Margin = 1, r.Margin
	default:
		o.Score, o.Margin = 0, -r.Margin
	}
	return o
}

// Board is the board number (1-based) of game i of the round: its
// pairing's place in the round, shared by both games of a simultaneous pair
// and by the deciding game of their match (added at the end of the round).
func (r *Round) Board(i int) int {
	if g := r.Games[i]; g.Decider {
		for j, m := range r.Games[:i] {
			if !m.Decider && (m.White == g.Black && m.Black == g.White || m.White == g.White && m.Black == g.Black) {
				return r.Board(j)
			}
		}
	}
	n := 0
	for _, g := range r.Games[:i+1] {
		if !g.Return && !g.Decider {
			n++
		}
	}
	return n
}

// GameDeadline is when game i of round r is adjudicated if unfinished:
// the round's deadline, plus the extension the organiser gave it.
func (r *Round) GameDeadline(i int) time.Time {
	return r.Deadline.Add(r.Games[i].Extra)
}

// dueAt is when the round next needs the scheduler: the earliest
// adjudication of a game still undecided (the round's deadline unless
// extended), or at once (its start) when every game is decided and only
// the closing is left.
func (r *Round) dueAt() time.Time {
	var due time.Time
	for i, g := range r.Games {
		if g.Outcome == nil && g.GameID != "" {
			if d := r.GameDeadline(i); due.IsZero() || d.Before(due) {
				due = d
			}
		}
	}
	if due.IsZero() {
		return r.Start
	}
	return due
}

// RecordResult records the result of a game of the running round the
// moment it is known, so that the standings are live: a result counts when
// its game ends, not when its round closes. It reports false when the game
// is not an undecided game of the running round (recorded already, or
// overridden by the organiser).
func (t *Tournament) RecordResult(gameID string, res ruleset.Result, now time.Time) bool {
	r := t.Current()
	if r == nil || gameID == "" {
		return false
	}
	for i := range r.Games {
		g := &r.Games[i]
		if g.GameID != gameID || g.Outcome != nil {
			continue
		}
		o := OutcomeOf(r.Number, g.Pairing, res)
		g.Outcome = &o
		t.Version++
		t.UpdatedAt = now
		return true
	}
	return false
}

// ScoreUnplayed scores game i of the running round, which reached its
// deadline without a move by anyone, as a double forfeit: both sides lose,
// neither scores (0–0, a margin of 0). Adjudicating it instead would score
// its starting position, most often a draw, and a draw rewards two players
// who never played over those who did. The game counts as lost in the
// standings and tie-breaks like any forfeit; a Swiss event may pair the two
// again (they never met, see SwissPairings); a knockout match nobody played
// sends the higher seed through (see MatchWinner). The organiser may set
// another result (Override) while the event runs. It is logged, for the
// players to be told.
func (t *Tournament) ScoreUnplayed(i int, now time.Time) error {
	r := t.Current()
	if r == nil || i < 0 || i >= len(r.Games) {
		return fmt.Errorf("tournament %s: no game %d in a running round", t.ID, i)
	}
	g := &r.Games[i]
	if g.Outcome != nil || g.GameID == "" || g.Black == Bye {
		return fmt.Errorf("tournament %s round %d: game %d is decided", t.ID, r.Number, i)
	}
	g.Outcome = &PairingResult{Round: r.Number, White: g.White, Black: g.Black, Forfeit: true}
	g.Unplayed = true
	t.logf(ByScheduler, now, ActionUnplayed, "", LogArgs{Players: []string{t.Entrants[g.White].Title(), t.Entrants[g.Black].Title()}, Round: r.Number})
	return nil
}

// CloseRound closes the running round once every game of it is decided
// (RecordResult, or decided without play); after the last round the
// tournament is finished.
func (t *Tournament) CloseRound(now time.Time) error {
	r := t.Current()
	if r == nil {
		return fmt.Errorf("tournament %s: no round is running", t.ID)
	}
	for _, g := range r.Games {
		if g.Outcome == nil {
			return fmt.Errorf("tournament %s round %d: game %s has no result", t.ID, r.Number, g.GameID)
		}
	}
	r.Status = RoundClosed
	if t.next() == nil {
		t.Status = TournamentFinished
	}
	t.Version++
	t.UpdatedAt = now
	return nil
}

// StartRound pairs the next round: the round robin's table, or Swiss
// pairings by standing. Byes are decided at once (a win); pairings with a
// withdrawn player are forfeited to the other. The returned pairings need
// games: the caller creates them (all on the round's board) and records
// their ids with SetGame.
func (t *Tournament) StartRound(now time.Time) (*Round, []int, error) {
	if t.next() == nil || t.Current() != nil || !t.PausedAt.IsZero() {
		return nil, nil, fmt.Errorf("tournament %s: no round to start", t.ID)
	}
	if t.Status == TournamentScheduled && !t.closeRegistration(now) {
		return nil, nil, nil // cancelled: too few players signed up
	}
	r := t.next()
	if r.Number == 1 {
		t.drawSeeds(r.Seed, now)
	}
	var pairings []Pairing
	switch t.Format {
	case Swiss:
		var err error
		if pairings, err = SwissPairings(len(t.Entrants), r.Number, t.Outcomes(), t.withdrawn()); err != nil {
			return nil, nil, err
		}
	case Knockout:
		slots := t.knockoutSlots(r.Number)
		t.Bracket = append(t.Bracket[:r.Number-1], slots)
		pairings = knockoutPairings(slots)
	default:
		pairings = RoundRobinRounds(len(t.Entrants), t.Format == DoubleRoundRobin)[r.Number-1]
	}
	var toPlay []int
	r.Games = nil
	for _, p := range pairings {
		g := TournamentGame{Pairing: p}
		switch {
		case p.Black == Bye:
			if !t.Entrants[p.White].Withdrawn {
				g.Outcome = &PairingResult{Round: r.Number, White: p.White, Black: Bye, Score: 1}
			} else {
				g.Outcome = &PairingResult{Round: r.Number, White: p.White, Black: Bye, Score: 0, Forfeit: true}
			}
		case t.Entrants[p.White].Withdrawn || t.Entrants[p.Black].Withdrawn:
			// A pairing with a player whose games are annulled is decided
			// too, and counts for nobody (see counts).
			g.Outcome = forfeit(r.Number, p, t.Entrants[p.White].Withdrawn, t.Entrants[p.Black].Withdrawn, t.forfeitMargin())
		default:
			toPlay = append(toPlay, len(r.Games))
		}
		r.Games = append(r.Games, g)
		if t.Simultaneous {
			// The return game: the same board, colours reversed; a bye or
			// a forfeit is decided the same way, for a second game.
			back := g
			back.Return = true
			if p.Black != Bye {
				back.Pairing = Pairing{White: p.Black, Black: p.White}
			}
			switch o := g.Outcome; {
			case o != nil && p.Black == Bye:
				bye := *o
				back.Outcome = &bye
			case o != nil:
				back.Outcome = forfeit(r.Number, back.Pairing, t.Entrants[back.White].Withdrawn, t.Entrants[back.Black].Withdrawn, t.forfeitMargin())
			}
			if g.Outcome == nil {
				toPlay = append(toPlay, len(r.Games))
			}
			r.Games = append(r.Games, back)
		}
	}
	r.Status = RoundRunning
	t.Status = TournamentRunning
	t.Version++
	t.UpdatedAt = now
	return r, toPlay, nil
}

// forfeitMargin is the margin of a game forfeited without play, by the
// tournament's rules.
func (t *Tournament) forfeitMargin() int {
	if rs, err := domain.RulesetNamed(t.Ruleset); err == nil {
		return rs.ForfeitMargin()
	}
	return domain.Rulesets.Default().ForfeitMargin()
}

// forfeit decides a pairing with a withdrawn player: the other wins by
// forfeitMargin; if both withdrew, neither scores.
func forfeit(round int, p Pairing, whiteOut, blackOut bool, forfeitMargin int) *PairingResult {
	o := &PairingResult{Round: round, White: p.White, Black: p.Black, Forfeit: true}
	switch {
	case whiteOut && blackOut:
	case whiteOut:
		o.Score, o.Margin = 0, -forfeitMargin
	default:
		o.Score, o.Margin = 1, forfeitMargin
	}
	return o
}

// GameSpec is the game of pairing i of round r: the entrants in their
// colours (in a team event the teams on their sides: White's team holds
// side 0), the round's board, the round's time control.
func (t *Tournament) GameSpec(r *Round, i int) games.NewGameSpec {
	p := r.Games[i].Pairing
	seed := r.Seed
	spec := games.NewGameSpec{
		Ruleset: t.Ruleset,
		Params:  t.Params,
		Seed:    &seed,
		Time:    t.RoundTime(r.Number),
	}
	if t.Teams {
		spec.Teams = [][]games.Player{t.Entrants[p.White].Members(), t.Entrants[p.Black].Members()}
	} else {
		spec.Players = []games.Player{t.Entrants[p.White].Player, t.Entrants[p.Black].Player}
	}
	return spec
}

// WithdrawPolicy is how a withdrawal counts.
type WithdrawPolicy string

const (
	// WithdrawForfeit keeps the games he played; the rest are forfeited to
	// his opponents.
	WithdrawForfeit WithdrawPolicy = "forfeit"
	// WithdrawAnnul annuls all his games, played or not, when he played
	// fewer than half of the rounds (as chess events do); from half on it
	// is WithdrawForfeit.
	WithdrawAnnul WithdrawPolicy = "annul"
)

// Withdraw takes an entrant out: he is paired no more, and pairings he
// would have played are forfeited to his opponents (or annulled, by
// policy). Before the first round he simply leaves the list. His
// undecided games of the current round (two in a simultaneous event) are
// returned so the caller can resign them.
func (t *Tournament) Withdraw(entrant int, policy WithdrawPolicy, by TournamentActor, reason string, now time.Time) (gameIDs []string, err error) {
	if entrant < 0 || entrant >= len(t.Entrants) {
		return nil, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no player %d in this tournament", entrant)
	}
	if t.Status == TournamentFinished || t.Status == TournamentCancelled {
		return nil, domain.Errorf(domain.KindConflict, domain.CodeTournamentOver, "the tournament is over")
	}
	e := &t.Entrants[entrant]
	if e.Withdrawn {
		return nil, domain.Errorf(domain.KindConflict, domain.CodeAlreadyWithdrawn, "%s has already withdrawn", e.Title())
	}
	if policy == "" {
		policy = WithdrawForfeit
	}
	if policy != WithdrawForfeit && policy != WithdrawAnnul {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "withdrawal policy %q: want forfeit or annul", policy)
	}
	if policy == WithdrawAnnul && t.Format == Knockout {
		// His matches decided who went through: they cannot count for nobody.
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a knockout keeps the games played: withdraw with forfeit")
	}
	if reason, err = checkReason(reason, false); err != nil {
		return nil, err
	}
	if t.Status == TournamentScheduled {
		// Nothing was paired yet: he leaves the list (and may join again).
		// His joining and leaving cancel out in the log, if nothing else
		// named him meanwhile: who comes and goes before the start leaves
		// no trace, however often.
		name, entered := e.Title(), e.Entered
		t.Entrants = slices.Delete(t.Entrants, entrant, entrant+1)
		if t.unlogEntry(entered, name) {
			t.Version++
			t.UpdatedAt = now
			return nil, nil
		}
		t.logf(by, now, ActionLeft, reason, LogArgs{Players: []string{name}})
		return nil, nil
	}
	e.Withdrawn = true
	detail := LogArgs{Players: []string{e.Title()}}
	if policy == WithdrawAnnul {
		played := t.played(entrant)
		detail.Kind, detail.Count, detail.Of = LogHalf, played, len(t.Rounds)
		if played*2 < len(t.Rounds) {
			e.Annulled = true
			detail.Kind = LogAnnulled
		}
	}
	t.logf(by, now, ActionWithdrawn, reason, detail)
	for _, g := range t.EntrantGames(entrant) {
		gameIDs = append(gameIDs, g.GameID)
	}
	return gameIDs, nil
}

// played counts the rounds in which an entrant finished a game by play
// (not byes, not forfeits, not annulled by the organiser): a simultaneous
// pair is one round's play.
func (t *Tournament) played(entrant int) int {
	n := 0
	for _, r := range t.Rounds {
		if slices.ContainsFunc(r.Games, func(g TournamentGame) bool {
			return g.Outcome != nil && !g.Outcome.Forfeit && !g.Annulled && g.GameID != "" && (g.White == entrant || g.Black == entrant)
		}) {
			n++
		}
	}
	return n
}

// Cancel stops the tournament: no further rounds start. Finished games of
// the running round keep their results (the caller records them first);
// the round is closed, and games under way go on as ordinary games that
// count for nothing.
func (t *Tournament) Cancel(by TournamentActor, reason string, now time.Time) error {
	if t.Status == TournamentFinished || t.Status == TournamentCancelled {
		return domain.Errorf(domain.KindConflict, domain.CodeTournamentOver, "the tournament is over")
	}
	reason, err := checkReason(reason, false)
	if err != nil {
		return err
	}
	if r := t.Current(); r != nil {
		r.Status = RoundClosed
	}
	t.Status = TournamentCancelled
	t.PausedAt = time.Time{}
	t.logf(by, now, ActionCancelled, reason, LogArgs{})
	return nil
}

// EntrantOf finds the entrant with an email address: in a team event
// either member finds his team.
func (t *Tournament) EntrantOf(email string) (int, bool) {
	for i := range t.Entrants {
		if _, ok := t.Entrants[i].Member(email); ok {
			return i, true
		}
	}
	return 0, false
}

// Agreed says the address signed up to t itself (by its registration): it
// agreed to hear from the organiser. A partner he named did not, nor did a
// player the organiser typed in.
func (t *Tournament) Agreed(email string) bool {
	for i := range t.Entrants {
		if e := &t.Entrants[i]; e.UserID != 0 && e.Email == email {
			return true
		}
	}
	return false
}

// gameIDsOf lists the games, in every round, of the entrant that email is
// a member of.
func (t *Tournament) gameIDsOf(email string) []string {
	e, ok := t.EntrantOf(email)
	if !ok {
		return nil
	}
	var out []string
	for _, r := range t.Rounds {
		for _, g := range r.Games {
			if g.GameID != "" && (g.White == e || g.Black == e) {
				out = append(out, g.GameID)
			}
		}
	}
	return out
}

// emails lists the addresses of every entrant's members.
func (t *Tournament) emails() []string {
	var out []string
	for i := range t.Entrants {
		out = append(out, t.Entrants[i].Emails()...)
	}
	return out
}

// MaxNameLength is the most characters a tournament's name has (openapi.yaml
// gives the same maxLength).
const MaxNameLength = 100

// CheckName checks a tournament's name like a person's (domain.CheckName),
// with room for MaxNameLength characters.
func CheckName(s string) (string, error) {
	return domain.CheckText(s, MaxNameLength, "tournament name")
}
