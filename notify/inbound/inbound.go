// Package inbound receives the replies players send to game emails and plays
// them: an SMTP listener (Listener) to put behind the mail domain's MX, an
// IMAP poller (Poller) for a hosted mailbox, and the Processor that acts on
// what either received. Receivers only keep a message, durably, in the
// store's domain.Inbox (and only then tell the sender it was taken); the
// Processor, on any instance, claims what was kept, reads it with
// notify/mailin and plays it through games.Service.PlayByReply, which is
// idempotent by Message-ID. So a message is taken once whatever the network
// does, and played once whatever the processes do.
package inbound

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// Sources of received mail (domain.InboundMail.Source).
const (
	SourceSMTP = "smtp"
	SourceIMAP = "imap"
)

// DefaultMaxBytes bounds a received message: a reply is a few kilobytes,
// and one quoting a whole thread with its HTML seldom passes 200 KiB.
const DefaultMaxBytes = 1 << 20

// headerLimit bounds what is read of a header to find its Message-ID.
const headerLimit = 64 << 10

// DedupeKey is the key under which a message delivered to recipient is kept
// (domain.InboundMail.DedupeKey): its Message-ID and the recipient, so that
// the same message delivered twice (a relay's retry, a poller's re-fetch
// after a restart) is kept once; a message without a Message-ID is known by
// a hash of its bytes and the recipient instead.
func DedupeKey(raw []byte, recipient string) string {
	recipient = strings.ToLower(recipient)
	if id := messageID(raw); id != "" {
		return "mid:" + id + " " + recipient
	}
	h := sha256.New()
	h.Write(raw)
	h.Write([]byte{0})
	h.Write([]byte(recipient))
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// messageID is the Message-ID of raw without its brackets, "" if it has
// none or its header cannot be read. It is read as mailin reads it
// (go-message's mail.Header), so that the key and the use case's
// idempotency agree.
func messageID(raw []byte) string {
	hdr := raw[:min(len(raw), headerLimit)]
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(hdr)))
	if err != nil {
		return ""
	}
	id, err := (&mail.Header{Header: message.Header{Header: h}}).MessageID()
	if err != nil {
		return ""
	}
	return id
}
