package games

import (
	"errors"
	"testing"

	"github.com/lesspost/lesspost/domain"
)

func TestDecodeStateRefusesWhatIsNotAGame(t *testing.T) {
	tests := []struct{ name, ruleset, state string }{
		{"unknown ruleset", "chess", `{}`},
		{"bad state", "less", `{`},
		{"empty state", "less", `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g Game
			if err := DecodeState(&g, tt.ruleset, []byte(tt.state)); !errors.Is(err, domain.ErrStoredData) {
				t.Errorf("DecodeState = %v, want ErrStoredData", err)
			}
		})
	}
}
