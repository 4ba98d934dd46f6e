package notify

import (
	"errors"
	"fmt"
	"net/textproto"
	"strings"
	"testing"
)

// A failure is described by a code and lesspost's words, with the SMTP
// status codes but nothing else of the reply.
func TestFailureDescription(t *testing.T) {
	tests := []struct {
		err        error
		code, says string
	}{
		{fmt.Errorf("smtp: send to a@b.c: RCPT TO: %w", &textproto.Error{Code: 550, Msg: "5.1.1 <a@b.c> unknown, try c@d.e"}), FailRejected, "(SMTP 550 5.1.1)."},
		{fmt.Errorf("smtp: send to a@b.c: end of DATA: %w", &textproto.Error{Code: 452, Msg: "mailbox of a@b.c full"}), FailTemporary, "(SMTP 452)."},
		{fmt.Errorf("smtp: send to a@b.c: %w: %w", errDial, &textproto.Error{Code: 535, Msg: "5.7.8 bad login for x@y.z"}), FailUnreachable, "could not be reached"},
		{errors.New("dial tcp: connection refused"), FailUnreachable, "could not be reached"},
		{fmt.Errorf("%w: render mail 3: game of a@b.c", errRender), FailRenderFailed, "could not be written"},
	}
	for _, tt := range tests {
		f := failure(tt.err)
		if f.Code != tt.code || !strings.Contains(f.Message, tt.says) || strings.Contains(f.Message, "@") {
			t.Errorf("%v: %+v, want %s saying %q", tt.err, f, tt.code, tt.says)
		}
	}
}
