package mailin

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// endless is a message of n bytes made up as it is read: a header, then
// base64-looking lines, so a test of a huge message holds none of it.
type endless struct {
	header []byte
	n, off int64
}

func (r *endless) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.n-r.off)]
	for i := range p {
		if o := r.off + int64(i); o < int64(len(r.header)) {
			p[i] = r.header[o]
		} else if o%77 == 76 {
			p[i] = '\n'
		} else {
			p[i] = 'Q'
		}
	}
	r.off += int64(len(p))
	return len(p), nil
}

func TestReadTooLarge(t *testing.T) {
	header := "From: MAILER-DAEMON@mx.example.net\r\nContent-Type: multipart/report; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n"
	cases := []struct {
		name    string
		size    int64
		lim     Limits
		wantErr error
	}{
		{"20 MB against the default 1 MiB", 20 << 20, Limits{}, ErrTooLarge},
		{"one byte over", 1001, Limits{MaxBytes: 1000}, ErrTooLarge},
		{"exactly the limit", 1000, Limits{MaxBytes: 1000}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &endless{header: []byte(header), n: c.size}
			m, err := Read(r, c.lim)
			if !errors.Is(err, c.wantErr) || (err != nil) != (c.wantErr != nil) {
				t.Fatalf("err = %v, want %v", err, c.wantErr)
			}
			max := int64(c.lim.withDefaults().MaxBytes) + 1
			if r.off > max {
				t.Errorf("read %d bytes, want at most %d", r.off, max)
			}
			// The header is read all the same, so that the caller does not
			// answer a bounce.
			if m == nil || m.Auto != AutoBounce {
				t.Errorf("message %+v, want its header read", m)
			}
		})
	}
}

func TestParseTooLarge(t *testing.T) {
	raw := msg([]string{"From: ann@example.org"}, strings.Repeat("a1-b2\r\n", 200))
	m, err := Parse(raw, Limits{MaxBytes: len(raw) - 1})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if m == nil || m.From != "ann@example.org" || m.Lines != nil {
		t.Errorf("message %+v, want the header alone", m)
	}
}

// bomb nests depth multiparts, each with width empty parts before the next
// level, and then, past where Parse must stop, a part that cannot be read:
// reaching it would fail with ErrMalformed instead of ErrTooComplex.
func bomb(depth, width int) []byte {
	var b bytes.Buffer
	b.WriteString("From: ann@example.org\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n")
	for d := range depth {
		for range width {
			fmt.Fprintf(&b, "--b%d\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n", d)
		}
		fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", d, d+1)
	}
	fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=\"\"\r\n\r\n", depth)
	for d := depth; d >= 0; d-- {
		fmt.Fprintf(&b, "--b%d--\r\n", d)
	}
	return b.Bytes()
}

func TestParseMIMEBomb(t *testing.T) {
	cases := []struct {
		name    string
		raw     []byte
		lim     Limits
		wantErr error
	}{
		{"nested 1000 deep", bomb(1000, 0), Limits{}, ErrTooComplex},
		{"5000 parts", bomb(1, 5000), Limits{}, ErrTooComplex},
		{"many parts, many levels", bomb(50, 50), Limits{}, ErrTooComplex},
		{"HTML nested 100000 deep",
			msg([]string{"From: ann@example.org", "Content-Type: text/html"}, strings.Repeat("<div>", 100000)+"a1-b2"),
			Limits{}, ErrTooComplex},
		// The same shapes within the limits reach the unreadable part, which
		// shows that the limits, not the shape, stopped the others.
		{"nested within MaxDepth", bomb(5, 0), Limits{}, ErrMalformed},
		{"parts within MaxParts", bomb(1, 50), Limits{}, ErrMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse(c.raw, c.lim)
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("err = %v, want %v", err, c.wantErr)
			}
			if m == nil || m.From != "ann@example.org" {
				t.Errorf("message %+v, want its header read", m)
			}
		})
	}
}

func TestParseStopsAtTheText(t *testing.T) {
	// Parts after the text are never walked, however many.
	raw := bomb(1, 5000)
	raw = bytes.Replace(raw, []byte("--b0\r\n"), []byte("--b0\r\nContent-Type: text/plain\r\n\r\na1-b2\r\n--b0\r\n"), 1)
	m, err := Parse(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Lines) != 1 || m.Lines[0] != "a1-b2" {
		t.Errorf("lines %q", m.Lines)
	}
}
