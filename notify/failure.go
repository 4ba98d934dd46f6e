package notify

import (
	"errors"
	"fmt"
	"net/textproto"
	"regexp"

	"github.com/lesspost/lesspost/domain"
)

// Failure codes say why an email was not delivered (GET
// /v1/games/{id}/mail shows them). What the mail server said goes only to
// the server log: its replies can quote addresses, other players' too.
const (
	FailRejected     = "rejected"          // the mail server refused it for good (5xx)
	FailTemporary    = "temporary_failure" // the mail server asked to try later (4xx)
	FailUnreachable  = "unreachable"       // no conversation with the mail server (connection, TLS, login, timeout)
	FailRenderFailed = "render_failed"     // the email could not be written (a lesspost fault)
	// repo gives up mail itself as "suppressed" (the address asked never to
	// be emailed again) and "expired" (a login code that expired unsent).
)

// errRender marks an email that could not be rendered.
var errRender = errors.New("render")

// errDial marks a send that failed before the mail server was ready for a message.
var errDial = errors.New("dial")

// enhancedCode is an RFC 3463 status code at the start of a reply, e.g. 5.1.1.
var enhancedCode = regexp.MustCompile(`^[245]\.[0-9]{1,3}\.[0-9]{1,3}\b`)

// failure describes a failed attempt with a code and a message built from
// lesspost's own words and the reply's status codes, never its text.
func failure(err error) domain.MailFailure {
	if errors.Is(err, errRender) {
		return domain.MailFailure{Code: FailRenderFailed, Message: "The email could not be written; the server log says why."}
	}
	var reply *textproto.Error
	if !errors.Is(err, errDial) && errors.As(err, &reply) && reply.Code >= 400 && reply.Code < 600 {
		status := fmt.Sprint(reply.Code)
		if ec := enhancedCode.FindString(reply.Msg); ec != "" {
			status += " " + ec
		}
		if reply.Code >= 500 {
			return domain.MailFailure{Code: FailRejected, Message: "The mail server refused the email (SMTP " + status + ")."}
		}
		return domain.MailFailure{Code: FailTemporary, Message: "The mail server asked to try again later (SMTP " + status + ")."}
	}
	return domain.MailFailure{Code: FailUnreachable, Message: "The mail server could not be reached or did not answer."}
}
