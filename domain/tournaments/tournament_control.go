package tournaments

import (
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// Running an event: sign-up, and what an organiser may change while it
// runs. Every change is logged on the tournament (who, when, what, why),
// for the players to see. These are the pure rules; the use cases in
// schedule.go and tournament_service.go change the games they touch in
// the same unit of work.

// Stable codes of tournament control.
const (
	CodeRegistrationClosed  = "registration_closed" // sign-up is not open (closed, never opened, or the event started)
	CodeTournamentFull      = "tournament_full"     // the event has as many players as it takes
	CodeAlreadyEntered      = "already_entered"     // the address plays in the event already
	CodeInviteInvalid       = "invite_invalid"      // the invite link was revoked or re-issued
	CodeAlreadyPlayed       = "already_played"      // a player who has played cannot be replaced
	CodeTournamentPaused    = "tournament_paused"   // pausing a paused event, or acting on one that must run
	CodeTournamentNotPaused = "tournament_not_paused"
	CodeRoundNotChangeable  = "round_not_changeable" // a closed round cannot be postponed, a pending one has no games
)

// Actions in the log.
const (
	ActionRegistrationOpened = "registration_opened"
	ActionRegistrationClosed = "registration_closed"
	ActionJoined             = "joined"
	ActionLeft               = "left"
	ActionEntrantAdded       = "entrant_added"
	ActionEntrantEdited      = "entrant_edited"
	ActionEntrantReplaced    = "entrant_replaced"
	ActionDeadlineExtended   = "deadline_extended"
	ActionRoundPostponed     = "round_postponed"
	ActionPaused             = "paused"
	ActionResumed            = "resumed"
	ActionResultOverridden   = "result_overridden"
	ActionResultAnnulled     = "result_annulled"
	ActionWithdrawn          = "withdrawn"
	ActionCancelled          = "cancelled"
	ActionDecider            = "deciding_game" // a knockout match is level: a deciding game
	ActionSeedsSet           = "seeds_set"
	ActionUnplayed           = "unplayed" // a game without a move by its deadline: a double forfeit
)

// TournamentActor is who acts on a tournament, as the public log names
// him: never by address.
type TournamentActor struct {
	Role string // "organiser", "player" or "scheduler"
	Name string // the player's name; "" for the organiser and the scheduler
}

// Who acts on tournaments.
var (
	ByOrganiser = TournamentActor{Role: "organiser"}
	ByScheduler = TournamentActor{Role: "scheduler"}
)

// ByPlayer is an entrant acting for himself.
func ByPlayer(name string) TournamentActor { return TournamentActor{Role: "player", Name: name} }

// MaxReasonLength bounds the reason given for an action.
const MaxReasonLength = 500

// checkReason checks the reason of an action: one line, required for the
// actions that change results or deadlines.
func checkReason(s string, required bool) (string, error) {
	if s == "" && !required {
		return "", nil
	}
	out, err := domain.CheckText(s, MaxReasonLength, "reason")
	if err != nil {
		return "", err
	}
	return out, nil
}

// Registration is sign-up by the players themselves, by an invite link or,
// when Public, by anyone signed in.
type Registration struct {
	Open bool
	// Public: listed to every account, and joinable without the link.
	Public bool
	// Limit is the most players the event takes; 0: up to 64.
	Limit int
	// Closes is when sign-up ends; zero: when the first round starts.
	Closes time.Time
	// InviteVersion is the version of the invite link: re-issuing or
	// revoking the link bumps it, and older links are refused.
	InviteVersion int
}

func checkRegistration(r Registration, players int, now time.Time) (Registration, error) {
	if r.Limit < 0 || r.Limit > maxTournamentPlayers {
		return Registration{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a limit of 2 to %d players, or none", maxTournamentPlayers)
	}
	if r.Limit != 0 && (r.Limit < 2 || r.Limit < players) {
		return Registration{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a limit of %d players: want 2 to %d, and at least the %d entered", r.Limit, maxTournamentPlayers, players)
	}
	if !r.Closes.IsZero() && !r.Closes.After(now) {
		return Registration{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "registration would close in the past")
	}
	r.Open = true
	r.InviteVersion = max(r.InviteVersion, 1)
	return r, nil
}

// OpenRegistration opens sign-up, or changes its terms, before the first
// round. A new invite link is issued (older ones stop working) when
// newLink, or when sign-up was closed.
func (t *Tournament) OpenRegistration(r Registration, newLink bool, now time.Time) error {
	if t.Status != TournamentScheduled {
		return domain.Errorf(domain.KindConflict, CodeRegistrationClosed, "the tournament has started: players are added as late entries")
	}
	if first := t.Rounds[0].Start; !r.Closes.IsZero() && r.Closes.After(first) {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "registration would close after the first round starts")
	}
	version := 0
	if t.Registration != nil {
		version = t.Registration.InviteVersion
		if newLink || !t.Registration.Open {
			version++
		}
	}
	r.InviteVersion = version
	reg, err := checkRegistration(r, len(t.Entrants), now)
	if err != nil {
		return err
	}
	if t.Format != Swiss && t.Interval == 0 {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a %s with registration is scheduled by a first start and an interval", t.Format)
	}
	t.Registration = &reg
	terms := LogArgs{Count: reg.Limit, At: reg.Closes}
	switch {
	case reg.Limit > 0 && !reg.Closes.IsZero():
		terms.Kind = LogRegistrationLimitUntil
	case reg.Limit > 0:
		terms.Kind = LogRegistrationLimit
	case !reg.Closes.IsZero():
		terms.Kind = LogRegistrationUntil
	}
	t.logf(ByOrganiser, now, ActionRegistrationOpened, "", terms)
	return nil
}

// CloseRegistration ends sign-up and revokes the invite link.
func (t *Tournament) CloseRegistration(now time.Time) error {
	if t.Registration == nil || !t.Registration.Open {
		return domain.Errorf(domain.KindConflict, CodeRegistrationClosed, "registration is not open")
	}
	t.Registration.Open = false
	t.Registration.InviteVersion++
	t.logf(ByOrganiser, now, ActionRegistrationClosed, "", LogArgs{})
	return nil
}

// PlacesLeft is how many more players sign-up takes, with entrants in.
func (r *Registration) PlacesLeft(entrants int) int {
	limit := r.Limit
	if limit == 0 {
		limit = maxTournamentPlayers
	}
	return max(0, limit-entrants)
}

// Joinable reports whether sign-up is open at now.
func (t *Tournament) Joinable(now time.Time) bool {
	r := t.Registration
	return t.Status == TournamentScheduled && r != nil && r.Open &&
		(r.Closes.IsZero() || now.Before(r.Closes)) && now.Before(t.Rounds[0].Start)
}

// Join enters a player who signs up himself, with his account (in a team
// event with his partner, who has a say too: either may withdraw the team
// before the start). invite is the version of the invite link he came by;
// 0 when he came without (only a public registration takes him then).
func (t *Tournament) Join(e Entrant, userID int64, invite int, now time.Time) (int, error) {
	if !t.Joinable(now) {
		return 0, domain.Errorf(domain.KindConflict, CodeRegistrationClosed, "registration for %s is closed", t.Name)
	}
	if invite == 0 && !t.Registration.Public || invite != 0 && invite != t.Registration.InviteVersion {
		return 0, domain.Errorf(domain.KindForbidden, CodeInviteInvalid, "this invite link is no longer valid; ask the organiser for the current one")
	}
	e, err := t.checkShape(e)
	if err != nil {
		return 0, err
	}
	if email, in := t.playsIn(&e, -1); in && email == e.Email {
		return 0, domain.Errorf(domain.KindConflict, CodeAlreadyEntered, "you play in %s already", t.Name)
	} else if in {
		return 0, domain.Errorf(domain.KindConflict, CodeAlreadyEntered, "%s plays in %s already", email, t.Name)
	}
	if t.Registration.PlacesLeft(len(t.Entrants)) == 0 {
		return 0, domain.Errorf(domain.KindConflict, CodeTournamentFull, "%s is full (%d players)", t.Name, len(t.Entrants))
	}
	e.UserID, e.Withdrawn, e.Annulled = userID, false, false
	t.logf(ByPlayer(e.Name), now, ActionJoined, "", LogArgs{Players: []string{e.Title()}})
	e.Entered = t.LastLogNumber()
	t.Entrants = append(t.Entrants, e)
	return len(t.Entrants) - 1, nil
}

// closeRegistration ends sign-up as the first round starts and plans the
// event for the players who came: a round robin gets its rounds, a Swiss
// event no more rounds than players can play. With fewer than two players
// the event is cancelled; it reports whether the event goes on.
func (t *Tournament) closeRegistration(now time.Time) bool {
	reg := t.Registration
	if reg == nil {
		return true
	}
	if reg.Open {
		reg.Open = false
		reg.InviteVersion++
		t.logf(ByScheduler, now, ActionRegistrationClosed, "", LogArgs{Kind: LogClosedWith, Count: len(t.Entrants)})
	}
	n := len(t.Entrants)
	if n < 2 {
		t.Status = TournamentCancelled
		t.logf(ByScheduler, now, ActionCancelled, "", LogArgs{Kind: LogTooFew})
		return false
	}
	switch t.Format {
	case RoundRobin, DoubleRoundRobin, Knockout:
		first := t.Rounds[0]
		length := first.Deadline.Sub(first.Start)
		count := plannedRounds(t.Format, n)
		t.Rounds = t.Rounds[:0:0]
		for i := range count {
			start := first.Start.Add(time.Duration(i) * t.Interval)
			t.Rounds = append(t.Rounds, Round{Number: i + 1, Start: start, Deadline: start.Add(length),
				Status: RoundPending, Seed: first.Seed + uint64(i)})
		}
	case Swiss:
		if len(t.Rounds) > n-1 {
			t.Rounds = t.Rounds[:n-1]
		}
	}
	return true
}

// AddEntrant enters a player typed in by the organiser: before the start
// of any event, and as a late entry into a running Swiss event (he starts
// with no points and is paired from the next round on).
func (t *Tournament) AddEntrant(e Entrant, reason string, now time.Time) (int, error) {
	if err := t.checkChangeable(); err != nil {
		return 0, err
	}
	if t.Status == TournamentRunning && t.Format != Swiss {
		return 0, domain.Errorf(domain.KindConflict, CodeRegistrationClosed, "a round robin takes no late entries: its pairings are fixed")
	}
	reason, err := checkReason(reason, false)
	if err != nil {
		return 0, err
	}
	if e, err = t.checkEntry(Entrant{Player: e.Player, Partner: e.Partner, Team: e.Team}, -1); err != nil {
		return 0, err
	}
	if len(t.Entrants) >= maxTournamentPlayers {
		return 0, domain.Errorf(domain.KindConflict, CodeTournamentFull, "a tournament has at most %d players", maxTournamentPlayers)
	}
	added := LogArgs{Players: []string{e.Title()}}
	if t.Status == TournamentRunning {
		added.Kind = LogLate
	}
	t.logf(ByOrganiser, now, ActionEntrantAdded, reason, added)
	e.Entered = t.LastLogNumber()
	t.Entrants = append(t.Entrants, e)
	return len(t.Entrants) - 1, nil
}

func (t *Tournament) checkChangeable() error {
	if t.Status == TournamentFinished || t.Status == TournamentCancelled {
		return domain.Errorf(domain.KindConflict, domain.CodeTournamentOver, "the tournament is over")
	}
	return nil
}

// EntrantGames are the undecided games of the running round an entrant
// plays: one, two in a simultaneous event, none between rounds. His colour
// in each is White when he is its pairing's White (a tournament game's
// first seat is White's).
func (t *Tournament) EntrantGames(entrant int) []TournamentGame {
	var out []TournamentGame
	if r := t.Current(); r != nil {
		for _, g := range r.Games {
			if g.Outcome == nil && g.GameID != "" && (g.White == entrant || g.Black == entrant) {
				out = append(out, g)
			}
		}
	}
	return out
}

// EntrantChange is what the organiser changes about a member of an
// entrant (the player, or a team's partner). Which kind of change it is
// follows from the change alone (see Replaces), so that no request slips a
// replacement past the rules of one.
type EntrantChange struct {
	Member int     // 0: the player, 1: a team's partner
	Name   *string // nil: his name stays
	Email  *string // nil: his address stays
	// Locale is the language of a new player, or of a corrected one who
	// had none; the caller looks up the new address's account when "".
	Locale string
	// Replace puts another player in the place (Name and Email give him).
	Replace bool
	// Correction declares a new address the same player's (a typo, a new
	// mailbox): he keeps his place, his results and his account.
	Correction bool
	Reason     string
}

// Replaces reports whether the change puts another player in old's place:
// a new address, asked for as a replacement or not declared a correction.
// A new name alone is a correction: the page shows names, but the move
// link goes to the address, so the address is who plays. So a replacement
// by the address the place has already is none, and its retry changes
// nothing.
func (c EntrantChange) Replaces(old games.Player) bool {
	switch {
	case c.Email == nil:
		return c.Replace // and is refused: a replacement names the newcomer
	case c.Correction && !c.Replace:
		return false
	}
	email, err := domain.NormalizeEmail(*c.Email)
	return err != nil || email != old.Email
}

// UpdateEntrant changes a member of an entrant. A correction (a name, or
// an address declared one) keeps his results; an address can be corrected
// only while he has not moved in his running games, since until then the
// link at the old address evidently did not reach him. A replacement puts
// another player in his place, only before the entrant has played, and
// needs a reason. hasMoved says whether the member made a move in his
// games of the running round (the caller reads their turns).
func (t *Tournament) UpdateEntrant(entrant int, c EntrantChange, hasMoved bool, now time.Time) error {
	if entrant < 0 || entrant >= len(t.Entrants) {
		return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no player %d in this tournament", entrant)
	}
	if c.Member < 0 || c.Member >= len(t.Entrants[entrant].Members()) {
		return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "entrant %d has no member %d", entrant, c.Member)
	}
	if err := t.checkChangeable(); err != nil {
		return err
	}
	e := t.Entrants[entrant]
	old := e.Members()[c.Member]
	replace := c.Replaces(old)
	reason, err := checkReason(c.Reason, replace)
	if err != nil {
		return err
	}
	p := old
	if replace {
		if c.Name == nil || c.Email == nil {
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput,
				"a new address puts another player in %s's place: give his name too, or declare the address a correction", old.Name)
		}
		p = games.Player{Locale: c.Locale}
	}
	if c.Name != nil {
		p.Name = *c.Name
	}
	if c.Email != nil {
		p.Email = *c.Email
	}
	if p.Locale == "" {
		p.Locale = c.Locale // a corrected player keeps a language he has
	}
	if p, err = games.CheckPlayer(p); err != nil {
		return err
	}
	if e.Withdrawn {
		return domain.Errorf(domain.KindConflict, domain.CodeAlreadyWithdrawn, "%s has withdrawn", e.Title())
	}
	newAddress := p.Email != old.Email
	switch {
	case replace && (hasMoved || t.played(entrant) > 0):
		return domain.Errorf(domain.KindConflict, CodeAlreadyPlayed, "%s has played in this tournament: he can withdraw, not be replaced", old.Name)
	case !replace && newAddress && hasMoved:
		return domain.Errorf(domain.KindConflict, CodeAlreadyPlayed,
			"%s has moved in his running game, so his link reached him: correct his address once the game is over", old.Name)
	}
	if p.Locale == "" {
		p.Locale = old.Locale
	}
	if !replace && p == old {
		return nil // nothing to change: a retry is no second log line
	}
	if c.Member == 0 {
		e.Player = p
	} else {
		e.Partner = &p
	}
	// The team mate's address is taken too (a team is two players).
	if e, err = t.checkEntry(e, entrant); err != nil {
		return err
	}
	t.Entrants[entrant] = e
	switch {
	case replace:
		if c.Member == 0 {
			t.Entrants[entrant].UserID = 0
		}
		t.logf(ByOrganiser, now, ActionEntrantReplaced, reason, LogArgs{Players: []string{p.Name, old.Name}})
		return nil
	case old.Name != p.Name:
		t.logf(ByOrganiser, now, ActionEntrantEdited, reason, LogArgs{Kind: LogRenamed, Players: []string{old.Name, p.Name}})
	}
	if newAddress {
		t.logf(ByOrganiser, now, ActionEntrantEdited, reason, LogArgs{Kind: LogAddress, Players: []string{p.Name}})
	}
	return nil
}

// ExtendGame gives one game of the running round more time: it is
// adjudicated by later than its round, and the player to move gets by
// more for his turn (games.InTx.ExtendTurn).
func (t *Tournament) ExtendGame(gameID string, by time.Duration, reason string, now time.Time) error {
	if err := t.checkChangeable(); err != nil {
		return err
	}
	if by < time.Hour || by > games.MaxTurnTime {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "an extension of 1 hour to 60 days")
	}
	reason, err := checkReason(reason, true)
	if err != nil {
		return err
	}
	r := t.Current()
	if r != nil {
		for i := range r.Games {
			g := &r.Games[i]
			if g.GameID != gameID || gameID == "" {
				continue
			}
			if g.Outcome != nil {
				return domain.Errorf(domain.KindConflict, domain.CodeGameOver, "the game is decided")
			}
			g.Extra += by
			t.logf(ByOrganiser, now, ActionDeadlineExtended, reason, LogArgs{Players: []string{t.Entrants[g.White].Title(), t.Entrants[g.Black].Title()},
				Round: r.Number, For: by, At: r.GameDeadline(i)})
			return nil
		}
	}
	return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no game %s is running in this tournament", domain.Clip(gameID))
}

// PostponeRound moves a round, and every round after it, by later: a
// pending round starts later, a running one ends later.
func (t *Tournament) PostponeRound(number int, by time.Duration, reason string, now time.Time) error {
	if err := t.checkChangeable(); err != nil {
		return err
	}
	if number < 1 || number > len(t.Rounds) {
		return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no round %d in this tournament", number)
	}
	if by < time.Hour || by > games.MaxBank {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a postponement of 1 hour to 365 days")
	}
	reason, err := checkReason(reason, true)
	if err != nil {
		return err
	}
	if t.Rounds[number-1].Status == RoundClosed {
		return domain.Errorf(domain.KindConflict, CodeRoundNotChangeable, "round %d is closed", number)
	}
	if reg := t.Registration; number == 1 && reg != nil && !reg.Closes.IsZero() {
		reg.Closes = reg.Closes.Add(by)
	}
	for i := number - 1; i < len(t.Rounds); i++ {
		r := &t.Rounds[i]
		if r.Status == RoundPending {
			r.Start = r.Start.Add(by)
		}
		r.Deadline = r.Deadline.Add(by)
	}
	r := t.Rounds[number-1]
	moved := LogArgs{Round: number, For: by, At: r.Start}
	if r.Status == RoundRunning {
		moved.Kind, moved.At = LogEnds, r.Deadline
	}
	t.logf(ByOrganiser, now, ActionRoundPostponed, reason, moved)
	return nil
}

// Pause stops the event (holidays): no round starts or closes, and the
// caller halts the clock of every running game (games.InTx.HaltClock).
func (t *Tournament) Pause(reason string, now time.Time) error {
	if err := t.checkChangeable(); err != nil {
		return err
	}
	if !t.PausedAt.IsZero() {
		return domain.Errorf(domain.KindConflict, CodeTournamentPaused, "the tournament is paused already")
	}
	reason, err := checkReason(reason, false)
	if err != nil {
		return err
	}
	t.PausedAt = now
	t.logf(ByOrganiser, now, ActionPaused, reason, LogArgs{})
	return nil
}

// Resume restarts a paused event: every deadline and start still ahead
// moves by the length of the pause, so the pause costs nobody time; the
// caller restarts the clocks (games.InTx.ResumeClock).
func (t *Tournament) Resume(reason string, now time.Time) (paused time.Duration, err error) {
	if err := t.checkChangeable(); err != nil {
		return 0, err
	}
	if t.PausedAt.IsZero() {
		return 0, domain.Errorf(domain.KindConflict, CodeTournamentNotPaused, "the tournament is not paused")
	}
	if reason, err = checkReason(reason, false); err != nil {
		return 0, err
	}
	paused = max(now.Sub(t.PausedAt), 0)
	for i := range t.Rounds {
		r := &t.Rounds[i]
		if r.Status == RoundClosed {
			continue
		}
		if r.Status == RoundPending {
			r.Start = r.Start.Add(paused)
		}
		r.Deadline = r.Deadline.Add(paused)
	}
	if reg := t.Registration; reg != nil && !reg.Closes.IsZero() && reg.Closes.After(t.PausedAt) {
		reg.Closes = reg.Closes.Add(paused)
	}
	t.PausedAt = time.Time{}
	t.logf(ByOrganiser, now, ActionResumed, reason, LogArgs{For: paused})
	return paused, nil
}

// Override sets a decided pairing's result (round, index of the pairing in
// the round): whiteScore 1, 0.5 or 0 with White's margin, or annul to let
// it count for nobody. A game still running must end first (the organiser
// may end it by adjudication or a resignation); the tick then never
// overwrites what the organiser decided. A finished or cancelled event
// takes no override (CodeTournamentOver).
func (t *Tournament) Override(round, index int, whiteScore float64, margin int, annul bool, reason string, now time.Time) error {
	if round < 1 || round > len(t.Rounds) || index < 0 || index >= len(t.Rounds[round-1].Games) {
		return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no game %d in round %d", index, round)
	}
	// Once the event is over its final standings have been sent: a result
	// changed afterwards would make them, and what the players keep, wrong.
	if err := t.checkChangeable(); err != nil {
		return err
	}
	reason, err := checkReason(reason, true)
	if err != nil {
		return err
	}
	g := &t.Rounds[round-1].Games[index]
	if g.Outcome == nil {
		return domain.Errorf(domain.KindConflict, CodeRoundNotChangeable, "the game is still being played")
	}
	if g.Overridden && (annul && g.Annulled || !annul && !g.Annulled && g.Outcome.Score == whiteScore && g.Outcome.Margin == margin) {
		return nil // so it is already: a retry logs and tells nothing twice
	}
	if g.Black == Bye && !annul {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a bye has no result to set; annul it instead")
	}
	pairing := LogArgs{Players: []string{t.Entrants[g.White].Title()}, Round: round}
	if g.Black != Bye {
		pairing.Players = append(pairing.Players, t.Entrants[g.Black].Title())
	} else {
		pairing.Kind = LogBye
	}
	if annul {
		g.Annulled, g.Overridden = true, true
		t.logf(ByOrganiser, now, ActionResultAnnulled, reason, pairing)
		return nil
	}
	switch {
	case whiteScore == 1 && margin > 0, whiteScore == 0 && margin < 0, whiteScore == 0.5 && margin == 0:
	default:
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "White's score is 1, 0.5 or 0, with a margin of the same sign (0 for a draw)")
	}
	g.Outcome = &PairingResult{Round: round, White: g.White, Black: g.Black, Score: whiteScore, Margin: margin}
	g.Annulled, g.Overridden = false, true
	pairing.Score, pairing.Margin = scoreText(whiteScore), margin
	t.logf(ByOrganiser, now, ActionResultOverridden, reason, pairing)
	return nil
}

func scoreText(s float64) string {
	switch s {
	case 1:
		return "1–0"
	case 0:
		return "0–1"
	default:
		return "½–½"
	}
}

// RunningGames lists the undecided games of the running round.
func (t *Tournament) RunningGames() []string {
	var out []string
	if r := t.Current(); r != nil {
		for _, g := range r.Games {
			if g.Outcome == nil && g.GameID != "" {
				out = append(out, g.GameID)
			}
		}
	}
	return out
}

// LiveResults records the results of the running round's games that have
// ended (read from the store by the caller), for a reader: what he sees
// between a game's end and the scheduler's next look. The version is kept,
// so the tournament is not saved so.
func (t *Tournament) LiveResults(ended map[string]ruleset.Result) {
	version, updated := t.Version, t.UpdatedAt
	for id, res := range ended {
		t.RecordResult(id, res, updated)
	}
	t.Version, t.UpdatedAt = version, updated
}
