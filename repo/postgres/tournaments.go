package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
	"github.com/lesspost/lesspost/repo/internal/mailpolicy"
	"github.com/lesspost/lesspost/repo/internal/mailrow"
)

// InsertTournament stores a new tournament, unless an entrant asked for no
// mail from lesspost (the budget is counted as each round starts).
func (s storeTx) InsertTournament(ctx context.Context, t *domain.Tournament) error {
	for _, e := range t.Entrants {
		suppressed, _, err := mailFacts{s.tx}.Stops(ctx, e.Email)
		if err != nil {
			return err
		}
		if suppressed {
			return mailpolicy.SuppressedError(e.Email)
		}
	}
	data, due, err := gamerow.EncodeTournament(t)
	if err != nil {
		return err
	}
	_, err = s.tx.Exec(ctx, `INSERT INTO tournaments (id, organizer_id, name, status, data, version, due_at, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7, $8, $9)`, t.ID, t.OrganizerID, t.Name, string(t.Status), data, t.Version,
		nullTime(due), ms(t.CreatedAt), ms(t.UpdatedAt))
	if err != nil {
		return fmt.Errorf("insert tournament: %w", err)
	}
	return nil
}

// Tournament reads a tournament.
func (db *DB) Tournament(ctx context.Context, id string) (domain.Tournament, error) {
	return loadTournament(ctx, db.pool, id, false)
}

// Tournament reads a tournament and locks it for the unit of work, like a
// game (see DB).
func (s storeTx) Tournament(ctx context.Context, id string) (domain.Tournament, error) {
	return loadTournament(ctx, s.tx, id, true)
}

func loadTournament(ctx context.Context, q querier, id string, lock bool) (domain.Tournament, error) {
	query := `SELECT data::text FROM tournaments WHERE id = $1`
	if lock {
		query += ` FOR UPDATE`
	}
	var data string
	err := q.QueryRow(ctx, query, id).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
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
	tag, err := s.tx.Exec(ctx, `UPDATE tournaments SET status = $1, data = $2::text::jsonb, version = $3, due_at = $4,
		updated_at = $5 WHERE id = $6 AND version = $7`,
		string(t.Status), data, t.Version, nullTime(due), ms(t.UpdatedAt), t.ID, version)
	if err != nil {
		return fmt.Errorf("update tournament %s: %w", t.ID, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("update tournament %s: version %d is gone: %w", t.ID, version, domain.ErrStale)
	}
	return nil
}

func (s storeTx) RescheduleTournament(ctx context.Context, t *domain.Tournament) error {
	_, due, err := gamerow.EncodeTournament(t)
	if err != nil {
		return err
	}
	_, err = s.tx.Exec(ctx, `UPDATE tournaments SET due_at = $1 WHERE id = $2 AND version = $3`, nullTime(due), t.ID, t.Version)
	if err != nil {
		return fmt.Errorf("reschedule tournament %s: %w", t.ID, err)
	}
	return nil
}

// AddNotice queues a notice of no game (a bye): what mailpolicy refuses is
// left out.
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
	ids, err := queryIDs(ctx, db.pool, `SELECT id FROM tournaments WHERE due_at <= $1 ORDER BY due_at LIMIT $2`, ms(now), limit)
	if err != nil {
		return nil, fmt.Errorf("find due tournaments: %w", err)
	}
	return ids, nil
}
