package repo

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/lesspost/lesspost/domain"
)

// GamePage is one page of a user's games.
type GamePage struct {
	Games []domain.Game
	// Next is the cursor of the following page, "" on the last page.
	Next string
}

// ErrBadCursor is returned for a cursor this server did not write.
var ErrBadCursor = domain.Errorf(domain.KindInvalid, "invalid_cursor", "the cursor is not one this server gave out")

// MyGames lists the games a user plays in or created, most urgent first:
// games where it is his turn (nearest deadline first, then those without a
// deadline, longest waiting first), then other running games, then finished
// ones (most recent first). Cursor pagination keeps
// pages stable while games change.
func (db *DB) MyGames(ctx context.Context, u User, cursor string, limit int) (GamePage, error) {
	limit = max(limit, 1)
	urgency, key, after := -1, int64(0), ""
	if cursor != "" {
		var err error
		if urgency, key, after, err = decodeCursor(cursor); err != nil {
			return GamePage{}, ErrBadCursor
		}
	}
	rows, err := db.read.QueryContext(ctx, `
		WITH mine AS (
			SELECT g.id,
				CASE WHEN g.status = 'active' AND EXISTS (
					SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.email = ?1 AND s.color = g.to_move) THEN 0
				WHEN g.status = 'active' THEN 1 ELSE 2 END AS urgency,
				g.updated_at, g.deadline_at
			FROM games g
			WHERE g.creator_id = ?2 OR g.id IN (SELECT game_id FROM seats WHERE email = ?1)
		), keyed AS (
			SELECT id, urgency, CASE urgency
				-- Your turn: the nearest deadline first; games without one after them, longest waiting first.
				WHEN 0 THEN COALESCE(deadline_at, 8000000000000 + updated_at)
				ELSE -updated_at END AS k FROM mine
		)
		SELECT id, urgency, k FROM keyed WHERE (urgency, k, id) > (?3, ?4, ?5)
		ORDER BY urgency, k, id LIMIT ?6`, u.Email, u.ID, urgency, key, after, limit+1)
	if err != nil {
		return GamePage{}, fmt.Errorf("list games: %w", err)
	}
	type row struct {
		id      string
		urgency int
		k       int64
	}
	var found []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.urgency, &r.k); err != nil {
			rows.Close()
			return GamePage{}, fmt.Errorf("list games: %w", err)
		}
		found = append(found, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return GamePage{}, fmt.Errorf("list games: %w", err)
	}
	var page GamePage
	if len(found) > limit {
		last := found[limit-1]
		page.Next = encodeCursor(last.urgency, last.k, last.id)
		found = found[:limit]
	}
	for _, r := range found {
		g, err := loadGame(ctx, db.read, r.id)
		if err != nil {
			return GamePage{}, err
		}
		page.Games = append(page.Games, g)
	}
	return page, nil
}

func encodeCursor(urgency int, key int64, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%d:%d:%s", urgency, key, id)))
}

func decodeCursor(c string) (urgency int, key int64, id string, err error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, 0, "", err
	}
	parts := strings.SplitN(string(raw), ":", 3)
	if len(parts) != 3 {
		return 0, 0, "", fmt.Errorf("cursor has %d parts", len(parts))
	}
	if urgency, err = strconv.Atoi(parts[0]); err != nil {
		return 0, 0, "", err
	}
	if key, err = strconv.ParseInt(parts[1], 10, 64); err != nil {
		return 0, 0, "", err
	}
	return urgency, key, parts[2], nil
}
