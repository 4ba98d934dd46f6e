package domain

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/less"
)

// Classify passes on what it cannot Classify as it is: never a nil *Error
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
		got := Classify(tt.err)
		if got == nil {
			t.Errorf("%s: Classify = nil", tt.name)
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
			t.Errorf("%s: Classify(...).Error() = %q, want %q", tt.name, printed, tt.want)
		}
	}
	if got := Classify(diskFull); !errors.Is(got, diskFull) {
		t.Errorf("Classify lost the error: %v", got)
	}
}

// Unavailable marks a store failure once, keeps it for the log, and is what
// ErrorOf classifies; nil stays nil.
func TestUnavailable(t *testing.T) {
	diskFull := errors.New("database or disk is full")
	err := fmt.Errorf("create game: %w", Unavailable(fmt.Errorf("commit: %w", diskFull)))
	de, ok := ErrorOf(err)
	if !ok || de.Kind != KindUnavailable || de.Code != CodeUnavailable || de.RetryAfter != UnavailableRetryAfter {
		t.Fatalf("ErrorOf = %+v, %v", de, ok)
	}
	if !errors.Is(err, diskFull) || !IsUnavailable(err) {
		t.Errorf("the failure is lost: %v", err)
	}
	if strings.Contains(de.Message, "full") {
		t.Errorf("the message for the client names the failure: %q", de.Message)
	}
	if again := Unavailable(err); again != err {
		t.Errorf("marked twice: %v", again)
	}
	if c := Classify(err); !errors.Is(c, diskFull) {
		t.Errorf("Classify lost the failure: %v", c)
	}
	if Unavailable(nil) != nil || IsUnavailable(diskFull) {
		t.Error("Unavailable(nil) or IsUnavailable of an unmarked error")
	}
}
