package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// Backlog reads what waits in the store at now (see domain.Backlog). Each
// count reads a partial index.
func (db *DB) Backlog(ctx context.Context, now time.Time) (domain.Backlog, error) {
	var b domain.Backlog
	var oldestMail, oldestGame, oldestTournament sql.NullInt64
	err := db.read.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL),
		(SELECT min(created_at) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL),
		(SELECT count(*) FROM outbox WHERE failed_at IS NOT NULL),
		(SELECT count(*) FROM games WHERE due_at <= ?1 AND status = 'active'),
		(SELECT min(due_at) FROM games WHERE due_at <= ?1 AND status = 'active'),
		(SELECT count(*) FROM tournaments WHERE due_at <= ?1),
		(SELECT min(due_at) FROM tournaments WHERE due_at <= ?1)`, now.UnixMilli()).
		Scan(&b.MailPending, &oldestMail, &b.MailFailed, &b.GamesDue, &oldestGame, &b.TournamentsDue, &oldestTournament)
	if err != nil {
		return domain.Backlog{}, fmt.Errorf("read backlog: %w", err)
	}
	b.OldestPending = fromMillis(oldestMail)
	b.OldestDue = fromMillis(oldestGame)
	if t := fromMillis(oldestTournament); !t.IsZero() && (b.OldestDue.IsZero() || t.Before(b.OldestDue)) {
		b.OldestDue = t
	}
	return b, nil
}

// fromMillis reads a nullable Unix-milliseconds column; NULL is the zero time.
func fromMillis(ms sql.NullInt64) time.Time {
	if !ms.Valid {
		return time.Time{}
	}
	return time.UnixMilli(ms.Int64).UTC()
}
