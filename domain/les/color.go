package les

import (
	"fmt"
	"strings"
)

// Color is a stone's colour. Black plays first once the colours are chosen
// (LS4).
type Color int8

const (
	Black Color = iota
	White
)

var colorNames = [2]string{Black: "black", White: "white"}

func (c Color) String() string {
	if c == Black || c == White {
		return colorNames[c]
	}
	return fmt.Sprintf("Color(%d)", c)
}

// Other is the opposing colour.
func (c Color) Other() Color { return 1 - c }

// ParseColor reads a colour name as String writes it, in any case.
func ParseColor(s string) (Color, error) {
	for c, name := range colorNames {
		if strings.EqualFold(s, name) {
			return Color(c), nil
		}
	}
	return 0, fmt.Errorf("unknown colour %q: black or white", clip(s))
}

// Seat is one of the two players (LS1). Seats, not colours, take turns in
// the server: the colours are fixed only by the choice (LS3).
type Seat int8

const (
	// Setter sets up the four stones (ply 0, LS2): seat 1, the game's first
	// player.
	Setter Seat = iota
	// Chooser chooses a colour (ply 1, LS3): seat 2.
	Chooser
)

var seatNames = [2]string{Setter: "setter", Chooser: "chooser"}

func (s Seat) String() string {
	if s == Setter || s == Chooser {
		return seatNames[s]
	}
	return fmt.Sprintf("Seat(%d)", s)
}

// Other is the opposing seat.
func (s Seat) Other() Seat { return 1 - s }

// ParseSeat reads a seat name as String writes it, in any case.
func ParseSeat(s string) (Seat, error) {
	for seat, name := range seatNames {
		if strings.EqualFold(s, name) {
			return Seat(seat), nil
		}
	}
	return 0, fmt.Errorf("%w %q: setter or chooser", ErrSeat, clip(s))
}
