package webpush_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/catalog"
	"github.com/lesspost/lesspost/notify/webpush"
)

func TestPayload(t *testing.T) {
	const url = "https://less.example.org/play/g_abcdefgh#t=seat"
	yourTurn := domain.Event{Kind: domain.EventYourTurn, GameID: "g_abcdefgh", Email: "ann@example.org", Color: "white", Ply: 4}
	over := domain.Event{Kind: domain.EventGameOver, GameID: "g_abcdefgh", Email: "ann@example.org", Data: domain.EventData{Result: "white+2"}}
	for _, tt := range []struct {
		name   string
		event  domain.Event
		locale string
		title  string
		body   string
	}{
		{"your turn", yourTurn, "en", "Your turn", "It is your turn in game abcdef."},
		{"German", yourTurn, "de", "Du bist am Zug", "In der Partie abcdef bist du an der Reihe."},
		{"French", yourTurn, "fr", "À vous de jouer", "C'est à vous de jouer dans la partie abcdef."},
		{"Italian", yourTurn, "it", "Tocca a te", "Tocca a te nella partita abcdef."},
		{"Spanish", yourTurn, "es", "Te toca", "Te toca jugar en la partida abcdef."},
		{"unknown language", yourTurn, "nl", "Your turn", "It is your turn in game abcdef."},
		{"game over", over, "en", "Game over", "Game abcdef is over: white+2."},
		{"game over without result", domain.Event{Kind: domain.EventGameOver, GameID: "g_abcdefgh", Email: "a@b.c"}, "fr",
			"Partie terminée", "La partie abcdef est terminée."},
		{"deadline", domain.Event{Kind: domain.EventDeadlineNear, GameID: "g_abcdefgh", Email: "a@b.c"}, "it",
			"Il tuo tempo sta per scadere", "La tua scadenza nella partita abcdef è vicina."},
		{"invitation", domain.Event{Kind: domain.EventInvitation, GameID: "g_abcdefgh", Email: "a@b.c"}, "de",
			"Neue Partie", "Du bist zur Partie abcdef eingeladen."},
		{"bye", domain.Event{Kind: domain.EventRoundStart, Email: "a@b.c", Data: domain.EventData{Tournament: "t_1"}}, "es",
			"Ronda del torneo", "Ha empezado una nueva ronda de tu torneo."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			raw, ok, err := webpush.Payload(tt.event, tt.locale, url)
			if err != nil || !ok {
				t.Fatalf("Payload = %v, %v", ok, err)
			}
			var m webpush.Message
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			wantTag := "lesspost"
			if tt.event.GameID != "" {
				wantTag += "-" + tt.event.GameID
			}
			if m.Kind != tt.event.Kind || m.GameID != tt.event.GameID || m.Title != tt.title || m.Body != tt.body || m.URL != url || m.Tag != wantTag {
				t.Errorf("message %+v; want title %q, body %q, tag %q", m, tt.title, tt.body, wantTag)
			}
			if len(raw) > webpush.MaxPayload {
				t.Errorf("%d bytes", len(raw))
			}
		})
	}
	for _, e := range []domain.Event{
		{Kind: domain.EventTurnPlayed, GameID: "g_1", Email: "a@b.c"}, // the your_turn that follows is pushed
		{Kind: domain.EventGameOver, GameID: "g_1"},                   // the game's own event: nobody's
	} {
		if raw, ok, err := webpush.Payload(e, "en", url); ok || err != nil || raw != nil {
			t.Errorf("Payload(%v) = %q, %v, %v; want nothing", e, raw, ok, err)
		}
	}
}

// Every language says every kind of message.
func TestPayloadLanguages(t *testing.T) {
	kinds := []domain.EventKind{domain.EventYourTurn, domain.EventDeadlineNear, domain.EventInvitation, domain.EventRoundStart, domain.EventGameOver}
	for _, locale := range catalog.Shipped().Languages() {
		for _, k := range kinds {
			raw, ok, err := webpush.Payload(domain.Event{Kind: k, GameID: "g_x", Email: "a@b.c", Data: domain.EventData{Result: "draw"}}, locale, "/")
			var m webpush.Message
			if !ok || err != nil || json.Unmarshal(raw, &m) != nil || m.Title == "" || strings.Contains(m.Body, "{") {
				t.Errorf("%s %s: %q, %v, %v", locale, k, raw, ok, err)
			}
			if locale != "en" {
				en, _, _ := webpush.Payload(domain.Event{Kind: k, GameID: "g_x", Email: "a@b.c", Data: domain.EventData{Result: "draw"}}, "en", "/")
				if string(en) == string(raw) {
					t.Errorf("%s %s is the English message", locale, k)
				}
			}
		}
	}
}
