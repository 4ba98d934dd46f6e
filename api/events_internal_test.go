package api

import (
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/lesspost/lesspost/domain"
)

// eventList is a store of events in memory, for the hub.
type eventList struct {
	mu  sync.Mutex
	evs []domain.Event
}

func (l *eventList) add(e domain.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e.Pos = domain.EventPos{Seq: int64(len(l.evs) + 1)}
	l.evs = append(l.evs, e)
}

func (l *eventList) Events(ctx context.Context, f domain.EventFilter, after domain.EventPos, limit int) ([]domain.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []domain.Event
	for _, e := range l.evs {
		if after.Less(e.Pos) && f.Match(&e) && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, nil
}

func (l *eventList) LastEvent(ctx context.Context) (domain.EventPos, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return domain.EventPos{Seq: int64(len(l.evs))}, nil
}

func (l *eventList) EventCursor(ctx context.Context, p domain.EventPos) (domain.EventCursorState, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := p.Tx == 0 && p.Seq >= 1 && p.Seq <= int64(len(l.evs))
	return domain.EventCursorOf(kept, p.Tx != 0 || p.Seq > int64(len(l.evs)), false), nil
}

// A stream that falls too far behind is dropped (its client resumes from
// the store); the others get their events, each once, in order.
func TestEventHubDropsASlowStream(t *testing.T) {
	store := &eventList{}
	store.add(domain.Event{Kind: domain.EventTurnPlayed, GameID: "old"}) // before the streams: not theirs
	hub := newEventHub(store, slog.New(slog.DiscardHandler))
	slow, from, err := hub.subscribe(t.Context(), domain.EventFilter{Email: "ann@example.org"})
	if err != nil || from != (domain.EventPos{Seq: 1}) {
		t.Fatalf("subscribe = %v, %v; want after the last event", from, err)
	}
	defer hub.unsubscribe(slow)
	game, _, err := hub.subscribe(t.Context(), domain.EventFilter{GameID: "g1"})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.unsubscribe(game)

	for range subscriberBuffer + 1 {
		store.add(domain.Event{Kind: domain.EventYourTurn, GameID: "g1", Email: "ann@example.org"})
	}
	for ply := range 3 {
		store.add(domain.Event{Kind: domain.EventTurnPlayed, GameID: "g1", Ply: ply + 1})
	}
	hub.Wake()
	select {
	case <-slow.dropped:
	case <-t.Context().Done():
		t.Fatal("the slow stream was not dropped")
	}
	for ply := range 3 {
		select {
		case e := <-game.events:
			if e.Kind != domain.EventTurnPlayed || e.Ply != ply+1 {
				t.Errorf("event %d of the game's stream: %v", ply, e)
			}
		case <-t.Context().Done():
			t.Fatal("the game's stream got no event")
		}
	}
	if len(game.events) != 0 {
		t.Errorf("%d more events on the game's stream", len(game.events))
	}
}
