// Package lesspost holds what must live at the module root: the API contract.
//
// The code lives in the subpackages: cmd/api (the binary), api (the HTTP edge),
// domain (the rules and the game), repo (SQLite) and migrations.
package lesspost

import _ "embed"

// OpenAPI is openapi.yaml, the contract of the HTTP API. It is embedded here
// because go:embed cannot reach a parent directory, and the api package serves
// it and validates requests against it.
//
//go:embed openapi.yaml
var OpenAPI []byte
