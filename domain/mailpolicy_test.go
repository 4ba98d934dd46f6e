package domain_test

import (
	"testing"

	"github.com/lesspost/lesspost/domain"
)

// The mail policy's own parts; what it admits of the games' and the
// tournaments' notices is tested with their use cases.

func TestMailbox(t *testing.T) {
	for email, want := range map[string]string{
		"ann@example.org":         "ann@example.org",
		"ann+games@example.org":   "ann@example.org",
		"ann+a+b@example.org":     "ann@example.org",
		"ann+@example.org":        "ann@example.org",
		"+ann@example.org":        "+ann@example.org", // a local part of a tag alone stays as it is
		"a.nn@example.org":        "a.nn@example.org", // dots matter outside Gmail
		"a.n.n+x@gmail.com":       "ann@gmail.com",
		"a.nn@googlemail.com":     "ann@gmail.com",
		"x@xn--bcher-kva.example": "x@xn--bcher-kva.example",
	} {
		if got := domain.Mailbox(email); got != want {
			t.Errorf("Mailbox(%q) = %q, want %q", email, got, want)
		}
	}
}
