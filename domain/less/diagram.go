package less

import "strings"

// pieceLetters and targetLetters draw a colour's pieces and its empty target
// squares in a diagram.
var (
	pieceLetters  = [4]byte{White: 'W', Black: 'B', Yellow: 'Y', Red: 'R'}
	targetLetters = [4]byte{White: 'w', Black: 'b', Yellow: 'y', Red: 'r'}
)

// DiagramLetters are the letters Diagram draws a colour with: its pieces
// (upper case) and the empty squares of its target corner (lower case).
func DiagramLetters(c Color) (piece, target string) {
	return string(pieceLetters[c]), string(targetLetters[c])
}

// DiagramLegend explains the symbols of Diagram.
const DiagramLegend = "W B Y R pieces   w b y r an empty square of that colour's target corner\n" +
	"| --- wall   # === double wall   * a square the last turn passed through"

// Diagram draws the position in plain ASCII for emails and logs: coordinates,
// walls (| and ---), double walls (# and ===), pieces (upper case), empty
// target squares (lower case letter of the colour that must reach them) and,
// when last is a turn just played, the squares it left or jumped from (*).
//
//	    1   2   3   4   5   6
//	  +---+---+---+---+---+---+
//	a | B   B |               |
//	  +   +   +===+   +   +   +
func Diagram(p Position, last Turn) string {
	n := p.Size()
	b := p.board
	var trail Bitboard
	for _, m := range last {
		if m.From.OnBoard(n) {
			trail |= 1 << uint(m.From.index())
		}
	}
	var targets [MaxSize * MaxSize]byte
	for _, c := range Colors(n) {
		for t := TargetCorner(c, n); t != 0; t &= t - 1 {
			targets[trailingZeros(t)] = targetLetters[c]
		}
	}

	var sb strings.Builder
	sb.WriteString("    ")
	for c := range n {
		if c > 0 {
			sb.WriteString("   ")
		}
		sb.WriteByte(byte('1' + c))
	}
	sb.WriteByte('\n')
	border := "  +" + strings.Repeat("---+", n) + "\n"
	sb.WriteString(border)
	for r := range n {
		sb.WriteByte(byte('a' + r))
		sb.WriteString(" |")
		for c := range n {
			i := SquareAt(r, c).index()
			sb.WriteByte(' ')
			switch color, ok := p.PieceAt(squareOf(i)); {
			case ok:
				sb.WriteByte(pieceLetters[color])
			case trail.has(i):
				sb.WriteByte('*')
			case targets[i] != 0:
				sb.WriteByte(targets[i])
			default:
				sb.WriteByte('.')
			}
			sb.WriteByte(' ')
			if c == n-1 {
				sb.WriteString("|")
				break
			}
			sb.WriteByte(" |#"[b.edge[i][right]])
		}
		sb.WriteByte('\n')
		if r == n-1 {
			break
		}
		sb.WriteString("  +")
		for c := range n {
			sb.WriteString([3]string{"   ", "---", "==="}[b.edge[SquareAt(r, c).index()][down]])
			sb.WriteByte('+')
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(border)
	return sb.String()
}
