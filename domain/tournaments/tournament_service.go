package tournaments

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// The use cases of running an event: sign-up and the organiser's control.
// Each is one unit of work, guarded by the tournament's version; the games
// an action touches are changed in the same unit of work.

// TournamentListing is a tournament as an account's list shows it, with
// how the account relates to it.
type TournamentListing struct {
	Tournament
	Organising bool
	Playing    bool
	Joinable   bool // registration is open to him (public)
}

// TournamentCategory is one way an account relates to tournaments; its
// list pages through each apart, so that one (the public registrations of
// everyone) cannot crowd out another (the events he plays in).
type TournamentCategory string

// The categories of an account's tournaments.
const (
	Organising TournamentCategory = "organising" // he organises it
	PlayingIn  TournamentCategory = "playing"    // his address is entered, withdrawn or not
	// CanJoin: its public registration is open and his address is not
	// entered.
	CanJoin TournamentCategory = "joinable"
)

// TournamentCategories are the categories, in the order a list names them.
var TournamentCategories = []TournamentCategory{Organising, PlayingIn, CanJoin}

// TournamentPage is a page of one category of an account's tournaments.
type TournamentPage struct {
	Tournaments []Tournament
	Next        string // the cursor of the next page; "" on the last
}

// Lister reads tournaments by account.
type Lister interface {
	// AccountTournaments lists a page of one category of an account's
	// tournaments: those userID organises, those email plays in, or the
	// public registrations open at now that email is not entered in;
	// newest first (by creation, then id), at most limit, after cursor (""
	// for the first page; a cursor the store did not write is an invalid
	// *Error, CodeInvalidCursor).
	AccountTournaments(ctx context.Context, userID int64, email string, now time.Time, cat TournamentCategory, cursor string, limit int) (TournamentPage, error)
}

// Bounds of a page of an account's tournaments, per category.
const (
	DefaultTournamentList = 50
	MaxTournamentList     = 200
)

// Tournament reads a tournament, with the results of the running round's
// games that have ended since the scheduler last looked: a result counts
// the moment its game ends.
func (s *Service) Tournament(ctx context.Context, id string) (Tournament, error) {
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	games, err := s.store.Games(ctx, t.RunningGames())
	if err != nil {
		return Tournament{}, fmt.Errorf("tournament %s: %w", id, err)
	}
	ended := map[string]ruleset.Result{}
	for _, g := range games {
		if res, over := g.Result(); over {
			ended[g.ID] = res
		}
	}
	t.LiveResults(ended)
	return t, nil
}

// Tournaments lists what an account organises, plays in or can join: a
// page of the categories cats, each up to limit after its cursor (by
// category; none for a first page), merged newest first with each
// tournament once, and the cursor of each category that has more.
func (s *Service) Tournaments(ctx context.Context, user domain.User, cats []TournamentCategory, cursors map[TournamentCategory]string, limit int) ([]TournamentListing, map[TournamentCategory]string, error) {
	now := s.now()
	next := map[TournamentCategory]string{}
	seen := map[string]bool{}
	var out []TournamentListing
	for _, cat := range cats {
		page, err := s.store.AccountTournaments(ctx, user.ID, user.Email, now, cat, cursors[cat], limit)
		if err != nil {
			return nil, nil, err
		}
		if page.Next != "" {
			next[cat] = page.Next
		}
		for _, t := range page.Tournaments {
			if seen[t.ID] {
				continue
			}
			seen[t.ID] = true
			_, playing := t.EntrantOf(user.Email)
			out = append(out, TournamentListing{Tournament: t, Organising: t.OrganizerID == user.ID, Playing: playing,
				Joinable: !playing && t.Joinable(now) && t.Registration.Public})
		}
	}
	slices.SortStableFunc(out, func(a, b TournamentListing) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), strings.Compare(b.ID, a.ID))
	})
	return out, next, nil
}

// OpenRegistration opens sign-up (or changes its terms); newLink issues a
// new invite link, so that older ones stop working.
func (s *Service) OpenRegistration(ctx context.Context, req TournamentRequest, r Registration, newLink bool) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(_ *Tx, t *Tournament, now time.Time) error {
		return t.OpenRegistration(r, newLink, now)
	})
}

// CloseRegistration ends sign-up and revokes the invite link.
func (s *Service) CloseRegistration(ctx context.Context, req TournamentRequest) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(_ *Tx, t *Tournament, now time.Time) error {
		return t.CloseRegistration(now)
	})
}

// JoinTournament signs an account's player up, by the invite link of
// version invite (0: without a link, for a public registration): entry
// gives his name (the account gives his address) and in a team event his
// partner and the team's name. His address must be able to receive the
// event's mail; the partner is told by email with whom he was entered.
func (s *Service) JoinTournament(ctx context.Context, req TournamentRequest, user domain.User, entry Entrant, invite int) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		locale, err := tx.AccountLocale(ctx, user.Email)
		if err != nil {
			return err
		}
		entry.Email, entry.Locale = user.Email, locale
		if err := fillPartnerLocale(ctx, tx, &entry); err != nil {
			return err
		}
		if entry.Partner != nil {
			if err := tx.RefuseSuppressed(ctx, entry.Partner.Email); err != nil {
				return err
			}
		}
		i, err := t.Join(entry, user.ID, invite, now)
		if err != nil || t.Entrants[i].Partner == nil {
			return err
		}
		partner := t.Entrants[i].Partner
		c := domain.Cause{By: user.Email}
		n := domain.Notice{Kind: domain.NoticeTournamentUpdate, Email: partner.Email, Tournament: t.ID, Ply: t.LastLogNumber()}
		return tx.AddNotice(ctx, n, partner.Locale, c, now)
	})
}

// fillPartnerLocale gives a partner without a language his account's.
func fillPartnerLocale(ctx context.Context, tx *Tx, e *Entrant) error {
	if e.Partner == nil || e.Partner.Locale != "" {
		return nil
	}
	locale, err := tx.AccountLocale(ctx, e.Partner.Email)
	if err != nil {
		return err
	}
	partner := *e.Partner
	partner.Locale = locale
	e.Partner = &partner
	return nil
}

// Withdraw takes an entrant out, counting his games by policy; his game of
// the running round is resigned (E8) in the same unit of work.
func (s *Service) Withdraw(ctx context.Context, req TournamentRequest, entrant int, policy WithdrawPolicy, by TournamentActor, reason string) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		// What he played counts as it stands now, not as the scheduler last saw it.
		if err := recordEnded(ctx, tx, t, now); err != nil {
			return err
		}
		// Read before Withdraw: before the start, he leaves the list.
		members := t.memberEmails(entrant)
		logged := t.LastLogNumber()
		gameIDs, err := t.Withdraw(entrant, policy, by, reason, now)
		if err != nil {
			return err
		}
		// Leaving before the start may log nothing (his joining cancels
		// out): then there is nothing to mail, the log's last entry is
		// another's.
		if t.LastLogNumber() == logged {
			return nil
		}
		if err := updateMail(ctx, tx, t, members, now); err != nil {
			return err
		}
		for _, id := range gameIDs {
			if err := resignFor(ctx, tx, t, members, id, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// resignFor resigns an entrant's game (he withdrew: members are his
// addresses; a team resigns by one seat for its side) and records its result.
func resignFor(ctx context.Context, tx *Tx, t *Tournament, members []string, gameID string, now time.Time) error {
	g, err := tx.Games.Game(ctx, gameID)
	if err != nil || g.Over() {
		return err
	}
	i := slices.IndexFunc(g.Seats, func(s games.Seat) bool { return slices.Contains(members, s.Email) })
	if i < 0 {
		return fmt.Errorf("tournament %s: game %s has no seat of the entrant", t.ID, gameID)
	}
	if g, err = tx.Games.Forfeit(ctx, g, g.Seats[i].Color, now); err != nil {
		return err
	}
	res, _ := g.Result()
	t.RecordResult(gameID, res, now)
	return nil
}

// CancelTournament stops a tournament: no further rounds; the results of
// the running round's finished games are kept and the round is closed.
func (s *Service) CancelTournament(ctx context.Context, req TournamentRequest, reason string) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		if err := recordEnded(ctx, tx, t, now); err != nil {
			return err
		}
		if err := t.Cancel(ByOrganiser, reason, now); err != nil {
			return err
		}
		return updateMail(ctx, tx, t, t.activeEmails(), now)
	})
}

// recordEnded records the results of the running round's games that have
// ended since the scheduler last looked.
func recordEnded(ctx context.Context, tx *Tx, t *Tournament, now time.Time) error {
	for _, gid := range t.RunningGames() {
		g, err := tx.Games.Game(ctx, gid)
		if err != nil {
			return err
		}
		if res, over := g.Result(); over {
			t.RecordResult(gid, res, now)
		}
	}
	return nil
}

// AddEntrant enters a player the organiser types in: before the start, or
// as a late entry into a running Swiss event.
func (s *Service) AddEntrant(ctx context.Context, req TournamentRequest, e Entrant, reason string) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		if e.Locale == "" {
			locale, err := tx.AccountLocale(ctx, e.Email)
			if err != nil {
				return err
			}
			e.Locale = locale
		}
		if err := fillPartnerLocale(ctx, tx, &e); err != nil {
			return err
		}
		if err := tx.RefuseSuppressed(ctx, e.Emails()...); err != nil {
			return err
		}
		_, err := t.AddEntrant(e, reason, now)
		return err
	})
}

// UpdateEntrant changes a member of an entrant (see
// Tournament.UpdateEntrant), built from the tournament as this unit of
// work reads it, so that a change made meanwhile is not overwritten. His
// games of the running round follow: the seat gets the new name and, when
// the address changed, a new move link, sent to the new address with an
// invitation (the old link stops working). A replaced player is told, in
// his language.
func (s *Service) UpdateEntrant(ctx context.Context, req TournamentRequest, entrant int, c EntrantChange) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		if entrant < 0 || entrant >= len(t.Entrants) {
			return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no player %d in this tournament", entrant)
		}
		members := t.Entrants[entrant].Members()
		if c.Member < 0 || c.Member >= len(members) {
			return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "entrant %d has no member %d", entrant, c.Member)
		}
		old := members[c.Member]
		// His games of the running round: one, or a simultaneous pair.
		var his []games.Game
		moved := false
		for _, tg := range t.EntrantGames(entrant) {
			g, err := tx.Games.Game(ctx, tg.GameID)
			if err != nil {
				return err
			}
			seat := slices.IndexFunc(g.Seats, func(s games.Seat) bool { return s.Email == old.Email })
			if seat < 0 {
				return fmt.Errorf("tournament %s: game %s has no seat of %s", t.ID, tg.GameID, old.Email)
			}
			turns, err := tx.Games.Turns(ctx, tg.GameID)
			if err != nil {
				return err
			}
			moved = moved || slices.ContainsFunc(turns, func(st games.StoredTurn) bool { return st.Color == g.Seats[seat].Color && !st.Auto })
			his = append(his, g)
		}
		replace := c.Replaces(old)
		if email, err := domain.NormalizeEmail(derefString(c.Email)); c.Locale == "" && err == nil && email != old.Email {
			// A new address: its account's language, for another player or
			// for a corrected one who had none.
			if c.Locale, err = tx.AccountLocale(ctx, email); err != nil {
				return err
			}
		}
		oldAgreed := t.Agreed(old.Email)
		if err := t.UpdateEntrant(entrant, c, moved, now); err != nil {
			return err
		}
		updated := t.Entrants[entrant].Members()[c.Member]
		if !replace && updated == old {
			return nil
		}
		if updated.Email != old.Email {
			if err := tx.RefuseSuppressed(ctx, updated.Email); err != nil {
				return err
			}
		}
		// The invitation is the organiser's doing, like a round's.
		organizer, err := tx.UserEmail(ctx, t.OrganizerID)
		if err != nil {
			return err
		}
		for _, g := range his {
			if err := tx.Games.Reseat(ctx, g, old.Email, updated, organizer, now); err != nil {
				return err
			}
		}
		if replace {
			return tellReplaced(ctx, tx, t, old, oldAgreed, now)
		}
		return nil
	})
}

func derefString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// tellReplaced tells a replaced player, who is no longer an entrant, that
// he was replaced: the live event and an email in his language. (The
// address the organiser got wrong is a correction, not a replacement, so
// this mail goes to the player who really was put out.) agreed says he
// had signed up himself.
func tellReplaced(ctx context.Context, tx *Tx, t *Tournament, old games.Player, agreed bool, now time.Time) error {
	last := t.Log[len(t.Log)-1]
	ev := domain.Event{Kind: domain.EventTournamentUpdate, Email: old.Email, Data: domain.EventData{Tournament: t.ID, Line: last.Detail}}
	if err := tx.AddEvents(ctx, []domain.Event{ev}, now); err != nil {
		return err
	}
	c, organizer, err := tournamentCause(ctx, tx, t)
	if err != nil || old.Email == organizer {
		return err // he replaced himself: he knows
	}
	n := domain.Notice{Kind: domain.NoticeTournamentUpdate, Email: old.Email, Tournament: t.ID, Ply: t.LastLogNumber(), Agreed: agreed}
	return tx.AddNotice(ctx, n, old.Locale, c, now)
}

// ExtendGame gives one game of the running round more time: it is
// adjudicated later, and the player to move has more time for his turn.
func (s *Service) ExtendGame(ctx context.Context, req TournamentRequest, gameID string, by time.Duration, reason string) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		if err := t.ExtendGame(gameID, by, reason, now); err != nil {
			return err
		}
		g, err := tx.Games.Game(ctx, gameID)
		if err != nil {
			return err
		}
		if err := tx.Games.ExtendTurn(ctx, g, by, now); err != nil {
			return err
		}
		return s.tellPlayers(ctx, tx, t, []string{g.Seats[0].Email, g.Seats[1].Email}, now)
	})
}

// PostponeRound moves a round and the rounds after it by later.
func (s *Service) PostponeRound(ctx context.Context, req TournamentRequest, round int, by time.Duration, reason string) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		if err := t.PostponeRound(round, by, reason, now); err != nil {
			return err
		}
		return s.tellPlayers(ctx, tx, t, t.activeEmails(), now)
	})
}

// SetSeeds puts the entrants in the organiser's order before the start.
func (s *Service) SetSeeds(ctx context.Context, req TournamentRequest, order []int, reason string) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(_ *Tx, t *Tournament, now time.Time) error {
		return t.SetSeeds(order, reason, now)
	})
}

// PauseTournament pauses the event: the clocks of its running games stop.
func (s *Service) PauseTournament(ctx context.Context, req TournamentRequest, reason string) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		if err := t.Pause(reason, now); err != nil {
			return err
		}
		if err := eachRunningGame(ctx, tx, t, now, tx.Games.HaltClock); err != nil {
			return err
		}
		return s.tellPlayers(ctx, tx, t, t.activeEmails(), now)
	})
}

// ResumeTournament restarts a paused event: deadlines move by the pause.
func (s *Service) ResumeTournament(ctx context.Context, req TournamentRequest, reason string) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		if _, err := t.Resume(reason, now); err != nil {
			return err
		}
		// Games that ended in the pause count now, and a round they
		// complete is due to close at once.
		if err := recordEnded(ctx, tx, t, now); err != nil {
			return err
		}
		if err := eachRunningGame(ctx, tx, t, now, tx.Games.ResumeClock); err != nil {
			return err
		}
		return s.tellPlayers(ctx, tx, t, t.activeEmails(), now)
	})
}

// eachRunningGame does change (tx.Games.HaltClock, say) to every running
// game of t, as tx reads it.
func eachRunningGame(ctx context.Context, tx *Tx, t *Tournament, now time.Time, change func(context.Context, games.Game, time.Time) error) error {
	for _, gid := range t.RunningGames() {
		g, err := tx.Games.Game(ctx, gid)
		if err != nil {
			return err
		}
		if err := change(ctx, g, now); err != nil {
			return err
		}
	}
	return nil
}

// OverrideResult sets or annuls the result of pairing index of a round.
// A game that has ended since the scheduler last looked is recorded
// first, so the organiser overrides what the game gave.
func (s *Service) OverrideResult(ctx context.Context, req TournamentRequest, round, index int, whiteScore float64, margin int, annul bool, reason string) (TournamentDone, error) {
	return s.changeTournament(ctx, req, func(tx *Tx, t *Tournament, now time.Time) error {
		if err := recordEnded(ctx, tx, t, now); err != nil {
			return err
		}
		logged := t.LastLogNumber()
		if err := t.Override(round, index, whiteScore, margin, annul, reason, now); err != nil || t.LastLogNumber() == logged {
			return err
		}
		g := t.Rounds[round-1].Games[index]
		return s.tellPlayers(ctx, tx, t, t.memberEmails(g.White, g.Black), now)
	})
}

// activeEmails are the addresses of the players still in the event.
func (t *Tournament) activeEmails() []string {
	var out []string
	for _, e := range t.Entrants {
		if !e.Withdrawn {
			out = append(out, e.Emails()...)
		}
	}
	return out
}

// tellPlayers writes the event of the last log entry to each address, so
// that their clients learn what changed, and queues its mail to those who
// must know (see mailedActions).
func (s *Service) tellPlayers(ctx context.Context, tx *Tx, t *Tournament, emails []string, now time.Time) error {
	if len(t.Log) == 0 {
		return nil
	}
	last := t.Log[len(t.Log)-1]
	var evs []domain.Event
	for _, e := range emails {
		evs = append(evs, domain.Event{Kind: domain.EventTournamentUpdate, Email: e, Data: domain.EventData{Tournament: t.ID, Line: last.Detail}})
	}
	if err := tx.AddEvents(ctx, evs, now); err != nil {
		return err
	}
	return updateMail(ctx, tx, t, emails, now)
}
