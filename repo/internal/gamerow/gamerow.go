// Package gamerow owns how a game and a tournament become the columns a store
// keeps, and back: the dialect-neutral half of reading and writing them, so
// that every SQL store encodes them alike.
package gamerow

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// Columns are what a store keeps of a game beside its seats: the opaque
// ruleset state and clock as written here, and the columns queries use.
// A zero time is NULL.
type Columns struct {
	Ruleset string
	State   string // the ruleset's own encoding: its bytes round-trip exactly
	ToMove  string // the colour whose turn it is, for "my games"
	Ply     int
	Status  string // "active" or "finished"
	Clock   string // JSON of games.Clock
	// Deadline and Due are the clock's deadline and when the scheduler must
	// next look at the game.
	Deadline, Due time.Time
	// TournamentID and Tournament (JSON of games.TournamentRef) are empty
	// for a game of no tournament.
	TournamentID, Tournament string
}

// Encode gives the columns of g.
func Encode(g *games.Game) (Columns, error) {
	ruleset, state, err := games.EncodeState(g)
	if err != nil {
		return Columns{}, err
	}
	clock, err := json.Marshal(&g.Clock)
	if err != nil {
		return Columns{}, fmt.Errorf("encode clock: %w", err)
	}
	c := Columns{Ruleset: ruleset, State: string(state), ToMove: g.ToMove(), Ply: g.Ply(), Status: Status(g),
		Clock: string(clock), Deadline: g.Clock.Deadline, Due: g.Clock.NextDue()}
	if ref := g.Tournament; ref != nil {
		b, err := json.Marshal(ref)
		if err != nil {
			return Columns{}, fmt.Errorf("encode tournament: %w", err)
		}
		c.TournamentID, c.Tournament = ref.ID, string(b)
	}
	return c, nil
}

// Status is the status column of g.
func Status(g *games.Game) string {
	if g.Over() {
		return "finished"
	}
	return "active"
}

// Decode fills g, whose ID is set, from its stored ruleset, state, clock and
// tournament ("" for none).
func Decode(g *games.Game, ruleset, state, clock, tournament string) error {
	if err := games.DecodeState(g, ruleset, []byte(state)); err != nil {
		return fmt.Errorf("read game: %w", err)
	}
	if err := json.Unmarshal([]byte(clock), &g.Clock); err != nil {
		return Damaged("read game "+g.ID+": clock", err)
	}
	if tournament != "" {
		g.Tournament = new(games.TournamentRef)
		if err := json.Unmarshal([]byte(tournament), g.Tournament); err != nil {
			return Damaged("read game "+g.ID+": tournament", err)
		}
	}
	return nil
}

// CheckSeats checks that the seats read for g hold its rules' colours, in
// turn order.
func CheckSeats(g *games.Game) error {
	seats := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		seats[i] = s.Color
	}
	if colors := g.Rules.Colors(); !slices.Equal(seats, colors) {
		return Damaged("read seats of "+g.ID, fmt.Errorf("seats %v for the colours %v", seats, colors))
	}
	return nil
}

// GameNotFound is the error for a game that does not exist.
func GameNotFound(id string) error {
	return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no game %s", domain.Clip(id))
}

// Damaged wraps an error in decoding a stored value: domain.ErrStoredData
// makes it a server error, never one that blames the client.
func Damaged(what string, err error) error {
	return fmt.Errorf("%s: %w: %w", what, domain.ErrStoredData, err)
}

// EncodeTournament gives a tournament's document (JSON of tournaments.Tournament)
// and when the scheduler must next look at it (zero: never).
func EncodeTournament(t *tournaments.Tournament) (data string, due time.Time, err error) {
	b, err := json.Marshal(t)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("encode tournament: %w", err)
	}
	return string(b), t.NextDue(), nil
}

// DecodeTournament reads the document of tournament id.
func DecodeTournament(id, data string) (tournaments.Tournament, error) {
	var t tournaments.Tournament
	if err := json.Unmarshal([]byte(data), &t); err != nil {
		return tournaments.Tournament{}, Damaged("read tournament "+id, err)
	}
	return t, nil
}

// TournamentNotFound is the error for a tournament that does not exist.
func TournamentNotFound(id string) error {
	return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no tournament %s", domain.Clip(id))
}

// TournamentPlayers are the addresses of a tournament's entrants (both
// members of a team), which the stores keep beside the document so an
// account finds the tournaments it plays in.
func TournamentPlayers(t *tournaments.Tournament) []string {
	out := make([]string, 0, len(t.Entrants))
	for _, e := range t.Entrants {
		out = append(out, e.Emails()...)
	}
	return out
}

// PublicUntil is until when anyone signed in may join the tournament (its
// registration is public and open); zero when nobody may without the link.
func PublicUntil(t *tournaments.Tournament) time.Time {
	r := t.Registration
	if r == nil || !r.Open || !r.Public || t.Status != tournaments.TournamentScheduled || len(t.Rounds) == 0 {
		return time.Time{}
	}
	until := t.Rounds[0].Start
	if !r.Closes.IsZero() && r.Closes.Before(until) {
		until = r.Closes
	}
	return until
}

// Rows is what both dialects' result sets offer (*sql.Rows, pgx.Rows).
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// DecodeTournaments reads rows of (id, document) into tournaments.
func DecodeTournaments(rows Rows) ([]tournaments.Tournament, error) {
	var out []tournaments.Tournament
	for rows.Next() {
		var id, data string
		if err := rows.Scan(&id, &data); err != nil {
			return nil, fmt.Errorf("read tournaments: %w", err)
		}
		t, err := DecodeTournament(id, data)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read tournaments: %w", err)
	}
	return out, nil
}

// firstTournament is where the first page of a list of tournaments starts:
// after any creation time a store holds (both keep the year 9999).
var firstTournament = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).UnixMilli()

// TournamentAfter reads the cursor of a page of an account's tournaments
// (see TournamentPage): the page starts after the tournament created at
// created (Unix milliseconds, as both stores keep it) with the id. ""
// starts at the newest.
func TournamentAfter(cursor string) (created int64, id string, err error) {
	if cursor == "" {
		return firstTournament, "", nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	ms, id, found := strings.Cut(string(raw), ":")
	if err == nil && found && id != "" {
		if created, err = strconv.ParseInt(ms, 10, 64); err == nil {
			return created, id, nil
		}
	}
	return 0, "", domain.Errorf(domain.KindInvalid, domain.CodeInvalidCursor, "the cursor is not one this server gave out")
}

// TournamentPage reads rows of (id, document), read newest first with a
// limit of limit+1, into the page and the cursor of the next ("" on the
// last).
func TournamentPage(rows Rows, limit int) (tournaments.TournamentPage, error) {
	ts, err := DecodeTournaments(rows)
	if err != nil || len(ts) <= limit {
		return tournaments.TournamentPage{Tournaments: ts}, err
	}
	last := ts[limit-1]
	cursor := base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%d:%s", last.CreatedAt.UnixMilli(), last.ID))
	return tournaments.TournamentPage{Tournaments: ts[:limit], Next: cursor}, nil
}
