package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The limits of an aggregate's size (issue 29): the flat domain package
// they replaced had 561 exported names and a Service of 63 methods, which
// slowed every change. "A few hundred" names a package, "about twenty"
// methods a service.
const (
	maxExportedNames  = 300
	maxServiceMethods = 24
)

// services are the types whose methods are an aggregate's use cases,
// besides those named Service.
var services = []string{"Push", "Webhooks"}

// exportedNames counts a package's exported names in its code (tests left
// out), and the methods of each exported type.
func exportedNames(t *testing.T, dir string) (names int, methods map[string]int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	methods = map[string]int{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					names++
					continue
				}
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
					methods[id.Name]++
					names++
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names++
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names++
							}
						}
					}
				}
			}
		}
	}
	return names, methods
}

// The kernel and each aggregate stay small: a few hundred exported names at
// most, and services of about twenty methods.
func TestAggregateSize(t *testing.T) {
	pkgs := []string{"domain"}
	for pkg := range aggregates {
		pkgs = append(pkgs, pkg)
	}
	slices.Sort(pkgs)
	for _, pkg := range pkgs {
		names, methods := exportedNames(t, filepath.Join("..", "..", filepath.FromSlash(pkg)))
		t.Logf("%s: %d exported names", pkg, names)
		if names > maxExportedNames {
			t.Errorf("%s has %d exported names (top-level, and methods of exported types), more than %d: split it",
				pkg, names, maxExportedNames)
		}
		for typ, n := range methods {
			if !strings.HasSuffix(typ, "Service") && !slices.Contains(services, typ) {
				continue
			}
			t.Logf("%s.%s: %d methods", pkg, typ, n)
			if n > maxServiceMethods {
				t.Errorf("%s.%s has %d methods, more than %d: give the aggregate another service", pkg, typ, n, maxServiceMethods)
			}
		}
	}
}
