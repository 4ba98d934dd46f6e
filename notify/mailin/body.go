package mailin

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/emersion/go-message"
	htmlcharset "golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/charmap"
)

// findText returns the message's text, as UTF-8: the first text/plain part
// that is not an attachment, else the first such text/html part turned into
// text. entErr is the error that came with root (an unknown charset or
// transfer encoding, which leaves the body undecoded).
func findText(root *message.Entity, entErr error, lim Limits) (string, error) {
	w := walker{lim: lim}
	err := w.walk(root, entErr, 0)
	switch {
	case w.plain != nil:
		return *w.plain, nil
	case w.html != nil:
		// Past the HTML part, the walk was only looking for a plain one:
		// a fault there does not spoil the text found.
		return htmlText(w.html, lim.MaxText)
	case err != nil:
		return "", err
	}
	return "", fmt.Errorf("%w: no text/plain or text/html part", ErrNoText)
}

// walker walks the MIME tree depth first, in order, until the first
// text/plain part, counting parts and nesting so that a MIME bomb is refused
// after at most MaxParts parts and MaxDepth levels.
type walker struct {
	lim   Limits
	parts int
	plain *string
	html  []byte // the first HTML part, already UTF-8
}

func (w *walker) walk(e *message.Entity, entErr error, depth int) error {
	w.parts++
	if w.parts > w.lim.MaxParts {
		return fmt.Errorf("%w: over %d MIME parts", ErrTooComplex, w.lim.MaxParts)
	}
	if mr := e.MultipartReader(); mr != nil {
		if depth == w.lim.MaxDepth {
			return fmt.Errorf("%w: multipart nested over %d deep", ErrTooComplex, w.lim.MaxDepth)
		}
		for w.plain == nil {
			p, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
				return fmt.Errorf("%w: MIME part %d: %v", ErrMalformed, w.parts+1, err)
			}
			if err := w.walk(p, err, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if disp, _, _ := e.Header.ContentDisposition(); disp == "attachment" {
		return nil
	}
	t, params, err := e.Header.ContentType()
	if err != nil {
		t = "text/plain" // RFC 2045 5.2: an unreadable Content-Type is text/plain
	}
	declared := params["charset"] != "" && !message.IsUnknownCharset(entErr)
	switch {
	case t == "text/plain":
		b, err := readPart(e.Body, w.lim.MaxText)
		if err != nil {
			return fmt.Errorf("%w: text part: %v", ErrMalformed, err)
		}
		s := clip(toUTF8(b, false), w.lim.MaxText)
		w.plain = &s
	case t == "text/html" && w.html == nil:
		// The markup can be many times its text; the whole message is
		// bounded by MaxBytes already.
		b, err := readPart(e.Body, w.lim.MaxBytes)
		if err != nil {
			return fmt.Errorf("%w: HTML part: %v", ErrMalformed, err)
		}
		w.html = []byte(toUTF8(b, !declared))
	}
	return nil
}

// readPart reads at most n bytes of a part's decoded body.
func readPart(r io.Reader, n int) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(n)))
	if errors.Is(err, io.ErrUnexpectedEOF) && len(b) > 0 {
		// A missing closing boundary cuts the part short, not the text
		// before it.
		return b, nil
	}
	return b, err
}

// toUTF8 decodes text whose charset was not declared, or was declared wrong
// (go-message passes "utf-8" and "us-ascii" bodies through unchecked): valid
// UTF-8 is taken as such, short of a rune cut by a limit; then, with
// sniffHTML, as the HTML's BOM or <meta> says; the rest as windows-1252,
// which is what bytes that are not UTF-8 most often are in mail from
// Western clients, and which decodes every byte.
func toUTF8(b []byte, sniffHTML bool) string {
	if utf8.Valid(trimCutRune(b)) {
		return string(trimCutRune(b))
	}
	if sniffHTML {
		enc, _, _ := htmlcharset.DetermineEncoding(b, "text/html")
		if s, err := enc.NewDecoder().Bytes(b); err == nil && utf8.Valid(s) {
			return string(s)
		}
	}
	s, _ := charmap.Windows1252.NewDecoder().Bytes(b) // never fails: every byte maps
	return string(s)
}

// trimCutRune drops an incomplete rune at the end of b.
func trimCutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// clip cuts s to at most n bytes, at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
