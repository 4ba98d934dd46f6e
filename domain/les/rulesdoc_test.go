package les

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/internal/vectors"
)

// ruleIDs are the rules of Les, section by section.
var ruleIDs = []string{
	"LB1", "LB2", "LB3", "LB4",
	"LS1", "LS2", "LS3", "LS4",
	"LT1", "LT2", "LT3", "LT4",
	"LE1", "LE2", "LE3", "LE4", "LE5",
	"LN0", "LN1", "LN2", "LN3", "LN4",
}

// docs/les-rules.md is what a rule_ref points a player to, so it cannot
// drift from the engine: every rule has an anchor there (docs/les-rules.md#lt3)
// and no other rule does, the error table gives each code the rule_ref the
// API sends, and every Les rule id cited anywhere in the code or the
// contract exists.
func TestRulesDocumentCoversTheRuleIDs(t *testing.T) {
	root, err := vectors.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "docs", "les-rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	anchored := func(id string) bool {
		return strings.Contains(doc, `<a id="`+strings.ToLower(id)+`"></a>`+id+" ")
	}
	for _, id := range ruleIDs {
		if !anchored(id) {
			t.Errorf("docs/les-rules.md has no heading <a id=%q></a>%s", strings.ToLower(id), id)
		}
	}
	headings := regexp.MustCompile(`<a id="(l[bsten][0-9]+)"></a>`).FindAllStringSubmatch(doc, -1)
	for _, h := range headings {
		if !slices.Contains(ruleIDs, strings.ToUpper(h[1])) {
			t.Errorf("docs/les-rules.md has an anchor %s for a rule the engine does not know", h[1])
		}
	}

	for _, code := range Codes {
		for id := range strings.SplitSeq(code.Rule(), ", ") {
			if !slices.Contains(ruleIDs, id) {
				t.Errorf("%s cites %s, which is not a rule", code, id)
			}
		}
		if row := "| `" + string(code) + "` | " + code.Rule() + " |"; !strings.Contains(doc, row) {
			t.Errorf("docs/les-rules.md's error table has no row starting %q", row)
		}
	}

	// Les rule ids are L, a capital letter of a section and a number: LB4,
	// LT3, LN0.
	ruleID := regexp.MustCompile(`\bL[BSTEN][0-9][0-9]?\b`)
	cited := map[string]string{} // id → a file citing it
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
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
	if len(cited) < 15 {
		t.Fatalf("found only %d Les rule ids in the code: %v", len(cited), cited)
	}
	for id, path := range cited {
		if !slices.Contains(ruleIDs, id) {
			t.Errorf("%s cites rule %s, which Les does not have", path, id)
		}
	}
}
