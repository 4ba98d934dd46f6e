// Package migrations embeds the SQL schema migrations that repo applies at start.
//
// Each file is named NNNN_description.sql; the number is its version. Files are
// applied once, in name order, each in its own transaction. Never edit a file
// that has been released: add a new one.
package migrations

import "embed"

// FS holds the *.sql migration files.
//
//go:embed *.sql
var FS embed.FS
