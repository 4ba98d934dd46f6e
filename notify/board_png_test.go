package notify

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

// TestEncodePNG checks the PNG writer against image/png's reader on
// pictures unlike the boards too: tiny, noisy (all literals), flat (all
// matches), rows repeated with and without a period, a translucent palette.
func TestEncodePNG(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name   string
		w, h   int
		period int
		colors int
		alpha  uint8
		pixel  func(x, y int) uint8
	}{
		{"1x1", 1, 1, 0, 1, 0xff, func(x, y int) uint8 { return 0 }},
		{"noise", 37, 23, 0, 256, 0xff, func(x, y int) uint8 { return uint8(rng.IntN(256)) }},
		{"flat", 300, 300, 0, 2, 0xff, func(x, y int) uint8 { return 1 }},
		{"stripes", 500, 40, 7, 5, 0xff, func(x, y int) uint8 { return uint8(x % 7 % 5) }},
		{"rows", 260, 90, 0, 200, 0xff, func(x, y int) uint8 { return uint8((y/9*31)^(x/3)) % 200 }},
		{"sparse", 700, 50, 96, 3, 0xff, func(x, y int) uint8 {
			if rng.IntN(50) == 0 {
				return 2
			}
			return uint8(x / 96 % 2)
		}},
		{"translucent", 9, 4, 0, 3, 0x80, func(x, y int) uint8 { return uint8((x + y) % 3) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := make([]byte, pngRaw(c.w, c.h))
			for y := range c.h {
				for x := range c.w {
					raw[y*(c.w+1)+1+x] = c.pixel(x, y)
				}
			}
			palette := make([]color.RGBA, c.colors)
			for i := range palette {
				palette[i] = color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), c.alpha}
			}
			dists := []int{1, c.w + 1}
			if c.period > 1 {
				dists = []int{1, c.period, c.w + 1}
			}
			data := encodePNG(nil, raw, c.w, c.h, palette, dists)
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			p, ok := img.(*image.Paletted)
			if !ok || p.Rect != image.Rect(0, 0, c.w, c.h) || len(p.Palette) != len(palette) {
				t.Fatalf("decoded %T %v with %d colours", img, img.Bounds(), len(p.Palette))
			}
			for i, col := range palette { // not premultiplied, as PNG stores them
				if got := color.NRGBAModel.Convert(p.Palette[i]); got != color.NRGBA(col) {
					t.Fatalf("colour %d is %v, want %v", i, got, col)
				}
			}
			for y := range c.h {
				if got, want := p.Pix[y*p.Stride:][:c.w], raw[y*(c.w+1)+1:][:c.w]; !bytes.Equal(got, want) {
					t.Fatalf("row %d differs", y)
				}
			}
			z := new(deflater)
			z.tokenize(raw, dists)
			if got, want := z.adler(raw), adler32.Checksum(raw); got != want {
				t.Errorf("Adler-32 %08x, want %08x", got, want)
			}
		})
	}
}
