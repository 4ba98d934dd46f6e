package les

import (
	"errors"
	"strings"
	"testing"
)

func TestParsePointsFollowsLN0(t *testing.T) {
	ok := []struct {
		text string
		want string // canonical
	}{
		{"d4", "d4"},
		{"D4:K12", "d4:k12"},
		{"d4 : k12", "d4:k12"},
		{"d4\t:\nk12", "d4:k12"},
		{"d4   k12", "d4:k12"},
		{"d4\n\tk12", "d4:k12"},
		{"  d4:k12 \n", "d4:k12"},
		{"d4 k12:a1", "d4:k12:a1"},
		{"a0", "a0"},     // a name, off every board
		{"z999", "z999"}, // a name, off every board
		{"d4\u00a0k12", "d4:k12"},
	}
	for _, tt := range ok {
		pts, err := ParsePoints(tt.text)
		if err != nil {
			t.Errorf("ParsePoints(%q) = %v", tt.text, err)
			continue
		}
		if got := joinPoints(pts); got != tt.want {
			t.Errorf("ParsePoints(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
	bad := []string{"", " ", "\t\n", ":", "d4:", ":d4", " :d4", "d4::k12", "d4: :k12", "d4,k12", "d4;k12",
		"d4/k12", "a01", "a00", "aa1", "d-4", "4d", "d", "é1", "d4k12", "d4-k12", "e 2", "d4 :", "d4:#3",
		strings.Repeat("a1 ", MaxPlyText)}
	for _, text := range bad {
		_, err := ParsePoints(text)
		var pe *PlyError
		if !errors.As(err, &pe) || pe.Code != CodeSyntax || pe.Index != NoIndex {
			t.Errorf("ParsePoints(%q) = %v, want syntax", clip(text), err)
		}
	}
}

func TestParsePliesCountPoints(t *testing.T) {
	tests := []struct {
		text         string
		setup, turn  bool
		choice       bool
		choiceIsWhat Color
	}{
		{text: "e5:e6:g3:g5", setup: true},
		{text: "e5:e6:g3", turn: false},
		{text: "e5:e6:g3:g5:a1"},
		{text: "d4", turn: true},
		{text: "d4:k12", turn: true},
		{text: "black", choice: true, choiceIsWhat: Black},
		{text: " WHITE\n", choice: true, choiceIsWhat: White},
		{text: "blue"},
		{text: "black white"},
	}
	for _, tt := range tests {
		if _, err := ParseSetup(tt.text); (err == nil) != tt.setup {
			t.Errorf("ParseSetup(%q) = %v", tt.text, err)
		}
		if _, err := ParseTurn(tt.text); (err == nil) != tt.turn {
			t.Errorf("ParseTurn(%q) = %v", tt.text, err)
		}
		c, err := ParseChoice(tt.text)
		if (err == nil) != tt.choice || (err == nil && c != tt.choiceIsWhat) {
			t.Errorf("ParseChoice(%q) = %v, %v", tt.text, c, err)
		}
		for _, err := range []error{errOf(ParseSetup(tt.text)), errOf(ParseTurn(tt.text)), errOf(ParseChoice(tt.text))} {
			var pe *PlyError
			if err != nil && (!errors.As(err, &pe) || pe.Code != CodeSyntax) {
				t.Errorf("%q: %v, want a syntax error", tt.text, err)
			}
		}
	}
}

func errOf[T any](_ T, err error) error { return err }
