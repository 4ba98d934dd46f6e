package contract

import (
	"fmt"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestLoad(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Doc.Components.Schemas["Problem"]; !ok {
		t.Error("openapi.yaml has no Problem schema")
	}
}

func TestParseRejectsInvalidDocument(t *testing.T) {
	if _, err := Parse([]byte("openapi: 3.0.3\ninfo: {title: x}\npaths: {}\n")); err == nil {
		t.Error("Parse accepted a document without info.version")
	}
}

// TestInputIsBounded holds openapi.yaml to the rules for input: every
// request object rejects unknown members, and every string and array in a
// request has a maximum length, so validation refuses oversized input.
func TestInputIsBounded(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, problem := range unboundedInput(c.Doc) {
		t.Error(problem)
	}
}

func TestUnboundedInputFindsProblems(t *testing.T) {
	c, err := Parse([]byte(`
openapi: 3.0.3
info: {title: test, version: "1"}
paths:
  /things/{name}:
    parameters:
      - {name: name, in: path, required: true, schema: {type: string}}
    post:
      parameters:
        - {name: tags, in: query, schema: {type: array, maxItems: 3, items: {type: string, maxLength: 9}}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                kind: {type: string, enum: [a, b]}
                list: {type: array, items: {type: string}}
      responses:
        "204": {description: ok}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := unboundedInput(c.Doc)
	slices.Sort(got)
	want := []string{
		"POST /things/{name} body application/json.list: array without maxItems",
		"POST /things/{name} body application/json.list[]: string without maxLength",
		"POST /things/{name} body application/json: object without additionalProperties: false",
		"POST /things/{name} parameter name: string without maxLength",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// unboundedInput lists the request parameters and bodies of doc that break
// the rules of TestInputIsBounded.
func unboundedInput(doc *openapi3.T) []string {
	var problems []string
	var check func(where string, ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool)
	check = func(where string, ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		switch {
		case s.Type.Is("string") && s.MaxLength == nil && len(s.Enum) == 0:
			problems = append(problems, where+": string without maxLength")
		case s.Type.Is("array") && s.MaxItems == nil:
			problems = append(problems, where+": array without maxItems")
		case s.Type.Is("object"):
			closed := s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has
			boundedMap := s.AdditionalProperties.Schema != nil && s.MaxProps != nil
			if !closed && !boundedMap {
				problems = append(problems, where+": object without additionalProperties: false")
			}
		}
		for name, p := range s.Properties {
			check(where+"."+name, p, seen)
		}
		check(where+"[]", s.Items, seen)
		check(where+"{}", s.AdditionalProperties.Schema, seen)
		for i, sub := range slices.Concat(s.AllOf, s.AnyOf, s.OneOf) {
			check(fmt.Sprintf("%s/%d", where, i), sub, seen)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			seen := map[*openapi3.Schema]bool{}
			where := method + " " + path
			for _, p := range slices.Concat(item.Parameters, op.Parameters) {
				check(where+" parameter "+p.Value.Name, p.Value.Schema, seen)
			}
			if op.RequestBody != nil {
				for mediaType, content := range op.RequestBody.Value.Content {
					check(where+" body "+mediaType, content.Schema, seen)
				}
			}
		}
	}
	return problems
}

// OAS 3.0 ignores nullable without a type beside it, so the contract writes
// out nullable copies of a few schemas instead of allOf: [$ref] (see the
// comments in openapi.yaml). Each copy must stay equal to its original but
// for nullable.
func TestNullableCopiesMatch(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	schemas := c.Doc.Components.Schemas
	property := func(schema, name string) *openapi3.Schema {
		t.Helper()
		p := schemas[schema].Value.Properties[name]
		if p == nil {
			t.Fatalf("no %s.%s in openapi.yaml", schema, name)
		}
		return p.Value
	}
	for _, tc := range []struct {
		copy     *openapi3.Schema
		where    string
		original string
	}{
		{property("LessGame", "to_move"), "LessGame.to_move", "Color"},
		{property("LesGame", "to_move"), "LesGame.to_move", "Color"},
		{property("LessRecord", "setup"), "LessRecord.setup", "Setup"},
	} {
		orig := schemas[tc.original].Value
		if !tc.copy.Nullable || orig.Nullable {
			t.Errorf("%s must be nullable and %s not", tc.where, tc.original)
		}
		if !tc.copy.Type.Permits(orig.Type.Slice()[0]) || !slices.Equal(tc.copy.Enum, orig.Enum) ||
			!slices.Equal(tc.copy.Required, orig.Required) || !equalFlag(tc.copy.AdditionalProperties.Has, orig.AdditionalProperties.Has) {
			t.Errorf("%s differs from %s: type, enum, required or additionalProperties", tc.where, tc.original)
		}
		if len(tc.copy.Properties) != len(orig.Properties) {
			t.Errorf("%s has %d properties, %s %d", tc.where, len(tc.copy.Properties), tc.original, len(orig.Properties))
		}
		for name, p := range orig.Properties {
			if q := tc.copy.Properties[name]; q == nil || q.Value != p.Value {
				t.Errorf("%s.%s is not %s.%s", tc.where, name, tc.original, name)
			}
		}
	}
}

func equalFlag(a, b *bool) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
