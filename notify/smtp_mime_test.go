package notify

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify/smtptest"
)

// Names a player may choose, sent through real SMTP: each arrives, and the
// To header parses back to the same name and address.
func TestSMTPHostileNames(t *testing.T) {
	srv := smtptest.Start(t)
	s, err := NewSMTPSender(SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: TLSNone, From: `"Less \"Games\"" <games@less.example>`})
	if err != nil {
		t.Fatal(err)
	}
	defer s.CloseIdleConnections()
	names := []string{
		`Robert "Bobby" Smith`,
		`5" Bob`,
		`"`,
		`back\slash \"`,
		`Smith, John`,
		`Eve <eve@evil.example>`,
		`ann@example.org`,
		`(comment) ; : @ [x]`,
		`Zoë Ünal-Łukasz`,
		`=?utf-8?q?Evil?=`,
		`=?UTF-8?B?RXZpbA==?= Smith`,
		`日本語の名前 "引用"`,
		strings.Repeat("Ünïcödé ", 12),
		strings.Repeat("𝄞", 64),
		strings.Repeat("\"𝄞", 32),
		`  spaced  out  `,
	}
	for i, name := range names {
		addr := "ann@example.org"
		if len(name) > 200 {
			addr = strings.Repeat("a", 64) + "@" + strings.Repeat("long-domain.", 20) + "example" // 64 + 1 + 247
		}
		m := Message{To: addr, ToName: name, Subject: strings.Repeat(name+" – ", 4), Text: "hello", HTML: "<p>hello</p>",
			MessageID: "hostile" + string(rune('a'+i)) + "@less.example"}
		if err := s.Send(t.Context(), m); err != nil {
			t.Errorf("%q: %v", name, err)
			continue
		}
		got := srv.Wait(t, i+1, 5*time.Second)[i]
		to, err := got.Header.AddressList("To")
		if err != nil || len(to) != 1 || to[0].Name != name || to[0].Address != m.To {
			t.Errorf("%q: To %q parses as %v, %v", name, got.Header.Get("To"), to, err)
		}
		if got.Subject() != m.Subject {
			t.Errorf("%q: subject %q", name, got.Subject())
		}
		from, err := got.Header.AddressList("From")
		if err != nil || len(from) != 1 || from[0].Name != `Less "Games"` {
			t.Errorf("From %q parses as %v, %v", got.Header.Get("From"), from, err)
		}
		for _, line := range strings.Split(string(got.Raw), "\r\n") {
			if len(line) > 998 {
				t.Errorf("%q: a line of %d characters", name, len(line))
			}
		}
	}
}

// part is a node of a received message's MIME tree.
type part struct {
	mediaType   string
	params      map[string]string
	header      mail.Header
	body        string // decoded, for leaves
	children    []part
	disposition string
}

func parseTree(t *testing.T, header mail.Header, body io.Reader) part {
	t.Helper()
	mediaType, params, err := mime.ParseMediaType(header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("Content-Type %q: %v", header.Get("Content-Type"), err)
	}
	p := part{mediaType: mediaType, params: params, header: header}
	p.disposition, _, _ = mime.ParseMediaType(header.Get("Content-Disposition"))
	if !strings.HasPrefix(mediaType, "multipart/") {
		data, err := io.ReadAll(body) // multipart.Reader decodes quoted-printable itself
		if err != nil {
			t.Fatal(err)
		}
		p.body = string(data)
		return p
	}
	r := multipart.NewReader(body, params["boundary"])
	for {
		child, err := r.NextPart()
		if err == io.EOF {
			return p
		}
		if err != nil {
			t.Fatal(err)
		}
		p.children = append(p.children, parseTree(t, mail.Header(child.Header), child))
	}
}

// An email with a board arrives as multipart/alternative{text/plain,
// multipart/related{text/html, image/png}}: text-only readers show the text
// and no attachment, and the HTML shows the picture by its bracketed
// Content-ID.
func TestSMTPBoardStructure(t *testing.T) {
	var withBoard Message
	for _, m := range mailbook(t, "en") {
		if len(m.Images) > 0 {
			withBoard = m
			break
		}
	}
	if withBoard.HTML == "" {
		t.Fatal("no email with a board")
	}
	srv := smtptest.Start(t)
	s, err := NewSMTPSender(SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: TLSNone, From: "games@less.example"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.CloseIdleConnections()
	if err := s.Send(t.Context(), withBoard); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, 1, 5*time.Second)[0]
	msg, err := mail.ReadMessage(bytes.NewReader(got.Raw))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Header.Get("MIME-Version") != "1.0" {
		t.Errorf("MIME-Version %q", msg.Header.Get("MIME-Version"))
	}
	root := parseTree(t, msg.Header, msg.Body)
	if root.mediaType != "multipart/alternative" || len(root.children) != 2 {
		t.Fatalf("root %s with %d parts", root.mediaType, len(root.children))
	}
	text, related := root.children[0], root.children[1]
	if text.mediaType != "text/plain" || text.params["charset"] != "utf-8" || text.disposition != "" ||
		strings.ReplaceAll(text.body, "\r\n", "\n") != withBoard.Text {
		t.Errorf("first alternative: %s %v %q", text.mediaType, text.params, text.disposition)
	}
	if related.mediaType != "multipart/related" || related.params["type"] != "text/html" || len(related.children) != 2 {
		t.Fatalf("second alternative: %s %v with %d parts", related.mediaType, related.params, len(related.children))
	}
	html, img := related.children[0], related.children[1]
	if html.mediaType != "text/html" || html.params["charset"] != "utf-8" {
		t.Errorf("related root: %s %v", html.mediaType, html.params)
	}
	cid := img.header.Get("Content-Id")
	if img.mediaType != "image/png" || img.disposition != "inline" || !strings.HasPrefix(cid, "<") || !strings.HasSuffix(cid, ">") ||
		!strings.Contains(cid, "@") {
		t.Fatalf("picture: %s, disposition %q, Content-ID %q", img.mediaType, img.disposition, cid)
	}
	if want := `src="cid:` + strings.Trim(cid, "<>") + `"`; !strings.Contains(html.body, want) {
		t.Errorf("the HTML does not show the picture by %s", want)
	}
	if !bytes.Equal(got.Inline[strings.Trim(cid, "<>")], withBoard.Images[0].PNG) {
		t.Error("the picture arrived changed")
	}
}

// BenchmarkCompose measures building one "your turn" email of the usual
// size (a board picture of 30 kB), its memory above all: each is made
// while others are sent, and what it allocates sets how often the server
// collects garbage and how far its memory grows between collections.
func BenchmarkCompose(b *testing.B) {
	s, err := NewSMTPSender(SMTPConfig{Host: "localhost", Port: 25, TLS: TLSNone, From: "Less <games@less.example>"})
	if err != nil {
		b.Fatal(err)
	}
	png := make([]byte, 30<<10)
	for i := range png {
		png[i] = byte(i * 7919 >> 3)
	}
	m := Message{To: "ann@example.org", ToName: "Ann", Subject: "Less: Ann – Bob", MessageID: "x@less.example",
		Text:   strings.Repeat("A line of the email, as long as most are.\n", 70),
		HTML:   strings.Repeat("<p style=\"margin:0 0 12px\">A line of the email, as long as most are.</p>\n", 140),
		Images: []Image{{ContentID: "board", Name: "board.png", PNG: png}}}
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.compose(m, now); err != nil {
			b.Fatal(err)
		}
	}
}

// The picture's base64 comes in lines of 76 characters but the last, each
// ending in CRLF, and decodes to the picture, whatever its length.
func TestWriteBase64(t *testing.T) {
	for _, n := range []int{0, 1, 2, 56, 57, 58, 114, 115, 1000} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i * 31)
		}
		var b bytes.Buffer
		writeBase64(&b, data)
		lines := strings.Split(b.String(), "\r\n")
		if lines[len(lines)-1] != "" {
			t.Errorf("%d bytes: does not end in CRLF: %q", n, b.String())
		}
		lines = lines[:len(lines)-1]
		for i, l := range lines {
			if len(l) > 76 || i < len(lines)-1 && len(l) != 76 {
				t.Errorf("%d bytes: line %d of %d is %d characters", n, i, len(lines), len(l))
			}
		}
		got, err := base64.StdEncoding.DecodeString(strings.Join(lines, ""))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%d bytes: decodes to %d bytes, %v", n, len(got), err)
		}
	}
}
