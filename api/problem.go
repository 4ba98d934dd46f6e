package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/domain/players"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// ContentTypeProblem is the media type of every error response (RFC 9457).
const ContentTypeProblem = "application/problem+json"

// problemTypePrefix makes each code a problem type URI. A tag URI (RFC 4151)
// names the type without promising a document at that address; RFC 9457
// allows this for types that are not dereferenceable.
const problemTypePrefix = "tag:lesspost,2026:problem/"

// Problem is an RFC 9457 problem details object: the body of every error
// response. It is an error, so handlers can return one directly; any other
// error is turned into one by problemFor.
type Problem struct {
	// Status is the HTTP status code.
	Status int
	// Code is the stable, machine-readable identifier clients branch on
	// (snake_case). It also determines the problem type URI.
	Code string
	// Title summarises the code for humans; empty means the status text.
	Title string
	// Detail explains this occurrence to a human. It is sent to the client:
	// never put tokens, secrets or internal error text in it.
	Detail string
	// Instance optionally identifies this occurrence (a URI reference).
	Instance string
	// Extensions are further members defined by the code, such as "rule"
	// and "index" for an illegal turn. They cannot override the members above.
	Extensions map[string]any
}

// problemCodes is every code a problem can carry. openapi.yaml lists the same
// set as the enum of Problem.code (TestProblemCodesMatchContract), so a client
// can rely on it, and a test response with any other code fails validation.
// A new code goes in both places.
var problemCodes = []string{
	// The HTTP edge: routing, binding, limits, tokens and links.
	"bad_request", "invalid_request", "invalid_json", "body_too_large", "unsupported_media_type",
	domain.CodeUnauthorized, domain.CodeForbidden, "account_required", "insufficient_scope", domain.CodeWrongGame, domain.CodeLinkReplaced,
	"invalid_link", domain.CodeNotFound, "method_not_allowed", "too_many_requests", "rate_limited",
	"http_error", "internal", "unavailable", "not_ready", "push_disabled", codeIdempotencyKeyRequired, codeCursorExpired,
	// The domain and the repository.
	domain.CodeInvalidInput, domain.CodeIllegalTurn, domain.CodeLoginInvalid, domain.CodeRefreshInvalid, domain.CodeTooManyTokens, domain.CodeNotYourTurn,
	domain.CodeStalePly, domain.CodeGameOver, domain.CodeGameNotOver, domain.CodeIdempotencyReused, domain.CodeInvalidVacation,
	domain.CodeInvalidCursor, domain.CodeTooManyLogins, domain.CodeAlreadyWithdrawn, domain.CodeNotDue,
	domain.CodeTournamentOver, tournaments.CodeRegistrationClosed, tournaments.CodeTournamentFull, tournaments.CodeAlreadyEntered,
	tournaments.CodeInviteInvalid, tournaments.CodeAlreadyPlayed, tournaments.CodeTournamentPaused, tournaments.CodeTournamentNotPaused,
	tournaments.CodeRoundNotChangeable, tournaments.CodeTournamentStarted, tournaments.CodeTeamsUnsupported,
	domain.CodeEmailDomainLiteral, domain.CodeDuplicateAddress, domain.CodeAddressSuppressed,
	domain.CodeRecipientBudgetSpent, domain.CodeMailLimited,
	hooks.CodeInvalidPushSubscription, hooks.CodeTooManyPushSubscription, hooks.CodeSeatOrAccountRequired,
	hooks.CodeWebhookURLRefused, hooks.CodeTooManyWebhooks, hooks.CodeWebhookDisabled,
	players.CodeHandleTaken, players.CodeHandleInvalid, players.CodeHandleReserved, players.CodeUnknownHandle,
}

// NewProblem returns a problem with the given status, code and detail.
func NewProblem(status int, code, detail string) *Problem {
	return &Problem{Status: status, Code: code, Detail: detail}
}

func (p *Problem) Error() string {
	return fmt.Sprintf("%d %s: %s", p.Status, p.Code, p.Detail)
}

// MarshalJSON writes the RFC 9457 members and the extensions as one object.
func (p *Problem) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(p.Extensions)+6)
	maps.Copy(m, p.Extensions)
	m["type"] = problemTypePrefix + p.Code
	m["title"] = p.Title
	if p.Title == "" {
		m["title"] = http.StatusText(p.Status)
	}
	m["status"] = p.Status
	m["detail"] = p.Detail
	m["code"] = p.Code
	if p.Instance != "" {
		m["instance"] = p.Instance
	}
	return json.Marshal(m)
}

// problemFor maps any error a handler or middleware returns to the problem
// sent to the client. It is the one place that decides status and code;
// extend it here (domain errors go before the echo case). Errors it does not
// know become a 500 that reveals nothing.
func problemFor(err error) *Problem {
	if p, ok := errors.AsType[*Problem](err); ok {
		return p
	}
	// Before the cases below: a body cut off at the limit surfaces wrapped in
	// a validation or binding error.
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return NewProblem(http.StatusRequestEntityTooLarge, "body_too_large",
			fmt.Sprintf("The request body is larger than %d bytes.", maxBodyBytes))
	}
	if p := validationProblem(err); p != nil {
		return p
	}
	if p := domainProblem(err); p != nil {
		return p
	}
	if he, ok := errors.AsType[*echo.HTTPError](err); ok {
		return httpErrorProblem(he)
	}
	return internalProblem()
}

func internalProblem() *Problem {
	return NewProblem(http.StatusInternalServerError, "internal", "An unexpected error occurred; it has been logged.")
}

// httpProblems gives the code and a default detail for the statuses that echo
// (routing, binding) or our middleware produce as *echo.HTTPError.
var httpProblems = map[int]struct{ code, detail string }{
	http.StatusBadRequest:            {"bad_request", "The request is malformed."},
	http.StatusUnauthorized:          {"unauthorized", "A valid token is required."},
	http.StatusForbidden:             {"forbidden", "The token does not allow this."},
	http.StatusNotFound:              {"not_found", "There is no resource at this path."},
	http.StatusMethodNotAllowed:      {"method_not_allowed", "The resource does not support this method."},
	http.StatusRequestEntityTooLarge: {"body_too_large", "The request body is too large."},
	http.StatusUnsupportedMediaType:  {"unsupported_media_type", "The request body has an unsupported content type."},
	http.StatusTooManyRequests:       {"too_many_requests", "Too many requests; try again later."},
	http.StatusServiceUnavailable:    {"unavailable", "The service is temporarily unavailable."},
}

func httpErrorProblem(he *echo.HTTPError) *Problem {
	known, ok := httpProblems[he.Code]
	switch {
	case he.Code >= 500 && !ok, he.Code < 400:
		return internalProblem()
	case !ok:
		known.code, known.detail = "http_error", http.StatusText(he.Code)
	}
	p := NewProblem(he.Code, known.code, known.detail)
	// echo's own messages for client errors (e.g. from binding) are more
	// specific than the default and safe to show; server ones are not shown.
	if msg, isString := he.Message.(string); isString && he.Code < 500 && msg != "" && msg != http.StatusText(he.Code) {
		p.Detail = msg
	}
	return p
}

// retryAfter is the wait a 429 or a 503 names when the error does not know
// better: a rate limit's window is usually an hour; a store that is
// unavailable comes back in seconds (domain.UnavailableRetryAfter).
var retryAfter = map[int]time.Duration{
	http.StatusTooManyRequests:    time.Hour,
	http.StatusServiceUnavailable: domain.UnavailableRetryAfter,
}

// handleError is echo's error handler: it renders err as a problem.
func (s *Server) handleError(err error, c echo.Context) {
	res := c.Response()
	if res.Committed {
		return // the status line is out; nothing sensible can follow
	}
	p := problemFor(err)
	body, merr := json.Marshal(p)
	if merr != nil {
		p = internalProblem()
		body, _ = json.Marshal(p)
	}
	res.Header().Set(echo.HeaderContentType, ContentTypeProblem)
	if wait, ok := retryAfter[p.Status]; ok && res.Header().Get("Retry-After") == "" {
		// Every 429 and 503 says when to come back: the domain's estimate,
		// else the status's default.
		if de, ok := domain.ErrorOf(err); ok && de.RetryAfter > 0 {
			wait = de.RetryAfter
		}
		res.Header().Set("Retry-After", strconv.FormatInt(int64((wait+time.Second-1)/time.Second), 10))
	}
	if p.Status == http.StatusUnauthorized {
		res.Header().Set(echo.HeaderWWWAuthenticate, "Bearer")
	}
	res.WriteHeader(p.Status)
	if c.Request().Method != http.MethodHead {
		_, _ = res.Write(body)
	}
}
