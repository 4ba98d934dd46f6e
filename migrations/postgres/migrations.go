// Package postgres embeds the PostgreSQL schema migrations that
// repo/postgres applies at start (see postgres.Migrate).
//
// Each file is named NNNN_description.sql; the number is its version. Files
// are applied once, in name order, in one transaction. Never edit a file
// that has been released: add a new one. 0001 is the SQLite schema as of its
// migration 0013, written for PostgreSQL.
package postgres

import "embed"

// FS holds the *.sql migration files.
//
//go:embed *.sql
var FS embed.FS
