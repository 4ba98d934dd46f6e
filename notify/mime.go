package notify

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
	"time"
)

// compose writes the message in MIME. The structure is the one every
// client shows right (RFC 2046, 2387, 2392):
//
//	multipart/alternative
//	├── text/plain
//	└── multipart/related          (text/plain alone without HTML)
//	    ├── text/html              refers to the board as cid:…
//	    └── image/png              Content-ID: <…>, inline
//
// so that a text-only reader shows the text and no attachment, and an HTML
// reader shows the board inside the HTML. go-mail puts multipart/related
// around the alternatives, which shows the image as an attachment beside
// the text, so the message is built here with the standard library.
//
// Every header a player can influence (name, subject) is encoded by
// net/mail and mime (RFC 2047); names were checked for control characters
// when they were entered, so nothing a player typed can add a header.
func (s *SMTPSender) compose(m Message, now time.Time) ([]byte, error) {
	if strings.ContainsAny(m.To, "\r\n<>") {
		return nil, fmt.Errorf("smtp: recipient %q", m.To)
	}
	var b bytes.Buffer
	b.Grow(encodedSize(&m))
	h := func(name, value string) { fmt.Fprintf(&b, "%s: %s\r\n", name, value) }
	h("From", s.from.String())
	h("To", fold((&mail.Address{Name: m.ToName, Address: m.To}).String()))
	h("Subject", encodeHeader(m.Subject))
	h("Date", now.Format(time.RFC1123Z))
	h("Message-ID", "<"+m.MessageID+">")
	if m.ReplyTo != "" {
		if strings.ContainsAny(m.ReplyTo, "\r\n<>") {
			return nil, fmt.Errorf("smtp: reply-to %q", m.ReplyTo)
		}
		h("Reply-To", "<"+m.ReplyTo+">")
	}
	if m.ThreadID != "" {
		h("In-Reply-To", "<"+m.ThreadID+">")
		h("References", "<"+m.ThreadID+">")
	}
	if m.Unsubscribe != "" {
		h("List-Unsubscribe", "<"+m.Unsubscribe+">")
		h("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	h("Auto-Submitted", "auto-generated") // RFC 3834: no vacation replies
	h("MIME-Version", "1.0")

	if m.HTML == "" {
		h("Content-Type", "text/plain; charset=utf-8")
		h("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n")
		if err := writeQP(&b, m.Text); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	alt := multipart.NewWriter(&b)
	h("Content-Type", mime.FormatMediaType("multipart/alternative", map[string]string{"boundary": alt.Boundary()}))
	b.WriteString("\r\n")
	if err := textPart(alt, "text/plain", m.Text); err != nil {
		return nil, err
	}
	if len(m.Images) == 0 {
		if err := textPart(alt, "text/html", m.HTML); err != nil {
			return nil, err
		}
		if err := alt.Close(); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	var related bytes.Buffer
	related.Grow(encodedSize(&Message{HTML: m.HTML, Images: m.Images}))
	rel := multipart.NewWriter(&related)
	if err := textPart(rel, "text/html", m.HTML); err != nil {
		return nil, err
	}
	for _, img := range m.Images {
		ph := textproto.MIMEHeader{}
		ph.Set("Content-Type", "image/png")
		ph.Set("Content-Transfer-Encoding", "base64")
		ph.Set("Content-ID", "<"+img.ContentID+">")
		ph.Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": img.Name}))
		w, err := rel.CreatePart(ph)
		if err != nil {
			return nil, err
		}
		writeBase64(w, img.PNG)
	}
	if err := rel.Close(); err != nil {
		return nil, err
	}
	ph := textproto.MIMEHeader{}
	ph.Set("Content-Type", mime.FormatMediaType("multipart/related", map[string]string{"boundary": rel.Boundary(), "type": "text/html"}))
	w, err := alt.CreatePart(ph)
	if err != nil {
		return nil, err
	}
	w.Write(related.Bytes())
	if err := alt.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// encodeHeader encodes text for a header (RFC 2047) if it is not plain
// ASCII, folded.
func encodeHeader(s string) string { return fold(mime.QEncoding.Encode("utf-8", s)) }

// fold breaks a header between encoded words, so that no line grows past
// the 998 characters of RFC 5322: a name of 64 four-byte characters is
// 900 characters encoded, and the address comes after it.
func fold(s string) string { return strings.ReplaceAll(s, "?= =?", "?=\r\n =?") }

func textPart(w *multipart.Writer, mediaType, text string) error {
	ph := textproto.MIMEHeader{}
	ph.Set("Content-Type", mediaType+"; charset=utf-8")
	ph.Set("Content-Transfer-Encoding", "quoted-printable")
	pw, err := w.CreatePart(ph)
	if err != nil {
		return err
	}
	return writeQP(pw, text)
}

// writeQP writes text quoted-printable, its line breaks as CRLF.
func writeQP(w interface{ Write([]byte) (int, error) }, text string) error {
	qp := quotedprintable.NewWriter(w)
	if _, err := qp.Write([]byte(text)); err != nil {
		return err
	}
	return qp.Close()
}

// writeBase64 writes data in base64 lines of 76 characters (RFC 2045),
// a line at a time from one small buffer: the picture is most of an
// email, and encoding it whole, then copying each line, allocated several
// times its size.
func writeBase64(w interface{ Write([]byte) (int, error) }, data []byte) {
	const in = 57 // bytes a 76-character line encodes
	var line [76 + 2]byte
	for len(data) > 0 {
		chunk := data[:min(in, len(data))]
		data = data[len(chunk):]
		n := base64.StdEncoding.EncodedLen(len(chunk))
		base64.StdEncoding.Encode(line[:n], chunk)
		line[n], line[n+1] = '\r', '\n'
		w.Write(line[:n+2])
	}
}

// encodedSize is about the size of a message's MIME, to size its buffer
// once: quoted-printable text grows a little, base64 by a third, and the
// headers and boundaries take a few hundred bytes.
func encodedSize(m *Message) int {
	n := 2048 + (len(m.Text)+len(m.HTML))*11/10
	for _, img := range m.Images {
		n += base64.StdEncoding.EncodedLen(len(img.PNG)) * 78 / 76
	}
	return n
}
