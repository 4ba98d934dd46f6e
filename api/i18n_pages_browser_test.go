package api_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The play page's counts take the form each language's plural rules
// (Intl.PluralRules) choose: a seat's count, the turn's meter.
func TestPagePluralsInTheBrowser(t *testing.T) {
	h := newHarness(t)
	p := openBrowser(t, 390, 844)
	p.open(h.url + "/login")
	cases := []struct {
		locale, key string
		n           int
		want        string
	}{
		{"de", "seat.count", 1, "1 Spielzug"},
		{"de", "seat.count", 2, "2 Spielzüge"},
		{"fr", "seat.count", 1, "1 coup"},
		{"fr", "seat.count", 0, "0 coup"},
		{"fr", "seat.count", 7, "7 coups"},
		{"it", "seat.count", 1, "1 mossa"},
		{"it", "seat.count", 4, "4 mosse"},
		{"es", "seat.count", 1, "1 movimiento"},
		{"es", "seat.count", 9, "9 movimientos"},
		{"fr", "meter", 1, "1 coup joué sur 3, reste 2"},
		{"fr", "meter", 2, "2 coups joués sur 3, reste 1"},
		{"en", "points", 1, "1 point"},
		{"en", "points", 3, "3 points"},
	}
	for _, c := range cases {
		expr := fmt.Sprintf(`import('/assets/i18n.js').then(({translator}) => translator(%q)(%q, {n: %d, used: %d, left: %d}))`,
			c.locale, c.key, c.n, c.n, 3-c.n)
		got, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s %s n=%d: %q, want %q", c.locale, c.key, c.n, got, c.want)
		}
	}
}

// apiNames are the API's names of presets and time controls, as they would
// show if a page printed them raw ("bank" is also English for it).
var apiNames = regexp.MustCompile(`\b(classic|codecup|per_turn|none)\b`)

// The play page names the game's rules and time control in the player's
// words, never by the API's names (classic, per_turn, bank).
func TestPlayPageNamesPresetAndTimeInWords(t *testing.T) {
	cases := []struct {
		locale, preset string
		time           map[string]any
		want           string
	}{
		{"de", "classic", map[string]any{"kind": "per_turn", "days": 3}, "Klassische Regeln · 3 Tage pro Runde"},
		{"fr", "classic", map[string]any{"kind": "per_turn", "days": 1}, "Règles classiques · 1 jour par tour"},
		{"it", "classic", nil, "Regole classiche · Nessun limite di tempo"},
		{"es", "classic", map[string]any{"kind": "per_turn", "hours": 12}, "Reglas clásicas · 12 horas por turno"},
		{"en", "classic", map[string]any{"kind": "bank", "initial_hours": 240, "increment_hours": 36, "cap_hours": 480}, "Classic rules · Time bank, plus 36 hours per turn"},
	}
	h := newHarness(t)
	p := openBrowser(t, 390, 844)
	for _, c := range cases {
		req := twoPlayers(openBoard)
		req["players"].([]map[string]any)[0]["locale"] = c.locale
		req["preset"] = c.preset
		if c.time != nil {
			req["time"] = c.time
		}
		id, ann, _ := newGame(t, h, req)
		p.open(h.url + "/play/" + id + "#t=" + ann)
		p.waitFor("the game's terms", `document.getElementById('game-id').textContent.includes(' · ')`)
		got := p.text("#game-id")
		if want := "· " + c.want; !strings.HasSuffix(got, want) {
			t.Errorf("%s: %q, want it to end %q", c.locale, got, want)
		}
		if raw := apiNames.FindString(got); raw != "" {
			t.Errorf("%s: %q shows the API's name %q", c.locale, got, raw)
		}
	}
}
