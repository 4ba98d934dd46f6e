package notify

import (
	"testing"

	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/internal/vectors"
)

// The board pictures stay small enough for every "your turn" email: a
// 6x6 and an 8x8 game with a turn drawn, and a game of Les at its end.
// Drawn at 1x they were 6.6, 11.2 and 15.2 kB; at 2x (dpr) 16.8, 29.0
// and 46.5 kB with image/png, 10.5, 17.4 and 49.1 kB with the own PNG
// writer (board_png.go). A picture of Les grows with its side: the
// vectors' first game is the one drawn, so its bound is by the point (side
// 9's 217 points took 49.1 kB, side 13's 469 took 98.2 kB).
func TestBoardPNGBytes(t *testing.T) {
	p8, turn8 := sample8(t)
	lesView := lesEndView(t, vectors.LoadLes(t).GameCases[0])
	last, err := less.ParseTurn(sampleLast)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		png  func() ([]byte, error)
		max  int
	}{
		{"Less 6x6", func() ([]byte, error) { return pngOf(samplePosition(t), last) }, 24 << 10},
		{"Less 8x8", func() ([]byte, error) { return pngOf(p8, turn8) }, 40 << 10},
		{"Les", func() ([]byte, error) { return BoardPNG(lesView) }, 8<<10 + 256*len(lesView.Cells)},
	}
	for _, c := range cases {
		data, err := c.png()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		img := decode(t, data)
		t.Logf("%s: %d bytes, %dx%d pixels", c.name, len(data), img.Bounds().Dx(), img.Bounds().Dy())
		if len(data) > c.max {
			t.Errorf("%s: %d bytes, more than %d", c.name, len(data), c.max)
		}
	}
}
