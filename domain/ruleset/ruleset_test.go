package ruleset_test

import (
	"reflect"
	"testing"

	"github.com/lesspost/lesspost/domain/ruleset"
)

// named is a ruleset that has nothing but a name.
type named struct {
	ruleset.Ruleset
	name string
}

func (n named) Name() string { return n.name }

func TestRegistry(t *testing.T) {
	r := ruleset.NewRegistry(named{name: "less"}, named{name: "les"})
	if got := r.Default().Name(); got != "less" {
		t.Errorf("Default = %s, want less", got)
	}
	if got := r.Names(); !reflect.DeepEqual(got, []string{"less", "les"}) {
		t.Errorf("Names = %v", got)
	}
	if x, ok := r.Get("les"); !ok || x.Name() != "les" {
		t.Errorf("Get(les) = %v, %v", x, ok)
	}
	if _, ok := r.Get("chess"); ok {
		t.Error("Get(chess) found a ruleset")
	}
	defer func() {
		if recover() == nil {
			t.Error("two rulesets of one name were registered")
		}
	}()
	ruleset.NewRegistry(named{name: "less"}, named{name: "less"})
}
