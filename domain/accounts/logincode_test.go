package accounts

import (
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
)

// A login code is 8 characters of the unambiguous alphabet, the same for a
// token every time, different for different tokens, and read back however
// a person types it.
func TestLoginCode(t *testing.T) {
	seen := map[string]bool{}
	for range 2000 {
		token := domain.RandomToken(20)
		code := LoginCode(token)
		if code != LoginCode(token) {
			t.Fatalf("LoginCode(%q) is not stable", token)
		}
		if len(code) != LoginCodeLen || strings.ContainsAny(code, "0O1IL") || strings.Trim(code, loginCodeAlphabet) != "" {
			t.Fatalf("LoginCode(%q) = %q", token, code)
		}
		seen[code] = true
		if got, ok := NormalizeLoginCode(strings.ToLower(FormatLoginCode(code))); !ok || got != code {
			t.Fatalf("NormalizeLoginCode(lower %q) = %q, %v", FormatLoginCode(code), got, ok)
		}
	}
	if len(seen) < 1999 {
		t.Errorf("%d distinct codes of 2000 tokens", len(seen))
	}
	if len(loginCodeAlphabet) != 31 {
		t.Errorf("the alphabet has %d characters; the odds in logincode.go assume 31", len(loginCodeAlphabet))
	}
}

func TestNormalizeLoginCode(t *testing.T) {
	cases := []struct {
		typed, want string
		ok          bool
	}{
		{"NWFS-66QN", "NWFS66QN", true},
		{"nwfs66qn", "NWFS66QN", true},
		{" nwfs 66qn ", "NWFS66QN", true},
		{"NWFS-66Q", "", false},         // too short
		{"NWFS-66QNN", "", false},       // too long
		{"NWFS-66Q0", "", false},        // 0 is not in the alphabet
		{"NWFS-66QO", "", false},        // nor O
		{"NWFS-6lQN", "", false},        // nor L
		{"NWFS–66QN", "", false},        // an en dash is no dash
		{"abcdefghijklmnop", "", false}, // an old code (a token) is no code
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := NormalizeLoginCode(c.typed)
		if got != c.want || ok != c.ok {
			t.Errorf("NormalizeLoginCode(%q) = %q, %v; want %q, %v", c.typed, got, ok, c.want, c.ok)
		}
	}
}
