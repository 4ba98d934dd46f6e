package les

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Turn is a player's turn (LN3): his first placement and, unless LT3 lets
// the turn stop there, his second.
type Turn []Point

// String writes the turn in canonical form: "d4:k12", or "d4" alone.
func (t Turn) String() string { return joinPoints(t) }

// Setup is the setter's four stones in the order of LS2: B1 (black), W1
// (white, touching B1), B2 (black) and W2 (white, in line with B2 at
// distance 2).
type Setup [4]Point

// String writes the setup in canonical form (LN1): "e5:e6:g3:g5".
func (s Setup) String() string { return joinPoints(s[:]) }

// ColorOfSetupStone is the colour of the setup's k-th stone: they alternate from
// black (LS2).
func ColorOfSetupStone(k int) Color { return Color(k % 2) }

func joinPoints(ps []Point) string {
	var sb strings.Builder
	sb.Grow(len(ps) * 4)
	for i, p := range ps {
		if i > 0 {
			sb.WriteByte(':')
		}
		sb.WriteString(p.String())
	}
	return sb.String()
}

// MaxPlyText bounds the length of a ply's text; longer input is not a ply.
const MaxPlyText = 4096

// ParsePoints reads point names in the form of LN0: names separated by one
// ':' (white space may stand beside it) or by white space, white space
// around the whole text ignored, any letter case. White space is any
// Unicode space, as phones paste it. The points may be off the board: that
// is judged with the position (off_board). Text not in the form gives a
// *PlyError with code syntax.
func ParsePoints(text string) ([]Point, error) {
	if len(text) > MaxPlyText {
		return nil, syntaxError("the text is longer than %d characters (LN0)", MaxPlyText)
	}
	s := strings.TrimFunc(text, unicode.IsSpace)
	if s == "" {
		return nil, syntaxError("the text is empty: write points like d4:k12 (LN0)")
	}
	var pts []Point
	for i := 0; ; {
		p, n, ok := scanPoint(s[i:])
		if !ok {
			return nil, syntaxError("%q is not a point: write a row letter and a number without leading zeros, like e5 (LN0)", clip(token(s[i:])))
		}
		pts = append(pts, p)
		i += n
		if i == len(s) {
			return pts, nil
		}
		j, colon := skipSpace(s, i), false
		if j < len(s) && s[j] == ':' {
			j, colon = skipSpace(s, j+1), true
		}
		switch {
		case j == i:
			return nil, syntaxError("%q is not a point: separate points by one ':' or by spaces (LN0)", clip(token(s[i-n:])))
		case j == len(s):
			return nil, syntaxError("the text ends with ':' (LN0)")
		case colon && s[j] == ':':
			return nil, syntaxError("two ':' with no point between them (LN0)")
		}
		i = j
	}
}

// skipSpace is the index of the first byte at or after i that is not white
// space.
func skipSpace(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// token is the text up to the next separator, for quoting in a message.
func token(s string) string {
	if i := strings.IndexFunc(s, func(r rune) bool { return r == ':' || unicode.IsSpace(r) }); i > 0 {
		return s[:i]
	}
	return s
}

// ParseSetup reads a setup (ply 0, LN1): four points.
func ParseSetup(text string) (Setup, error) {
	pts, err := ParsePoints(text)
	if err != nil {
		return Setup{}, err
	}
	if len(pts) != 4 {
		return Setup{}, syntaxError("a setup is four points, black, white, black, white, like e5:e6:g3:g5, not %d (LN1)", len(pts))
	}
	return Setup(pts), nil
}

// ParseTurn reads a turn (LN3): one or two points.
func ParseTurn(text string) (Turn, error) {
	pts, err := ParsePoints(text)
	if err != nil {
		return nil, err
	}
	if len(pts) > 2 {
		return nil, syntaxError("a turn is one or two points, like d4:k12, not %d (LN3)", len(pts))
	}
	return Turn(pts), nil
}

// MustParseTurn is ParseTurn for turns known to be well formed, such as test
// fixtures; it panics on error.
func MustParseTurn(text string) Turn {
	t, err := ParseTurn(text)
	if err != nil {
		panic(err)
	}
	return t
}

// ParseChoice reads the choice (ply 1, LN2): black or white, in any case,
// white space around ignored.
func ParseChoice(text string) (Color, error) {
	c, err := ParseColor(strings.TrimFunc(text, unicode.IsSpace))
	if err != nil || len(text) > MaxPlyText {
		return 0, syntaxError("the choice is black or white (LN2)")
	}
	return c, nil
}
