package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// decodeJSON reads a request body that must be exactly one JSON object of
// v's shape: unknown members are refused, so a misspelt field is an error
// rather than silently ignored.
func decodeJSON(c echo.Context, v any) error {
	_, err := decodeJSONBody(c, v)
	return err
}

// decodeJSONBody is decodeJSON that also returns the raw body.
func decodeJSONBody(c echo.Context, v any) ([]byte, error) {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, err
		}
		return nil, NewProblem(http.StatusBadRequest, "invalid_json", "The request body could not be read.")
	}
	// encoding/json would quietly turn invalid bytes into U+FFFD and store
	// them in names and addresses: refuse them instead.
	if !utf8.Valid(body) {
		return nil, NewProblem(http.StatusBadRequest, "invalid_json", "The request body is not valid UTF-8.")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return nil, NewProblem(http.StatusBadRequest, "invalid_json", fmt.Sprintf("The request body is not valid: %s.", jsonReason(err)))
	}
	if dec.More() {
		return nil, NewProblem(http.StatusBadRequest, "invalid_json", "The request body has more than one JSON value.")
	}
	return body, nil
}

// jsonReason says what is wrong without quoting the input back.
func jsonReason(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("malformed JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s must be %s", typ.Field, typ.Type)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends too early"
	default:
		return err.Error() // e.g. json: unknown field "x"
	}
}
