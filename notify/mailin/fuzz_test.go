package mailin

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that no input panics Parse or gets more than the limits
// let through, and that what it returns keeps its promises.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.eml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add(bomb(3, 3))
	// Small limits, so that the fuzzer reaches them.
	lim := Limits{MaxBytes: 8 << 10, MaxParts: 8, MaxDepth: 3, MaxText: 512, AuthServID: authServID}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Parse(raw, lim)
		if err != nil {
			known := errors.Is(err, ErrTooLarge) || errors.Is(err, ErrMalformed) ||
				errors.Is(err, ErrTooComplex) || errors.Is(err, ErrNoText)
			if !known {
				t.Fatalf("error %v is none of the documented ones", err)
			}
			if len(raw) > lim.MaxBytes && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("%d bytes, over %d, gave %v", len(raw), lim.MaxBytes, err)
			}
			if m != nil && m.Lines != nil {
				t.Fatalf("lines with an error: %q", m.Lines)
			}
			return
		}
		if len(m.Lines) == 0 {
			t.Fatal("no lines and no error")
		}
		n := 0
		for _, l := range m.Lines {
			n += len(l)
			if l == "" || l != strings.TrimSpace(l) || !utf8.ValidString(l) || strings.ContainsAny(l, "\r\n") {
				t.Fatalf("line %q", l)
			}
		}
		if n > lim.MaxText {
			t.Fatalf("%d bytes of text, over %d", n, lim.MaxText)
		}
		switch m.AuthFailed {
		case "", "dkim", "spf", "dmarc":
		default:
			t.Fatalf("AuthFailed %q", m.AuthFailed)
		}
	})
}
