package repo

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
)

// CreateTournament stores a new tournament; its rounds start on schedule.
func (db *DB) CreateTournament(ctx context.Context, spec domain.NewTournamentSpec, organizerID int64, now time.Time) (domain.Tournament, error) {
	t, err := domain.CreateTournament(spec, newID("t"), organizerID, now, domain.RandomUint64())
	if err != nil {
		return domain.Tournament{}, err
	}
	err = db.WithTx(ctx, func(tx *Tx) error {
		// Its rounds will mail every entrant: one who asked for no mail
		// from lesspost cannot be entered (the budget is counted as each
		// round starts).
		emails := make([]string, len(t.Entrants))
		for i, e := range t.Entrants {
			emails[i] = e.Email
		}
		if err := refuseSuppressed(ctx, tx, emails); err != nil {
			return err
		}
		data, due, err := encodeTournament(&t)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO tournaments (id, organizer_id, name, status, data, version, due_at, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.OrganizerID, t.Name, string(t.Status), data, t.Version, due,
			t.CreatedAt.UnixMilli(), t.UpdatedAt.UnixMilli())
		if err != nil {
			return fmt.Errorf("insert tournament: %w", err)
		}
		return nil
	})
	return t, err
}

// Tournament reads a tournament.
func (db *DB) Tournament(ctx context.Context, id string) (domain.Tournament, error) {
	return loadTournament(ctx, db.read, id)
}

func loadTournament(ctx context.Context, q queryer, id string) (domain.Tournament, error) {
	var data string
	err := q.QueryRowContext(ctx, `SELECT data FROM tournaments WHERE id = ?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Tournament{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no tournament %s", domain.Clip(id))
	}
	if err != nil {
		return domain.Tournament{}, fmt.Errorf("read tournament %s: %w", id, err)
	}
	var t domain.Tournament
	if err := json.Unmarshal([]byte(data), &t); err != nil {
		return domain.Tournament{}, damaged("read tournament "+id, err)
	}
	return t, nil
}

func encodeTournament(t *domain.Tournament) (string, sql.NullInt64, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return "", sql.NullInt64{}, fmt.Errorf("encode tournament: %w", err)
	}
	var due sql.NullInt64
	if next := t.NextDue(); !next.IsZero() {
		due = sql.NullInt64{Int64: next.UnixMilli(), Valid: true}
	}
	return string(b), due, nil
}

// saveTournament writes the new state if nobody else changed it since version.
func saveTournament(ctx context.Context, tx *Tx, t *domain.Tournament, version int) error {
	data, due, err := encodeTournament(t)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = ?, data = ?, version = ?, due_at = ?, updated_at = ?
		WHERE id = ? AND version = ?`, string(t.Status), data, t.Version, due, t.UpdatedAt.UnixMilli(), t.ID, version)
	if err != nil {
		return fmt.Errorf("update tournament %s: %w", t.ID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("update tournament %s: version %d is gone", t.ID, version)
	}
	return nil
}

// DueTournaments lists tournaments whose schedule needs attention at now.
func (db *DB) DueTournaments(ctx context.Context, now time.Time, limit int) ([]string, error) {
	ids, err := queryIDs(ctx, db.read, `SELECT id FROM tournaments WHERE due_at <= ? ORDER BY due_at LIMIT ?`, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("find due tournaments: %w", err)
	}
	return ids, nil
}

// TickTournament does what the schedule asks for at now, in one guarded
// transaction: it closes the running round when all its games are over or
// its deadline has passed (adjudicating unfinished games, E3–E7), then
// starts the next round if its time has come — pairings, one game per
// pairing on the round's board, invitations with move links, byes. Run
// twice, or on two servers, it acts once.
func (db *DB) TickTournament(ctx context.Context, id string, now time.Time) (acted bool, err error) {
	err = db.WithTx(ctx, func(tx *Tx) error {
		t, err := loadTournament(ctx, tx, id)
		if err != nil {
			return err
		}
		version := t.Version
		if r := t.Current(); r != nil {
			closed, err := closeRoundIfDone(ctx, tx, &t, r, now)
			if err != nil {
				return err
			}
			acted = acted || closed
		}
		if t.Current() == nil && t.Status != domain.TournamentFinished && t.Status != domain.TournamentCancelled {
			started, err := startRoundIfDue(ctx, tx, &t, now)
			if err != nil {
				return err
			}
			acted = acted || started
		}
		if t.Version == version {
			// Nothing to do: only bring due_at back in line (a game ended early, say).
			_, due, err := encodeTournament(&t)
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `UPDATE tournaments SET due_at = ? WHERE id = ? AND version = ?`, due, t.ID, version)
			return err
		}
		return saveTournament(ctx, tx, &t, version)
	})
	if err != nil {
		return false, fmt.Errorf("tick tournament %s: %w", id, err)
	}
	return acted, nil
}

func closeRoundIfDone(ctx context.Context, tx *Tx, t *domain.Tournament, r *domain.Round, now time.Time) (bool, error) {
	games := map[string]domain.Game{}
	allOver := true
	for _, tg := range r.Games {
		if tg.Outcome != nil {
			continue
		}
		g, err := loadGame(ctx, tx, tg.GameID)
		if err != nil {
			return false, err
		}
		games[g.ID] = g
		allOver = allOver && g.Over()
	}
	if !allOver && now.Before(r.Deadline) {
		return false, nil
	}
	results := map[string]less.Result{}
	for id, g := range games {
		if !g.Over() {
			sub, err := domain.Adjudicate(g, now)
			if err != nil {
				return false, err
			}
			if err := storeChange(ctx, tx, &g, &Change{Game: sub.Game, Notices: sub.Notices, Cause: domain.Cause{Scheduled: true}}, now); err != nil {
				return false, err
			}
			g = sub.Game
		}
		results[id] = *g.State.Result
	}
	return true, t.CloseRound(results, now)
}

func startRoundIfDue(ctx context.Context, tx *Tx, t *domain.Tournament, now time.Time) (bool, error) {
	next := t.NextDue()
	if next.IsZero() || now.Before(next) {
		return false, nil
	}
	r, toPlay, err := t.StartRound(now)
	if err != nil {
		return false, err
	}
	// The round's mail is the organiser's doing: it counts against each
	// entrant's budget but his own, and what is over budget is left out.
	organizer, err := userEmail(ctx, tx, t.OrganizerID)
	if err != nil {
		return false, err
	}
	by := cause{by: organizer, scheduled: true}
	for _, i := range toPlay {
		spec := t.GameSpec(r, i)
		spec.Tournament = &domain.TournamentRef{ID: t.ID, Name: t.Name, Round: r.Number}
		away, err := awayOfPlayers(ctx, tx, spec.Players, now)
		if err != nil {
			return false, err
		}
		created, err := domain.CreateGame(spec, newID("g"), t.OrganizerID, now, r.Seed, away)
		if err != nil {
			return false, fmt.Errorf("round %d game %d: %w", r.Number, i, err)
		}
		if err := domain.FillLocales(ctx, storeTx{tx}, &created.Game); err != nil {
			return false, err
		}
		if err := insertGame(ctx, tx, &created.Game); err != nil {
			return false, err
		}
		if err := insertTurns(ctx, tx, &created.Game, 0, created.History, now); err != nil {
			return false, err
		}
		if err := enqueue(ctx, tx, &created.Game, created.Notices, by, now); err != nil {
			return false, err
		}
		r.Games[i].GameID = created.Game.ID
	}
	// A player without a game this round (a bye, or an opponent who
	// withdrew) is told so, or he would hear nothing until the next round.
	for _, g := range r.Games {
		if g.GameID != "" {
			continue
		}
		for _, e := range []int{g.White, g.Black} {
			if e == domain.Bye || t.Entrants[e].Withdrawn {
				continue
			}
			n := domain.Notice{Kind: domain.NoticeBye, Email: t.Entrants[e].Email, Tournament: t.ID, Ply: r.Number}
			queue, budgeted, err := admit(ctx, tx, n, n.Email, by, now)
			if err != nil {
				return false, err
			}
			if !queue {
				continue
			}
			if err := insertOutbox(ctx, tx, n, n.Email, "", t.Entrants[e].Locale, budgeted, now); err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// WithdrawFromTournament takes an entrant out; his game of the running
// round is resigned (E8) in the same transaction.
func (db *DB) WithdrawFromTournament(ctx context.Context, id string, entrant int, now time.Time) (domain.Tournament, error) {
	var t domain.Tournament
	err := db.WithTx(ctx, func(tx *Tx) error {
		var err error
		if t, err = loadTournament(ctx, tx, id); err != nil {
			return err
		}
		version := t.Version
		gameID, err := t.Withdraw(entrant, now)
		if err != nil {
			return err
		}
		if gameID != "" {
			g, err := loadGame(ctx, tx, gameID)
			if err != nil {
				return err
			}
			if !g.Over() {
				seat := g.Seats[0].Color
				if g.Seats[1].Email == t.Entrants[entrant].Email {
					seat = g.Seats[1].Color
				}
				sub, err := domain.Resign(g, domain.Actor{SeatColor: &seat}, now)
				if err != nil {
					return err
				}
				if err := storeChange(ctx, tx, &g, &Change{Game: sub.Game, Notices: sub.Notices, Cause: domain.Cause{Scheduled: true}}, now); err != nil {
					return err
				}
			}
		}
		return saveTournament(ctx, tx, &t, version)
	})
	return t, err
}

// CancelTournament stops a tournament: no further rounds.
func (db *DB) CancelTournament(ctx context.Context, id string, now time.Time) (domain.Tournament, error) {
	var t domain.Tournament
	err := db.WithTx(ctx, func(tx *Tx) error {
		var err error
		if t, err = loadTournament(ctx, tx, id); err != nil {
			return err
		}
		version := t.Version
		if err := t.Cancel(now); err != nil {
			return err
		}
		return saveTournament(ctx, tx, &t, version)
	})
	return t, err
}
