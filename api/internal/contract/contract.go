// Package contract loads openapi.yaml for the server, which enforces it on
// requests, and for api/apitest, which checks responses against it.
package contract

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/lesspost/lesspost"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/catalog"
)

// Contract is a parsed, validated OpenAPI document and a router that finds
// the operation a request is for. Both are read-only and safe to share.
type Contract struct {
	Doc    *openapi3.T
	Router routers.Router
}

// Load returns the contract of lesspost.OpenAPI, parsed once per process,
// with the games the server knows (domain.Rulesets) as the values of
// GameKind: a game registered beside Less and Les (a test's) is accepted
// where they are, and openapi.yaml names the two it documents. Likewise the
// values of Locale are the message catalogue's languages (see Speak).
var Load = sync.OnceValues(func() (*Contract, error) {
	c, err := Parse(lesspost.OpenAPI)
	if err != nil {
		return nil, err
	}
	if kind := c.Doc.Components.Schemas["GameKind"]; kind != nil && kind.Value != nil {
		kind.Value.Enum = kind.Value.Enum[:0]
		for _, name := range domain.Rulesets.Names() {
			kind.Value.Enum = append(kind.Value.Enum, name)
		}
	}
	c.Speak(catalog.Shipped().Languages())
	return c, nil
})

// Speak makes langs the values of Locale, the languages a request may
// choose: a language is one locale file of the catalogue, and openapi.yaml
// documents the ones shipped. Those keep the order it gives them; the others
// follow in langs' order.
func (c *Contract) Speak(langs []string) {
	locale := c.Doc.Components.Schemas["Locale"]
	if locale == nil || locale.Value == nil {
		return
	}
	var enum []any
	for _, v := range locale.Value.Enum {
		if l, ok := v.(string); ok && slices.Contains(langs, l) {
			enum = append(enum, l)
		}
	}
	for _, l := range langs {
		if !slices.Contains(enum, any(l)) {
			enum = append(enum, l)
		}
	}
	locale.Value.Enum = enum
}

// Parse parses and validates an OpenAPI document.
func Parse(spec []byte) (*Contract, error) {
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("parse openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("invalid openapi.yaml: %w", err)
	}
	// Route on the path alone: where the server is reachable (scheme, host,
	// base URL) is deployment, not contract, and tests run on random ports.
	doc.Servers = nil
	// The legacy router, unlike the gorillamux one, tells an unknown path from
	// a known path with another method and needs no extra dependency.
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route openapi.yaml: %w", err)
	}
	return &Contract{Doc: doc, Router: router}, nil
}

// FindRoute finds the operation a request is for. A HEAD request is for the
// GET operation of its path: HEAD is GET without the body (RFC 9110 9.3.2),
// which the server answers wherever it answers GET, so the contract does not
// repeat every GET operation as a HEAD one.
func (c *Contract) FindRoute(req *http.Request) (*routers.Route, map[string]string, error) {
	if req.Method == http.MethodHead {
		get := *req // a shallow copy is enough: only the method differs
		get.Method = http.MethodGet
		req = &get
	}
	return c.Router.FindRoute(req)
}
