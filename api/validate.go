package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// validateRequests rejects requests that do not match openapi.yaml (types,
// required members, unknown members where a schema says
// additionalProperties: false, string lengths, ...) before a handler sees
// them. Paths and methods the contract does not know pass through, so that
// echo answers them with 404 or 405; TestRoutesMatchSpec keeps the two in step.
func validateRequests(c *contract.Contract) echo.MiddlewareFunc {
	opts := &openapi3filter.Options{
		// Tokens are checked by our own auth, which can tell the client why a
		// token was refused; the contract only documents the scheme.
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
	}
	opts.WithCustomSchemaErrorFunc(schemaErrorMessage)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(ec echo.Context) error {
			req := ec.Request()
			route, params, err := c.FindRoute(req)
			if err != nil {
				return next(ec)
			}
			if err := openapi3filter.ValidateRequest(req.Context(), &openapi3filter.RequestValidationInput{
				Request:    req,
				PathParams: params,
				Route:      route,
				Options:    opts,
			}); err != nil {
				return err // problemFor turns it into invalid_request
			}
			return next(ec)
		}
	}
}

// schemaErrorMessage says where and what, without the schema dump that
// kin-openapi adds by default. The reason never quotes the rejected value.
func schemaErrorMessage(err *openapi3.SchemaError) string {
	if err.Reason == "" {
		return "" // kin-openapi's default message
	}
	if ptr := err.JSONPointer(); len(ptr) > 0 {
		return "/" + strings.Join(ptr, "/") + ": " + err.Reason
	}
	return err.Reason
}

// validationProblem maps a request that failed validation to a 400 problem
// with a short detail such as `request body: /name: maximum string length is 40`.
func validationProblem(err error) *Problem {
	re, ok := errors.AsType[*openapi3filter.RequestError](err)
	if !ok {
		return nil
	}
	where := "request"
	switch {
	case re.Parameter != nil:
		where = fmt.Sprintf("%s parameter %q", re.Parameter.In, re.Parameter.Name)
	case re.RequestBody != nil:
		where = "request body"
	}
	why := re.Reason
	if se, ok := errors.AsType[*openapi3.SchemaError](re.Err); ok {
		why = se.Error() // already short, see schemaErrorMessage
	} else if re.Err != nil {
		why = strings.TrimPrefix(why+": "+re.Err.Error(), ": ")
	}
	return NewProblem(http.StatusBadRequest, "invalid_request", where+": "+why)
}
