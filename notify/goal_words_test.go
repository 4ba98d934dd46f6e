package notify

import (
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/view"
	"github.com/lesspost/lesspost/internal/catalog"
)

// Every colour's goal in words, against the corners of docs/rules.md (S1,
// S2) as the board is drawn, a1 at the top left: the catalogue's goal.*
// messages said for domain's view.Goal.
func TestGoalInWords(t *testing.T) {
	cases := []struct {
		name    string
		rules   ruleset.Ruleset
		players int
		color   string
		locale  string
		want    string
	}{
		{"two players, white", less.Rules{}, 2, "white", "en", "Bring your 4 pieces to a1–b2 (top left)."},
		{"two players, black", less.Rules{}, 2, "black", "en", "Bring your 4 pieces to e5–f6 (bottom right)."},
		{"four players, yellow", less.Rules{}, 4, "yellow", "en",
			"Bring your 4 pieces to a7–b8 (top right); once they are all there, you move your partner’s pieces until they are home too."},
		{"four players, black", less.Rules{}, 4, "black", "en",
			"Bring your 4 pieces to g7–h8 (bottom right); once they are all there, you move your partner’s pieces until they are home too."},
		{"four players, white", less.Rules{}, 4, "white", "de",
			"Bring deine 4 Spielsteine nach a1–b2 (oben links); stehen sie alle dort, ziehst du die Spielsteine deines Partners, bis auch sie am Ziel sind."},
		{"four players, red", less.Rules{}, 4, "red", "fr",
			"Amenez vos 4 pions en g1–h2 (en bas à gauche)\u00a0; une fois qu’ils y sont tous, vous déplacez les pions de votre partenaire jusqu’à ce qu’ils arrivent aussi."},
		{"two players, black, Italian", less.Rules{}, 2, "black", "it", "Porta le tue 4 pedine in e5–f6 (in basso a destra)."},
		{"two players, white, Spanish", less.Rules{}, 2, "white", "es", "Lleva tus 4 piezas hasta a1–b2 (arriba a la izquierda)."},
		{"an unknown language is English", less.Rules{}, 2, "white", "nl", "Bring your 4 pieces to a1–b2 (top left)."},
		{"les, setter", les.Rules{}, 2, "setter", "en", "Own more holes than your opponent: empty points walled in by your stones alone."},
		{"les, chooser", les.Rules{}, 2, "chooser", "fr",
			"Possédez plus de trous que votre adversaire\u00a0: des points vides entourés par vos seules pierres."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, _, err := tc.rules.Start(ruleset.Options{Players: tc.players, Seed: 42})
			if err != nil {
				t.Fatal(err)
			}
			goal, err := ruleset.GoalOf(g, tc.color)
			if err != nil {
				t.Fatal(err)
			}
			if got := catalog.Shipped().Say(tc.locale, goal); got != tc.want {
				t.Errorf("Say(%s) =\n %q, want\n %q", tc.locale, got, tc.want)
			}
		})
	}
}

// Every language names every corner, and the goal's parts all appear.
func TestGoalInWordsEveryLanguage(t *testing.T) {
	for _, locale := range []string{"en", "de", "fr", "it", "es"} {
		seen := map[string]string{}
		for _, corner := range []string{view.CornerTopLeft, view.CornerTopRight, view.CornerBottomLeft, view.CornerBottomRight} {
			s := catalog.Shipped().Say(locale, view.Goal{Kind: view.GoalCorner, From: "a1", To: "b2", Pieces: 4, Corner: corner})
			if other, ok := seen[s]; ok {
				t.Errorf("%s: %s says the same as %s: %q", locale, corner, other, s)
			}
			seen[s] = corner
			if !strings.Contains(s, "4") || !strings.Contains(s, "a1–b2") || strings.Contains(s, "()") || strings.Contains(s, "{") || strings.Contains(s, "goal.") {
				t.Errorf("%s, %s: %q", locale, corner, s)
			}
		}
	}
}
