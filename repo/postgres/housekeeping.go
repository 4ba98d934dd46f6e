package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

// Housekeeping (port.Housekeeping): each method deletes (or clears) at most
// limit rows in one statement and says how many; the scheduler calls it
// until that is fewer than limit, so no transaction runs long.

// loginTokenRetention is how long a login token is kept once expired: an
// hour, the window of accounts.MaxLoginsPerHour.
const loginTokenRetention = time.Hour

// ExpireIdempotencyKeys deletes the responses stored before before.
func (db *DB) ExpireIdempotencyKeys(ctx context.Context, before time.Time, limit int) (int, error) {
	return db.exec(ctx, "expire idempotency keys", `DELETE FROM idempotency_keys WHERE id IN
		(SELECT id FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT $2)`, ms(before), limit)
}

// PruneMail deletes outbox rows created before before that were delivered
// or given up. Mail still being tried is kept, however old.
func (db *DB) PruneMail(ctx context.Context, before time.Time, limit int) (int, error) {
	return db.exec(ctx, "prune mail", `DELETE FROM outbox WHERE id IN
		(SELECT id FROM outbox WHERE created_at < $1 AND (sent_at IS NOT NULL OR failed_at IS NOT NULL)
		ORDER BY created_at LIMIT $2)`, ms(before), limit)
}

// PruneSessions deletes sessions that have ended, by expiry or logout.
func (db *DB) PruneSessions(ctx context.Context, now time.Time, limit int) (int, error) {
	n, err := db.exec(ctx, "prune sessions", `DELETE FROM sessions WHERE id IN
		(SELECT id FROM sessions WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)`, ms(now), limit)
	if err != nil || n == limit {
		return n, err
	}
	m, err := db.exec(ctx, "prune sessions", `DELETE FROM sessions WHERE id IN
		(SELECT id FROM sessions WHERE revoked_at IS NOT NULL AND revoked_at <= $1 ORDER BY revoked_at LIMIT $2)`,
		ms(now), limit-n)
	return n + m, err
}

// PruneLoginTokens deletes the hashes of login tokens that expired more than
// loginTokenRetention ago.
func (db *DB) PruneLoginTokens(ctx context.Context, now time.Time, limit int) (int, error) {
	return db.exec(ctx, "prune login tokens", `DELETE FROM login_tokens WHERE hash IN
		(SELECT hash FROM login_tokens WHERE expires_at < $1 ORDER BY expires_at LIMIT $2)`,
		ms(now.Add(-loginTokenRetention)), limit)
}

// ExpireLoginMail gives up login mail not yet delivered when its login code
// expires, and clears the code.
func (db *DB) ExpireLoginMail(ctx context.Context, now time.Time, limit int) (int, error) {
	return db.exec(ctx, "expire login mail", `UPDATE outbox
		SET secret = NULL, failed_at = $1, error_code = 'expired',
			last_error = 'the login code expired before the mail could be delivered'
		WHERE id IN (SELECT id FROM outbox WHERE secret IS NOT NULL AND created_at <= $2 ORDER BY created_at LIMIT $3)
			AND sent_at IS NULL`,
		ms(now), ms(now.Add(-accounts.LoginTTL)), limit)
}

// Backlog reads what waits in the store at now (see domain.Backlog).
func (db *DB) Backlog(ctx context.Context, now time.Time) (domain.Backlog, error) {
	var b domain.Backlog
	var oldestMail, oldestGame, oldestTournament *time.Time
	err := db.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL),
		(SELECT min(created_at) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL),
		(SELECT count(*) FROM outbox WHERE failed_at IS NOT NULL),
		(SELECT count(*) FROM games WHERE due_at <= $1 AND status = 'active'),
		(SELECT min(due_at) FROM games WHERE due_at <= $1 AND status = 'active'),
		(SELECT count(*) FROM tournaments WHERE due_at <= $1),
		(SELECT min(due_at) FROM tournaments WHERE due_at <= $1)`, ms(now)).
		Scan(&b.MailPending, &oldestMail, &b.MailFailed, &b.GamesDue, &oldestGame, &b.TournamentsDue, &oldestTournament)
	if err != nil {
		return domain.Backlog{}, fmt.Errorf("read backlog: %w", err)
	}
	b.OldestPending = utc(oldestMail)
	b.OldestDue = utc(oldestGame)
	if t := utc(oldestTournament); !t.IsZero() && (b.OldestDue.IsZero() || t.Before(b.OldestDue)) {
		b.OldestDue = t
	}
	return b, nil
}

// analysed are the tables whose statistics Maintain keeps fresh: those that
// grow or turn over fast and are queried through partial indexes.
var analysed = []string{"outbox", "games", "turns", "idempotency_keys", "rate_limits"}

// Maintain analyses the tables of analysed that changed by more than a
// tenth (at least 1,000 rows) since they were last analysed. Autovacuum
// does that on a server that runs it, and then Maintain finds nothing to
// do; on one that does not, or in the minute before autovacuum's first
// round on a new database, the claim of due mail would otherwise plan with
// the statistics of an empty outbox and scan all of it for every mail
// (0.7–1.8 s instead of 8 ms for 50 mails).
func (db *DB) Maintain(ctx context.Context) error {
	rows, err := db.pool.Query(ctx, `SELECT relname FROM pg_stat_user_tables
		WHERE schemaname = current_schema() AND relname = ANY($1)
			AND n_mod_since_analyze > greatest(1000, n_live_tup / 10)`, analysed)
	if err != nil {
		return fmt.Errorf("find stale statistics: %w", err)
	}
	stale, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("find stale statistics: %w", err)
	}
	for _, table := range stale {
		// table is one of analysed, not outside input.
		if _, err := db.pool.Exec(ctx, "ANALYZE "+pgx.Identifier{table}.Sanitize()); err != nil {
			return fmt.Errorf("analyse %s: %w", table, err)
		}
	}
	return nil
}
