package webhook

import (
	"encoding/json"
	"time"

	"github.com/lesspost/lesspost/domain/hooks"
)

// Envelope is the body of every delivery (Standard Webhooks): the event's
// type, when it happened, and its data. openapi.yaml describes each type's
// data (components/schemas/Webhook*).
type Envelope struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      Data      `json:"data"`
}

// Data is an event's payload; each type uses the fields openapi.yaml names
// for it.
type Data struct {
	EndpointID   int64  `json:"endpoint_id,omitempty"`   // ping
	GameID       string `json:"game_id,omitempty"`       // every event of a game
	Color        string `json:"color,omitempty"`         // the seat concerned
	Ply          *int   `json:"ply,omitempty"`           // the game's ply it is about (round_start of a bye: the round)
	Turn         string `json:"turn,omitempty"`          // turn_played
	Result       string `json:"result,omitempty"`        // game_over, as the record writes it ("white+2")
	Line         string `json:"line,omitempty"`          // game_over, in English
	TournamentID string `json:"tournament_id,omitempty"` // round_start
}

// Body is the JSON body of a delivery.
func Body(d hooks.WebhookDelivery) ([]byte, error) {
	e := Envelope{Type: d.Type, Timestamp: d.EventAt.UTC()}
	if d.Type == hooks.WebhookPing {
		e.Data.EndpointID = d.EndpointID
	} else {
		ply := d.Ply
		e.Data = Data{GameID: d.GameID, Color: d.Color, Ply: &ply, Turn: d.Data.Turn, Result: d.Data.Result,
			Line: d.Data.Line, TournamentID: d.Data.Tournament}
	}
	return json.Marshal(e)
}
