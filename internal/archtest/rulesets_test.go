package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rulesetPackages are the games' own packages: only they may know their
// concrete types behind a ruleset.Game.
var rulesetPackages = []string{"domain/less", "domain/les"}

// TestNothingBypassesTheRulesetInterface: no file outside a ruleset's own
// package, tests included, asserts a value to one of its types or switches
// on them. Code for every game reads a game through ruleset.Game; the views
// made for one game alone take it from that game's package (less.GameOf,
// les.EngineOf).
func TestNothingBypassesTheRulesetInterface(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || within(rel, rulesetPackages) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		for _, at := range bypasses(f) {
			t.Errorf("%s: %s", fset.Position(at.Pos()), "a concrete ruleset type outside its package: read the game through ruleset.Game")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d files: the walk missed the module", checked)
	}
}

// bypasses are the type assertions and type switch cases of f whose type is
// one of a ruleset package's.
func bypasses(f *ast.File) []ast.Expr {
	names := map[string]bool{} // the file's names of the ruleset packages
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		rel := strings.TrimPrefix(path, module+"/")
		if rel == path || !within(rel, rulesetPackages) {
			continue
		}
		name := rel[strings.LastIndex(rel, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	if len(names) == 0 {
		return nil
	}
	isRulesetType := func(e ast.Expr) bool {
		if star, ok := e.(*ast.StarExpr); ok {
			e = star.X
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && names[pkg.Name]
	}
	var out []ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil && isRulesetType(n.Type) {
				out = append(out, n)
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if isRulesetType(e) {
						out = append(out, e)
					}
				}
			}
		}
		return true
	})
	return out
}
