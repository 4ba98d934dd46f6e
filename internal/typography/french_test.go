package typography

import "testing"

func TestFrenchTypographyFaults(t *testing.T) {
	cases := []struct {
		s     string
		fault bool
	}{
		{"Partie terminée\u00a0: {result}", false},
		{"Partie terminée : {result}", true},
		{"Partie terminée: {result}", true},
		{"Abandonner\u202f?", false},
		{"Abandonner ?", true},
		{"d’une case à l’autre\u00a0; Entrée", false},
		{"d’une case à l’autre ; Entrée", true},
		{"les e-mails «\u00a0à vous de jouer\u00a0»", false},
		{"les e-mails « à vous de jouer »", true},
		{"e5e4:f5f3, à 14:00, https://example.org/?a=1", false},
		{"Bravo !", true},
	}
	for _, c := range cases {
		if got := len(FrenchFaults(c.s)) > 0; got != c.fault {
			t.Errorf("%q: fault %v, want %v", c.s, got, c.fault)
		}
	}
}
