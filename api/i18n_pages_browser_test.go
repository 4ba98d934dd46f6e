package api_test

import (
	"fmt"
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
