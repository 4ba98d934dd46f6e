package notify

import "testing"

func TestDotStuff(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ".\r\n"},
		{"a\r\nb\r\n", "a\r\nb\r\n.\r\n"},
		{"a\r\nb", "a\r\nb\r\n.\r\n"},
		{".a\r\n.\r\nb.\r\n..\r\n", "..a\r\n..\r\nb.\r\n...\r\n.\r\n"},
		{"a\nb\n.c", "a\r\nb\r\n..c\r\n.\r\n"},
		{"\n.", "\r\n..\r\n.\r\n"},
		{"a\rb\r\n", "a\rb\r\n.\r\n"},
	} {
		if got := string(dotStuff([]byte(c.in))); got != c.want {
			t.Errorf("dotStuff(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
