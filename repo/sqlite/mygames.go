package sqlite

import (
	"context"
	"fmt"

	"github.com/lesspost/lesspost/repo/internal/mygames"
)

// myGamesPage is one page of an address's games after a cursor (urgency ?2,
// sort key ?3, game id ?4), at most ?5 of them. The table listings has a row
// per game and address that sees it — each seat's and the creator's, who is
// matched by his address, which never changes — saying whether the game is
// finished and, if it is, its sort key. Triggers keep it in step
// (migrations/0006_listings.sql) and write nothing on a running game's
// turns, so what orders running games is read here, from games and seats.
//
// The running games: one range of listings_page (email, finished = 0),
// joined to their games and to the address's seat to move, if any, for the
// urgency and the sort key; then sorted, which is cheap, since an account
// plays a handful to a few dozen games at once. Skipped when the cursor is
// among the finished games.
//
// The finished games: one range of listings_page in page order (email,
// finished = 1, sort_key, game_id), starting after the cursor if it is among
// them and at their beginning otherwise. The subquery applies the cursor and
// the limit to the range itself, so a page reads at most ?5 index entries of
// it however many games the account has finished; only those few are
// sorted again for the merge with the running games.
const myGamesPage = `
	WITH running AS (
		SELECT g.id, g.updated_at, g.deadline_at, s.game_id IS NOT NULL AS my_turn
		FROM listings l JOIN games g ON g.id = l.game_id
		LEFT JOIN seats s ON s.game_id = g.id AND s.color = g.to_move AND s.email = ?1
		WHERE l.email = ?1 AND l.finished = 0 AND ?2 < 2
	), keyed AS (
		SELECT id, IIF(my_turn, 0, 1) AS urgency,
			-- Your turn: the nearest deadline first; games without one after them, longest waiting first.
			IIF(my_turn, COALESCE(deadline_at, 8000000000000 + updated_at), -updated_at) AS k
		FROM running
	)
	SELECT id, urgency, k FROM keyed WHERE (urgency, k, id) > (?2, ?3, ?4)
	UNION ALL
	SELECT * FROM (
		SELECT game_id, 2, sort_key FROM listings
		WHERE email = ?1 AND finished = 1 AND ?2 <= 2
			AND (sort_key, game_id) > (IIF(?2 = 2, ?3, -9223372036854775808), IIF(?2 = 2, ?4, ''))
		ORDER BY sort_key, game_id LIMIT ?5 + 0)
	ORDER BY 2, 3, 1 LIMIT ?5 + 0`

// Parsing myGamesPage takes several times longer than running it, so it is
// prepared on the read pool (see prepared.go). Its limits are written ?5 + 0,
// not ?5: SQLite plans an ORDER BY with a LIMIT that is a bare parameter for
// the value bound, and so marks the statement to be prepared anew every time
// the parameter is bound — every page.

// ErrBadCursor is returned for a cursor this server did not write.
var ErrBadCursor = mygames.ErrBadCursor

// MyGames lists the games an address plays in or created, most urgent first:
// games where it is his turn (nearest deadline first, then those without a
// deadline, longest waiting first), then other running games, then finished
// ones (most recent first); ties by game id. Cursor pagination keeps pages
// stable while games change. A page costs the account's running games and
// the page, not its finished games (see myGamesPage).
func (db *DB) MyGames(ctx context.Context, email, cursor string, limit int) (GamePage, error) {
	limit = max(limit, 1)
	after, err := mygames.Start(cursor)
	if err != nil {
		return GamePage{}, err
	}
	rows, err := db.read.QueryContext(ctx, myGamesPage, email, after.Urgency, after.Key, after.ID, limit+1)
	if err != nil {
		return GamePage{}, fmt.Errorf("list games: %w", err)
	}
	var found []mygames.Row
	for rows.Next() {
		var r mygames.Row
		if err := rows.Scan(&r.ID, &r.Urgency, &r.Key); err != nil {
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
	ids, next := mygames.Page(found, limit)
	page.Next = next
	if page.Games, err = loadGames(ctx, db.read, ids); err != nil {
		return GamePage{}, err
	}
	return page, nil
}
