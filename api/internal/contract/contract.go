// Package contract loads openapi.yaml for the server, which enforces it on
// requests, and for api/apitest, which checks responses against it.
package contract

import (
	"context"
	"fmt"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/lesspost/lesspost"
)

// Contract is a parsed, validated OpenAPI document and a router that finds
// the operation a request is for. Both are read-only and safe to share.
type Contract struct {
	Doc    *openapi3.T
	Router routers.Router
}

// Load returns the contract of lesspost.OpenAPI, parsed once per process.
var Load = sync.OnceValues(func() (*Contract, error) {
	return Parse(lesspost.OpenAPI)
})

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
