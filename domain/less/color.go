package less

import (
	"fmt"
	"strings"
)

// Color is one player's colour. Two-player games use White and Black (S1);
// four-player games all four (S2).
type Color uint8

const (
	White Color = iota
	Black
	Yellow
	Red
)

var colorNames = [...]string{White: "white", Black: "black", Yellow: "yellow", Red: "red"}

func (c Color) String() string {
	if int(c) < len(colorNames) {
		return colorNames[c]
	}
	return fmt.Sprintf("Color(%d)", c)
}

// ParseColor parses a colour name as String writes it (case-insensitive).
func ParseColor(s string) (Color, error) {
	for c, name := range colorNames {
		if strings.EqualFold(s, name) {
			return Color(c), nil
		}
	}
	return 0, fmt.Errorf("unknown colour %q", s)
}

// Side is one of the two contestants: a player in the two-player game, a team
// in the four-player game (S3). Side 0 moves first.
type Side uint8

const (
	// SideWhite is White (2p) or the team Yellow and White (4p).
	SideWhite Side = 0
	// SideBlack is Black (2p) or the team Black and Red (4p).
	SideBlack Side = 1
)

// Other is the opposing side.
func (s Side) Other() Side { return 1 - s }

// order2 and order4 are the turn orders (S1, S2).
var (
	order2 = []Color{White, Black}
	order4 = []Color{Yellow, Black, White, Red}
)

// Players is the number of players on a board of the given size (B1).
func Players(size int) int {
	if size == 8 {
		return 4
	}
	return 2
}

// Colors lists the colours in play on a board of the given size, in turn order.
func Colors(size int) []Color {
	if size == 8 {
		return order4
	}
	return order2
}

// inPlay reports whether colour c plays on a board of the given size.
func inPlay(c Color, size int) bool {
	if size == 8 {
		return c <= Red
	}
	return c == White || c == Black
}

// SideOf is the side colour c plays for (S2: Yellow+White against Black+Red).
func SideOf(c Color) Side {
	if c == White || c == Yellow {
		return SideWhite
	}
	return SideBlack
}

// Partner is c's team mate in the four-player game.
func Partner(c Color) Color {
	switch c {
	case Yellow:
		return White
	case White:
		return Yellow
	case Black:
		return Red
	default:
		return Black
	}
}

// SideName names a side for a board size: "white"/"black" for two players,
// "yellow-white"/"black-red" for the four-player teams.
func SideName(s Side, size int) string {
	switch {
	case size == 8 && s == SideWhite:
		return "yellow-white"
	case size == 8:
		return "black-red"
	case s == SideWhite:
		return "white"
	default:
		return "black"
	}
}

// ParseSide parses a side name as SideName writes it for the board size.
func ParseSide(name string, size int) (Side, error) {
	for _, s := range []Side{SideWhite, SideBlack} {
		if strings.EqualFold(name, SideName(s, size)) {
			return s, nil
		}
	}
	return 0, fmt.Errorf("unknown side %q for a %dx%d board", name, size, size)
}

// SideColors lists the colours of a side on a board of the given size.
func SideColors(s Side, size int) []Color {
	switch {
	case size == 8 && s == SideWhite:
		return []Color{Yellow, White}
	case size == 8:
		return []Color{Black, Red}
	case s == SideWhite:
		return []Color{White}
	default:
		return []Color{Black}
	}
}

// corner is the 2x2 block whose top-left square is at (row, col).
func corner(row, col int) Bitboard {
	return bitsOf(SquareAt(row, col), SquareAt(row, col+1), SquareAt(row+1, col), SquareAt(row+1, col+1))
}

// StartCorner is where colour c's pieces start on a board of the given size (S1, S2).
func StartCorner(c Color, size int) Bitboard {
	far := size - 2
	switch c {
	case Black:
		return corner(0, 0)
	case White:
		return corner(far, far)
	case Yellow:
		return corner(far, 0)
	default: // Red
		return corner(0, far)
	}
}

// TargetCorner is the diagonally opposite corner that colour c must reach.
func TargetCorner(c Color, size int) Bitboard {
	switch c {
	case Black:
		return StartCorner(White, size)
	case White:
		return StartCorner(Black, size)
	case Yellow:
		return StartCorner(Red, size)
	default:
		return StartCorner(Yellow, size)
	}
}
