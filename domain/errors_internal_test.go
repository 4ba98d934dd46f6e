package domain

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lesspost/lesspost/domain/less"
)

// classify passes on what it cannot classify as it is: never a nil *Error
// inside a non-nil error, which would panic when printed.
func TestClassify(t *testing.T) {
	diskFull := errors.New("disk full")
	tests := []struct {
		name string
		err  error
		want string // the printed error
	}{
		{"an unknown error", diskFull, "disk full"},
		{"stored data", fmt.Errorf("%w: %w", ErrStoredData, less.ErrBoard), "stored data is damaged: invalid board"},
		{"an engine error", fmt.Errorf("x: %w", less.ErrGameOver), "game_over: the game is over"},
	}
	for _, tt := range tests {
		got := classify(tt.err)
		if got == nil {
			t.Errorf("%s: classify = nil", tt.name)
			continue
		}
		var printed string
		func() {
			defer func() {
				if p := recover(); p != nil {
					printed = fmt.Sprintf("panic: %v", p)
				}
			}()
			printed = got.Error()
		}()
		if printed != tt.want {
			t.Errorf("%s: classify(...).Error() = %q, want %q", tt.name, printed, tt.want)
		}
	}
	if got := classify(diskFull); !errors.Is(got, diskFull) {
		t.Errorf("classify lost the error: %v", got)
	}
}
