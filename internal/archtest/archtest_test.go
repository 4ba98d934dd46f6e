// Package archtest checks the one-way rule of the layers (see issue 12):
// imports flow toward domain; domain depends on no edge, and only cmd wires
// the edges to the store.
package archtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/lesspost/lesspost"

// projectDeps lists the module's packages that the packages matching pattern
// are built from (themselves included, their tests not), relative to the
// module, as `go list -deps` reports them.
func projectDeps(t *testing.T, pattern string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}} {{.Dir}} {{join .GoFiles ","}}`,
		module+"/"+pattern).Output()
	if err != nil {
		var stderr []byte
		if exit, ok := err.(*exec.ExitError); ok {
			stderr = exit.Stderr
		}
		t.Fatalf("go list %s: %v\n%s", pattern, err, stderr)
	}
	var deps []string
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) < 2 || (fields[0] != module && !strings.HasPrefix(fields[0], module+"/")) {
			continue
		}
		deps = append(deps, strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/"))
		// Read what go list read, so that go test's cache, which cannot see
		// into a subprocess, runs this test again when the sources change.
		if len(fields) == 3 {
			for _, f := range strings.Split(fields[2], ",") {
				if _, err := os.ReadFile(filepath.Join(fields[1], f)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if len(deps) == 0 {
		t.Fatalf("go list %s found no package of the module", pattern)
	}
	return deps
}

// within reports whether pkg is one of the trees (a package and those
// below it); "" is the module's root package (the embedded contract).
func within(pkg string, trees []string) bool {
	return slices.ContainsFunc(trees, func(tree string) bool {
		return pkg == tree || (tree != "" && strings.HasPrefix(pkg, tree+"/"))
	})
}

// Each layer is built only from the module's packages it may import.
func TestImportDirection(t *testing.T) {
	tests := []struct {
		pattern string
		allowed []string
	}{
		// domain (the use cases, their ports and the rules) knows no edge.
		{"domain/...", []string{"domain"}},
		// notify renders and delivers mail through domain's ports.
		{"notify/...", []string{"notify", "domain", "internal/catalog"}},
		// repo opens a store by URL; the stores implement domain's ports,
		// and migrations is their schema (the embedded SQL files), which
		// each applies.
		{"repo/...", []string{"repo", "domain", "migrations"}},
		// Each store stands alone: neither knows the other, nor the
		// factory that chooses between them.
		{"repo/sqlite/...", []string{"repo/sqlite", "repo/internal", "domain", "migrations"}},
		{"repo/postgres/...", []string{"repo/postgres", "repo/internal", "domain", "migrations"}},
		// What the stores share knows no store.
		{"repo/internal/...", []string{"repo/internal", "domain"}},
		// Any store can be checked against the contract without the others.
		{"repo/storetest/...", []string{"repo/storetest", "repo/port", "domain"}},
		// api decodes, authenticates and calls the use cases: never the
		// store. It serves the contract (the root package) and the rules
		// pages (docs, the embedded rules), and renders result lines with
		// notify's phrases.
		{"api/...", []string{"", "api", "docs", "domain", "notify", "internal/catalog"}},
		// internal/catalog is the words (the locale files): it knows no layer.
		{"internal/catalog", []string{"internal/catalog"}},
		// docs is the rules as text: it knows nothing of the server.
		{"docs/...", []string{"docs"}},
	}
	for _, tt := range tests {
		for _, dep := range projectDeps(t, tt.pattern) {
			if !within(dep, tt.allowed) {
				t.Errorf("%s is built from %s; it may import only %q", tt.pattern, dep, tt.allowed)
			}
		}
	}
}
