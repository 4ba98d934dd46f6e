package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
	"github.com/lesspost/lesspost/repo/internal/mailpolicy"
	"github.com/lesspost/lesspost/repo/internal/mailrow"
)

// InsertTournament stores a new tournament, unless an entrant asked for no
// mail from lesspost (the budget is counted as each round starts).
func (s storeTx) InsertTournament(ctx context.Context, t *domain.Tournament) error {
	emails := make([]string, len(t.Entrants))
	for i, e := range t.Entrants {
		emails[i] = e.Email
	}
	if err := refuseSuppressed(ctx, s.tx, emails); err != nil {
		return err
	}
	data, due, err := gamerow.EncodeTournament(t)
	if err != nil {
		return err
	}
	_, err = s.tx.ExecContext(ctx, `INSERT INTO tournaments (id, organizer_id, name, status, data, version, due_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.OrganizerID, t.Name, string(t.Status), data, t.Version, millis(due),
		t.CreatedAt.UnixMilli(), t.UpdatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("insert tournament: %w", err)
	}
	return nil
}

// Tournament reads a tournament.
func (db *DB) Tournament(ctx context.Context, id string) (domain.Tournament, error) {
	return loadTournament(ctx, db.read, id)
}

func (s storeTx) Tournament(ctx context.Context, id string) (domain.Tournament, error) {
	return loadTournament(ctx, s.tx, id)
}

func loadTournament(ctx context.Context, q queryer, id string) (domain.Tournament, error) {
	var data string
	err := q.QueryRowContext(ctx, `SELECT data FROM tournaments WHERE id = ?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Tournament{}, gamerow.TournamentNotFound(id)
	}
	if err != nil {
		return domain.Tournament{}, fmt.Errorf("read tournament %s: %w", id, err)
	}
	return gamerow.DecodeTournament(id, data)
}

// SaveTournament writes the new state if nobody else changed it since version.
func (s storeTx) SaveTournament(ctx context.Context, t *domain.Tournament, version int) error {
	data, due, err := gamerow.EncodeTournament(t)
	if err != nil {
		return err
	}
	res, err := s.tx.ExecContext(ctx, `UPDATE tournaments SET status = ?, data = ?, version = ?, due_at = ?, updated_at = ?
		WHERE id = ? AND version = ?`, string(t.Status), data, t.Version, millis(due), t.UpdatedAt.UnixMilli(), t.ID, version)
	if err != nil {
		return fmt.Errorf("update tournament %s: %w", t.ID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("update tournament %s: version %d is gone: %w", t.ID, version, domain.ErrStale)
	}
	return nil
}

func (s storeTx) RescheduleTournament(ctx context.Context, t *domain.Tournament) error {
	_, due, err := gamerow.EncodeTournament(t)
	if err != nil {
		return err
	}
	_, err = s.tx.ExecContext(ctx, `UPDATE tournaments SET due_at = ? WHERE id = ? AND version = ?`, millis(due), t.ID, t.Version)
	if err != nil {
		return fmt.Errorf("reschedule tournament %s: %w", t.ID, err)
	}
	return nil
}

// AddNotice queues a notice of no game (a bye): what admit refuses is left out.
func (s storeTx) AddNotice(ctx context.Context, n domain.Notice, locale string, c domain.Cause, now time.Time) error {
	if e, ok := domain.NoticeEvent(n); ok {
		if err := writeEvents(ctx, s.tx, []domain.Event{e}, now); err != nil {
			return err
		}
	}
	return mailpolicy.Queue(ctx, mailFacts{s.tx}, n, n.Email, locale, c, now, func(r mailrow.Row) error {
		return insertOutbox(ctx, s.tx, r, now)
	})
}

// DueTournaments lists tournaments whose schedule needs attention at now.
func (db *DB) DueTournaments(ctx context.Context, now time.Time, limit int) ([]string, error) {
	ids, err := queryIDs(ctx, db.read, `SELECT id FROM tournaments WHERE due_at <= ? ORDER BY due_at LIMIT ?`, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("find due tournaments: %w", err)
	}
	return ids, nil
}
