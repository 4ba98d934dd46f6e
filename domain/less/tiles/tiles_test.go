package tiles

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestGolden pins generated boards: a seed's board must never change, so any
// change to the tile set, the PRNG, the shuffle or the laying order fails here.
func TestGolden(t *testing.T) {
	tests := []struct {
		size int
		seed uint64
		want string
	}{
		{6, 0, "100000010001001001001000000000000100000000010010000100000001"},
		{6, 1, "110000000001000100010002000100110100010100100100000000010100"},
		{6, 2, "000000101000100000001110000000000000002000010010100010101000"},
		{6, 42, "100000100100001010010000000010110001000000100000011000001000"},
		{6, 1<<63 + 12345, "100100010000000010000110000001000001002000110010000000000100"},
		{8, 0, "1010011000000001000000001100100000000000000010000001010011000011000011001010000010000200000100010000110000000000"},
		{8, 1, "0100010110010010000001000000000000100101000000111001200011110000000000000000000100100000000010000010010001000010"},
		{8, 2, "0000000100000100110000101000000100011000000010000010000000101000010010111010000000000010010101000001101000100001"},
		{8, 42, "1001100100000000000001010101001100000010111000000010000000000000010001000000001011000000000000100111010000000000"},
		{8, 1<<63 + 12345, "0000001010000000010000000002101000011010000000000001000001000000000000100100000111000000000110010000100100000010"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dx%d/seed=%d", tc.size, tc.size, tc.seed), func(t *testing.T) {
			got, err := Walls(tc.size, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Walls(%d, %d)\n got %s\nwant %s", tc.size, tc.seed, got, tc.want)
			}
		})
	}
}

// TestSplitmix64 pins the generator to the reference SplitMix64 outputs for
// seed 0.
func TestSplitmix64(t *testing.T) {
	r := &splitmix64{}
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := r.next(); got != want {
			t.Errorf("output %d = %#x, want %#x", i, got, want)
		}
	}
}

func TestWallsFormat(t *testing.T) {
	for _, size := range []int{6, 8} {
		for seed := range uint64(200) {
			s, err := Walls(size, seed)
			if err != nil {
				t.Fatal(err)
			}
			if want := 2 * size * (size - 1); len(s) != want {
				t.Fatalf("Walls(%d, %d): length %d, want %d", size, seed, len(s), want)
			}
			if i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '2' }); i >= 0 {
				t.Fatalf("Walls(%d, %d): bad digit %q at %d in %s", size, seed, s[i], i, s)
			}
		}
	}
}

func TestWallsInvalidSize(t *testing.T) {
	for _, size := range []int{-6, 0, 2, 4, 5, 7, 10, 16} {
		if s, err := Walls(size, 1); err == nil {
			t.Errorf("Walls(%d, 1) = %q, want an error", size, s)
		}
	}
}

func TestWallsSeedsDiffer(t *testing.T) {
	for _, size := range []int{6, 8} {
		seen := map[string]bool{}
		for seed := range uint64(100) {
			s, _ := Walls(size, seed)
			seen[s] = true
		}
		if len(seen) < 100 {
			t.Errorf("%dx%d: only %d distinct boards for 100 seeds", size, size, len(seen))
		}
	}
}

// TestDeal checks the "two boxes" rule: every tile at most once per box.
func TestDeal(t *testing.T) {
	for _, size := range []int{6, 8} {
		for seed := range uint64(100) {
			idx, rot := deal(size, seed)
			if len(idx) != size*size/4 || len(rot) != len(idx) {
				t.Fatalf("deal(%d, %d): %d tiles, %d rotations", size, seed, len(idx), len(rot))
			}
			for box := range slices.Chunk(idx, len(set)) {
				sorted := slices.Sorted(slices.Values(box))
				if len(slices.Compact(sorted)) != len(box) || sorted[0] < 0 || sorted[len(sorted)-1] >= len(set) {
					t.Fatalf("deal(%d, %d): box %v is not drawn from one set", size, seed, box)
				}
			}
			for _, q := range rot {
				if q < 0 || q > 3 {
					t.Fatalf("deal(%d, %d): rotation %d", size, seed, q)
				}
			}
		}
	}
}

// TestLay checks edge counting on a hand-laid 6x6 board: border walls of
// neighbouring tiles add up, and walls on the board's outer border vanish.
func TestLay(t *testing.T) {
	laid := make([]Tile, 9)
	laid[0] = Tile{{0, 1, E}, {1, 0, S}, {0, 0, N}} // a2 east, b1 south, a1 north (outer border)
	laid[1] = Tile{{0, 0, W}}                       // a3 west: doubles a2 east
	laid[2] = Tile{{0, 1, E}}                       // a6 east: outer border
	laid[3] = Tile{{0, 0, N}}                       // c1 north: doubles b1 south
	laid[4] = Tile{{1, 1, E}}                       // d4 east: single wall
	laid[8] = Tile{{1, 1, E}}                       // f6 east: outer border
	want := strings.Join([]string{
		"02000", "000000", // row a: a2|a3 double; a/b
		"00000", "200000", // row b; b/c: b1/c1 double
		"00000", "000000", // row c; c/d
		"00010", "000000", // row d: d4|d5 single; d/e
		"00000", "000000", // row e; e/f
		"00000", // row f
	}, "")
	if got := lay(6, laid); got != want {
		t.Errorf("lay\n got %s\nwant %s", got, want)
	}
}

func TestRotate(t *testing.T) {
	stub := Tile{{0, 0, E}} // the wall between the top two squares
	tests := []struct {
		q    int
		want Wall
	}{
		{0, Wall{0, 0, E}},
		{1, Wall{0, 1, S}}, // clockwise: now between the right two squares
		{2, Wall{1, 1, W}},
		{3, Wall{1, 0, N}},
		{4, Wall{0, 0, E}},
		{-1, Wall{1, 0, N}},
	}
	for _, tc := range tests {
		if got := stub.Rotate(tc.q); len(got) != 1 || got[0] != tc.want {
			t.Errorf("Rotate(%d) = %v, want [%v]", tc.q, got, tc.want)
		}
	}
	for i, tile := range Set() {
		r := tile
		for range 4 {
			r = r.Rotate(1)
		}
		if !slices.Equal(r, tile) {
			t.Errorf("tile %d: four quarter turns give %v, want %v", i, r, tile)
		}
	}
}

// edge names the edge a wall is printed on by its midpoint in half-square
// units, so the two sides of one inner edge share a name.
func edge(w Wall) [2]int {
	d := [4][2]int{N: {0, -1}, E: {1, 0}, S: {0, 1}, W: {-1, 0}}[w.Side]
	return [2]int{2*w.Col + 1 + d[0], 2*w.Row + 1 + d[1]}
}

func inner(w Wall) bool {
	e := edge(w)
	return e[0] > 0 && e[0] < 4 && e[1] > 0 && e[1] < 4
}

// shape is a tile's set of edges, as a sorted list, for comparing tiles.
func shape(t Tile) string {
	var es [][2]int
	for _, w := range t {
		es = append(es, edge(w))
	}
	slices.SortFunc(es, func(a, b [2]int) int { return slices.Compare(a[:], b[:]) })
	return fmt.Sprint(es)
}

func TestSet(t *testing.T) {
	tiles := Set()
	if len(tiles) != 12 {
		t.Fatalf("%d tiles, want 12", len(tiles))
	}
	var few, innerWalls, borderWalls int
	shapes := map[string]int{}
	for i, tile := range tiles {
		if len(tile) > 3 {
			t.Errorf("tile %d has %d walls, want 0 to 3", i, len(tile))
		}
		if len(tile) <= 1 {
			few++
		}
		edges := map[[2]int]bool{}
		for _, w := range tile {
			if w.Row < 0 || w.Row > 1 || w.Col < 0 || w.Col > 1 || w.Side > W {
				t.Errorf("tile %d: bad wall %v", i, w)
			}
			if edges[edge(w)] {
				t.Errorf("tile %d: two walls on the edge of %v", i, w)
			}
			edges[edge(w)] = true
			if inner(w) {
				innerWalls++
			} else {
				borderWalls++
			}
		}
		for q := range 4 {
			s := shape(tile.Rotate(q))
			if j, ok := shapes[s]; ok && j != i {
				t.Errorf("tile %d is tile %d turned", i, j)
				break
			}
			shapes[s] = i
		}
	}
	if few < 2 || innerWalls == 0 || borderWalls == 0 {
		t.Errorf("set not varied: %d tiles with 0-1 walls, %d inner walls, %d border walls", few, innerWalls, borderWalls)
	}
}

func TestSetIsCopy(t *testing.T) {
	Set()[1][0] = Wall{1, 1, S}
	if got := Set()[1][0]; got != (Wall{0, 0, E}) {
		t.Errorf("Set() shares memory with the package: tile 1 now %v", got)
	}
}
