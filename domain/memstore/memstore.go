// Package memstore is an in-memory store of the use cases' ports (the
// kernel's, and those of games, tournaments, accounts, push and players), for
// testing the use cases without a database. It keeps what the ports promise (units of work that
// stand or fall whole, version-guarded writes, idempotent responses) and
// nothing more: a new game is created without its players' vacations
// (PlayersAway has none). It keeps the facts the mail policy reads (the
// suppression list, the budgeted mail queued) and rate limits
// (domain.RateLimiter), for the use cases that take them.
package memstore

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/players"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// Store is the store. The zero value is not usable: call New.
type Store struct {
	mu   sync.RWMutex
	data data
}

// data is everything stored; a unit of work changes a copy and keeps it
// only if it succeeds.
type data struct {
	games       map[string]games.Game
	turns       map[string][]games.StoredTurn
	responses   map[[2]string]storedResponse
	users       map[int64]domain.User
	sessions    map[string]session
	refreshes   map[string]refresh // by token
	logins      map[string]login   // by token
	pats        []pat
	pushes      []hooks.PushSubscription // by id
	pushKey     *hooks.PushKey
	vacations   []vacation
	tournaments map[string]tournaments.Tournament
	queued      []Queued
	events      []domain.Event
	lastEvent   int64 // the Seq of the last event written, pruned or not
	// unsubscribed are the addresses that chose so, suppressed the
	// mailboxes (domain.Mailbox).
	unsubscribed, suppressed map[string]bool
	rematches                map[string]string // a game's id → its rematch's
	// full are the rate limits' buckets: when each key's is full again.
	full map[string]time.Time
	// handles are the handles held, current or retired, by players.Fold;
	// profiles the stored profiles, by account.
	handles  map[string]handle
	profiles map[int64]players.Profile
}

type session struct {
	accounts.Session
	revoked bool
}

type refresh struct {
	sessionID string
	expires   time.Time
	spent     bool
}

type login struct {
	accounts.LoginToken
	used   bool
	misses int // wrong codes tried for the address while it lived
}

type vacation struct {
	userID int64
	games.Vacation
}

type storedResponse struct {
	fingerprint []byte
	resp        domain.Response
}

// Queued is mail a committed change queued, as the mail policy admitted it.
type Queued struct {
	domain.Notice
	Email    string // the recipient
	Secret   string // what the mail alone carries: a login token
	Budgeted bool   // it counts against the recipient's budget
	Quiet    bool   // it leaves out the words of whoever caused it
	At       time.Time
}

var (
	_ domain.Store        = (*Store)(nil)
	_ domain.StoreTx      = (*tx)(nil)
	_ games.Store         = (*Store)(nil)
	_ games.StoreTx       = (*tx)(nil)
	_ tournaments.Store   = (*Store)(nil)
	_ tournaments.StoreTx = (*tx)(nil)
	_ accounts.Store      = (*Store)(nil)
	_ accounts.StoreTx    = (*tx)(nil)
	_ hooks.Store         = (*Store)(nil)
	_ hooks.PushTx        = (*tx)(nil)
	_ players.Store       = (*Store)(nil)
	_ players.StoreTx     = (*tx)(nil)
)

// New returns an empty store that knows the given accounts.
func New(users ...domain.User) *Store {
	s := &Store{data: data{games: map[string]games.Game{}, turns: map[string][]games.StoredTurn{},
		responses: map[[2]string]storedResponse{}, users: map[int64]domain.User{},
		sessions: map[string]session{}, refreshes: map[string]refresh{}, logins: map[string]login{}, tournaments: map[string]tournaments.Tournament{},
		unsubscribed: map[string]bool{}, suppressed: map[string]bool{}, rematches: map[string]string{},
		full: map[string]time.Time{}, handles: map[string]handle{}, profiles: map[int64]players.Profile{}}}
	for _, u := range users {
		s.data.users[u.ID] = u
	}
	return s
}

// Queued lists the notices committed changes caused, in order.
func (s *Store) Queued() []Queued {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.data.queued)
}

// Game reads a committed game.
func (s *Store) Game(ctx context.Context, id string) (games.Game, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.game(id)
}

// Turns lists a game's committed turns.
func (s *Store) Turns(ctx context.Context, id string) ([]games.StoredTurn, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.data.turns[id]), nil
}

// TurnsFrom lists a game's committed turns from ply on.
func (s *Store) TurnsFrom(ctx context.Context, id string, ply int) ([]games.StoredTurn, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return turnsFrom(s.data.turns[id], ply), nil
}

// turnsFrom is a copy of the turns from ply on (turns are in ply order).
func turnsFrom(turns []games.StoredTurn, ply int) []games.StoredTurn {
	i, _ := slices.BinarySearchFunc(turns, ply, func(t games.StoredTurn, ply int) int { return cmp.Compare(t.Ply, ply) })
	return slices.Clone(turns[i:])
}

// RematchOf implements games.GameReader.
func (s *Store) RematchOf(ctx context.Context, id string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.rematches[id], nil
}

// StoredResponse is the committed response of an idempotent request.
func (s *Store) StoredResponse(ctx context.Context, idem domain.Idempotency) (domain.Response, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.storedResponse(idem)
}

// Transact runs fn on a copy of the data and keeps the copy if fn succeeds.
// Units of work run one at a time.
func (s *Store) Transact(ctx context.Context, fn func(domain.StoreTx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	work := data{games: maps.Clone(s.data.games), turns: maps.Clone(s.data.turns),
		responses: maps.Clone(s.data.responses), users: maps.Clone(s.data.users), sessions: maps.Clone(s.data.sessions),
		refreshes: maps.Clone(s.data.refreshes), logins: maps.Clone(s.data.logins), vacations: slices.Clone(s.data.vacations),
		tournaments: maps.Clone(s.data.tournaments), queued: slices.Clone(s.data.queued), pats: slices.Clone(s.data.pats),
		pushes: slices.Clone(s.data.pushes), pushKey: s.data.pushKey,
		events: slices.Clone(s.data.events), lastEvent: s.data.lastEvent,
		unsubscribed: maps.Clone(s.data.unsubscribed), suppressed: maps.Clone(s.data.suppressed),
		rematches: maps.Clone(s.data.rematches), full: maps.Clone(s.data.full),
		handles: maps.Clone(s.data.handles), profiles: maps.Clone(s.data.profiles)}
	if err := fn(&tx{data: &work}); err != nil {
		return err
	}
	s.data = work
	return nil
}

func (d *data) game(id string) (games.Game, error) {
	g, ok := d.games[id]
	if !ok {
		return games.Game{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no game %s", domain.Clip(id))
	}
	g.Seats = slices.Clone(g.Seats) // the caller may change his copy
	g.Rules = g.Rules.Clone()
	return g, nil
}

func (d *data) storedResponse(idem domain.Idempotency) (domain.Response, bool, error) {
	r, ok := d.responses[[2]string{idem.Scope, idem.Key}]
	if !ok {
		return domain.Response{}, false, nil
	}
	if string(r.fingerprint) != string(idem.Fingerprint) {
		return domain.Response{}, false, domain.Errorf(domain.KindConflict, domain.CodeIdempotencyReused,
			"this Idempotency-Key was already used for a different request")
	}
	return r.resp, true, nil
}

// tx is a unit of work on a copy of the data.
type tx struct{ data *data }

func (t *tx) Game(ctx context.Context, id string) (games.Game, error) { return t.data.game(id) }

func (t *tx) Turns(ctx context.Context, id string) ([]games.StoredTurn, error) {
	return slices.Clone(t.data.turns[id]), nil
}

func (t *tx) TurnsFrom(ctx context.Context, id string, ply int) ([]games.StoredTurn, error) {
	return turnsFrom(t.data.turns[id], ply), nil
}

func (t *tx) RematchOf(ctx context.Context, id string) (string, error) {
	return t.data.rematches[id], nil
}

func (t *tx) LinkRematch(ctx context.Context, gameID, rematchID string, now time.Time) error {
	if _, ok := t.data.rematches[gameID]; ok {
		return domain.ErrStale
	}
	t.data.rematches[gameID] = rematchID
	return nil
}

func (t *tx) StoredResponse(ctx context.Context, idem domain.Idempotency) (domain.Response, bool, error) {
	return t.data.storedResponse(idem)
}

func (t *tx) PlayersAway(ctx context.Context, players []games.Player, since time.Time) (games.Away, error) {
	return nil, nil
}

func (t *tx) UserEmail(ctx context.Context, userID int64) (string, error) {
	u, ok := t.data.users[userID]
	if !ok {
		return "", fmt.Errorf("no user %d", userID)
	}
	return u.Email, nil
}

func (t *tx) AccountLocale(ctx context.Context, email string) (string, error) {
	for _, u := range t.data.users {
		if u.Email == email && u.Locale != "" {
			return u.Locale, nil
		}
	}
	return domain.DefaultLocale, nil
}

func (t *tx) InsertGame(ctx context.Context, c *games.Created, mail []domain.Mail, now time.Time) error {
	if _, ok := t.data.games[c.Game.ID]; ok {
		return fmt.Errorf("insert game %s: it exists", c.Game.ID)
	}
	g := c.Game
	g.Seats, g.Rules = slices.Clone(g.Seats), g.Rules.Clone() // as a store keeps a copy
	t.data.games[g.ID] = g
	t.addTurns(c.Game.ID, 0, c.History, now)
	t.addEvents(games.ChangeEvents(&c.Game, c.Game.Ply(), nil, c.Notices), now)
	t.queue(mail, "", now)
	return nil
}

func (t *tx) UpdateGame(ctx context.Context, before *games.Game, c *games.GameChange, mail []domain.Mail, now time.Time) error {
	stored, ok := t.data.games[before.ID]
	if !ok || stored.Version != before.Version {
		return fmt.Errorf("update game %s at version %d: %w", before.ID, before.Version, domain.ErrStale)
	}
	g := c.Game
	g.Seats, g.Rules = slices.Clone(g.Seats), g.Rules.Clone()
	t.data.games[g.ID] = g
	t.data.dropStalePushes(g)
	t.addTurns(g.ID, before.Ply(), c.Played, now)
	t.addEvents(games.ChangeEvents(&g, before.Ply(), c.Played, c.Notices), now)
	t.queue(mail, "", now)
	return nil
}

// addTurns appends the turns a change played.
func (t *tx) addTurns(gameID string, plyBefore int, played []ruleset.Played, now time.Time) {
	turns := slices.Clone(t.data.turns[gameID])
	for i, p := range played {
		turns = append(turns, games.StoredTurn{Ply: plyBefore + i + 1, Color: p.Color, Notation: p.Ply,
			Used: p.Used, Counted: p.Counted, Auto: p.Auto, TimedOut: p.TimedOut, PlayedAt: now})
	}
	t.data.turns[gameID] = turns
}

// queue keeps mail the policy admitted; secret is a login token.
func (t *tx) queue(mail []domain.Mail, secret string, now time.Time) {
	for _, m := range mail {
		t.data.queued = append(t.data.queued, Queued{Notice: m.Notice(), Email: m.To(), Secret: secret,
			Budgeted: m.Budgeted(), Quiet: m.Quiet(), At: now})
	}
}

// MailStops implements domain.MailFacts.
func (t *tx) MailStops(ctx context.Context, mailbox, email string) (bool, bool, error) {
	return t.data.suppressed[mailbox], t.data.unsubscribed[email], nil
}

// SeatPlayed implements domain.MailFacts.
func (t *tx) SeatPlayed(ctx context.Context, gameID, color string) (bool, error) {
	return slices.ContainsFunc(t.data.turns[gameID], func(s games.StoredTurn) bool { return s.Color == color && !s.Auto }), nil
}

// PlayedIn implements domain.MailFacts.
func (t *tx) PlayedIn(ctx context.Context, email string, gameIDs []string) (bool, error) {
	for _, id := range gameIDs {
		g, ok := t.data.games[id]
		if !ok {
			continue
		}
		for _, s := range g.Seats {
			if s.Email == email && slices.ContainsFunc(t.data.turns[id], func(st games.StoredTurn) bool { return st.Color == s.Color && !st.Auto }) {
				return true, nil
			}
		}
	}
	return false, nil
}

// BudgetSpent implements domain.MailFacts.
func (t *tx) BudgetSpent(ctx context.Context, mailbox string, since time.Time) (int, time.Time, error) {
	n, oldest := 0, time.Time{}
	for _, q := range t.data.queued {
		if q.Budgeted && q.At.After(since) && domain.Mailbox(q.Email) == mailbox {
			if n == 0 {
				oldest = q.At
			}
			n++
		}
	}
	return n, oldest, nil
}

// TakeRequest implements domain.MailFacts: the generic cell rate algorithm
// (see domain.RateLimiter), in the unit of work.
func (t *tx) TakeRequest(ctx context.Context, key string, interval, tolerance time.Duration, now time.Time) (bool, time.Duration, error) {
	return t.data.takeRequest(key, interval, tolerance, now)
}

func (t *tx) StoreResponse(ctx context.Context, idem domain.Idempotency, r domain.Response, now time.Time) error {
	key := [2]string{idem.Scope, idem.Key}
	if _, ok := t.data.responses[key]; ok {
		return fmt.Errorf("store idempotent response: %w", domain.ErrStale)
	}
	t.data.responses[key] = storedResponse{fingerprint: slices.Clone(idem.Fingerprint), resp: r}
	return nil
}

// Unsubscribe implements accounts.MailChoices.
func (s *Store) Unsubscribe(ctx context.Context, email string, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data.unsubscribed[email] = true
	return nil
}

// Resubscribe implements accounts.MailChoices.
func (s *Store) Resubscribe(ctx context.Context, email string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.data.unsubscribed, email)
	return nil
}

// Suppress implements accounts.MailChoices.
func (s *Store) Suppress(ctx context.Context, email string, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data.suppressed[domain.Mailbox(email)] = true
	return nil
}

// GameMail implements games.Store: this store sends nothing, so a
// game's mail is pending, or failed for an address that asked for none.
func (s *Store) GameMail(ctx context.Context, gameID string) ([]domain.NoticeDelivery, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []domain.NoticeDelivery
	for _, q := range s.data.queued {
		if q.GameID != gameID {
			continue
		}
		d := domain.NoticeDelivery{Kind: q.Kind, Color: q.Color, Ply: q.Ply, Status: "pending"}
		if s.data.suppressed[domain.Mailbox(q.Email)] {
			d.Status, d.ErrorCode = "failed", "suppressed"
		}
		out = append(out, d)
	}
	return out, nil
}
