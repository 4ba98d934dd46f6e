package api

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
)

// maxBodyBytes caps every request body. The API takes small JSON documents
// (a turn, a game setup); anything larger is a mistake or an attack.
const maxBodyBytes = 64 << 10

// CSPAPI is the Content-Security-Policy of every response that is not an HTML
// page: nothing may be loaded, framed or run from it. HTML pages replace it
// with their own strict policy (script-src 'self', no inline script).
const CSPAPI = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// securityHeaders sets the headers every response carries, errors included.
// They are set before the handler runs, so a handler may override one.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		// Links carry tokens: the next site must not learn the URL.
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", CSPAPI)
		// Responses carry tokens (access tokens, calendar and spectator
		// links) and private data (addresses, my games): no cache may keep
		// them. The few that may be cached (pages, assets, the calendar
		// feed) say so themselves.
		h.Set(echo.HeaderCacheControl, "no-store")
		return next(c)
	}
}

type requestIDKey struct{}

// RequestID returns the id of the request ctx belongs to, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// requestID gives each request an id, taken from X-Request-ID when a proxy
// set a sane one, and echoes it in the response. It lives in the request's
// context, so every log line written with that context carries it.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		id := req.Header.Get(echo.HeaderXRequestID)
		if !validRequestID(id) {
			id = rand.Text()
		}
		c.SetRequest(req.WithContext(context.WithValue(req.Context(), requestIDKey{}, id)))
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		return next(c)
	}
}

// validRequestID accepts short ids of safe characters only: the id is logged
// and echoed, and a client must not be able to forge log lines with it.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '-', r == '_', r == '.', r == ':':
		default:
			return false
		}
	}
	return true
}

// logRequests writes one line per request, and tells observe of it. It logs
// the path without the query string and no headers, because both can carry
// tokens.
func logRequests(log *slog.Logger, observe func(c echo.Context, elapsed time.Duration)) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				// Render the error now so the line below logs the final status;
				// returning nil stops echo from rendering it again.
				c.Error(err)
			}
			req, res := c.Request(), c.Response()
			elapsed := time.Since(start)
			observe(c, elapsed)
			attrs := []slog.Attr{
				slog.String("method", req.Method),
				slog.String("path", req.URL.Path),
				slog.String("route", c.Path()),
				slog.Int("status", res.Status),
				slog.Duration("duration", elapsed),
				slog.Int64("bytes", res.Size),
			}
			level := slog.LevelInfo
			if res.Status >= http.StatusInternalServerError {
				// The client saw a generic problem; the cause is only logged.
				level = slog.LevelError
				if err != nil {
					attrs = append(attrs, slog.String("error", err.Error()))
				}
			}
			log.LogAttrs(req.Context(), level, "request", attrs...)
			return nil
		}
	}
}

// observe hands an answered request to Config.ObserveRequest, if set. The
// route is echo's only when the request matched it: for an unknown path
// echo names the nearest route, and an unknown method would name a
// registered path.
func (s *Server) observe(c echo.Context, elapsed time.Duration) {
	if s.cfg.ObserveRequest == nil {
		return
	}
	method, route := c.Request().Method, c.Path()
	if !s.routed[method+" "+route] {
		route = ""
	}
	s.cfg.ObserveRequest(route, method, c.Response().Status, elapsed)
}

// recoverPanics turns a panic in a handler into an error (hence a 500
// problem) and logs the stack, so one bad request cannot take the server down.
func recoverPanics(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				p := recover()
				if p == nil {
					return
				}
				if p == http.ErrAbortHandler {
					panic(p) // net/http's way to abort a response on purpose
				}
				log.ErrorContext(c.Request().Context(), "panic in handler",
					slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
				err = fmt.Errorf("panic: %v", p)
			}()
			return next(c)
		}
	}
}

// streams are the routes whose answer stays open (Server-Sent Events):
// boundRequests leaves them alone.
var streams = map[string]bool{"/v1/me/events": true, "/v1/games/:id/events": true}

// boundRequests gives each request but the streams d to be answered in,
// through its context, which every wait on the store heeds. A request that
// fails once its time is up failed for want of the store, nearly always
// (a database that does not answer, a queue of writes): 503 unavailable,
// unless it failed for a reason of its own.
func boundRequests(d time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if streams[c.Path()] {
				return next(c)
			}
			ctx, cancel := context.WithTimeout(c.Request().Context(), d)
			defer cancel()
			c.SetRequest(c.Request().WithContext(ctx))
			err := next(c)
			if _, classified := domain.ErrorOf(err); err != nil && !classified && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				err = domain.Unavailable(fmt.Errorf("no answer within the request timeout of %v: %w", d, err))
			}
			return err
		}
	}
}

// limitBody refuses bodies over maxBodyBytes: at once when Content-Length
// says so, or with an *http.MaxBytesError while a longer body is read.
func limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.ContentLength > maxBodyBytes {
			return &http.MaxBytesError{Limit: maxBodyBytes}
		}
		// The underlying writer, so net/http knows to close the connection.
		req.Body = http.MaxBytesReader(c.Response().Writer, req.Body, maxBodyBytes)
		return next(c)
	}
}
