package api

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// echoParam matches echo's path parameters (:id), which OpenAPI writes {id}.
var echoParam = regexp.MustCompile(`:([^/]+)`)

// TestRoutesMatchSpec keeps the routes the server registers and the
// operations openapi.yaml describes identical, so nothing is served that the
// contract does not describe (and validate), and nothing described is missing.
func TestRoutesMatchSpec(t *testing.T) {
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	var inSpec []string
	for path, item := range c.Doc.Paths.Map() {
		for method := range item.Operations() {
			inSpec = append(inSpec, method+" "+path)
		}
	}
	var served, head []string
	for _, r := range newTestServer(t, testDB(t)).echo.Routes() {
		op := r.Method + " " + echoParam.ReplaceAllString(r.Path, "{$1}")
		if r.Method == http.MethodHead {
			head = append(head, op)
			continue
		}
		served = append(served, op)
	}
	slices.Sort(inSpec)
	slices.Sort(served)
	slices.Sort(head)
	// HEAD is served exactly where GET is, and not in the contract.
	var wantHead []string
	for _, op := range served {
		if path, ok := strings.CutPrefix(op, http.MethodGet+" "); ok {
			wantHead = append(wantHead, http.MethodHead+" "+path)
		}
	}
	if !slices.Equal(head, wantHead) {
		t.Errorf("HEAD is served for\n%q\nwant (every GET)\n%q", head, wantHead)
	}
	for _, op := range served {
		if _, found := slices.BinarySearch(inSpec, op); !found {
			t.Errorf("%s is served but not in openapi.yaml", op)
		}
	}
	for _, op := range inSpec {
		if _, found := slices.BinarySearch(served, op); !found {
			t.Errorf("%s is in openapi.yaml but not served", op)
		}
	}
	if len(served) == 0 {
		t.Error("no routes")
	}
}
