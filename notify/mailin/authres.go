package mailin

import "strings"

// authFailed names the check that failed according to the receiving server's
// Authentication-Results header (RFC 8601), given topmost first: the topmost
// one whose authserv-id is authServID, or the topmost one if authServID is
// empty. A server adds its own on top, and any further down may be anyone's,
// the sender's included, even one written with our authserv-id (RFC 8601 §5
// asks the receiving server to remove those, and not every one does): a
// forged "dmarc=pass" below must not outweigh the real "dmarc=fail" above.
//
// Only the result "fail" fails a check. SPF's softfail, neutral and none say
// the domain does not vouch for the sender, not that it disowns it, and
// forwarded mail softfails all the time; temperror and permerror say the
// check could not be made. A DKIM fail counts only when no DKIM signature
// passed: a message may carry several, and one broken signature beside a
// good one is common. A DMARC pass vouches for the From domain (through an
// aligned SPF or DKIM pass), so nothing fails then. Of several failures,
// DMARC's is named first, then DKIM's, then SPF's.
func authFailed(headers []string, authServID string) string {
	results := map[string]map[string]bool{} // method -> results seen
	for _, h := range headers {
		id, res := parseAuthResults(h)
		if authServID != "" && !strings.EqualFold(id, authServID) {
			continue
		}
		for _, r := range res {
			if results[r.method] == nil {
				results[r.method] = map[string]bool{}
			}
			results[r.method][r.result] = true
		}
		break
	}
	switch {
	case results["dmarc"]["pass"]:
		return ""
	case results["dmarc"]["fail"]:
		return "dmarc"
	case results["dkim"]["fail"] && !results["dkim"]["pass"]:
		return "dkim"
	case results["spf"]["fail"]:
		return "spf"
	}
	return ""
}

type authResult struct{ method, result string }

// parseAuthResults splits one Authentication-Results value into its
// authserv-id and its method results, both lower-cased, leniently: comments
// dropped, a missing authserv-id (Microsoft's servers write none) left "".
func parseAuthResults(v string) (string, []authResult) {
	var id string
	var res []authResult
	for i, seg := range splitOutsideQuotes(stripComments(v), ';') {
		seg = strings.TrimSpace(seg)
		method, rest, isResult := strings.Cut(seg, "=")
		if i == 0 {
			// An authserv-id is a token or quoted string, so no "=" before
			// the first space; a version may follow it.
			first, _, _ := strings.Cut(seg, " ")
			if !isResult || !strings.Contains(first, "=") {
				id = strings.ToLower(strings.Trim(first, `"`))
				continue
			}
		}
		if !isResult {
			continue // "none"
		}
		method, _, _ = strings.Cut(strings.TrimSpace(method), "/") // method version
		result := strings.Fields(rest)
		if len(result) == 0 {
			continue
		}
		res = append(res, authResult{strings.ToLower(method), strings.ToLower(result[0])})
	}
	return id, res
}

// stripComments drops RFC 5322 comments, which may nest, outside quoted
// strings.
func stripComments(v string) string {
	var b strings.Builder
	depth, quoted, escaped := 0, false, false
	for _, r := range v {
		switch {
		case escaped:
			escaped = false
		case r == '\\' && (quoted || depth > 0):
			escaped = true
		case depth > 0:
			if r == '(' {
				depth++
			} else if r == ')' {
				depth--
			}
			continue
		case quoted:
			quoted = r != '"'
		case r == '(':
			depth++
			continue
		case r == '"':
			quoted = true
		}
		if depth == 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// splitOutsideQuotes splits v at sep where sep is not in a quoted string.
func splitOutsideQuotes(v string, sep byte) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '\\' && quoted:
			i++
		case v[i] == '"':
			quoted = !quoted
		case v[i] == sep && !quoted:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}
