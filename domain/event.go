package domain

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// EventKind is the kind of a live event (see Event).
type EventKind string

const (
	EventTurnPlayed   EventKind = "turn_played"   // a turn was played in a game
	EventYourTurn     EventKind = "your_turn"     // it is the address's turn
	EventGameOver     EventKind = "game_over"     // a game ended
	EventInvitation   EventKind = "invitation"    // the address was invited to a game
	EventDeadlineNear EventKind = "deadline_near" // the address's deadline is near
)

// The tournaments' event kinds. The kernel holds them because games write
// a round's (with the game they create) as tournaments write the others.
const (
	// EventRoundStart: a tournament round started: the address's game of
	// it, or a bye.
	EventRoundStart EventKind = "round_start"
	// EventTournamentUpdate tells a player that his tournament changed in
	// a way he must know (he was replaced, a deadline moved, the event
	// paused or resumed, a result was overridden). Data.Tournament names
	// the event, Data.Line says what happened, as the tournament's log does.
	EventTournamentUpdate EventKind = "tournament_update"
)

// EventRetention is how long the store keeps events: a client that was away
// longer reads the games themselves.
const EventRetention = 7 * 24 * time.Hour

// Event is what a live stream tells a client. Events are decided with the
// notices of a change and written in its unit of work, so a client that
// resumes after the last event it saw gets exactly what it missed. Unlike
// mail, they know no budgets, suppressions or unsubscriptions.
//
// An event either concerns one address (Email: that address's own stream)
// or is the game's own (Email "": the stream of whoever may read the game).
type Event struct {
	Pos    EventPos // set by the store
	Kind   EventKind
	GameID string // "" for a bye
	Email  string
	Color  string // the seat concerned
	Ply    int    // the game's ply it is about (a bye: the round)
	Data   EventData
	At     time.Time // set by the store
}

// EventData is the small payload of an event. The store keeps it as JSON,
// in these names.
type EventData struct {
	Turn       string `json:"turn,omitempty"`       // turn_played: the turn, canonical
	Result     string `json:"result,omitempty"`     // game_over: as the record writes it ("white+2")
	Line       string `json:"line,omitempty"`       // game_over: in English
	Tournament string `json:"tournament,omitempty"` // round_start
}

// EventPos is where an event stands in the order of all events: the store's
// commit order. Tx orders the units of work (0 where the store's row order
// is its commit order), Seq the events within and across them.
type EventPos struct {
	Tx, Seq int64
}

// Less reports whether p comes before q.
func (p EventPos) Less(q EventPos) bool {
	return p.Tx < q.Tx || p.Tx == q.Tx && p.Seq < q.Seq
}

// String is the position as clients see it (the SSE event id): opaque to them.
func (p EventPos) String() string {
	return strconv.FormatInt(p.Tx, 10) + "-" + strconv.FormatInt(p.Seq, 10)
}

// ParseEventPos reads a position String wrote. Every store numbers its
// events from 1, so a Seq of 0 was never an event's.
func ParseEventPos(s string) (EventPos, error) {
	tx, seq, ok := strings.Cut(s, "-")
	if ok {
		p := EventPos{}
		var err1, err2 error
		p.Tx, err1 = strconv.ParseInt(tx, 10, 64)
		p.Seq, err2 = strconv.ParseInt(seq, 10, 64)
		if err1 == nil && err2 == nil && p.Tx >= 0 && p.Seq >= 1 {
			return p, nil
		}
	}
	return EventPos{}, Errorf(KindInvalid, CodeInvalidCursor, "%q is no event id of this server", s)
}

// EventFilter chooses the events of one stream: those concerning Email, or
// else the game's own events of GameID. The zero filter chooses all.
type EventFilter struct {
	Email  string
	GameID string
}

// Match reports whether the filter chooses e.
func (f EventFilter) Match(e *Event) bool {
	switch {
	case f.Email != "":
		return e.Email == f.Email
	case f.GameID != "":
		return e.GameID == f.GameID && e.Email == ""
	}
	return true
}

// EventReader reads stored events, safe for several readers on one store
// in any number of processes.
type EventReader interface {
	// Events lists up to limit events the filter chooses, after after, in
	// order. The store lists an event only once every event before it is
	// committed (or never will be), so a reader that resumes after the last
	// event it read misses none.
	Events(ctx context.Context, f EventFilter, after EventPos, limit int) ([]Event, error)
	// LastEvent is the position of the last event Events would list now
	// (the zero position when there is none): a new stream starts after it.
	LastEvent(ctx context.Context) (EventPos, error)
	// EventCursor says what a stream can do with a position a client
	// resumes after (see EventCursorState).
	EventCursor(ctx context.Context, p EventPos) (EventCursorState, error)
}

// EventCursorState is what the store knows of a position a client resumes
// after: the last event id it received, or so it says.
type EventCursorState int

const (
	// EventCursorKept: an event at the position is stored, so the stream
	// resumes exactly after it.
	EventCursorKept EventCursorState = iota + 1
	// EventCursorPruned: the store gave out positions that far, but keeps
	// no event before it: the events after it may have been pruned (they
	// are kept EventRetention), so the client must read the games again.
	// A position that was never an event's but lies among pruned ones
	// cannot be told apart, and needs the same.
	EventCursorPruned
	// EventCursorUnknown: the store never gave the position out: it lies
	// after every position given out, or among the events kept without
	// being one of them. Resuming after it would skip events, or wait for
	// ones that will never come.
	EventCursorUnknown
)

// EventCursorOf judges a position from what a store knows of it: whether
// an event at it is kept, whether it lies beyond every position the store
// gave out, and whether every event kept comes after it (or none is kept).
func EventCursorOf(kept, beyond, beforeAll bool) EventCursorState {
	switch {
	case kept:
		return EventCursorKept
	case beyond:
		return EventCursorUnknown
	case beforeAll:
		return EventCursorPruned
	}
	return EventCursorUnknown
}

// String names an event for logs and test failures.
func (e Event) String() string {
	return fmt.Sprintf("%s %s %s %s ply %d", e.Kind, e.GameID, e.Email, e.Color, e.Ply)
}
