package mailin

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"

	"github.com/lesspost/lesspost/domain"
)

// readHeader fills a Message from the top-level header. The error is about
// From alone: everything else is read leniently, since a reply with an odd
// Subject is still a reply.
func readHeader(h message.Header, authServID string) (*Message, error) {
	mh := mail.Header{Header: h}
	m := &Message{
		AuthFailed: authFailed(h.Values("Authentication-Results"), authServID),
		InReplyTo:  parentIDs(mh),
	}
	m.MessageID, _ = mh.MessageID()
	// An undecodable encoded word leaves the raw text, which still says
	// more than nothing.
	m.Subject, _ = mh.Subject()
	from, err := fromAddress(mh)
	m.Auto = autoReason(h, from)
	if err != nil {
		return m, err
	}
	m.From, err = domain.NormalizeEmail(from)
	if err != nil {
		return m, fmt.Errorf("from %q: %w", from, err)
	}
	return m, nil
}

// fromAddress is the one From address, as written.
func fromAddress(h mail.Header) (string, error) {
	list, err := h.AddressList("From")
	if err != nil {
		// A display name in an unknown charset fails the whole list; the
		// address between angle brackets is all we need.
		v := h.Get("From")
		i, j := strings.LastIndexByte(v, '<'), strings.LastIndexByte(v, '>')
		if i < 0 || j < i {
			return "", fmt.Errorf("from %q: %w", v, err)
		}
		return strings.TrimSpace(v[i+1 : j]), nil
	}
	switch len(list) {
	case 0:
		return "", errors.New("no From address")
	case 1:
		return list[0].Address, nil
	default:
		// RFC 5322 allows several authors; which of them moved is anyone's
		// guess, so none did.
		return "", fmt.Errorf("%d From addresses", len(list))
	}
}

// parentIDs lists In-Reply-To's ids, then References' from the last, each
// once: the last reference is the direct parent, the first the thread's root.
func parentIDs(h mail.Header) []string {
	// A malformed id ends its list; the ids before it are still good.
	irt, _ := h.MsgIDList("In-Reply-To")
	refs, _ := h.MsgIDList("References")
	var ids []string
	seen := make(map[string]bool)
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, id := range irt {
		add(id)
	}
	for i := len(refs) - 1; i >= 0; i-- {
		add(refs[i])
	}
	return ids
}

// autoReason says why a machine, not a person, sent the message: "" if
// nothing says so.
func autoReason(h message.Header, from string) string {
	// A bounce says the most, so it is named first.
	if t, _, _ := h.ContentType(); t == "multipart/report" {
		return AutoBounce
	}
	if at := strings.LastIndexByte(from, '@'); at >= 0 {
		switch strings.ToLower(from[:at]) {
		case "mailer-daemon", "postmaster":
			return AutoBounce
		}
	}
	if v := firstToken(h.Get("Auto-Submitted")); v != "" && v != "no" {
		return AutoSubmitted
	}
	switch firstToken(h.Get("Precedence")) {
	case "bulk", "junk", "list", "auto_reply":
		return AutoPrecedence
	}
	if h.Has("X-Autoreply") || h.Has("X-Autorespond") {
		return AutoHeader
	}
	// Exchange marks its out-of-office replies and other system mail so.
	for _, v := range strings.Split(h.Get("X-Auto-Response-Suppress"), ",") {
		if v := strings.ToLower(strings.TrimSpace(v)); v == "all" || v == "oof" {
			return AutoHeader
		}
	}
	if h.Has("List-Id") || h.Has("List-Unsubscribe") {
		return AutoList
	}
	return ""
}

// firstToken is a header value's first word, lower-cased, without the
// parameters or comments that may follow it ("auto-replied; x=y").
func firstToken(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.IndexAny(v, " \t;("); i >= 0 {
		v = v[:i]
	}
	return strings.ToLower(v)
}
