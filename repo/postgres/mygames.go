package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/repo/internal/mygames"
)

// myGamesPage is one page of an address ($1)'s games after a cursor
// (urgency $2, sort key $3, game id $4), at most $5 of them: the query of
// the SQLite store (repo/sqlite/mygames.go), on the same listings table, kept by
// triggers (migrations/postgres). The running games are one range of
// listings_page joined to games and seats for the urgency and key, then
// sorted; the finished games are one range in page order from the cursor,
// so a page reads at most $5 of them however many the address has.
const myGamesPage = `
	WITH running AS (
		SELECT g.id, g.updated_at, g.deadline_at, s.game_id IS NOT NULL AS my_turn
		FROM listings l JOIN games g ON g.id = l.game_id
		LEFT JOIN seats s ON s.game_id = g.id AND s.color = g.to_move AND s.email = $1
		WHERE l.email = $1 AND NOT l.finished AND $2::integer < 2
	), keyed AS (
		SELECT id, CASE WHEN my_turn THEN 0 ELSE 1 END AS urgency,
			-- Your turn: the nearest deadline first; games without one after them, longest waiting first.
			CASE WHEN my_turn THEN COALESCE(unix_ms(deadline_at), 8000000000000 + unix_ms(updated_at))
				ELSE -unix_ms(updated_at) END AS k
		FROM running
	)
	SELECT id, urgency, k FROM keyed WHERE (urgency, k, id) > ($2::integer, $3::bigint, $4::text)
	UNION ALL
	SELECT * FROM (
		SELECT game_id, 2, sort_key FROM listings
		WHERE email = $1 AND finished AND $2::integer <= 2
			AND (sort_key, game_id) > (CASE WHEN $2::integer = 2 THEN $3::bigint ELSE -9223372036854775808 END,
				CASE WHEN $2::integer = 2 THEN $4::text ELSE '' END)
		ORDER BY sort_key, game_id LIMIT $5) finished
	ORDER BY 2, 3, 1 LIMIT $5`

// MyGames lists the games an address plays in or created, most urgent
// first (see games.PlayerGamesReader): the order and the cursors are the SQLite
// store's (repo/internal/mygames).
func (db *DB) MyGames(ctx context.Context, email, cursor string, limit int) (games.GamePage, error) {
	limit = max(limit, 1)
	after, err := mygames.Start(cursor)
	if err != nil {
		return games.GamePage{}, err
	}
	rows, err := db.pool.Query(ctx, myGamesPage, email, after.Urgency, after.Key, after.ID, limit+1)
	if err != nil {
		return games.GamePage{}, fmt.Errorf("list games: %w", err)
	}
	found, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (r mygames.Row, err error) {
		return r, row.Scan(&r.ID, &r.Urgency, &r.Key)
	})
	if err != nil {
		return games.GamePage{}, fmt.Errorf("list games: %w", err)
	}
	var page games.GamePage
	ids, next := mygames.Page(found, limit)
	page.Next = next
	if page.Games, err = loadGames(ctx, db.pool, ids, false); err != nil {
		return games.GamePage{}, err
	}
	return page, nil
}
