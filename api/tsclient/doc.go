// Package tsclient holds a TypeScript client of the lesspost API and the Go
// test that proves the API with it (issue 16): the client's types are
// generated from openapi.yaml by openapi-typescript, its requests made with
// openapi-fetch, the program type-checked with tsc --strict, and then run
// with node against the real server binary, signing in by email, refreshing
// its token, registering a webhook whose Standard Webhooks signatures its
// own receiver verifies (with the standardwebhooks package), playing a game
// while following its event stream, checking the errors' types, and that
// the webhook's messages match the events.
//
// The TypeScript project (package.json, package-lock.json, tsconfig.json,
// src/) is built in a temporary copy: node_modules never lands in the
// repository, where go ./... would walk it, and the generated types cannot
// go stale because nothing generated is committed. The package has no Go
// code besides this comment and its test.
package tsclient
