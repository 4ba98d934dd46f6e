// Package archtest checks the one-way rule of the layers (see issue 12):
// imports flow toward domain; domain depends on no edge, and only cmd wires
// the edges to the store. Within domain (issue 29), the kernel knows no
// aggregate and the aggregates know only the kernel, the rules and the
// aggregates they may call, in their tests too.
package archtest

import (
	"maps"
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
		// app builds the use cases: it knows nothing but domain.
		{"internal/app/...", []string{"internal/app", "domain"}},
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
		// api decodes, authenticates and calls the use cases (built by
		// app): never the store. It serves the contract (the root package)
		// and the rules pages (docs, the embedded rules), and renders result
		// lines with notify's phrases.
		{"api/...", []string{"", "api", "internal/app", "docs", "domain", "notify", "internal/catalog"}},
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

// The aggregates of domain, each with its own service and store port (see
// domain/doc.go). The kernel (domain itself) knows none of them; they know
// the kernel and the rules, and of each other only what is listed here.
var aggregates = map[string][]string{
	"domain/games": nil,
	// A tournament creates, adjudicates and reseats its games.
	"domain/tournaments": {"domain/games"},
	"domain/accounts":    nil,
	// A seat's push subscription is for the seat's game.
	"domain/hooks": {"domain/games"},
	// A profile lists and tallies its owner's games; an invitation by
	// handle seats a games.Player.
	"domain/players": {"domain/games"},
}

// The rules and what they show, below the kernel: they know neither the
// kernel nor an aggregate.
var beneath = []string{"domain/ruleset", "domain/view", "domain/less", "domain/les", "domain/internal"}

// packageImports lists, for each of the module's packages matching pattern,
// the module's packages its files import directly: its own files (code)
// and its test files, internal and external (tests), relative to the module.
func packageImports(t *testing.T, pattern string) (code, tests map[string][]string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-f",
		`{{.ImportPath}}|{{.Dir}}|{{join .GoFiles ","}},{{join .TestGoFiles ","}},{{join .XTestGoFiles ","}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`,
		module+"/"+pattern).Output()
	if err != nil {
		var stderr []byte
		if exit, ok := err.(*exec.ExitError); ok {
			stderr = exit.Stderr
		}
		t.Fatalf("go list %s: %v\n%s", pattern, err, stderr)
	}
	rel := func(list string) []string {
		var pkgs []string
		for _, p := range strings.Fields(list) {
			if p == module || strings.HasPrefix(p, module+"/") {
				pkgs = append(pkgs, strings.TrimPrefix(strings.TrimPrefix(p, module), "/"))
			}
		}
		return pkgs
	}
	code, tests = map[string][]string{}, map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Split(strings.TrimSpace(line), "|")
		if len(fields) != 5 {
			t.Fatalf("go list: unexpected line %q", line)
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		// Read what go list read (see projectDeps), and the directory, so
		// that a new file runs the test again too.
		if _, err := os.ReadDir(fields[1]); err != nil {
			t.Fatal(err)
		}
		for _, f := range strings.Split(fields[2], ",") {
			if f == "" {
				continue
			}
			if _, err := os.ReadFile(filepath.Join(fields[1], f)); err != nil {
				t.Fatal(err)
			}
		}
		code[pkg], tests[pkg] = rel(fields[3]), rel(fields[4])
	}
	return code, tests
}

// The kernel imports no aggregate, an aggregate only the kernel, the rules
// and the aggregates it may call, and the rules neither: in their code and
// in their tests. A test may also use the memory store (it implements every
// port, as repo does) and the conformance vectors.
func TestAggregateDirection(t *testing.T) {
	code, tests := packageImports(t, "domain/...")
	for pkg := range code {
		// may says whether pkg may import imp: itself, and the packages
		// (exact) and trees (with those below) its layer allows.
		var exact, trees []string
		switch _, isAggregate := aggregates[pkg]; {
		case pkg == "domain":
			trees = beneath
		case isAggregate:
			exact, trees = append([]string{"domain"}, aggregates[pkg]...), beneath
		case within(pkg, beneath):
			trees = beneath
		default:
			continue // the memory store implements every port
		}
		may := func(imp string, test bool) bool {
			return imp == pkg || slices.Contains(exact, imp) || within(imp, trees) ||
				test && slices.Contains([]string{"domain/memstore", "internal/vectors"}, imp)
		}
		for _, imp := range code[pkg] {
			if !may(imp, false) {
				t.Errorf("%s imports %s; it may import only %q and the trees %q", pkg, imp, exact, trees)
			}
		}
		for _, imp := range tests[pkg] {
			if !may(imp, true) {
				t.Errorf("the tests of %s import %s; they may import only %q, the trees %q and the memory store", pkg, imp, exact, trees)
			}
		}
	}
	// The same, built: what the kernel and each aggregate are built from,
	// however indirectly, holds no aggregate they may not call.
	for _, pkg := range append([]string{"domain"}, slices.Sorted(maps.Keys(aggregates))...) {
		for _, dep := range projectDeps(t, pkg) {
			if _, ok := aggregates[dep]; ok && dep != pkg && !slices.Contains(aggregates[pkg], dep) {
				t.Errorf("%s is built from the aggregate %s", pkg, dep)
			}
		}
	}
}
