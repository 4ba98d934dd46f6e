// Package mailin reads one received email, as raw bytes, into what lesspost
// needs to act on a reply: who sent it, which of our messages it answers,
// whether a machine sent it (an auto-reply, a bounce, a list), whether the
// receiving server's authentication checks failed, and the new lines the
// person wrote above or below the quote. It does no I/O and keeps no state;
// MIME and charsets are github.com/emersion/go-message's, HTML is
// golang.org/x/net/html's.
package mailin

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/emersion/go-message"
	// The charset package registers the decoders for charsets other than
	// UTF-8 and US-ASCII (ISO-8859-x, windows-125x, Shift_JIS, GB18030, ...)
	// with go-message: replies come from every mail client in every language,
	// and without it their bodies and encoded-word subjects would be refused.
	"github.com/emersion/go-message/charset"
	"golang.org/x/text/encoding/charmap"
)

func init() {
	// Mail labelled ISO-8859-1 is, in practice, windows-1252 (Outlook's smart
	// quotes and euro sign live in 0x80-0x9F, which ISO-8859-1 gives to
	// unused control characters); browsers decode it so for the same reason
	// (WHATWG Encoding Standard). RegisterEncoding is go-message's hook for
	// this, meant to be called from init.
	for _, label := range []string{"iso-8859-1", "iso8859-1", "latin1", "l1", "iso_8859-1"} {
		charset.RegisterEncoding(label, charmap.Windows1252)
	}
}

// Errors a caller can answer (errors.Is). When the header could be read,
// Parse returns the Message read so far along with the error, so that the
// caller can check Auto and From before answering anything.
var (
	// ErrTooLarge: the message is over Limits.MaxBytes.
	ErrTooLarge = errors.New("message too large")
	// ErrMalformed: the header cannot be read, the MIME structure is broken
	// before any text was found, or there is no single usable From address.
	ErrMalformed = errors.New("malformed message")
	// ErrTooComplex: the MIME tree is deeper than Limits.MaxDepth or has more
	// than Limits.MaxParts parts before its text (a MIME bomb, or close), or
	// the HTML body nests elements deeper than golang.org/x/net/html parses
	// (512).
	ErrTooComplex = errors.New("message too complex")
	// ErrNoText: no text part, or no new text once quotes, attributions and
	// the signature are dropped.
	ErrNoText = errors.New("no text in message")
)

// Message is what lesspost needs of one received reply.
type Message struct {
	// MessageID is the Message-ID without <>, "" if none.
	MessageID string
	// From is the From address normalised as lesspost stores addresses
	// (domain.NormalizeEmail: lower-case, IDNA domain).
	From string
	// InReplyTo are the Message-IDs (without <>) the message answers: those
	// of In-Reply-To, then those of References from the newest (last) back,
	// each once. The most likely parent comes first.
	InReplyTo []string
	// Subject is the decoded subject (RFC 2047 encoded words).
	Subject string
	// Auto says why the message must be neither answered nor acted on: ""
	// for a person's reply, else one of the Auto* reasons.
	Auto string
	// AuthFailed names the check the receiving server failed, per its
	// Authentication-Results header (see Limits.AuthServID): "dmarc",
	// "dkim", "spf", or "" when none failed or none was made. Only the
	// result "fail" counts (SPF's softfail does not); a DKIM fail counts
	// only when no DKIM signature passed; a DMARC pass outweighs any fail.
	// Of several failures the first named here is given.
	AuthFailed string
	// Lines are the new text of the reply, in order: the first text/plain
	// part (or the HTML-only body turned into text), decoded, with quoted
	// lines, attribution lines ("On … wrote:" and its translations),
	// Outlook's original-message headers and what follows them, and
	// everything after a signature delimiter dropped; each line trimmed,
	// empty lines dropped.
	Lines []string
}

// Reasons a message is automatic (Message.Auto).
const (
	AutoSubmitted  = "auto-submitted"   // RFC 3834 Auto-Submitted other than "no"
	AutoPrecedence = "precedence"       // Precedence: bulk, junk, list or auto_reply
	AutoBounce     = "bounce"           // multipart/report, or From mailer-daemon@ / postmaster@
	AutoHeader     = "autoreply-header" // X-Autoreply, X-Autorespond, X-Auto-Response-Suppress: All/OOF
	AutoList       = "list"             // List-Id or List-Unsubscribe present
)

// Limits bound the work Parse does on one message. A zero field takes its
// default.
type Limits struct {
	MaxBytes int // refuse larger messages (default 1 MiB)
	MaxParts int // MIME parts walked, in all (default 100)
	MaxDepth int // multipart nesting (default 10)
	MaxText  int // bytes of decoded text kept (default 64 KiB)
	// AuthServID is the authserv-id of the receiving server's
	// Authentication-Results headers; only the topmost of those counts
	// (one further down is not the server's own). If empty, only the
	// topmost Authentication-Results header counts.
	AuthServID string
}

// Defaults of Limits.
const (
	DefaultMaxBytes = 1 << 20
	DefaultMaxParts = 100
	DefaultMaxDepth = 10
	DefaultMaxText  = 64 << 10
)

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxParts <= 0 {
		l.MaxParts = DefaultMaxParts
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxText <= 0 {
		l.MaxText = DefaultMaxText
	}
	return l
}

// Read reads one message from r and parses it. It reads at most
// lim.MaxBytes+1 bytes, so memory stays bounded however large the message;
// draining the rest of r, if the protocol needs it, is the caller's business.
func Read(r io.Reader, lim Limits) (*Message, error) {
	lim = lim.withDefaults()
	raw, err := io.ReadAll(io.LimitReader(r, int64(lim.MaxBytes)+1))
	if err != nil {
		return nil, fmt.Errorf("read message: %w", err)
	}
	return Parse(raw, lim)
}

// Parse reads one RFC 5322 message (as received: header, then body).
func Parse(raw []byte, lim Limits) (*Message, error) {
	lim = lim.withDefaults()
	tooLarge := len(raw) > lim.MaxBytes
	if tooLarge {
		// Read the header all the same: the caller must know whether a
		// machine sent it (a bounce quoting a large original, say) and whom
		// to tell.
		raw = raw[:lim.MaxBytes]
	}
	ent, err := message.ReadWithOptions(bytes.NewReader(raw), &message.ReadOptions{MaxHeaderBytes: int64(lim.MaxBytes)})
	if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
		return nil, fmt.Errorf("%w: header: %v", ErrMalformed, err)
	}
	m, fromErr := readHeader(ent.Header, lim.AuthServID)
	if tooLarge {
		return m, fmt.Errorf("%w: over %d bytes", ErrTooLarge, lim.MaxBytes)
	}
	if fromErr != nil {
		return m, fmt.Errorf("%w: %v", ErrMalformed, fromErr)
	}
	text, err := findText(ent, err, lim)
	if err != nil {
		return m, err
	}
	m.Lines = newLines(text)
	if len(m.Lines) == 0 {
		return m, fmt.Errorf("%w: no new text", ErrNoText)
	}
	return m, nil
}
