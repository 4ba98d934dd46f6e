package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/repo/port"
)

// EventStore is a store of events: domain.EventReader, and
// port.Housekeeping's PruneEvents.
type EventStore interface {
	Store
	domain.EventReader
	PruneEvents(ctx context.Context, before time.Time, limit int) (int, error)
}

var _ EventStore = port.Store(nil)

// RunEvents runs the contract of the stored events against stores made by
// newStore, each empty.
func RunEvents(t *testing.T, newStore func(t *testing.T) EventStore) {
	tests := []struct {
		name string
		run  func(t *testing.T, s EventStore)
	}{
		{"WrittenWithTheChange", testEventsWrittenWithChange},
		{"ResumeAfterAPosition", testEventsResume},
		{"PruneEvents", testPruneEvents},
		{"Cursors", testEventCursors},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, newStore(t)) })
	}
}

// readEvents lists the events f chooses after after, which the test knows
// to be n, failing t on an error. A store may hold committed events back
// while an earlier transaction, even of another database on its server,
// is still running (see postgres.DB.Events): readEvents waits for that.
func readEvents(t *testing.T, s domain.EventReader, f domain.EventFilter, after domain.EventPos, n int) []domain.Event {
	t.Helper()
	for {
		evs, err := s.Events(t.Context(), f, after, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) >= n {
			return evs
		}
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// describe names events for comparison: kind, address and ply.
func describe(evs []domain.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.String()
	}
	return out
}

// A game's creation and its turns write their events in their unit of
// work, each stream seeing its own; a unit of work that fails writes none.
func testEventsWrittenWithChange(t *testing.T, s EventStore) {
	g := insertGame(t, s, "g1")
	g = play(t, s, g, T0.Add(time.Minute))
	// A change that fails leaves no event behind.
	abandonResign(t, s, g)

	ann, bob := "ann@example.org", "bob@example.org"
	wantBob := []string{
		"invitation g1 " + bob + " black ply 0",
		"turn_played g1 " + bob + " white ply 1",
		"your_turn g1 " + bob + " black ply 1",
	}
	if got := describe(readEvents(t, s, domain.EventFilter{Email: bob}, domain.EventPos{}, len(wantBob))); !slices.Equal(got, wantBob) {
		t.Errorf("bob's events = %q, want %q", got, wantBob)
	}
	wantAnn := []string{"invitation g1 " + ann + " white ply 0", "turn_played g1 " + ann + " white ply 1"}
	if got := describe(readEvents(t, s, domain.EventFilter{Email: ann}, domain.EventPos{}, len(wantAnn))); !slices.Equal(got, wantAnn) {
		t.Errorf("ann's events = %q, want %q", got, wantAnn)
	}
	game := readEvents(t, s, domain.EventFilter{GameID: "g1"}, domain.EventPos{}, 1)
	if got, want := describe(game), []string{"turn_played g1  white ply 1"}; !slices.Equal(got, want) {
		t.Fatalf("the game's events = %q, want %q", got, want)
	}
	if game[0].Data.Turn != opening || !game[0].At.Equal(T0.Add(time.Minute)) {
		t.Errorf("the turn's event = %+v, want the turn %s at %v", game[0], opening, T0.Add(time.Minute))
	}
	if other := readEvents(t, s, domain.EventFilter{GameID: "g2"}, domain.EventPos{}, 0); len(other) != 0 {
		t.Errorf("another game's events = %q, want none", describe(other))
	}

	resign(t, s, g, "black", T0.Add(3*time.Minute))
	over := readEvents(t, s, domain.EventFilter{GameID: "g1"}, game[0].Pos, 1)
	if len(over) != 1 || over[0].Kind != domain.EventGameOver || over[0].Data.Result == "" {
		t.Errorf("the game's events after the turn = %+v, want game_over with the result", over)
	}
}

// Events come in one order whatever the filter; a reader resumes after any
// position, and LastEvent is where a new reader starts.
func testEventsResume(t *testing.T, s EventStore) {
	ctx := t.Context()
	if last, err := s.LastEvent(ctx); err != nil || last != (domain.EventPos{}) {
		t.Errorf("LastEvent of an empty store = %v, %v; want the zero position", last, err)
	}
	play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute))
	// 2 invitations; the turn, the game's own and each seat's; the your-turn.
	all := readEvents(t, s, domain.EventFilter{}, domain.EventPos{}, 6)
	if len(all) != 6 {
		t.Fatalf("%d events in all, want 6: %q", len(all), describe(all))
	}
	for i := 1; i < len(all); i++ {
		if !all[i-1].Pos.Less(all[i].Pos) {
			t.Errorf("event %d at %v does not come after %v", i, all[i].Pos, all[i-1].Pos)
		}
	}
	if last, err := s.LastEvent(ctx); err != nil || last != all[len(all)-1].Pos {
		t.Errorf("LastEvent = %v, %v; want %v", last, err, all[len(all)-1].Pos)
	}
	for i := range all {
		rest := readEvents(t, s, domain.EventFilter{}, all[i].Pos, len(all)-i-1)
		if !slices.Equal(describe(rest), describe(all[i+1:])) {
			t.Errorf("after event %d: %q, want %q", i, describe(rest), describe(all[i+1:]))
		}
		p, err := domain.ParseEventPos(all[i].Pos.String())
		if err != nil || p != all[i].Pos {
			t.Errorf("ParseEventPos(%q) = %v, %v", all[i].Pos.String(), p, err)
		}
	}
	page, err := s.Events(ctx, domain.EventFilter{}, domain.EventPos{}, 2)
	if err != nil || !slices.Equal(describe(page), describe(all[:2])) {
		t.Errorf("the first 2 events = %q, %v; want %q", describe(page), err, describe(all[:2]))
	}
}

// Events older than the cut-off go, in batches; newer ones stay.
func testPruneEvents(t *testing.T, s EventStore) {
	g := insertGame(t, s, "g1") // 2 invitations at T0
	play(t, s, g, T0.Add(time.Hour))
	before := len(readEvents(t, s, domain.EventFilter{}, domain.EventPos{}, 6))
	n := drain(t, func(ctx context.Context, limit int) (int, error) {
		return s.PruneEvents(ctx, T0.Add(time.Minute), limit)
	}, 1)
	if n != 2 {
		t.Errorf("pruned %d events, want the 2 invitations", n)
	}
	if after := readEvents(t, s, domain.EventFilter{}, domain.EventPos{}, before-2); len(after) != before-2 || after[0].Kind != domain.EventTurnPlayed {
		t.Errorf("after pruning: %q", describe(after))
	}
}

// A position a client resumes after is kept while its event is; once
// pruned, or before every event kept, the events after it may be gone;
// positions the store never gave out (past the last, or among the kept
// ones) are unknown, also once every event is pruned.
func testEventCursors(t *testing.T, s EventStore) {
	ctx := t.Context()
	cursor := func(p domain.EventPos) domain.EventCursorState {
		t.Helper()
		state, err := s.EventCursor(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		return state
	}
	if got := cursor(domain.EventPos{Seq: 5}); got != domain.EventCursorUnknown {
		t.Errorf("a position of an empty store that never had an event: %v, want unknown", got)
	}
	g := insertGame(t, s, "g1") // 2 invitations at T0
	play(t, s, g, T0.Add(time.Hour))
	all := readEvents(t, s, domain.EventFilter{}, domain.EventPos{}, 6)
	last := all[len(all)-1].Pos
	for _, e := range all {
		if got := cursor(e.Pos); got != domain.EventCursorKept {
			t.Errorf("the position of %v: %v, want kept", e, got)
		}
	}
	unknown := map[string]domain.EventPos{
		"past the last event":            {Tx: last.Tx, Seq: last.Seq + 1000},
		"of a transaction still to come": {Tx: last.Tx + 1<<40, Seq: last.Seq},
		"among the events, none of them": {Tx: all[2].Pos.Tx + 1, Seq: all[2].Pos.Seq},
	}
	for name, p := range unknown {
		if got := cursor(p); got != domain.EventCursorUnknown {
			t.Errorf("a position %s (%v): %v, want unknown", name, p, got)
		}
	}

	drain(t, func(ctx context.Context, limit int) (int, error) {
		return s.PruneEvents(ctx, T0.Add(time.Minute), limit)
	}, 1)
	for _, e := range all[:2] {
		if got := cursor(e.Pos); got != domain.EventCursorPruned {
			t.Errorf("the position of the pruned %v: %v, want pruned", e, got)
		}
	}
	if got := cursor(all[2].Pos); got != domain.EventCursorKept {
		t.Errorf("the position of the kept %v: %v, want kept", all[2], got)
	}
	drain(t, func(ctx context.Context, limit int) (int, error) {
		return s.PruneEvents(ctx, T0.Add(24*time.Hour), limit)
	}, 1)
	if got := cursor(last); got != domain.EventCursorPruned {
		t.Errorf("the position of the last event, pruned with all others: %v, want pruned", got)
	}
	if got := cursor(unknown["past the last event"]); got != domain.EventCursorUnknown {
		t.Errorf("a position past the last event, all pruned: %v, want unknown", got)
	}
}

// abandonResign has Black resign g at 2 minutes past T0 in a unit of work
// that then fails: nothing of it may stay.
func abandonResign(t *testing.T, s Store, g games.Game) {
	t.Helper()
	err := s.Transact(t.Context(), func(st domain.StoreTx) error {
		tx := newUnit(st)

		sub, err := games.Resign(g, games.Actor{SeatColor: new("black")}, T0.Add(2*time.Minute))
		if err != nil {
			return err
		}
		if err := tx.UpdateGame(t.Context(), &g, &games.GameChange{Game: sub.Game, Notices: sub.Notices}, T0.Add(2*time.Minute)); err != nil {
			return err
		}
		return errors.New("abandoned")
	})
	if err == nil {
		t.Fatal("the abandoned change committed")
	}
}
