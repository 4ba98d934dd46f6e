package games

import (
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/internal/text"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// Player is a person invited to a seat.
type Player struct {
	Name  string
	Email string
	// Locale is the language of the player's emails and pages; "" until the
	// store fills in his account's language (or the default).
	Locale string
}

// Seat is one colour of a game (in its rules' names: "white") and the
// player who holds it. Its move links carry TokenVersion: rotating the seat
// bumps it and old links stop working.
type Seat struct {
	Color string
	Player
	TokenVersion int
}

// Game is a stored game: who plays it, its clock, and where it stands under
// its rules.
type Game struct {
	ID        string
	CreatorID int64
	Seats     []Seat // in turn order
	// Rules is the game under its ruleset. Games are passed and changed as
	// values, so Rules is never played in place: a change plays a Clone and
	// puts it in the changed game.
	Rules Rules
	Clock Clock
	// Tournament names the tournament and round of a tournament game; nil otherwise.
	Tournament *TournamentRef
	// Away holds the vacations of the seats' players, which move deadlines
	// when the time control allows it. The store loads it with the game.
	Away Away
	// WatchVersion is the version of the game's spectator link: replacing
	// the link bumps it, and spectator tokens of older versions are refused.
	WatchVersion int
	// Version changes with every change to the game; it is the ETag.
	Version   int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Rules is a game under its ruleset (see package ruleset).
type Rules = ruleset.Game

// Seat returns the seat of colour c.
func (g *Game) Seat(c string) (*Seat, bool) {
	i := g.SeatIndex(c)
	if i < 0 {
		return nil, false
	}
	return &g.Seats[i], true
}

// SeatIndex is the place in turn order of colour c's seat; -1 if the game
// has none.
func (g *Game) SeatIndex(c string) int {
	for i := range g.Seats {
		if g.Seats[i].Color == c {
			return i
		}
	}
	return -1
}

// Ply is the number of plies played.
func (g *Game) Ply() int { return g.Rules.Ply() }

// ToMove is the colour whose turn it is.
func (g *Game) ToMove() string { return g.Rules.ToMove() }

// Over reports whether the game has ended.
func (g *Game) Over() bool {
	_, over := g.Rules.Result()
	return over
}

// Result is how the game ended, once it is over.
func (g *Game) Result() (ruleset.Result, bool) { return g.Rules.Result() }

// TournamentRef is what a game knows of its tournament.
type TournamentRef struct {
	ID    string
	Name  string
	Round int
}

// NewGameSpec is what a user asks for when creating a game.
type NewGameSpec struct {
	// Players in turn order (Less: White, Black for two; Yellow, Black,
	// White, Red for four).
	Players []Player
	// Teams, instead of Players, are the players by side (side 0 first),
	// each side's in its turn order: the rules seat them (a tournament's
	// team event).
	Teams [][]Player
	// Ruleset names the game's rules; "" is the default (Less).
	Ruleset string
	// Params are the rules' own options (ruleset.Options.Params; for Less,
	// less.Params builds them).
	Params map[string]string
	// Seed, if set, is what the rules draw a board from when Params name
	// none (a tournament round's games share one); else one is drawn.
	Seed *uint64
	// Time is the time control; the zero value is none.
	Time TimeControl
	// Tournament is set for the games a tournament creates.
	Tournament *TournamentRef
	// Creator is the address of the account creating the game, which alone
	// may hold several of its seats (see CreateGame).
	Creator string
}

// Created is a new game and what its creation causes.
type Created struct {
	Game    Game
	History []ruleset.Played // automatic passes at the start, if any
	Notices []domain.Notice
}

// CreateGame validates the spec and builds the game: the rules check their
// options and the number of players. randomSeed is what the rules draw from
// when the spec gives no Seed.
//
// away gives the vacations of the players (by seat: the spec's players in
// turn order), which move deadlines when the game allows vacations.
func CreateGame(spec NewGameSpec, id string, creatorID int64, now time.Time, randomSeed uint64, away Away) (Created, error) {
	rs, err := domain.RulesetNamed(spec.Ruleset)
	if err != nil {
		return Created{}, err
	}
	if spec.Seed != nil {
		randomSeed = *spec.Seed
	}
	if len(spec.Teams) > 0 {
		if spec.Players, err = SeatTeams(rs, randomSeed, spec.Params, spec.Teams); err != nil {
			return Created{}, err
		}
	}
	n := len(spec.Players)
	if n < 1 || n > len(Clock{}.Banks) {
		return Created{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a game has 2 or 4 players, not %d", n)
	}
	players := make([]Player, n)
	for i := range spec.Players {
		p, err := CheckPlayer(spec.Players[i])
		if err != nil {
			return Created{}, err
		}
		// One mailbox holds one seat (ann+w@x and ann+b@x are one, see
		// Mailbox): each seat more would be one email more to it, per
		// invitation and per turn. Only the creator may play several seats
		// himself (to try something out, or to test the server): that mail
		// goes to nobody else.
		for _, q := range players[:i] {
			if domain.Mailbox(q.Email) == domain.Mailbox(p.Email) && domain.Mailbox(p.Email) != domain.Mailbox(spec.Creator) {
				return Created{}, domain.Errorf(domain.KindInvalid, domain.CodeDuplicateAddress, "%s has two seats in this game", p.Email)
			}
		}
		players[i] = p
	}
	// The rules start the game: they check the board, the preset, the
	// options and the set-up position, and name the seats' colours.
	rules, history, err := rs.Start(ruleset.Options{Players: n, Seed: randomSeed, Params: spec.Params})
	if err != nil {
		return Created{}, domain.Classify(err)
	}
	tc, err := spec.Time.Normalize(n)
	if err != nil {
		return Created{}, err
	}
	seats := make([]Seat, n)
	for i, c := range rules.Colors() {
		seats[i] = Seat{Color: c, Player: players[i], TokenVersion: 1}
	}
	g := Game{ID: id, CreatorID: creatorID, Seats: seats, Rules: rules, Away: away, Tournament: spec.Tournament,
		Version: 1, CreatedAt: now, UpdatedAt: now}
	g.startClock(tc, now)
	notices := make([]domain.Notice, 0, n)
	for _, s := range seats {
		notices = append(notices, domain.Notice{Kind: domain.NoticeInvitation, GameID: id, Color: s.Color, Ply: g.Ply()})
	}
	notices = append(notices, AfterPly(&g, history)...)
	return Created{Game: g, History: history, Notices: notices}, nil
}

func CheckPlayer(p Player) (Player, error) {
	var err error
	if p.Name, err = domain.CheckName(p.Name); err != nil {
		return Player{}, err
	}
	if p.Email, err = domain.NormalizeEmail(p.Email); err != nil {
		return Player{}, err
	}
	if p.Locale != "" { // "" means the player's own choice: his account's, or the default
		if p.Locale, err = domain.CheckLocale(p.Locale); err != nil {
			return Player{}, err
		}
	}
	return p, nil
}

// Actor is who makes a request about a game: a seat (through its move
// link), a user (through an account token), or a spectator.
type Actor struct {
	UserID    int64  // 0 unless signed in with an account
	UserEmail string // the account's address, to find its seats
	// SeatColor is set when the request carries a seat token of this game.
	SeatColor *string
	Spectator bool
}

// CanRead reports whether the actor may see the game.
func (a Actor) CanRead(g *Game) bool {
	return a.SeatColor != nil || a.Spectator || a.UserID != 0 && (a.UserID == g.CreatorID || len(a.Seats(g)) > 0)
}

// Seats lists the colours the actor holds in the game.
func (a Actor) Seats(g *Game) []string {
	if a.SeatColor != nil {
		return []string{*a.SeatColor}
	}
	var out []string
	for _, s := range g.Seats {
		if a.UserEmail != "" && s.Email == a.UserEmail {
			out = append(out, s.Color)
		}
	}
	return out
}

// mover checks that the actor holds the seat to move.
func (a Actor) mover(g *Game) error {
	if g.Over() {
		return &domain.Error{Kind: domain.KindConflict, Code: domain.CodeGameOver, Message: "the game is over"}
	}
	toMove := g.ToMove()
	held := a.Seats(g)
	if slices.Contains(held, toMove) {
		return nil
	}
	if len(held) == 0 {
		return domain.Errorf(domain.KindForbidden, domain.CodeForbidden, "you do not play in this game")
	}
	return domain.Errorf(domain.KindForbidden, domain.CodeNotYourTurn, "it is %s's turn", toMove)
}

// Submitted is the result of an accepted turn.
type Submitted struct {
	Game    Game
	Played  []ruleset.Played // the turn and any automatic passes after it
	Notices []domain.Notice
}

// SubmitTurn plays a turn for the actor. ply is the number of turns the
// player saw when making it: a turn made against an older position is refused.
//
// A player whose turn was overtaken (a race, or a retry after the game moved
// on) learns that first: stale_ply, not "not your turn".
func SubmitTurn(g Game, a Actor, ply int, turnText string, now time.Time) (Submitted, error) {
	if len(a.Seats(&g)) > 0 && !g.Over() && ply != g.Ply() {
		return Submitted{}, domain.Errorf(domain.KindConflict, domain.CodeStalePly, "the turn was made at ply %d but the game is at ply %d: reload the game", ply, g.Ply())
	}
	if err := a.mover(&g); err != nil {
		return Submitted{}, err
	}
	rules := g.Rules.Clone()
	mover := g.ToMove()
	played, err := rules.Play(turnText)
	if err != nil {
		return Submitted{}, domain.Classify(err)
	}
	g.charge(g.SeatIndex(mover), now)
	if side := rules.Side(mover); side >= 0 && side < len(g.Clock.Streak) {
		g.Clock.Streak[side] = 0
	}
	g.Rules = rules
	g.Version++
	g.UpdatedAt = now
	g.startTurn(now)
	return Submitted{Game: g, Played: played, Notices: AfterPly(&g, played)}, nil
}

// PreviewTurn judges a turn for the actor without playing it: the game as it
// would be after it, and what would be played.
func PreviewTurn(g Game, a Actor, turnText string) (Rules, []ruleset.Played, error) {
	if err := a.mover(&g); err != nil {
		return nil, nil, err
	}
	rules := g.Rules.Clone()
	played, err := rules.Play(turnText)
	if err != nil {
		return nil, nil, domain.Classify(err)
	}
	return rules, played, nil
}

// Resign ends the game: the actor's side loses (E8). A player may resign at
// any time, not only on his turn.
func Resign(g Game, a Actor, now time.Time) (Submitted, error) {
	if g.Over() {
		return Submitted{}, &domain.Error{Kind: domain.KindConflict, Code: domain.CodeGameOver, Message: "the game is over"}
	}
	held := a.Seats(&g)
	if len(held) == 0 {
		return Submitted{}, domain.Errorf(domain.KindForbidden, domain.CodeForbidden, "you do not play in this game")
	}
	rules := g.Rules.Clone()
	if err := rules.Resign(held[0]); err != nil {
		return Submitted{}, domain.Classify(err)
	}
	g.Rules = rules
	g.Version++
	g.UpdatedAt = now
	g.startTurn(now) // the game is over: the clock stops
	return Submitted{Game: g, Notices: AfterPly(&g, nil)}, nil
}

// RotateSeat gives a seat a new move link: old links stop working and the
// new one is emailed to the seat's player. The seat itself or the game's
// creator may ask; nobody else ever sees the link.
func RotateSeat(g Game, a Actor, c string, now time.Time) (Game, domain.Notice, error) {
	g.Seats = slices.Clone(g.Seats) // the caller's game keeps its seats
	seat, ok := g.Seat(c)
	if !ok {
		return Game{}, domain.Notice{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "the game has no %s seat", text.Clip(c, 20))
	}
	if !slices.Contains(a.Seats(&g), c) && (a.UserID == 0 || a.UserID != g.CreatorID) {
		return Game{}, domain.Notice{}, domain.Errorf(domain.KindForbidden, domain.CodeForbidden, "only the player of the seat or the game's creator may renew its link")
	}
	seat.TokenVersion++
	g.Version++
	g.UpdatedAt = now
	return g, domain.Notice{Kind: domain.NoticeNewLink, GameID: g.ID, Color: c, Ply: g.Ply()}, nil
}

// RotateSpectatorLink replaces the game's spectator link: old links stop
// working. The players and the game's creator may ask, who are also the
// ones given the link; a spectator may not.
func RotateSpectatorLink(g Game, a Actor, now time.Time) (Game, error) {
	if len(a.Seats(&g)) == 0 && (a.UserID == 0 || a.UserID != g.CreatorID) {
		return Game{}, domain.Errorf(domain.KindForbidden, domain.CodeForbidden, "only the game's players and its creator may replace its spectator link")
	}
	g.WatchVersion++
	g.Version++
	g.UpdatedAt = now
	return g, nil
}

// AfterPly decides whom to email after the game changed: everyone when it is
// over, else the player to move (4p: only him).
func AfterPly(g *Game, played []ruleset.Played) []domain.Notice {
	if g.Over() {
		out := make([]domain.Notice, 0, len(g.Seats))
		for _, s := range g.Seats {
			out = append(out, domain.Notice{Kind: domain.NoticeGameOver, GameID: g.ID, Color: s.Color, Ply: g.Ply()})
		}
		return out
	}
	if len(played) == 0 {
		return nil
	}
	return []domain.Notice{{Kind: domain.NoticeYourTurn, GameID: g.ID, Color: g.ToMove(), Ply: g.Ply()}}
}

// SeatTeams orders the players of a team game by seat: the rules say which
// side each colour plays for (Less: Yellow, Black, White, Red; Yellow and
// White are partners), and teams[s] fill side s's seats in turn order.
func SeatTeams(rs ruleset.Ruleset, seed uint64, params map[string]string, teams [][]Player) ([]Player, error) {
	n := 0
	for _, team := range teams {
		n += len(team)
	}
	rules, _, err := rs.Start(ruleset.Options{Players: n, Seed: seed, Params: params})
	if err != nil {
		return nil, domain.Classify(err)
	}
	next := make([]int, len(teams))
	players := make([]Player, 0, n)
	for _, c := range rules.Colors() {
		s := rules.Side(c)
		if s < 0 || s >= len(teams) || next[s] >= len(teams[s]) {
			return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "the teams do not fit the game's sides")
		}
		players = append(players, teams[s][next[s]])
		next[s]++
	}
	return players, nil
}

// Adjudicate ends an unfinished game at its round's deadline, scored as if
// the turn limit were reached (E3–E7); everyone is told.
func Adjudicate(g Game, now time.Time) (Submitted, error) {
	rules := g.Rules.Clone()
	if err := rules.Adjudicate(); err != nil {
		return Submitted{}, domain.Classify(err)
	}
	g.Rules = rules
	g.Version++
	g.UpdatedAt = now
	g.startTurn(now) // the clock stops
	return Submitted{Game: g, Notices: AfterPly(&g, nil)}, nil
}
