// Package typography checks the typography of the text people read, in
// the tests of the pages and the emails: one rule book for both.
package typography

import (
	"strconv"
	"strings"
)

// frenchSpaces are the spaces French typography puts before : ; ? ! and
// inside « »: no-break (as the mails write it) or narrow no-break.
const frenchSpaces = "\u00a0\u202f"

// FrenchFaults lists the places in s where a no-break space is
// missing. Only punctuation that ends a phrase counts (followed by a space
// or the end), so notation (e5e4:f5f3), times (14:00) and URLs pass.
func FrenchFaults(s string) []string {
	var faults []string
	r := []rune(s)
	for i, c := range r {
		switch {
		case strings.ContainsRune(":;?!", c):
			if i+1 < len(r) && !strings.ContainsRune(" \u00a0\u202f»”)", r[i+1]) {
				continue
			}
			if i == 0 || !strings.ContainsRune(frenchSpaces, r[i-1]) {
				faults = append(faults, "before "+string(c)+" at "+strconv.Itoa(i))
			}
		case c == '«':
			if i+1 >= len(r) || !strings.ContainsRune(frenchSpaces, r[i+1]) {
				faults = append(faults, "after « at "+strconv.Itoa(i))
			}
		case c == '»':
			if i == 0 || !strings.ContainsRune(frenchSpaces, r[i-1]) {
				faults = append(faults, "before » at "+strconv.Itoa(i))
			}
		}
	}
	return faults
}
