// Package text holds the one helper that domain and its rulesets share for
// quoting what a user typed in a message: it lives beneath both, because
// domain imports the rulesets.
package text

// Clip shortens s to at most max characters, with "…" where it was cut,
// never cutting a character in two, so that absurd input quoted in an
// error message stays readable.
func Clip(s string, max int) string {
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
