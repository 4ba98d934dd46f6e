package repo

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lesspost/lesspost/repo/internal/mailpolicy"
)

// RecipientBudget is mailpolicy.RecipientBudget: how much mail that others
// caused one address receives in any 24 hours.
const RecipientBudget = mailpolicy.RecipientBudget

// mailFacts are the facts of mailpolicy, read inside a write transaction.
type mailFacts struct{ tx *Tx }

// sqlMailStops runs for every email a turn queues, so it is prepared.
const sqlMailStops = `SELECT EXISTS (SELECT 1 FROM suppressions WHERE email = ?), EXISTS (SELECT 1 FROM unsubscribes WHERE email = ?)`

func (f mailFacts) Stops(ctx context.Context, email string) (suppressed, unsubscribed bool, err error) {
	if err := f.tx.QueryRowContext(ctx, sqlMailStops, email, email).Scan(&suppressed, &unsubscribed); err != nil {
		return false, false, fmt.Errorf("read mail stops: %w", err)
	}
	return suppressed, unsubscribed, nil
}

// sqlSeatPlayed runs for every email a turn queues, so it is prepared.
const sqlSeatPlayed = `SELECT EXISTS (SELECT 1 FROM turns WHERE game_id = ? AND color = ? AND auto = 0)`

func (f mailFacts) SeatPlayed(ctx context.Context, gameID, color string) (bool, error) {
	var played bool
	if err := f.tx.QueryRowContext(ctx, sqlSeatPlayed, gameID, color).Scan(&played); err != nil {
		return false, fmt.Errorf("read the seat's turns: %w", err)
	}
	return played, nil
}

func (f mailFacts) BudgetSpent(ctx context.Context, email string, since time.Time) (int, error) {
	var spent int
	if err := f.tx.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE email = ? AND budgeted = 1 AND created_at > ?`,
		email, since.UnixMilli()).Scan(&spent); err != nil {
		return 0, fmt.Errorf("read mail budget: %w", err)
	}
	return spent, nil
}

func (f mailFacts) OldestBudgeted(ctx context.Context, email string, since time.Time) (time.Time, error) {
	var oldest sql.NullInt64
	if err := f.tx.QueryRowContext(ctx, `SELECT min(created_at) FROM outbox WHERE email = ? AND budgeted = 1 AND created_at > ?`,
		email, since.UnixMilli()).Scan(&oldest); err != nil {
		return time.Time{}, fmt.Errorf("read mail budget: %w", err)
	}
	return fromMillis(oldest), nil
}
