// Package mygames owns the order and the cursors of "my games"
// (games.PlayerGamesReader.MyGames) that the SQL stores share: each store's
// query yields rows of (id, urgency, sort key) in page order, and this
// package turns them into a page and its cursor.
package mygames

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/lesspost/lesspost/domain"
)

// The urgencies, in page order: games where it is the address's turn, its
// other running games, its finished games. Within one, rows sort by key
// (your turn: the deadline, or NoDeadline plus the last change; other
// running games: minus the last change; finished: minus the last change),
// then by game id, all in Unix milliseconds.
const (
	UrgencyMyTurn   = 0
	UrgencyRunning  = 1
	UrgencyFinished = 2
	// NoDeadline puts the games without a deadline after those with one.
	NoDeadline int64 = 8_000_000_000_000
)

// ErrBadCursor is returned for a cursor this server did not write.
var ErrBadCursor = domain.Errorf(domain.KindInvalid, domain.CodeInvalidCursor, "the cursor is not one this server gave out")

// After is where a page starts: after the row (Urgency, Key, ID). The
// first page starts after Urgency -1.
type After struct {
	Urgency int
	Key     int64
	ID      string
}

// Start reads a cursor ("" for the first page).
func Start(cursor string) (After, error) {
	if cursor == "" {
		return After{Urgency: -1}, nil
	}
	a, err := decode(cursor)
	if err != nil {
		return After{}, ErrBadCursor
	}
	return a, nil
}

// Row is a row of a store's query.
type Row struct {
	ID      string
	Urgency int
	Key     int64
}

// Page cuts rows, which a store read with a limit of limit+1, to the page:
// its game ids and the cursor of the next page ("" if this is the last).
func Page(rows []Row, limit int) (ids []string, next string) {
	if len(rows) > limit {
		last := rows[limit-1]
		next = encode(After{Urgency: last.Urgency, Key: last.Key, ID: last.ID})
		rows = rows[:limit]
	}
	ids = make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	return ids, next
}

func encode(a After) string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%d:%d:%s", a.Urgency, a.Key, a.ID))
}

func decode(c string) (After, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return After{}, err
	}
	parts := strings.SplitN(string(raw), ":", 3)
	if len(parts) != 3 {
		return After{}, fmt.Errorf("cursor has %d parts", len(parts))
	}
	var a After
	if a.Urgency, err = strconv.Atoi(parts[0]); err != nil {
		return After{}, err
	}
	if a.Key, err = strconv.ParseInt(parts[1], 10, 64); err != nil {
		return After{}, err
	}
	a.ID = parts[2]
	return a, nil
}
