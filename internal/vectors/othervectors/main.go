// Command othervectors writes another valid vectors file from one: every
// section's cases in reverse order, every other one left out. CI runs the
// tests a second time on such files (LESS_VECTORS, LES_VECTORS), which
// proves that they assert what a vector says and not what case N of the
// committed file holds.
//
// Usage:
//
//	go run ./internal/vectors/othervectors IN.json OUT.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: othervectors IN.json OUT.json")
		os.Exit(2)
	}
	if err := rewrite(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "othervectors:", err)
		os.Exit(1)
	}
}

// rewrite reads a vectors file of either game, reverses and thins every
// section (a list of cases) and keeps the other fields as they are.
func rewrite(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var file map[string]json.RawMessage
	if err := json.Unmarshal(data, &file); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	for name, raw := range file {
		var cases []json.RawMessage
		if json.Unmarshal(raw, &cases) != nil {
			continue // not a section: spec, seed
		}
		slices.Reverse(cases)
		kept := cases[:0]
		for i, c := range cases {
			// A section keeps at least one case: the loader refuses an
			// empty one.
			if i%2 == 0 || len(cases) < 4 {
				kept = append(kept, c)
			}
		}
		if file[name], err = json.Marshal(kept); err != nil {
			return err
		}
	}
	data, err = json.Marshal(file)
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
