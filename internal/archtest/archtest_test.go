// Package archtest checks the direction of the imports between lesspost's
// packages (see issue 12): the edges depend on domain, never domain on them.
package archtest

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/lesspost/lesspost"

// projectDeps lists the project's packages that the packages matching
// pattern are built from (themselves included, their tests not), as
// `go list -deps` reports them.
func projectDeps(t *testing.T, pattern string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-json", module+"/"+pattern).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("go list %s: %v\n%s", pattern, err, exit.Stderr)
		}
		t.Fatalf("go list %s: %v", pattern, err)
	}
	var deps []string
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct{ ImportPath string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list %s: %v", pattern, err)
		}
		if p.ImportPath == module || strings.HasPrefix(p.ImportPath, module+"/") {
			deps = append(deps, strings.TrimPrefix(p.ImportPath, module+"/"))
		}
	}
	if len(deps) == 0 {
		t.Fatalf("go list %s found no package of the project", pattern)
	}
	return deps
}

// within reports whether pkg is one of the trees (a package and those
// below it).
func within(pkg string, trees []string) bool {
	return slices.ContainsFunc(trees, func(tree string) bool { return pkg == tree || strings.HasPrefix(pkg, tree+"/") })
}

// Each layer is built only from the project packages it may import. Not
// yet checked: api still imports repo (the next step of issue 12 takes it
// to domain's ports).
func TestImportDirection(t *testing.T) {
	tests := []struct {
		pattern string
		allowed []string
	}{
		// domain knows nothing of the edges.
		{"domain/...", []string{"domain"}},
		// notify delivers and renders mail through domain's ports.
		{"notify/...", []string{"notify", "domain"}},
		// repo implements domain's ports; migrations is its schema (the
		// embedded SQL files), which is repo's to apply.
		{"repo/...", []string{"repo", "domain", "migrations"}},
	}
	for _, tt := range tests {
		for _, dep := range projectDeps(t, tt.pattern) {
			if !within(dep, tt.allowed) {
				t.Errorf("%s is built from %s; it may import only %s", tt.pattern, dep, strings.Join(tt.allowed, ", "))
			}
		}
	}
}
