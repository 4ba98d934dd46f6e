// Package archtest checks the one-way rule of the layers: imports flow
// toward domain, and only cmd wires the edges to the store.
package archtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/lesspost/lesspost/"

// goListDeps maps each package of the module that pkg depends on (pkg
// included) to its direct imports, test files left out.
func goListDeps(t *testing.T, pkg string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f",
		`{{.ImportPath}} {{.Dir}} {{join .GoFiles ","}} {{join .Imports " "}}`, pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) < 3 || !strings.HasPrefix(fields[0], module) {
			continue
		}
		deps[fields[0]] = fields[3:]
		// Read what go list read, so that go test's cache, which cannot see
		// into a subprocess, runs this test again when the sources change.
		if _, err := os.ReadDir(fields[1]); err != nil {
			t.Fatal(err)
		}
		for _, f := range strings.Split(fields[2], ",") {
			if _, err := os.ReadFile(filepath.Join(fields[1], f)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return deps
}

// The HTTP edge calls the use cases and never the store: api imports
// repo neither itself nor through another package.
func TestAPIDoesNotImportRepo(t *testing.T) {
	// notify still reads repo's rows; the work on the mail ports (issue 12)
	// removes that import, and then this exception goes.
	through := []string{module + "notify"}
	for pkg, imports := range goListDeps(t, "../../api") {
		if slices.Contains(imports, module+"repo") && !slices.Contains(through, pkg) {
			t.Errorf("%s imports repo, and api depends on it", pkg)
		}
	}
}

// The use cases and the rules depend on no edge: domain imports nothing of
// the module outside domain/...
func TestDomainImportsOnlyDomain(t *testing.T) {
	for pkg := range goListDeps(t, "../../domain/...") {
		if pkg != module+"domain" && !strings.HasPrefix(pkg, module+"domain/") {
			t.Errorf("domain depends on %s", pkg)
		}
	}
}
