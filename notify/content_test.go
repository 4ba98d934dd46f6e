package notify

import (
	"bytes"
	"html"
	"image/png"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain/less"
)

// visibleURL finds a URL shown as the words of a link or a paragraph of the
// HTML part, not inside an attribute.
var visibleURL = regexp.MustCompile(`>[^<]*https?://`)

// The HTML part links words, never shows a URL (a signed link is hundreds of
// characters): the spectator link is "Watch the game". The text part, which
// cannot link words, keeps the URL on a line of its own.
func TestHTMLShowsNoURLs(t *testing.T) {
	for _, locale := range languages {
		p := phrasesFor(locale)
		msgs := mailbook(t, locale)
		msgs = append(msgs, slices.Collect(maps.Values(lesMailbook(t, locale)))...)
		watched := 0
		for _, m := range msgs {
			name := locale + " " + classify(m) + " " + m.Subject
			if loc := visibleURL.FindStringIndex(m.HTML); loc != nil {
				t.Errorf("%s: the HTML part shows a URL: %q", name, m.HTML[loc[0]:min(loc[1]+60, len(m.HTML))])
			}
			watch := regexp.MustCompile(`https://less.example/play/[^#\s]+#t=watch`).FindString(m.Text)
			if watch == "" {
				continue
			}
			watched++
			if !strings.Contains(m.Text, p.WatchLabel+"\n"+watch+"\n") {
				t.Errorf("%s: the text part lacks the spectator URL under its label:\n%s", name, m.Text)
			}
			if a := `<a href="` + html.EscapeString(watch) + `">` + html.EscapeString(p.WatchAnchor) + `</a>`; !strings.Contains(m.HTML, a) {
				t.Errorf("%s: the HTML part lacks %s:\n%s", name, a, m.HTML)
			}
		}
		if watched == 0 {
			t.Errorf("%s: no email with a spectator link", locale)
		}
	}
}

// The legend under the ASCII board explains the colours in play only.
func TestLegendNamesOnlyTheColoursInPlay(t *testing.T) {
	for _, locale := range languages {
		p := phrasesFor(locale)
		cases := []struct {
			size       int
			has, lacks []less.Color
			letters    string
		}{
			{6, []less.Color{less.White, less.Black}, []less.Color{less.Yellow, less.Red}, "W B"},
			{8, []less.Color{less.White, less.Black, less.Yellow, less.Red}, nil, "W B Y R"},
		}
		for _, c := range cases {
			got := legend(p, c.size)
			if !strings.HasPrefix(got, c.letters+" ") || !strings.Contains(got, "), "+strings.ToLower(c.letters)+" ") {
				t.Errorf("%s %dx%d: legend %q does not start with %q and name %q", locale, c.size, c.size, got, c.letters, strings.ToLower(c.letters))
			}
			for _, col := range c.has {
				if !strings.Contains(got, p.Colors[col]) {
					t.Errorf("%s %dx%d: legend %q does not name %s", locale, c.size, c.size, got, p.Colors[col])
				}
			}
			for _, col := range c.lacks {
				// Lower-case letters are words too ("y" is Spanish for "and").
				piece, _ := less.DiagramLetters(col)
				if strings.Contains(got, p.Colors[col]) || strings.Contains(got, " "+piece+" ") {
					t.Errorf("%s %dx%d: legend %q explains %s, which is not in play", locale, c.size, c.size, got, p.Colors[col])
				}
			}
		}
	}
}

// The board picture has twice the pixels it is shown at (width and height
// in the HTML), so it is sharp on high-density screens, and shrinks on a
// narrow one.
func TestBoardPictureAtTwiceItsSize(t *testing.T) {
	imgTag := regexp.MustCompile(`<img src="cid:[^"]+" alt="[^"]*" width="(\d+)" height="(\d+)" style="width:(\d+)px;max-width:100%;height:auto;display:block">`)
	for _, locale := range []string{"en", "de"} {
		msgs := mailbook(t, locale)
		msgs = append(msgs, slices.Collect(maps.Values(lesMailbook(t, locale)))...)
		shown := 0
		for _, m := range msgs {
			if len(m.Images) == 0 {
				continue
			}
			shown++
			cfg, err := png.DecodeConfig(bytes.NewReader(m.Images[0].PNG))
			if err != nil {
				t.Fatal(err)
			}
			tag := imgTag.FindStringSubmatch(m.HTML)
			if tag == nil {
				t.Fatalf("%s %s: no board picture with its size:\n%s", locale, m.Subject, m.HTML)
			}
			w, h, css := atoi(t, tag[1]), atoi(t, tag[2]), atoi(t, tag[3])
			if cfg.Width != 2*w || cfg.Height != 2*h || css != w || w < 300 {
				t.Errorf("%s %s: a %dx%d picture shown at %dx%d (CSS width %d)", locale, m.Subject, cfg.Width, cfg.Height, w, h, css)
			}
		}
		if shown == 0 {
			t.Errorf("%s: no email with a board", locale)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
