package notify

import (
	"html"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/view"
	"github.com/lesspost/lesspost/internal/catalog"
)

// Every invitation, in both games and every language, says what the reader
// plays for (the words the play page shows) and links to the rules page in
// his language, in both parts.
func TestInvitationSaysTheGoalAndLinksTheRules(t *testing.T) {
	corner := func(from, to, where string) view.Goal {
		return view.Goal{Kind: view.GoalCorner, From: from, To: to, Pieces: 4, Corner: where}
	}
	for _, locale := range languages {
		p := phrasesFor(locale)
		type invitation struct {
			name  string
			msg   Message
			goal  view.Goal
			rules string
		}
		var cases []invitation
		for _, m := range mailbook(t, locale) {
			if classify(m) != "invitation" {
				continue
			}
			// Ann plays White (to a1–b2), Bob Black (to e5–f6), as drawn.
			goal := corner("a1", "b2", view.CornerTopLeft)
			if m.To == "bob@example.org" {
				goal = corner("e5", "f6", view.CornerBottomRight)
			}
			cases = append(cases, invitation{"less " + m.To, m, goal, fakeLinks{}.RulesURL("less", locale)})
		}
		if len(cases) != 2 {
			t.Fatalf("%s: %d invitations to a game of Less, want 2", locale, len(cases))
		}
		for _, kind := range []string{"invitation_setter", "invitation_chooser"} {
			cases = append(cases, invitation{"les " + kind, lesMailbook(t, locale)[kind],
				view.Goal{Kind: view.GoalHoles}, fakeLinks{}.RulesURL("les", locale)})
		}
		for _, c := range cases {
			name := locale + " " + c.name
			if !strings.HasSuffix(c.rules, "?lang="+locale) {
				t.Fatalf("%s: rules link %q not in the reader's language", name, c.rules)
			}
			want := catalog.Shipped().Say(locale, c.goal)
			if !strings.Contains(c.msg.Text, want+"\n"+p.RulesLabel+"\n"+c.rules+"\n") {
				t.Errorf("%s: the text lacks %q and the rules link:\n%s", name, want, c.msg.Text)
			}
			if !strings.Contains(c.msg.HTML, html.EscapeString(want)) ||
				!strings.Contains(c.msg.HTML, `<a href="`+html.EscapeString(c.rules)+`">`) {
				t.Errorf("%s: the HTML lacks %q or the rules link:\n%s", name, want, c.msg.HTML)
			}
		}
	}
}
