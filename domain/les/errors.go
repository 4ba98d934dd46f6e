package les

import (
	"errors"
	"fmt"

	"github.com/lesspost/lesspost/domain/internal/text"
)

// Code is the stable name of the rule a refused ply breaks (LN4). Clients
// match on it; the strings never change.
type Code string

// The codes of LN4, in the order a ply is checked against them.
const (
	CodeSyntax           Code = "syntax"
	CodeOffBoard         Code = "off_board"
	CodeOccupied         Code = "occupied"
	CodeNotTouchingBoth  Code = "not_touching_both"
	CodeNotIsolated      Code = "not_isolated"
	CodeSetupNotTouching Code = "setup_not_touching"
	CodeSetupNotInLine   Code = "setup_not_in_line"
	CodeIncomplete       Code = "incomplete"
)

// Codes lists every code in LN4's order.
var Codes = []Code{CodeSyntax, CodeOffBoard, CodeOccupied, CodeNotTouchingBoth, CodeNotIsolated,
	CodeSetupNotTouching, CodeSetupNotInLine, CodeIncomplete}

// Rule is the rule of docs/les-rules.md a code cites: the API's rule_ref.
func (c Code) Rule() string {
	switch c {
	case CodeSyntax:
		return "LN0"
	case CodeOffBoard:
		return "LB1"
	case CodeOccupied:
		return "LS2, LT1, LT2"
	case CodeNotTouchingBoth:
		return "LT1"
	case CodeNotIsolated:
		return "LT2"
	case CodeSetupNotTouching, CodeSetupNotInLine:
		return "LS2"
	default:
		return "LT3"
	}
}

// NoIndex is PlyError.Index for an error about the whole ply.
const NoIndex = -1

// PlyError says why a ply was refused (LN4): the code, the 0-based index of
// the offending point (NoIndex for syntax and incomplete) and a message for
// people.
type PlyError struct {
	Code    Code
	Index   int
	Message string
}

func (e *PlyError) Error() string {
	if e.Index == NoIndex {
		return fmt.Sprintf("illegal ply (%s): %s", e.Code, e.Message)
	}
	return fmt.Sprintf("illegal ply (%s) at point %d: %s", e.Code, e.Index+1, e.Message)
}

// Errors of the engine beside a refused ply.
var (
	// ErrBoard is wrapped by every error about a board side.
	ErrBoard = errors.New("invalid board")
	// ErrPosition is wrapped by every error about an impossible position.
	ErrPosition = errors.New("invalid position")
	// ErrNoPass is a time-out that asks for the mover's ply to be passed:
	// Les has no pass (LT4), so running out of time loses the game.
	ErrNoPass = errors.New("les has no pass (LT4): a player who runs out of time loses")
	// ErrSeat is a seat name the game does not have.
	ErrSeat = errors.New("unknown seat")
	// ErrOptions is wrapped by every error about a game's options.
	ErrOptions = errors.New("invalid options")
)

func syntaxError(format string, args ...any) *PlyError {
	return &PlyError{Code: CodeSyntax, Index: NoIndex, Message: fmt.Sprintf(format, args...)}
}

func pointError(code Code, index int, format string, args ...any) *PlyError {
	return &PlyError{Code: code, Index: index, Message: fmt.Sprintf(format, args...)}
}

// clip shortens absurd input before it is quoted in a message.
func clip(s string) string { return text.Clip(s, 24) }
