package api

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// corsMaxAge is how long, in seconds, a browser may reuse a preflight answer:
// short, so that a changed origin list takes effect soon.
const corsMaxAge = 600

var (
	// corsAllowHeaders are the request headers a page may send beyond the
	// CORS-safelisted ones.
	corsAllowHeaders = strings.Join([]string{echo.HeaderAuthorization, echo.HeaderContentType, "Idempotency-Key",
		"If-None-Match", echo.HeaderXRequestID}, ", ")
	// corsExposeHeaders are the response headers a page may read beyond
	// the CORS-safelisted ones.
	corsExposeHeaders = strings.Join([]string{"ETag", echo.HeaderLocation, echo.HeaderRetryAfter, "Idempotent-Replayed",
		echo.HeaderWWWAuthenticate, echo.HeaderXRequestID, echo.HeaderContentDisposition}, ", ")
)

// cors lets web pages of the given origins (scheme://host[:port], or "*"
// for all) call the API. They authenticate with bearer tokens, never
// cookies: credentialed requests are not allowed (no
// Access-Control-Allow-Credentials), so a page can only act with a token it
// was given. It returns nil, and no response carries a CORS header, when
// origins is empty.
//
// Not echo's CORS middleware: its package needs a new module
// (golang.org/x/time) and compiles a rate limiter, template logger and
// proxy into the server for these few lines, and its origin matching reads
// patterns and subdomains into the list where this wants exact origins.
func cors(origins []string) echo.MiddlewareFunc {
	if len(origins) == 0 {
		return nil
	}
	allowAll := slices.Contains(origins, "*")
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req, h := c.Request(), c.Response().Header()
			h.Add(echo.HeaderVary, echo.HeaderOrigin) // caches must keep answers per origin
			origin := req.Header.Get(echo.HeaderOrigin)
			if origin == "" || !allowAll && !slices.Contains(origins, origin) {
				return next(c) // the browser refuses the page the answer
			}
			h.Set(echo.HeaderAccessControlAllowOrigin, origin)
			if req.Method != http.MethodOptions || req.Header.Get(echo.HeaderAccessControlRequestMethod) == "" {
				h.Set(echo.HeaderAccessControlExposeHeaders, corsExposeHeaders)
				return next(c)
			}
			// A preflight: the methods the router serves on this path (it
			// sets them for an OPTIONS request), and the headers the API reads.
			h.Add(echo.HeaderVary, echo.HeaderAccessControlRequestMethod)
			h.Add(echo.HeaderVary, echo.HeaderAccessControlRequestHeaders)
			if methods, _ := c.Get(echo.ContextKeyHeaderAllow).(string); methods != "" {
				h.Set(echo.HeaderAccessControlAllowMethods, methods)
			}
			h.Set(echo.HeaderAccessControlAllowHeaders, corsAllowHeaders)
			h.Set(echo.HeaderAccessControlMaxAge, strconv.Itoa(corsMaxAge))
			return c.NoContent(http.StatusNoContent)
		}
	}
}
