package text

import "testing"

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"ééééé", 2, "éé…"}, // characters, not bytes
		{"日本語テキスト", 3, "日本語…"},
		{"\xff\xfeab", 2, "\xff\xfe…"}, // invalid bytes count one each and are never split further
	}
	for _, tt := range tests {
		if got := Clip(tt.in, tt.max); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
