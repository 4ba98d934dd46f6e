package less

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/internal/vectors"
)

// docs/rules.md is what a rule_ref points a user to, so it cannot drift from
// the engine: every rule a refused turn cites has an anchor there
// (docs/rules.md#m5), the error table gives each code the rule_ref the API
// sends, and every rule id cited anywhere in the code or the contract exists.
func TestRulesDocumentCoversTheRuleIDs(t *testing.T) {
	root, err := vectors.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	anchored := func(id string) bool {
		return strings.Contains(doc, `<a id="`+strings.ToLower(id)+`"></a>`)
	}

	for _, code := range Codes {
		for id := range strings.SplitSeq(code.Rule(), ", ") {
			if !anchored(id) {
				t.Errorf("%s cites %s, which has no anchor <a id=%q></a> in docs/rules.md", code, id, strings.ToLower(id))
			}
		}
		if row := "| `" + string(code) + "` | " + code.Rule() + " |"; !strings.Contains(doc, row) {
			t.Errorf("docs/rules.md's error table has no row starting %q", row)
		}
	}

	// Rule ids are a capital letter of a section and a number: B4, M5, N2.
	ruleID := regexp.MustCompile(`\b[BSMTEN][1-9][0-9]?\b`)
	cited := map[string]string{} // id → a file citing it
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		// Only hand-written Go and the contract cite rules; generated code
		// names enum values that look like rule ids (board size 6 is "N"
		// and a digit).
		name := d.Name()
		if d.IsDir() || strings.HasSuffix(name, ".gen.go") || !strings.HasSuffix(name, ".go") && name != "openapi.yaml" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, id := range ruleID.FindAllString(string(src), -1) {
			cited[id] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cited) < 20 {
		t.Fatalf("found only %d rule ids in the code: %v", len(cited), cited)
	}
	for id, path := range cited {
		if !anchored(id) {
			t.Errorf("%s cites rule %s, which docs/rules.md does not have", path, id)
		}
	}
}
