package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gamesInternals are what a change to a game is made of inside package
// games: another aggregate that used them would write games behind the
// games' back.
var gamesInternals = map[string]bool{
	"NewTx": true, "Tx": true, "GameChange": true, "CreateGame": true,
	"Resign": true, "Adjudicate": true, "Reseat": true,
}

// TestTournamentsChangeGamesThroughTheirService: the tournaments create and
// change games only through the games' in-transaction use cases
// (games.InTx): they neither build a change to a game nor write one.
func TestTournamentsChangeGamesThroughTheirService(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "domain", "tournaments", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		gamesName := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/domain/games" {
				gamesName = "games"
				if imp.Name != nil {
					gamesName = imp.Name.Name
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == gamesName && gamesName != "" && gamesInternals[sel.Sel.Name] {
				t.Errorf("%s: games.%s: change games through games.InTx", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			if sel.Sel.Name == "UpdateGame" || sel.Sel.Name == "InsertGame" {
				t.Errorf("%s: %s writes a game: change games through games.InTx", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("checked %d files of domain/tournaments: the glob missed them", checked)
	}
}
