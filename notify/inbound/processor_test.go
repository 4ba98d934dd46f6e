package inbound_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/notify/inbound"
)

// mimeBomb nests multiparts far deeper than anyone writes.
func mimeBomb() []byte {
	var b strings.Builder
	b.WriteString("From: " + ann + "\r\nTo: " + white + "\r\nMessage-ID: <bomb@example.org>\r\n")
	for i := range 200 {
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n", i, i)
	}
	b.WriteString("Content-Type: text/plain\r\n\r\ne5e4:e4d4:d4c4\r\n")
	return []byte(b.String())
}

// The processor plays what a person wrote to a seat, drops, with the
// reason recorded and nothing answered, what a machine sent, and hands the
// use case what it would not read (forged, broken, too large) for the seat
// to be told; each message once.
func TestProcessor(t *testing.T) {
	html := "Content-Type: text/html; charset=utf-8"
	latin1 := "Content-Type: text/plain; charset=iso-8859-1"
	tests := []struct {
		name        string
		rcpt        string
		from        string // the envelope's
		raw         []byte
		wantOutcome string
		wantLines   []string // of the reply played; nil if none is
		wantUnread  string   // of the reply handed on unread
	}{
		{name: "a reply", rcpt: white, from: ann, raw: message(ann, white, "m1@x", "e5e4:e4d4:d4c4"),
			wantOutcome: "played", wantLines: []string{"e5e4:e4d4:d4c4"}},
		{name: "HTML only", rcpt: white, from: ann,
			raw:         message(ann, white, "m2@x", "<div>resign</div><blockquote>It is your turn</blockquote>", html),
			wantOutcome: "played", wantLines: []string{"resign"}},
		{name: "ISO-8859-1", rcpt: white, from: ann, raw: message(ann, white, "m3@x", "d\xe9j\xe0 vu\ne5e4", latin1),
			wantOutcome: "played", wantLines: []string{"déjà vu", "e5e4"}},
		{name: "a MIME bomb plays nothing, and is answered so", rcpt: white, from: ann, raw: mimeBomb(),
			wantOutcome: "played", wantLines: []string{}},
		{name: "out of office", rcpt: white, from: ann,
			raw:         message(ann, white, "m4@x", "I am away until Monday.", "Auto-Submitted: auto-replied"),
			wantOutcome: inbound.OutcomeAuto + "auto-submitted"},
		{name: "a bounce", rcpt: white, from: "", raw: message("mailer-daemon@x.org", white, "m5@x", "undeliverable"),
			wantOutcome: inbound.OutcomeBounce},
		{name: "forged: DKIM failed", rcpt: white, from: ann,
			raw:         message(ann, white, "m6@x", "resign", "Authentication-Results: mx.less.test; dkim=fail header.d=example.org; spf=pass"),
			wantOutcome: "refused:auth_failed", wantLines: []string{}, wantUnread: games.ReplyAuthFailed},
		{name: "forged: SPF failed", rcpt: white, from: ann,
			raw:         message(ann, white, "m7@x", "resign", "Authentication-Results: mx.less.test; spf=fail smtp.mailfrom=example.org"),
			wantOutcome: "refused:auth_failed", wantLines: []string{}, wantUnread: games.ReplyAuthFailed},
		{name: "forged, an auto-reply: dropped", rcpt: white, from: ann,
			raw: message(ann, white, "m9@x", "I am away", "Authentication-Results: mx.less.test; spf=fail",
				"Auto-Submitted: auto-replied"),
			wantOutcome: inbound.OutcomeAuto + "auto-submitted"},
		{name: "an address no longer signed", rcpt: "play+nonsense@less.test", from: ann, raw: message(ann, white, "m8@x", "resign"),
			wantOutcome: inbound.OutcomeUnknownRcpt},
		{name: "no From", rcpt: white, from: ann, raw: []byte("To: " + white + "\r\n\r\nresign\r\n"),
			wantOutcome: inbound.OutcomeMalformed},
		{name: "broken MIME, From readable", rcpt: white, from: ann,
			raw:         message(ann, white, "m10@x", "!!! not base64 !!!", "Content-Type: text/plain", "Content-Transfer-Encoding: base64"),
			wantOutcome: "refused:malformed", wantLines: []string{}, wantUnread: games.ReplyMalformed},
		{name: "too large", rcpt: white, from: ann,
			raw:         message(ann, white, "m11@x", "resign\n"+strings.Repeat("x", 2<<20)),
			wantOutcome: "refused:too_large", wantLines: []string{}, wantUnread: games.ReplyTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, dsn := openStore(t)
			if _, err := store.StoreInbound(t.Context(), domain.InboundMail{DedupeKey: "k", Source: inbound.SourceSMTP,
				Recipient: tt.rcpt, EnvelopeFrom: tt.from, Raw: tt.raw, ReceivedAt: T0}); err != nil {
				t.Fatal(err)
			}
			p := &player{}
			if n, err := processor(t, store, p).ProcessDue(t.Context()); err != nil || n != 1 {
				t.Fatalf("ProcessDue = %d, %v", n, err)
			}
			if got := outcomes(t, dsn); !slices.Equal(got, []string{tt.wantOutcome}) {
				t.Errorf("outcome %v, want %s", got, tt.wantOutcome)
			}
			played := p.replies()
			if tt.wantLines == nil {
				if len(played) != 0 {
					t.Errorf("played %+v, want nothing", played)
				}
				return
			}
			if len(played) != 1 || played[0].GameID != "g1" || played[0].Color != "white" || played[0].Ply != 4 ||
				played[0].From != ann || !slices.Equal(played[0].Lines, tt.wantLines) || played[0].Unread != tt.wantUnread {
				t.Errorf("played %+v, want lines %q (unread %q) from %s to g1 white at 4", played, tt.wantLines, tt.wantUnread, ann)
			}
		})
	}
}

// A reply whose playing fails (the store) is tried again, and given up
// after MaxAttempts; a processor that crashed after playing leaves its
// claim, and the reply is played again, which the use case replays.
func TestProcessorRetries(t *testing.T) {
	store, dsn := openStore(t)
	for i, key := range []string{"a", "b"} {
		if _, err := store.StoreInbound(t.Context(), domain.InboundMail{DedupeKey: key, Source: inbound.SourceSMTP,
			Recipient: white, EnvelopeFrom: ann, Raw: message(ann, white, key+"@x", "resign"), ReceivedAt: T0}); err != nil {
			t.Fatal(err, i)
		}
	}
	p := &player{failing: 3}
	proc := processor(t, store, p)
	proc.Lease = 0 // a failed message is claimable again at once
	for range 2 {
		if _, err := proc.ProcessDue(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	// a failed twice: given up; b failed once, then played.
	if got := outcomes(t, dsn); !slices.Equal(got, []string{inbound.OutcomeGaveUp, "played"}) {
		t.Errorf("outcomes %v", got)
	}
}
