package less

import (
	"strings"
	"unicode"

	"github.com/lesspost/lesspost/domain/internal/text"
)

// Move takes the piece on From to To: a step to a neighbouring square or a
// jump over one piece (M2, M3). Written "e5e4" (N1).
type Move struct {
	From, To Square
}

func (m Move) String() string { return m.From.String() + m.To.String() }

// Turn is a player's whole turn: its moves in order (N2). The empty turn is
// the pass, written "Nil".
type Turn []Move

// String writes the turn in canonical form (the CodeCup form): moves joined
// by ":", or "Nil".
func (t Turn) String() string {
	if len(t) == 0 {
		return "Nil"
	}
	var sb strings.Builder
	sb.Grow(len(t) * 5)
	for i, m := range t {
		if i > 0 {
			sb.WriteByte(':')
		}
		sb.WriteString(m.From.String())
		sb.WriteString(m.To.String())
	}
	return sb.String()
}

// MaxTurnText bounds the length of turn text; longer input is not a turn.
const MaxTurnText = 1024

// ParseTurn reads a turn in any accepted input style (N1, N2): moves as
// "e5e4" or "e5-e4", separated by any run of ':', ',' and white space,
// separators at either end ignored; "Nil" in any case is the pass. Squares
// may be off the board: that is judged with the position (N3 off_board). A
// text that is not a turn gives a *TurnError with code syntax.
func ParseTurn(text string) (Turn, error) {
	if len(text) > MaxTurnText {
		return nil, syntaxError("the turn text is longer than %d characters (N2)", MaxTurnText)
	}
	tokens := strings.FieldsFunc(text, isSeparator)
	if len(tokens) == 0 {
		return nil, syntaxError("the turn is empty: write moves like e5e4:e4e3, or Nil to pass (N2)")
	}
	if len(tokens) == 1 && strings.EqualFold(tokens[0], "nil") {
		return Turn{}, nil
	}
	t := make(Turn, 0, len(tokens))
	for _, tok := range tokens {
		if strings.EqualFold(tok, "nil") {
			return nil, syntaxError("Nil stands alone: it is the whole turn (N2)")
		}
		m, ok := parseMove(tok)
		if !ok {
			return nil, syntaxError("%q is not a move: write two squares like e5e4 or e5-e4 (N1)", clip(tok))
		}
		t = append(t, m)
	}
	return t, nil
}

// isSeparator reports the characters that separate moves (N2): ':', ',' and
// any white space, including the Unicode spaces phones and word processors
// put in pasted text.
func isSeparator(r rune) bool { return r == ':' || r == ',' || unicode.IsSpace(r) }

// MustParseTurn is ParseTurn for turns known to be well formed, such as
// test fixtures; it panics on error.
func MustParseTurn(text string) Turn {
	t, err := ParseTurn(text)
	if err != nil {
		panic(err)
	}
	return t
}

func parseMove(tok string) (Move, bool) {
	from, n, ok := scanSquare(tok)
	if !ok {
		return Move{}, false
	}
	tok = strings.TrimPrefix(tok[n:], "-")
	to, n, ok := scanSquare(tok)
	if !ok || n != len(tok) {
		return Move{}, false
	}
	return Move{From: from, To: to}, true
}

// clip shortens absurd input before it is quoted in a message.
func clip(s string) string { return text.Clip(s, 24) }
