package mailin

import "testing"

func TestAuthFailed(t *testing.T) {
	const us = "mx.lesspost.example"
	cases := []struct {
		name    string
		headers []string // topmost first
		servID  string
		want    string
	}{
		{"all pass", []string{us + "; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org; dmarc=pass header.from=example.org"}, us, ""},
		{"dkim fail", []string{us + "; dkim=fail (bad signature) header.d=example.org; spf=pass smtp.mailfrom=example.org"}, us, "dkim"},
		{"one dkim signature fails, another passes", []string{us + "; dkim=fail header.d=example.org; dkim=pass header.d=gappssmtp.com"}, us, ""},
		{"dkim permerror is no verdict", []string{us + "; dkim=permerror (no key) header.d=example.org"}, us, ""},
		{"spf fail", []string{us + "; spf=fail smtp.mailfrom=example.org"}, us, "spf"},
		{"spf softfail is not a fail", []string{us + "; spf=softfail smtp.mailfrom=example.org"}, us, ""},
		{"spf neutral, none, temperror", []string{us + "; spf=neutral; spf=none; spf=temperror"}, us, ""},
		{"dmarc fail", []string{us + "; dkim=pass header.d=other.example; dmarc=fail (p=reject) header.from=example.org"}, us, "dmarc"},
		{"dmarc fail named before dkim and spf", []string{us + "; spf=fail; dkim=fail; dmarc=fail"}, us, "dmarc"},
		{"dkim named before spf", []string{us + "; spf=fail; dkim=fail"}, us, "dkim"},
		{"dmarc pass vouches despite an spf fail", []string{us + "; spf=fail smtp.mailfrom=fwd.example; dkim=pass; dmarc=pass"}, us, ""},
		{"none", []string{us + "; none"}, us, ""},
		{"no header", nil, us, ""},
		{"upper case, version, spaces, comments",
			[]string{"MX.LessPost.Example 1; DKIM = FAIL (reason; with semicolon) header.d=example.org"}, us, "dkim"},
		{"quoted reason with a semicolon", []string{us + `; dkim=fail reason="bad; very bad" header.d=example.org; spf=pass`}, us, "dkim"},
		{"a header from another server does not count",
			[]string{"relay.example.net; dkim=fail; dmarc=fail"}, us, ""},
		{"a forged pass further down does not hide our fail",
			[]string{us + "; dkim=fail", "relay.example.net; dkim=pass"}, us, "dkim"},
		{"a forged pass under ours does not beat our fail (RFC 8601 §5)",
			[]string{us + "; dmarc=fail header.from=example.org", "relay.example.net; dkim=pass", us + "; dmarc=pass"}, us, "dmarc"},
		{"only the topmost of ours counts: a forged fail under it does not count either",
			[]string{us + "; spf=pass; dkim=pass; dmarc=pass", us + "; dmarc=fail"}, us, ""},
		{"ours under another server's: ours counts",
			[]string{"relay.example.net; dmarc=pass", us + "; spf=fail"}, us, "spf"},
		{"no authserv-id given: the topmost alone",
			[]string{"mx.example.net; dkim=pass", "forger.example; dmarc=fail"}, "", ""},
		{"no authserv-id given: the topmost fails",
			[]string{"mx.example.net; spf=fail", "other.example; dmarc=pass"}, "", "spf"},
		{"Microsoft's header, without authserv-id",
			[]string{"spf=fail (sender IP is 192.0.2.1) smtp.mailfrom=example.org; dkim=none (message not signed) header.d=none;dmarc=fail action=none header.from=example.org;compauth=fail reason=001"}, "", "dmarc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := authFailed(c.headers, c.servID); got != c.want {
				t.Errorf("authFailed = %q, want %q", got, c.want)
			}
		})
	}
}
