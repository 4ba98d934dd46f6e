// Package eventrow owns how every SQL store writes the events of a change
// (domain.Event) and reads them back: which events a change writes, and
// their payload as JSON.
package eventrow

import (
	"encoding/json"
	"fmt"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
)

// Encode gives the payloads of events to write, as JSON, in their order.
func Encode(evs []domain.Event) ([]string, error) {
	out := make([]string, len(evs))
	for i := range evs {
		b, err := json.Marshal(evs[i].Data)
		if err != nil {
			return nil, fmt.Errorf("write %s event: %w", evs[i].Kind, err)
		}
		out[i] = string(b)
	}
	return out, nil
}

// Decode reads the payload of an event read back.
func Decode(e *domain.Event, data string) error {
	if err := json.Unmarshal([]byte(data), &e.Data); err != nil {
		return gamerow.Damaged("read event", err)
	}
	return nil
}
