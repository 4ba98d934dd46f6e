package domain_test

import (
	"testing"

	"github.com/lesspost/lesspost/domain"
)

func TestParseEventPos(t *testing.T) {
	tests := []struct {
		in   string
		want domain.EventPos
		ok   bool
	}{
		{"0-1", domain.EventPos{Seq: 1}, true},
		{"17-42", domain.EventPos{Tx: 17, Seq: 42}, true},
		{"0-0", domain.EventPos{}, false}, // every store numbers its events from 1
		{"42", domain.EventPos{}, false},
		{"-1-2", domain.EventPos{}, false},
		{"1-x", domain.EventPos{}, false},
		{"", domain.EventPos{}, false},
	}
	for _, tt := range tests {
		got, err := domain.ParseEventPos(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseEventPos(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if tt.ok && got.String() != tt.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tt.in)
		}
	}
}

func TestEventFilterMatch(t *testing.T) {
	own := domain.Event{Kind: domain.EventTurnPlayed, GameID: "g1"}
	ann := domain.Event{Kind: domain.EventYourTurn, GameID: "g1", Email: "ann@example.org"}
	tests := []struct {
		name   string
		filter domain.EventFilter
		e      domain.Event
		want   bool
	}{
		{"all: the game's own", domain.EventFilter{}, own, true},
		{"all: an address's", domain.EventFilter{}, ann, true},
		{"the address's own", domain.EventFilter{Email: "ann@example.org"}, ann, true},
		{"another address's", domain.EventFilter{Email: "bob@example.org"}, ann, false},
		{"the game's own", domain.EventFilter{GameID: "g1"}, own, true},
		{"an address's, on the game's stream", domain.EventFilter{GameID: "g1"}, ann, false},
		{"another game's", domain.EventFilter{GameID: "g2"}, own, false},
	}
	for _, tt := range tests {
		if got := tt.filter.Match(&tt.e); got != tt.want {
			t.Errorf("%s: Match = %v, want %v", tt.name, got, tt.want)
		}
	}
}
