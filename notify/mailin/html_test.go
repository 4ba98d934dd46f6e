package mailin

import (
	"reflect"
	"strings"
	"testing"
)

func TestHTMLText(t *testing.T) {
	cases := []struct {
		name string
		html string
		max  int
		want []string // after newLines
	}{
		{"blocks and br end lines", "<div>a1-b2</div><p>c3<br>d4</p><ul><li>x</li><li>y</li></ul>", 0, []string{"a1-b2", "c3", "d4", "x", "y"}},
		{"inline elements do not", "<p>I play <b>a1</b>-<i>b2</i>&nbsp;now</p>", 0, []string{"I play a1-b2 now"}},
		{"white space collapses", "<p>a1-b2\n   and\n\tc3-d4</p>", 0, []string{"a1-b2 and c3-d4"}},
		{"head, style, script dropped", "<html><head><title>T</title><style>p{}</style></head><body><script>x()</script><p>a1-b2</p></body></html>", 0, []string{"a1-b2"}},
		{"blockquote dropped, text after it kept", "<blockquote type=\"cite\">Your turn</blockquote><div>a1-b2</div>", 0, []string{"a1-b2"}},
		{"Gmail quote dropped", "<div>a1-b2</div><div class=\"gmail_quote\"><div class=\"gmail_attr\">On … wrote:</div>Your turn</div>", 0, []string{"a1-b2"}},
		{"Thunderbird attribution dropped", "<p>a1-b2</p><div class=\"moz-cite-prefix\">On 3/3/25, lesspost wrote:<br></div><blockquote type=\"cite\">x</blockquote>", 0, []string{"a1-b2"}},
		{"Yahoo quote dropped", "<div>a1-b2</div><div class=\"yahoo_quoted\">x</div>", 0, []string{"a1-b2"}},
		{"Outlook: everything from divRplyFwdMsg on dropped", "<div>a1-b2</div><hr><div id=\"divRplyFwdMsg\"><b>From:</b> x</div><div>Your turn</div>", 0, []string{"a1-b2"}},
		{"Outlook: everything from appendonsend on dropped", "<div>a1-b2</div><div id=\"appendonsend\"></div><div>Your turn</div>", 0, []string{"a1-b2"}},
		{"signature after the delimiter", "<div>a1-b2</div><br>-- <br><div>Ann</div>", 0, []string{"a1-b2"}},
		{"unclosed and misnested tags", "<p>a1-b2<div><b>c3-d4</p></i>", 0, []string{"a1-b2", "c3-d4"}},
		{"kept to max bytes", "<p>a1-b2</p><p>" + strings.Repeat("x", 100) + "</p>", 12, []string{"a1-b2", "xxxxxx"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			max := c.max
			if max == 0 {
				max = DefaultMaxText
			}
			text, err := htmlText([]byte(c.html), max)
			if err != nil {
				t.Fatal(err)
			}
			if len(text) > max {
				t.Errorf("%d bytes of text, over %d", len(text), max)
			}
			if got := newLines(text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("lines %q, want %q (text %q)", got, c.want, text)
			}
		})
	}
}
