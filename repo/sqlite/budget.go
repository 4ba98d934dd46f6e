package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// The facts the mail policy reads in a unit of work (domain.MailFacts).

// sqlMailStops runs for every email a turn queues, so it is prepared.
const sqlMailStops = `SELECT EXISTS (SELECT 1 FROM suppressions WHERE mailbox = ?), EXISTS (SELECT 1 FROM unsubscribes WHERE email = ?)`

func (s storeTx) MailStops(ctx context.Context, mailbox, email string) (suppressed, unsubscribed bool, err error) {
	if err := s.tx.QueryRowContext(ctx, sqlMailStops, mailbox, email).Scan(&suppressed, &unsubscribed); err != nil {
		return false, false, fmt.Errorf("read mail stops: %w", err)
	}
	return suppressed, unsubscribed, nil
}

// sqlSeatPlayed runs for every email a turn queues, so it is prepared.
const sqlSeatPlayed = `SELECT EXISTS (SELECT 1 FROM turns WHERE game_id = ? AND color = ? AND auto = 0)`

func (s storeTx) SeatPlayed(ctx context.Context, gameID, color string) (bool, error) {
	var played bool
	if err := s.tx.QueryRowContext(ctx, sqlSeatPlayed, gameID, color).Scan(&played); err != nil {
		return false, fmt.Errorf("read the seat's turns: %w", err)
	}
	return played, nil
}

// PlayedIn runs for each entrant an event's mail goes to, on the seats of
// his address and the primary key of turns.
func (s storeTx) PlayedIn(ctx context.Context, email string, gameIDs []string) (bool, error) {
	ids, err := json.Marshal(gameIDs)
	if err != nil {
		return false, err
	}
	var played bool
	err = s.tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM seats s JOIN turns t ON t.game_id = s.game_id AND t.color = s.color
		WHERE s.email = ? AND s.game_id IN (SELECT value FROM json_each(?)) AND t.auto = 0)`, email, string(ids)).Scan(&played)
	if err != nil {
		return false, fmt.Errorf("read the address's turns: %w", err)
	}
	return played, nil
}

// sqlBudgetSpent reads the outbox_budget index.
const sqlBudgetSpent = `SELECT count(*), min(created_at) FROM outbox WHERE mailbox = ? AND budgeted = 1 AND created_at > ?`

func (s storeTx) BudgetSpent(ctx context.Context, mailbox string, since time.Time) (int, time.Time, error) {
	var spent int
	var oldest sql.NullInt64
	if err := s.tx.QueryRowContext(ctx, sqlBudgetSpent, mailbox, since.UnixMilli()).Scan(&spent, &oldest); err != nil {
		return 0, time.Time{}, fmt.Errorf("read mail budget: %w", err)
	}
	return spent, fromMillis(oldest), nil
}

// TakeRequest takes one request from key's bucket in the unit of work (see
// domain.RateLimiter), in one statement; a refusal reads how long to wait.
func (s storeTx) TakeRequest(ctx context.Context, key string, interval, tolerance time.Duration, now time.Time) (bool, time.Duration, error) {
	at := now.UnixNano()
	var full int64
	err := s.tx.QueryRowContext(ctx, sqlTakeRequest, key, at, int64(interval), int64(tolerance)).Scan(&full)
	if err == nil {
		return true, 0, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return false, 0, fmt.Errorf("take request %s: %w", key, err)
	}
	if err := s.tx.QueryRowContext(ctx, sqlSelectRateLimit, key).Scan(&full); err != nil {
		return false, 0, fmt.Errorf("take request %s: %w", key, err)
	}
	return false, time.Duration(max(full, at) - at - int64(tolerance)), nil
}

var _ domain.MailFacts = storeTx{}
