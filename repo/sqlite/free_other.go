//go:build !unix

package sqlite

// freeBytes is not known here: Ping tries a write instead.
func freeBytes(string) (free int64, known bool) { return 0, false }
