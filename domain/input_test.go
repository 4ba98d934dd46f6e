package domain_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
)

// wantInvalid checks that err is a *domain.Error of KindInvalid.
func wantInvalid(t *testing.T, what string, err error) {
	t.Helper()
	var de *domain.Error
	if !errors.As(err, &de) || de.Kind != domain.KindInvalid || de.Code != domain.CodeInvalidInput {
		t.Errorf("%s: error = %#v, want a KindInvalid %s *domain.Error", what, err, domain.CodeInvalidInput)
	}
}

func TestNormalizeEmail(t *testing.T) {
	// 64 + 1 + 189 = 254 bytes, the longest address accepted.
	longest := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 61)
	tooLong := longest + "d"
	if len(longest) != domain.MaxEmailLength {
		t.Fatalf("fixture has %d bytes", len(longest))
	}
	valid := []struct {
		in, want string
	}{
		{"ann@example.org", "ann@example.org"},
		{"Ann.Lee@Example.ORG", "ann.lee@example.org"}, // one mailbox, however it is typed
		{"ANN@EXAMPLE.ORG", "ann@example.org"},
		{"Ann@Example.org", "ann@example.org"},
		{"ann@Bücher.example", "ann@xn--bcher-kva.example"}, // IDNA
		{"ann@xn--bcher-kva.example", "ann@xn--bcher-kva.example"},
		{"Jörg@BÜCHER.de", "jörg@xn--bcher-kva.de"},
		{"a+tag@sub.example.co.uk", "a+tag@sub.example.co.uk"},
		{"o'brien@example.ie", "o'brien@example.ie"},
		{"first.last-x_y@mail.example.com", "first.last-x_y@mail.example.com"},
		{longest, longest},
	}
	for _, tt := range valid {
		got, err := domain.NormalizeEmail(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	invalid := []struct {
		name, in string
	}{
		{"empty", ""},
		{"display name", "Ann <a@b.c>"},
		{"quoted display name", `"Ann" <a@b.c>`},
		{"angle brackets only", "<a@b.c>"},
		{"encoded word", "=?utf-8?q?Ann?= <a@b.c>"},
		{"CRLF header injection", "a@b.c\r\nBcc: victim@example.org"},
		{"LF header injection", "a@b.c\nBcc: victim@example.org"},
		{"CR alone", "a@b.c\r"},
		{"LF in local part", "a\n@b.c"},
		{"NUL", "a@b.c\x00"},
		{"tab", "a@b.c\tx"},
		{"two addresses with comma", "a@b.c,x@y.z"},
		{"two addresses with semicolon", "a@b.c;x@y.z"},
		{"group syntax", "friends: a@b.c;"},
		{"comment after", "a@b.c (Ann)"},
		{"comment inside", "a(Ann)@b.c"},
		{"no domain dot", "a@localhost"},
		{"one-letter domain without dot", "a@b"},
		{"no at", "ann.example.org"},
		{"no local part", "@example.org"},
		{"no domain", "ann@"},
		{"too long", tooLong},
		{"space inside", "ann lee@example.org"},
		{"space in domain", "ann@exa mple.org"},
		{"leading space", " ann@example.org"},
		{"trailing space", "ann@example.org "},
		{"quoted local part", `"ann"@example.org`},
		{"quoted local part with space", `"ann lee"@example.org`},
		{"two ats", "a@b@example.org"},
		{"trailing dot", "ann@example.org."},
		{"two trailing dots", "ann@example.org.."},
		{"empty label", "ann@example..org"},
		{"newline before", "\nann@example.org"},
		{"local part too long", strings.Repeat("a", 65) + "@example.org"},
		{"too long once IDNA-encoded", strings.Repeat("a", 64) + "@" + strings.Repeat("ü", 60) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 60) + ".org"},
		{"label too long for DNS once encoded", "ann@" + strings.Repeat("ü", 70) + ".example"},
		{"hyphen at label start", "ann@-example.org"},
	}
	for _, tt := range invalid {
		got, err := domain.NormalizeEmail(tt.in)
		if err == nil {
			t.Errorf("%s: NormalizeEmail(%q) = %q, want refusal", tt.name, tt.in, got)
			continue
		}
		wantInvalid(t, tt.name, err)
	}
}

// An address is written into headers and shown to people like a name: the
// control and invisible formatting characters CheckName refuses have no
// place in it either, even where net/mail's RFC 6532 UTF-8 support lets
// them through.
func TestNormalizeEmailRefusesInvisibleCharacters(t *testing.T) {
	for _, tt := range []struct {
		name, in string
	}{
		{"C1 control NEL in the domain", "ann@example.org\u0085"},
		{"C1 control NEL in the local part", "ann\u0085@example.org"},
		{"line separator", "ann@example.org\u2028"},
		{"paragraph separator", "ann@exa\u2029mple.org"},
		{"right-to-left override", "ann@\u202egro.elpmaxe"},
		{"left-to-right mark", "ann\u200e@example.org"},
		{"zero width space", "ann@exam\u200bple.org"},
		{"byte order mark", "\ufeffann@example.org"},
	} {
		got, err := domain.NormalizeEmail(tt.in)
		if err == nil {
			t.Errorf("%s: NormalizeEmail(%q) = %q, want refusal", tt.name, tt.in, got)
			continue
		}
		wantInvalid(t, tt.name, err)
	}
	// Plain international addresses stay accepted.
	if got, err := domain.NormalizeEmail("jörg@Bücher.DE"); err != nil || got != "jörg@xn--bcher-kva.de" {
		t.Errorf("NormalizeEmail(jörg@Bücher.DE) = %q, %v", got, err)
	}
}

// A domain literal is refused with its own code, so a client can say why.
func TestNormalizeEmailRefusesDomainLiterals(t *testing.T) {
	for _, in := range []string{"ann@[127.0.0.1]", "ann@[IPv6:::1]", "Ann@[10.0.0.1]"} {
		got, err := domain.NormalizeEmail(in)
		var de *domain.Error
		if !errors.As(err, &de) || de.Kind != domain.KindInvalid || de.Code != domain.CodeEmailDomainLiteral {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want %s", in, got, err, domain.CodeEmailDomainLiteral)
		}
	}
}

func TestCheckName(t *testing.T) {
	valid := []struct {
		in, want string
	}{
		{"Ann", "Ann"},
		{"  Ann Lee \t", "Ann Lee"},
		{"Ann\n", "Ann"}, // trimmed away: nothing is left that could break a line
		{"Zoë Ñúñez-Ø'Brien", "Zoë Ñúñez-Ø'Brien"},
		{"Ann 🎲👍🏽", "Ann 🎲👍🏽"},
		{"李小龙", "李小龙"},
		{"Çağrı Ölçer", "Çağrı Ölçer"},
		{strings.Repeat("é", domain.MaxNameLength), strings.Repeat("é", domain.MaxNameLength)}, // runes, not bytes
		{" " + strings.Repeat("x", domain.MaxNameLength) + " ", strings.Repeat("x", domain.MaxNameLength)},
	}
	for _, tt := range valid {
		got, err := domain.CheckName(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("CheckName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	invalid := []struct {
		name, in string
	}{
		{"empty", ""},
		{"blank", "   "},
		{"only white space", "\t\r\n "},
		{"only no-break space", "\u00a0"},
		{"too long", strings.Repeat("é", domain.MaxNameLength+1)},
		{"CR", "Ann\rBcc: x"},
		{"LF", "Ann\nLee"},
		{"CRLF", "Ann\r\nLee"},
		{"tab", "Ann\tLee"},
		{"NUL", "Ann\x00Lee"},
		{"DEL", "Ann\x7fLee"},
		{"C1 control NEL", "Ann\u0085Lee"},
		{"left-to-right mark", "Ann\u200eLee"},
		{"right-to-left override", "Ann\u202eeeL"},
		{"zero width space only", "\u200b"},
		{"byte order mark", "Ann\ufeffLee"},
		{"line separator", "Ann\u2028Lee"},
		{"paragraph separator", "Ann\u2029Lee"},
		{"invalid UTF-8", "Ann\xffLee"},
	}
	for _, tt := range invalid {
		got, err := domain.CheckName(tt.in)
		if err == nil {
			t.Errorf("%s: CheckName(%q) = %q, want refusal", tt.name, tt.in, got)
			continue
		}
		wantInvalid(t, tt.name, err)
	}
}

func TestCheckLocale(t *testing.T) {
	got, err := domain.CheckLocale("")
	if err != nil || got != "en" || domain.DefaultLocale != "en" {
		t.Errorf(`CheckLocale("") = %q, %v; want "en"`, got, err)
	}
	// Which languages are spoken is the catalogue's to say; the domain
	// takes any tag of the form its files are named by.
	for _, l := range []string{"en", "de", "fr", "it", "es", "pt", "pt-BR", "gsw"} {
		if got, err := domain.CheckLocale(l); err != nil || got != l {
			t.Errorf("CheckLocale(%q) = %q, %v", l, got, err)
		}
	}
	for _, l := range []string{"EN", "en-us", "en_US", "de ", " fr", "e", "english", "en-", "-US", "pt-BRA", strings.Repeat("x", 100)} {
		got, err := domain.CheckLocale(l)
		if err == nil {
			t.Errorf("CheckLocale(%q) = %q, want refusal", l, got)
			continue
		}
		wantInvalid(t, l, err)
	}
}

// A too long name is refused with a message that gives the limit that refused it.
func TestNameLimitsInMessages(t *testing.T) {
	tests := []struct {
		check func(string) (string, error)
		max   int
		what  string
	}{
		{domain.CheckName, domain.MaxNameLength, "a name"},
	}
	for _, tt := range tests {
		if got, err := tt.check(strings.Repeat("x", tt.max)); err != nil || len(got) != tt.max {
			t.Errorf("%s of %d characters: %q, %v", tt.what, tt.max, got, err)
		}
		_, err := tt.check(strings.Repeat("x", tt.max+1))
		want := fmt.Sprintf("%s has 1 to %d characters", tt.what, tt.max)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s of %d characters: error %v, want %q", tt.what, tt.max+1, err, want)
		}
	}
}
