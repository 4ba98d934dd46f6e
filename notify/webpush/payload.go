package webpush

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/catalog"
)

// Message is what a push message carries, as JSON: the service worker
// (api/web/sw.js) shows Title and Body and opens URL when the player
// clicks. Tag is one per game, so a newer notice of a game replaces an
// older one still on the screen.
type Message struct {
	Kind   domain.EventKind `json:"kind"`
	GameID string           `json:"game_id,omitempty"`
	Title  string           `json:"title"`
	Body   string           `json:"body"`
	URL    string           `json:"url"`
	Tag    string           `json:"tag"`
}

// Pushed says whether events of a kind are worth a notification: those
// that ask something of the player or tell him a game's news. A turn
// played is not (the your_turn that follows is).
func Pushed(kind domain.EventKind) bool {
	return catalog.Shipped().Forms(catalog.Source, pushKey(kind, "title")) != nil
}

// Payload builds the message of an event for a subscriber who speaks
// locale (one of the catalogue's languages; another falls back to English), in the
// catalogue's push.<kind>.title and push.<kind>.body words. openURL is
// the page the notification opens: for a seat's event the seat's move link
// (as its email carries it), so that the board opens ready to play; else
// the game's /play/{id} or the server's /login. ok is false for an event
// that is not pushed (see Pushed) or not an address's own.
func Payload(e domain.Event, locale, openURL string) (payload []byte, ok bool, err error) {
	if e.Email == "" || !Pushed(e.Kind) {
		return nil, false, nil
	}
	words := catalog.Shipped()
	m := Message{Kind: e.Kind, GameID: e.GameID, Title: words.Text(locale, pushKey(e.Kind, "title"), nil), URL: openURL, Tag: "lesspost"}
	if e.GameID != "" {
		m.Tag += "-" + e.GameID
	}
	m.Body = words.Text(locale, pushKey(e.Kind, "body"), map[string]any{"game": shortID(e.GameID), "result": e.Data.Result})
	if e.Kind == domain.EventGameOver && e.Data.Result == "" {
		// "…is over: ." without a result: end the sentence at the verb.
		m.Body = strings.TrimRightFunc(m.Body, func(r rune) bool { return r == ':' || r == '.' || unicode.IsSpace(r) }) + "."
	}
	payload, err = json.Marshal(m)
	if err != nil {
		return nil, false, fmt.Errorf("webpush: encode a message: %w", err)
	}
	if len(payload) > MaxPayload {
		return nil, false, fmt.Errorf("webpush: the message of %s is %d bytes, over %d", e, len(payload), MaxPayload)
	}
	return payload, true, nil
}

// shortID is the part of a game id that tells a player's games apart, as
// the emails' subjects show it.
func shortID(id string) string {
	id = strings.TrimPrefix(id, "g_")
	if len(id) > 6 {
		id = id[:6]
	}
	return id
}

// pushKey is the catalogue's message of a kind's title or line ("title",
// "body"): push.<kind>.title, push.<kind>.body.
func pushKey(kind domain.EventKind, part string) string {
	return "push." + string(kind) + "." + part
}
