// Package apiclient is a Go client of the lesspost API generated from
// openapi.yaml by oapi-codegen, the way an app developer would generate one.
// Only tests use it: it proves the contract is complete enough to play a
// game through generated code. Do not edit client.gen.go; run go generate.
// CI regenerates it and fails if the committed file differs.
package apiclient

//go:generate go tool oapi-codegen -config oapi-codegen.yaml ../../openapi.yaml
