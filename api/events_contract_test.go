package api_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/api/internal/contract"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
)

// A player's stream tells him of the organiser's changes to his tournament
// (tournament_update), with the tournament and what happened, as the
// contract's Event says (the harness's client checks every event a test
// reads against it).
func TestTournamentUpdateEventConforms(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	tour, _, _ := duel(t, h, organiser)
	p0 := h.login("p0@example.org")
	live := openStream(t, h.client, h.url, "/v1/me/events", p0, "")
	h.do("POST", "/v1/tournaments/"+tour.ID+"/pause", organiser, map[string]any{"reason": "holidays"}).want(t, http.StatusOK)
	e := live.next(t)
	if e.kind != string(domain.EventTournamentUpdate) || e.data.Tournament != tour.ID || e.data.ResultLine == "" {
		t.Errorf("after the pause: %s %+v; want tournament_update of %s saying what happened", e.kind, e.data, tour.ID)
	}
}

// Every kind of event the domain declares (a constant of type
// domain.EventKind, wherever in package domain or its aggregates) is in the contract's Event,
// and every webhook type in its WebhookMessage: a new kind without a
// schema fails here before a client meets it.
func TestEveryEventKindHasASchema(t *testing.T) {
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	kinds := eventKindConstants(t)
	if len(kinds) < 7 || !slices.Contains(kinds, string(domain.EventTournamentUpdate)) {
		t.Fatalf("found the event kinds %q in package domain: the search is broken", kinds)
	}
	schemas := c.Doc.Components.Schemas
	for _, union := range []struct {
		schema string
		kinds  []string
	}{
		{"Event", kinds},
		{"WebhookMessage", append(slices.Clone(hooks.WebhookEventTypes), hooks.WebhookPing)},
	} {
		s := schemas[union.schema].Value
		if s.Discriminator == nil {
			t.Fatalf("%s has no discriminator", union.schema)
		}
		for _, kind := range union.kinds {
			ref, ok := s.Discriminator.Mapping[kind]
			if !ok {
				t.Errorf("%s has no schema for %q: add one to its oneOf and discriminator", union.schema, kind)
				continue
			}
			name := filepath.Base(ref.Ref)
			variant := schemas[name]
			if variant == nil || !slices.ContainsFunc(s.OneOf, func(r *openapi3.SchemaRef) bool { return r.Ref == ref.Ref }) {
				t.Errorf("%s maps %q to %s, which is not one of its oneOf", union.schema, kind, ref.Ref)
				continue
			}
			if p := variant.Value.Properties[s.Discriminator.PropertyName]; p == nil || !slices.Contains(p.Value.Enum, any(kind)) {
				t.Errorf("%s maps %q to %s, whose %s does not allow it", union.schema, kind, name, s.Discriminator.PropertyName)
			}
		}
	}
	// The streams name Event as their data.
	for _, path := range []string{"/v1/me/events", "/v1/games/{id}/events"} {
		res := c.Doc.Paths.Value(path).Get.Responses.Status(http.StatusOK)
		if s, err := apitest.ExtensionSchema(c.Doc, res.Value.Content.Get("text/event-stream").Extensions["x-event-data"]); err != nil || s != schemas["Event"] {
			t.Errorf("GET %s: its events are not Event: %v", path, err)
		}
	}
}

// eventKindConstants reads the source of package domain and of its
// aggregates (domain/tournaments...) for the values of their constants of
// type EventKind.
func eventKindConstants(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "domain", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no source of package domain: %v", err)
	}
	below, err := filepath.Glob(filepath.Join("..", "domain", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, below...)
	var kinds []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				if !isEventKind(vs.Type) {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Fatalf("%s: an EventKind constant that is not a string literal", fset.Position(v.Pos()))
					}
					kind, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					kinds = append(kinds, kind)
				}
			}
		}
	}
	return kinds
}

// isEventKind says whether a constant's type is EventKind, as package
// domain names it, or domain.EventKind, as its aggregates do.
func isEventKind(typ ast.Expr) bool {
	switch typ := typ.(type) {
	case *ast.Ident:
		return typ.Name == "EventKind"
	case *ast.SelectorExpr:
		x, ok := typ.X.(*ast.Ident)
		return ok && x.Name == "domain" && typ.Sel.Name == "EventKind"
	}
	return false
}
