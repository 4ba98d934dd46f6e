package api

import (
	"slices"
	"testing"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// The contract's enum of Problem.code and the server's list are the same set:
// a code added to one but not the other fails here. (A code emitted that is
// in neither fails every test that meets it: apitest validates each problem
// body against the enum.)
func TestProblemCodesMatchContract(t *testing.T) {
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	var inContract []string
	for _, v := range c.Doc.Components.Schemas["Problem"].Value.Properties["code"].Value.Enum {
		code, ok := v.(string)
		if !ok {
			t.Fatalf("Problem.code enum holds %v (%T)", v, v)
		}
		inContract = append(inContract, code)
	}
	inServer := slices.Clone(problemCodes)
	slices.Sort(inContract)
	slices.Sort(inServer)
	if d := slices.Compact(slices.Clone(inServer)); len(d) != len(inServer) {
		t.Errorf("problemCodes lists a code twice: %v", inServer)
	}
	for _, code := range inServer {
		if _, found := slices.BinarySearch(inContract, code); !found {
			t.Errorf("%s is in problemCodes but not in openapi.yaml's enum of Problem.code", code)
		}
	}
	for _, code := range inContract {
		if _, found := slices.BinarySearch(inServer, code); !found {
			t.Errorf("%s is in openapi.yaml's enum of Problem.code but not in problemCodes", code)
		}
	}
	if len(inContract) == 0 {
		t.Error("Problem.code has no enum in openapi.yaml")
	}
}
