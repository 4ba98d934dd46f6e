package webpush

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/lesspost/lesspost/domain"
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
	_, ok := pushTexts["en"][kind]
	return ok
}

// Payload builds the message of an event for a subscriber who speaks
// locale (see domain.Locales; another falls back to English). openURL is
// the page the notification opens: for a seat's event the seat's move link
// (as its email carries it), so that the board opens ready to play; else
// the game's /play/{id} or the server's /login. ok is false for an event
// that is not pushed (see Pushed) or not an address's own.
func Payload(e domain.Event, locale, openURL string) (payload []byte, ok bool, err error) {
	if e.Email == "" || !Pushed(e.Kind) {
		return nil, false, nil
	}
	texts, found := pushTexts[locale]
	if !found {
		texts = pushTexts[domain.DefaultLocale]
	}
	t := texts[e.Kind]
	m := Message{Kind: e.Kind, GameID: e.GameID, Title: t[0], URL: openURL, Tag: "lesspost"}
	if e.GameID != "" {
		m.Tag += "-" + e.GameID
	}
	m.Body = strings.NewReplacer("{game}", shortID(e.GameID), "{result}", e.Data.Result).Replace(t[1])
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

// pushTexts are the title and the line of each kind of message, by
// language. {game} is the game's short id, {result} a result as the
// record writes it ("white+2").
var pushTexts = map[string]map[domain.EventKind][2]string{
	"en": {
		domain.EventYourTurn:     {"Your turn", "It is your turn in game {game}."},
		domain.EventDeadlineNear: {"Your time runs out soon", "Your deadline in game {game} is near."},
		domain.EventInvitation:   {"New game", "You are invited to game {game}."},
		domain.EventRoundStart:   {"Tournament round", "A new round of your tournament has started."},
		domain.EventGameOver:     {"Game over", "Game {game} is over: {result}."},
	},
	"de": {
		domain.EventYourTurn:     {"Du bist am Zug", "In der Partie {game} bist du an der Reihe."},
		domain.EventDeadlineNear: {"Deine Zeit läuft bald ab", "Deine Frist in der Partie {game} endet bald."},
		domain.EventInvitation:   {"Neue Partie", "Du bist zur Partie {game} eingeladen."},
		domain.EventRoundStart:   {"Turnierrunde", "Eine neue Runde deines Turniers hat begonnen."},
		domain.EventGameOver:     {"Partie beendet", "Die Partie {game} ist vorbei: {result}."},
	},
	"fr": {
		domain.EventYourTurn:     {"À vous de jouer", "C'est à vous de jouer dans la partie {game}."},
		domain.EventDeadlineNear: {"Votre temps est bientôt écoulé", "Votre délai dans la partie {game} approche."},
		domain.EventInvitation:   {"Nouvelle partie", "Vous êtes invité à la partie {game}."},
		domain.EventRoundStart:   {"Ronde de tournoi", "Une nouvelle ronde de votre tournoi a commencé."},
		domain.EventGameOver:     {"Partie terminée", "La partie {game} est terminée\u00a0: {result}."},
	},
	"it": {
		domain.EventYourTurn:     {"Tocca a te", "Tocca a te nella partita {game}."},
		domain.EventDeadlineNear: {"Il tuo tempo sta per scadere", "La tua scadenza nella partita {game} è vicina."},
		domain.EventInvitation:   {"Nuova partita", "Sei invitato alla partita {game}."},
		domain.EventRoundStart:   {"Turno del torneo", "È iniziato un nuovo turno del tuo torneo."},
		domain.EventGameOver:     {"Partita finita", "La partita {game} è finita: {result}."},
	},
	"es": {
		domain.EventYourTurn:     {"Te toca", "Te toca jugar en la partida {game}."},
		domain.EventDeadlineNear: {"Se te acaba el tiempo", "Tu plazo en la partida {game} termina pronto."},
		domain.EventInvitation:   {"Nueva partida", "Te han invitado a la partida {game}."},
		domain.EventRoundStart:   {"Ronda del torneo", "Ha empezado una nueva ronda de tu torneo."},
		domain.EventGameOver:     {"Partida terminada", "La partida {game} ha terminado: {result}."},
	},
}
