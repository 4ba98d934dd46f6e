package postgres

// Hooks for the external tests of migrations.

// Script is the migration's SQL.
func (m Migration) Script() string { return m.script }

// MigrateConn applies the pending migrations on one connection.
var MigrateConn = migrate
