package less

import "fmt"

// Code is the stable name of the rule a rejected turn breaks (N3). Clients
// match on it; the strings never change.
type Code string

// The codes of N3, in the order moves are checked against them.
const (
	CodeSyntax        Code = "syntax"
	CodeOffBoard      Code = "off_board"
	CodeSideComplete  Code = "side_complete"
	CodeEmptySquare   Code = "empty_square"
	CodeNotYourPiece  Code = "not_your_piece"
	CodeNotAMove      Code = "not_a_move"
	CodeOccupied      Code = "occupied"
	CodeNothingToJump Code = "nothing_to_jump"
	CodeWallInJump    Code = "wall_in_jump"
	CodeOverBudget    Code = "over_budget"
	CodeIncomplete    Code = "incomplete"
)

// Codes lists every code in N3's order.
var Codes = []Code{CodeSyntax, CodeOffBoard, CodeSideComplete, CodeEmptySquare, CodeNotYourPiece,
	CodeNotAMove, CodeOccupied, CodeNothingToJump, CodeWallInJump, CodeOverBudget, CodeIncomplete}

// Rule is the rule of docs/rules.md a code cites: the API's rule_ref.
func (c Code) Rule() string {
	switch c {
	case CodeSyntax:
		return "N1, N2"
	case CodeOffBoard:
		return "M4"
	case CodeSideComplete, CodeIncomplete:
		return "T1"
	case CodeNotYourPiece:
		return "M6"
	case CodeNotAMove:
		return "M4"
	case CodeOccupied:
		return "M2, M3"
	case CodeNothingToJump, CodeWallInJump:
		return "M3"
	case CodeOverBudget:
		return "M5"
	default:
		return "M2"
	}
}

// NoIndex is TurnError.Index for errors about the whole turn.
const NoIndex = -1

// TurnError says why a turn was rejected (N3): the code, the 0-based index
// of the first bad move (NoIndex for the whole turn) and a message for people.
type TurnError struct {
	Code    Code
	Index   int
	Message string
}

func (e *TurnError) Error() string {
	if e.Index == NoIndex {
		return fmt.Sprintf("illegal turn (%s): %s", e.Code, e.Message)
	}
	return fmt.Sprintf("illegal turn (%s) at move %d: %s", e.Code, e.Index+1, e.Message)
}

func syntaxError(format string, args ...any) *TurnError {
	return &TurnError{Code: CodeSyntax, Index: NoIndex, Message: fmt.Sprintf(format, args...)}
}

func moveError(code Code, index int, format string, args ...any) *TurnError {
	return &TurnError{Code: code, Index: index, Message: fmt.Sprintf(format, args...)}
}
