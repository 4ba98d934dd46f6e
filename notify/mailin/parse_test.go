package mailin

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const authServID = "mx.lesspost.example"

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestParseFixtures(t *testing.T) {
	cases := []struct {
		file    string
		want    Message
		wantErr error
	}{
		{"gmail_en_top.eml", Message{
			MessageID: "CAB1x2y3z=Q@mail.gmail.com",
			From:      "ann@example.org",
			InReplyTo: []string{"notice-7@lesspost.example", "notice-1@lesspost.example"},
			Subject:   "Re: Your turn in game 42",
			Lines:     []string{"b1-c2", "Good luck!"},
		}, nil},
		{"outlook_en_cp1252.eml", Message{
			MessageID: "AM6PR04MB1234ABCD@AM6PR04MB1234.eurprd04.prod.outlook.com",
			From:      "bob@example.net",
			InReplyTo: []string{"notice-7@lesspost.example"},
			Subject:   "RE: Your turn in game 42",
			Lines:     []string{"I’ll take c3-d4 – thanks.", "Bob"},
		}, nil},
		{"outlook_fr_html_only.eml", Message{
			MessageID: "PR3P193MB0987@PR3P193MB0987.EURP193.PROD.OUTLOOK.COM",
			From:      "chloe.martin@outlook.fr",
			InReplyTo: []string{"notice-8@lesspost.example"},
			Subject:   "RE\u00a0: À vous de jouer",
			Lines:     []string{"Je joue e2-e4.", "Bonne journée !"},
		}, nil},
		{"apple_fr_flowed.eml", Message{
			MessageID: "4F2A1C3E-0B7D-4F4B-9C2E-1D2E3F4A5B6C@example.fr",
			From:      "claire@example.fr",
			InReplyTo: []string{"notice-9@lesspost.example", "notice-1@lesspost.example"},
			Subject:   "Re\u00a0: À vous de jouer",
			Lines:     []string{"a2-b3", "Claire"},
		}, nil},
		{"thunderbird_de_bottom.eml", Message{
			MessageID: "8d2c1e4f-aa11-4b7e-9f00-123456789abc@example.de",
			From:      "hans@example.de",
			InReplyTo: []string{"notice-10@lesspost.example"},
			Subject:   "Re: Sie sind am Zug – Partie 42",
			Lines:     []string{"Mein Zug: d4-e5", "Grüße"},
		}, nil},
		{"gmail_es_html_only.eml", Message{
			MessageID: "CAE=es1@mail.gmail.com",
			From:      "lucia@example.es",
			InReplyTo: []string{"notice-11@lesspost.example"},
			Subject:   "Re: Es tu turno – partida 42",
			Lines:     []string{"Muevo e5-f6.", "¡Suerte!"},
		}, nil},
		{"gmail_nl_base64.eml", Message{
			MessageID: "CAF=nl2@mail.gmail.com",
			From:      "daan@example.nl",
			InReplyTo: []string{"notice-12@lesspost.example"},
			Subject:   "Re: Je bent aan de beurt",
			Lines:     []string{"f6-g7"},
		}, nil},
		{"shift_jis.eml", Message{
			MessageID:  "20250303100500.jp1@example.jp",
			From:       "yamada@example.jp",
			InReplyTo:  []string{"notice-13@lesspost.example"},
			Subject:    "Re: あなたの番です",
			AuthFailed: "dmarc",
			Lines:      []string{"a1-b2 でお願いします。"},
		}, nil},
		{"undeclared_latin1.eml", Message{
			MessageID: "old-client-1@example.pt",
			From:      "jose@example.pt",
			InReplyTo: []string{"notice-14@lesspost.example"},
			Subject:   "Re: jogada",
			Lines:     []string{"Jogada: b2-c3 ¡olé!"},
		}, nil},
		{"auth_several.eml", Message{
			MessageID:  "forged-1@example.com",
			From:       "eve@example.com",
			InReplyTo:  []string{"notice-7@lesspost.example"},
			Subject:    "Re: Your turn",
			AuthFailed: "dkim",
			Lines:      []string{"a1-b2"},
		}, nil},
		{"ooo_gmail.eml", Message{
			MessageID: "vacation-1@mail.gmail.com",
			From:      "ann@example.org",
			InReplyTo: []string{"notice-7@lesspost.example"},
			Subject:   "Out of office",
			Auto:      AutoSubmitted,
			Lines:     []string{"I am away until 10 March."},
		}, nil},
		{"ooo_exchange.eml", Message{
			MessageID: "oof-1@AM6PR04MB1234.eurprd04.prod.outlook.com",
			From:      "bob@example.net",
			InReplyTo: []string{"notice-7@lesspost.example"},
			Subject:   "Automatic reply: Your turn in game 42",
			Auto:      AutoHeader,
			Lines:     []string{"I am out of the office until Monday."},
		}, nil},
		{"ooo_vacation_bulk.eml", Message{
			MessageID: "vacation-2@example.de",
			From:      "hans@example.de",
			Subject:   "Abwesenheitsnotiz",
			Auto:      AutoPrecedence,
			Lines:     []string{"Ich bin im Urlaub."},
		}, nil},
		{"ooo_autorespond.eml", Message{
			MessageID: "ar-1@example.com",
			From:      "sales@example.com",
			Subject:   "Thanks for your mail",
			Auto:      AutoHeader,
			Lines:     []string{"We will get back to you."},
		}, nil},
		{"list.eml", Message{
			MessageID: "list-1@example.org",
			From:      "ann@example.org",
			Subject:   "[players] game 42",
			Auto:      AutoList,
			Lines:     []string{"a1-b2"},
		}, nil},
		{"dsn_bounce.eml", Message{
			MessageID: "20250303100000.ABCDEF@mx.example.net",
			From:      "mailer-daemon@mx.example.net",
			Subject:   "Undelivered Mail Returned to Sender",
			Auto:      AutoBounce,
			Lines: []string{
				"I'm sorry to have to inform you that your message could not",
				"be delivered to one or more recipients.",
			},
		}, nil},
		{"dsn_report_only.eml", Message{
			MessageID: "r-1@example.com",
			From:      "bounces@example.com",
			Subject:   "Returned mail",
			Auto:      AutoBounce,
			Lines:     []string{"Delivery failed."},
		}, nil},
		{"postmaster_bounce.eml", Message{
			MessageID: "pm-1@example.org",
			From:      "postmaster@example.org",
			Subject:   "Delivery failure",
			Auto:      AutoBounce,
			Lines:     []string{"Your message could not be delivered."},
		}, nil},
		{"header_only.eml", Message{
			MessageID: "empty-1@example.org",
			From:      "ann@example.org",
			InReplyTo: []string{"notice-7@lesspost.example"},
			Subject:   "Re: Your turn",
		}, ErrNoText},
		{"quote_only.eml", Message{
			From:    "ann@example.org",
			Subject: "Re: Your turn",
		}, ErrNoText},
		{"two_from.eml", Message{
			Subject: "Re: Your turn",
		}, ErrMalformed},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			got, err := Parse(readFixture(t, c.file), Limits{AuthServID: authServID})
			if !errors.Is(err, c.wantErr) || (err != nil) != (c.wantErr != nil) {
				t.Fatalf("err = %v, want %v", err, c.wantErr)
			}
			if got == nil {
				t.Fatal("no message")
			}
			if !reflect.DeepEqual(*got, c.want) {
				t.Errorf("got  %+q\nwant %+q", *got, c.want)
			}
		})
	}
}

// msg builds a message from header lines and a body.
func msg(header []string, body string) []byte {
	return []byte(strings.Join(header, "\r\n") + "\r\n\r\n" + body)
}

func TestParseBodies(t *testing.T) {
	from := "From: Ann <ann@example.org>"
	cases := []struct {
		name   string
		header []string
		body   string
		lim    Limits
		want   []string
	}{
		{"plain without Content-Type", []string{from}, "a1-b2\r\n", Limits{}, []string{"a1-b2"}},
		{"plain 7bit, bottom-posted, several moves",
			[]string{from, "Content-Type: text/plain; charset=us-ascii"},
			"On Mon, 3 Mar 2025, lesspost wrote:\n> Your turn.\n\na1-b2\n  c3-d4  \n\n> more quote\nthanks\n",
			Limits{}, []string{"a1-b2", "c3-d4", "thanks"}},
		{"ISO-8859-1 declared, windows-1252 bytes",
			[]string{from, "Content-Type: text/plain; charset=iso-8859-1", "Content-Transfer-Encoding: quoted-printable"},
			"=93a1-b2=94 =80\n", Limits{}, []string{"“a1-b2” €"}},
		{"UTF-8 declared, Latin-1 bytes",
			[]string{from, "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit"},
			"d\xe9j\xe0 a1-b2\n", Limits{}, []string{"déjà a1-b2"}},
		{"unknown charset, Latin-1 bytes",
			[]string{from, "Content-Type: text/plain; charset=x-martian"},
			"d\xe9j\xe0\n", Limits{}, []string{"déjà"}},
		{"unknown transfer encoding",
			[]string{from, "Content-Type: text/plain", "Content-Transfer-Encoding: x-uuencode"},
			"a1-b2\n", Limits{}, []string{"a1-b2"}},
		{"HTML without charset, meta says ISO-8859-15",
			[]string{from, "Content-Type: text/html"},
			"<html><head><meta charset=\"iso-8859-15\"></head><body><p>\xa4 a1-b2</p></body></html>",
			Limits{}, []string{"€ a1-b2"}},
		{"HTML with <pre> and a table",
			[]string{from, "Content-Type: text/html; charset=utf-8"},
			"<pre>a1-b2\n  c3-d4</pre><table><tr><td>x</td><td>y</td></tr></table><script>alert(1)</script>",
			Limits{}, []string{"a1-b2", "c3-d4", "x y"}},
		{"an attached text is not the reply",
			[]string{from, "Content-Type: multipart/mixed; boundary=b"},
			"--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment\r\n\r\nattached\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>a1-b2</p>\r\n--b--\r\n",
			Limits{}, []string{"a1-b2"}},
		{"text/plain after HTML wins",
			[]string{from, "Content-Type: multipart/alternative; boundary=b"},
			"--b\r\nContent-Type: text/html\r\n\r\n<p>from html</p>\r\n--b\r\nContent-Type: text/plain\r\n\r\nfrom plain\r\n--b--\r\n",
			Limits{}, []string{"from plain"}},
		{"multipart without its closing boundary",
			[]string{from, "Content-Type: multipart/alternative; boundary=b"},
			"--b\r\nContent-Type: text/plain\r\n\r\na1-b2\r\n", Limits{}, []string{"a1-b2"}},
		{"a broken part after the HTML one does not spoil it",
			[]string{from, "Content-Type: multipart/mixed; boundary=b"},
			"--b\r\nContent-Type: text/html\r\n\r\n<p>a1-b2</p>\r\n--b\r\nContent-Type: multipart/mixed; boundary=\"\"\r\n\r\n--b--\r\n",
			Limits{}, []string{"a1-b2"}},
		{"text kept to MaxText, cut at a rune",
			[]string{from, "Content-Type: text/plain; charset=utf-8"},
			"a1-b2\nééééé\n", Limits{MaxText: 10}, []string{"a1-b2", "éé"}},
		{"Windows-1252 text kept to MaxText once decoded",
			[]string{from, "Content-Type: text/plain"},
			"\x80\x80\x80\x80\x80", Limits{MaxText: 7}, []string{"€€"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(msg(c.header, c.body), c.lim)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Lines, c.want) {
				t.Errorf("lines %q, want %q", got.Lines, c.want)
			}
		})
	}
}

func TestParseHeader(t *testing.T) {
	cases := []struct {
		name    string
		header  []string
		check   func(*Message) string
		wantErr error
	}{
		{"encoded-word subject, UTF-8 base64 and Q",
			[]string{"From: a@example.org", "Subject: =?UTF-8?B?UmU6IMOAIHZvdXM=?= =?UTF-8?Q?_de_jouer?="},
			func(m *Message) string { return want(m.Subject, "Re: À vous de jouer") }, nil},
		{"encoded-word subject, windows-1252",
			[]string{"From: a@example.org", "Subject: =?windows-1252?Q?=93Re=94?="},
			func(m *Message) string { return want(m.Subject, "“Re”") }, nil},
		{"encoded-word subject, unknown charset left as is",
			[]string{"From: a@example.org", "Subject: =?x-martian?Q?zz?="},
			func(m *Message) string { return want(m.Subject, "=?x-martian?Q?zz?=") }, nil},
		{"From with encoded display name in an unknown charset",
			[]string{"From: =?x-martian?Q?Zz?= <Zed@Example.org>"},
			func(m *Message) string { return want(m.From, "zed@example.org") }, nil},
		{"From with an IDN domain",
			[]string{"From: Ann <ann@bücher.example>"},
			func(m *Message) string { return want(m.From, "ann@xn--bcher-kva.example") }, nil},
		{"no From", []string{"Subject: hi"}, nil, ErrMalformed},
		{"From at an IP address", []string{"From: ann@[192.0.2.1]"}, nil, ErrMalformed},
		{"References newest first, each once",
			[]string{"From: a@example.org", "In-Reply-To: <c@x>", "References: <a@x>\r\n <b@x> <c@x>"},
			func(m *Message) string { return want(strings.Join(m.InReplyTo, " "), "c@x b@x a@x") }, nil},
		{"malformed References keeps the ids before the fault",
			[]string{"From: a@example.org", "References: <a@x> garbage <b@x>"},
			func(m *Message) string { return want(strings.Join(m.InReplyTo, " "), "a@x") }, nil},
		{"Auto-Submitted: no is a person",
			[]string{"From: a@example.org", "Auto-Submitted: no"},
			func(m *Message) string { return want(m.Auto, "") }, nil},
		{"Auto-Submitted with a comment",
			[]string{"From: a@example.org", "Auto-Submitted: Auto-Generated (vacation)"},
			func(m *Message) string { return want(m.Auto, AutoSubmitted) }, nil},
		{"Precedence: first-class is a person",
			[]string{"From: a@example.org", "Precedence: first-class"},
			func(m *Message) string { return want(m.Auto, "") }, nil},
		{"Precedence: auto_reply",
			[]string{"From: a@example.org", "Precedence: auto_reply"},
			func(m *Message) string { return want(m.Auto, AutoPrecedence) }, nil},
		{"X-Auto-Response-Suppress: OOF in a list",
			[]string{"From: a@example.org", "X-Auto-Response-Suppress: DR, OOF, AutoReply"},
			func(m *Message) string { return want(m.Auto, AutoHeader) }, nil},
		{"X-Auto-Response-Suppress: RN only is a person",
			[]string{"From: a@example.org", "X-Auto-Response-Suppress: RN, NRN"},
			func(m *Message) string { return want(m.Auto, "") }, nil},
		{"List-Unsubscribe alone",
			[]string{"From: a@example.org", "List-Unsubscribe: <mailto:x@example.org>"},
			func(m *Message) string { return want(m.Auto, AutoList) }, nil},
		{"MAILER-DAEMON without a domain is a bounce, and has no usable From",
			[]string{"From: MAILER-DAEMON@localhost"},
			func(m *Message) string { return want(m.Auto, AutoBounce) }, ErrMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(msg(c.header, "a1-b2\r\n"), Limits{})
			if !errors.Is(err, c.wantErr) || (err != nil) != (c.wantErr != nil) {
				t.Fatalf("err = %v, want %v", err, c.wantErr)
			}
			if c.check == nil {
				return
			}
			if got == nil {
				t.Fatal("no message")
			}
			if s := c.check(got); s != "" {
				t.Error(s)
			}
		})
	}
}

func want(got, want string) string {
	if got != want {
		return "got " + strings.ReplaceAll(got, "\n", `\n`) + ", want " + want
	}
	return ""
}

func TestParseMalformedHeader(t *testing.T) {
	_, err := Parse([]byte("From a@example.org without a colon\r\n\r\nbody"), Limits{})
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v, want ErrMalformed", err)
	}
}

func BenchmarkParse(b *testing.B) {
	raw := readFixture(b, "gmail_en_top.eml")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(raw, Limits{AuthServID: authServID}); err != nil {
			b.Fatal(err)
		}
	}
}
