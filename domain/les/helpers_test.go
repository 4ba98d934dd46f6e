package les

import "strconv"

func quote(s string) string { return strconv.Quote(s) }
