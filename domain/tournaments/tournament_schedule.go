package tournaments

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// The use cases of time for tournaments, and what organisers do: the
// scheduler's tick, creating a tournament, changing one.

// Reader finds the tournaments that are due, and reads them.
type Reader interface {
	// DueTournaments lists up to limit tournaments whose schedule needs
	// attention at now.
	DueTournaments(ctx context.Context, now time.Time, limit int) ([]string, error)
	// Tournament reads a tournament; a missing one is a not-found *Error.
	Tournament(ctx context.Context, id string) (Tournament, error)
}

// StoreTx is what a unit of work may do to tournaments.
type StoreTx interface {
	Tournament(ctx context.Context, id string) (Tournament, error)
	// InsertTournament stores a new tournament.
	InsertTournament(ctx context.Context, t *Tournament) error
	// SaveTournament stores t if the stored one is still at version; else
	// it returns ErrStale.
	SaveTournament(ctx context.Context, t *Tournament, version int) error
	// RescheduleTournament brings the stored tournament's due time in line
	// with t (a game ended early, say), if it is still at t's version.
	RescheduleTournament(ctx context.Context, t *Tournament) error
}

// DueTournaments lists up to limit tournaments whose schedule needs
// attention now.
func (s *Service) DueTournaments(ctx context.Context, limit int) ([]string, error) {
	return s.store.DueTournaments(ctx, s.now(), limit)
}

// CreateTournament stores a new tournament; its rounds start on schedule.
func (s *Service) CreateTournament(ctx context.Context, spec NewTournamentSpec, organizerID int64) (Tournament, error) {
	t, err := CreateTournament(spec, s.newID("t"), organizerID, s.now(), s.random())
	if err != nil {
		return Tournament{}, err
	}
	err = s.transact(ctx, func(tx *Tx) error {
		// Its rounds will mail every entrant.
		if err := tx.RefuseSuppressed(ctx, t.emails()...); err != nil {
			return err
		}
		return tx.InsertTournament(ctx, &t)
	})
	return t, err
}

// TournamentRequest names the tournament an action is on and, for a
// request with an Idempotency-Key, the key and how to render the response
// to keep for it: a retry of an action that adds time (an extension, a
// postponement) must not add it twice.
type TournamentRequest struct {
	ID      string
	Idem    *domain.Idempotency
	Present func(t *Tournament) (domain.Response, error) // needed with Idem
}

// TournamentDone is what an action did: the tournament after it and, for
// an idempotent request, the response (Replayed: the stored one of an
// earlier request with the same key; Tournament is then zero).
type TournamentDone struct {
	Tournament Tournament
	Response   domain.Response
	Replayed   bool
}

// changeTournament reads a tournament, lets change act on it, and saves it
// guarded by the version it was read at, all in one unit of work, with the
// response for the request's Idempotency-Key.
func (s *Service) changeTournament(ctx context.Context, req TournamentRequest, change func(tx *Tx, t *Tournament, now time.Time) error) (TournamentDone, error) {
	now := s.now()
	var done TournamentDone
	err := s.transact(ctx, func(tx *Tx) error {
		done = TournamentDone{}
		if req.Idem != nil {
			stored, found, err := tx.StoredResponse(ctx, *req.Idem)
			if err != nil || found {
				done.Response, done.Replayed = stored, found
				return err
			}
		}
		t, err := tx.Tournament(ctx, req.ID)
		if err != nil {
			return err
		}
		version := t.Version
		if err := change(tx, &t, now); err != nil {
			return err
		}
		t.TrimLog(s.tournamentLog)
		if err := tx.SaveTournament(ctx, &t, version); err != nil {
			return err
		}
		done.Tournament = t
		if req.Idem == nil {
			return nil
		}
		if done.Response, err = req.Present(&t); err != nil {
			return err
		}
		return tx.StoreResponse(ctx, *req.Idem, done.Response, now)
	})
	return done, err
}

// TickTournament does what the schedule asks for now, in one unit of work:
// it closes the running round when all its games are over or its deadline
// has passed (adjudicating unfinished games, E3–E7), then starts the next
// round if its time has come — pairings, one game per pairing on the
// round's board, invitations with move links, byes. Run twice, or on two
// servers, it acts once.
func (s *Service) TickTournament(ctx context.Context, id string) (acted bool, err error) {
	now := s.now()
	err = s.transact(ctx, func(tx *Tx) error {
		t, err := tx.Tournament(ctx, id)
		if err != nil {
			return err
		}
		// What the schedule does is the organiser's doing (see Requester).
		ctx := onBehalfOf(ctx, t.OrganizerID)
		version := t.Version
		if !t.PausedAt.IsZero() {
			return tx.RescheduleTournament(ctx, &t) // nothing moves until it resumes
		}
		if r := t.Current(); r != nil {
			closed, err := s.settleRound(ctx, tx, &t, r, now)
			if err != nil {
				return err
			}
			acted = acted || closed
		}
		if r := t.Current(); r != nil {
			reminded, err := remindRound(ctx, tx, &t, r, now)
			if err != nil {
				return err
			}
			acted = acted || reminded
		}
		if t.Current() == nil && t.Status != TournamentFinished && t.Status != TournamentCancelled {
			started, err := s.startRoundIfDue(ctx, tx, &t, now)
			if err != nil {
				return err
			}
			acted = acted || started
		}
		if t.Version == version {
			return tx.RescheduleTournament(ctx, &t)
		}
		t.TrimLog(s.tournamentLog)
		return tx.SaveTournament(ctx, &t, version)
	})
	if err != nil {
		return false, fmt.Errorf("tick tournament %s: %w", id, err)
	}
	return acted, nil
}

// settleRound records the result of every game of the running round that
// has ended (live standings), adjudicates those whose deadline has passed
// (E3–E7), starts the deciding game of each knockout match left level,
// and closes the round once all are decided.
func (s *Service) settleRound(ctx context.Context, tx *Tx, t *Tournament, r *Round, now time.Time) (bool, error) {
	acted := false
	for i := range r.Games {
		tg := r.Games[i]
		if tg.Outcome != nil || tg.GameID == "" {
			continue
		}
		g, err := tx.Games.Game(ctx, tg.GameID)
		if err != nil {
			return false, err
		}
		if !g.Over() {
			if now.Before(r.GameDeadline(i)) {
				continue
			}
			moved, err := anyoneMoved(ctx, tx.Games, g.ID)
			if err != nil {
				return false, err
			}
			if !moved {
				// The game ends, but its adjudication (the starting
				// position's score) is not what counts: the players are
				// told the double forfeit instead of a result that is none.
				if _, err := tx.Games.EndUnplayed(ctx, g, now); err != nil {
					return false, err
				}
				if err := t.ScoreUnplayed(i, now); err != nil {
					return false, err
				}
				if err := s.tellPlayers(ctx, tx, t, t.memberEmails(tg.White, tg.Black), now); err != nil {
					return false, err
				}
				acted = true
				continue
			}
			if g, err = tx.Games.Adjudicate(ctx, g, now); err != nil {
				return false, err
			}
		}
		res, _ := g.Result()
		acted = t.RecordResult(g.ID, res, now) || acted
	}
	before := len(r.Games)
	if err := s.createRoundGames(ctx, tx, t, r, t.addDeciders(r, now), now); err != nil {
		return false, err
	}
	acted = acted || len(r.Games) > before
	for _, g := range r.Games {
		if g.Outcome == nil {
			return acted, nil
		}
	}
	if err := t.CloseRound(now); err != nil {
		return false, err
	}
	return true, roundClosedMail(ctx, tx, t, r, now)
}

// anyoneMoved reports whether a player made a move in a game: a turn that
// neither the rules made for him nor a time-out passed.
func anyoneMoved(ctx context.Context, tx *games.InTx, gameID string) (bool, error) {
	turns, err := tx.Turns(ctx, gameID)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(turns, func(st games.StoredTurn) bool { return !st.Auto && !st.TimedOut }), nil
}

// createRoundGames creates the games of r at indexes toPlay, on the
// round's board, each player invited with his move link.
func (s *Service) createRoundGames(ctx context.Context, tx *Tx, t *Tournament, r *Round, toPlay []int, now time.Time) error {
	if len(toPlay) == 0 {
		return nil
	}
	// The round's mail is the organiser's doing: it counts against each
	// entrant's budget but his own, and what is over budget is left out.
	organizer, err := tx.UserEmail(ctx, t.OrganizerID)
	if err != nil {
		return err
	}
	for _, i := range toPlay {
		spec := t.GameSpec(r, i)
		spec.Tournament = &games.TournamentRef{ID: t.ID, Name: t.Name, Round: r.Number}
		g, err := tx.Games.Create(ctx, spec, t.OrganizerID, r.Seed, organizer, func(email string) (bool, bool, error) {
			return consent(ctx, tx, t, email)
		}, now)
		if err != nil {
			return fmt.Errorf("round %d game %d: %w", r.Number, i, err)
		}
		r.Games[i].GameID = g.ID
	}
	return nil
}

func (s *Service) startRoundIfDue(ctx context.Context, tx *Tx, t *Tournament, now time.Time) (bool, error) {
	next := t.NextDue()
	if next.IsZero() || now.Before(next) {
		return false, nil
	}
	r, toPlay, err := t.StartRound(now)
	if err != nil || r == nil {
		return r == nil && err == nil, err // nil round: cancelled for want of players
	}
	if err := s.createRoundGames(ctx, tx, t, r, toPlay, now); err != nil {
		return false, err
	}
	by, _, err := tournamentCause(ctx, tx, t)
	if err != nil {
		return false, err
	}
	// A player without a game this round (a bye, or an opponent who
	// withdrew) is told so, or he would hear nothing until the next round.
	for _, g := range r.Games {
		if g.GameID != "" || g.Return { // one notice for a simultaneous pair
			continue
		}
		for _, e := range []int{g.White, g.Black} {
			if e == Bye || t.Entrants[e].Withdrawn {
				continue
			}
			for _, p := range t.Entrants[e].Members() {
				n, err := toMember(ctx, tx, t, domain.Notice{Kind: domain.NoticeBye, Email: p.Email, Tournament: t.ID, Ply: r.Number})
				if err != nil {
					return false, err
				}
				if err := tx.AddNotice(ctx, n, p.Locale, by, now); err != nil {
					return false, err
				}
			}
		}
	}
	return true, nil
}

// onBehalfOf is ctx with the organiser of a tournament as the deferred
// requester of what the scheduler does to it, unless ctx is a request's.
func onBehalfOf(ctx context.Context, organizerID int64) context.Context {
	if _, ok := domain.RequesterOf(ctx); ok {
		return ctx
	}
	return domain.WithRequester(ctx, domain.Requester{Caller: fmt.Sprint("user:", organizerID), Deferred: true})
}
