package egress_test

import (
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/notify/egress"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"93.184.215.14", true},
		{"8.8.8.8", true},
		{"2606:4700:4700::1111", true},
		{"127.0.0.1", false},
		{"127.255.0.9", false},
		{"10.1.2.3", false},
		{"172.16.0.1", false},
		{"172.31.255.255", false},
		{"172.32.0.1", true},
		{"192.168.1.1", false},
		{"169.254.169.254", false}, // cloud metadata
		{"100.64.0.1", false},      // CGNAT
		{"100.127.255.255", false},
		{"100.128.0.1", true},
		{"0.0.0.0", false},
		{"0.1.2.3", false},
		{"224.0.0.1", false},
		{"255.255.255.255", false},
		{"192.0.2.1", false},
		{"198.18.0.1", false},
		{"::1", false},
		{"::", false},
		{"fe80::1", false},
		{"fc00::1", false},
		{"fd12:3456::1", false},
		{"ff02::1", false},
		{"::ffff:127.0.0.1", false}, // IPv4-mapped
		{"::ffff:10.0.0.1", false},
		{"::ffff:8.8.8.8", true},
		{"64:ff9b::7f00:1", false}, // NAT64 of 127.0.0.1
		{"64:ff9b::808:808", true}, // NAT64 of 8.8.8.8
		{"2002:7f00:1::1", false},  // 6to4
		{"2001:db8::1", false},
		{"fec0::1", false},
		// IPv4 embedded in IPv6 is judged as IPv4.
		{"::127.0.0.1", false}, // IPv4-compatible ::/96
		{"::10.0.0.1", false},
		{"::169.254.169.254", false},
		{"::8.8.8.8", true},
		{"::ffff:0:7f00:1", false}, // SIIT ::ffff:0:0:0/96 of 127.0.0.1
		{"::ffff:0:a00:1", false},  // of 10.0.0.1
		{"::ffff:0:808:808", true}, // of 8.8.8.8
		{"64:ff9b::a00:1", false},  // NAT64 of 10.0.0.1
		// IPv6 outside global unicast 2000::/3, or special inside it.
		{"3fff::1", false}, // documentation (RFC 9637)
		{"3fff:fff::1", false},
		{"3fff:1000::1", true}, // just past 3fff::/20
		{"5f00::1", false},     // SRv6 SIDs
		{"4000::1", false},     // reserved by IETF
		{"1::1", false},        // reserved by IETF
		{"100::1", false},      // discard
		{"2001::1", false},     // Teredo
		{"2001:4860:4860::8888", true},
		{"2a00:1450:4001::1", true},
		{"fe80::1%eth0", false},
	}
	for _, tt := range tests {
		err := egress.Check(netip.MustParseAddr(tt.addr))
		if (err == nil) != tt.ok {
			t.Errorf("Check(%s) = %v, want allowed %v", tt.addr, err, tt.ok)
		}
		if err != nil && !errors.Is(err, egress.ErrRefused) {
			t.Errorf("Check(%s) = %v, not ErrRefused", tt.addr, err)
		}
	}
}

// resolver answers from a table.
type resolver map[string][]netip.Addr

func (r resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host")
}

func TestCheckURL(t *testing.T) {
	r := resolver{
		"hooks.example.org": {netip.MustParseAddr("93.184.215.14")},
		"inside.example":    {netip.MustParseAddr("10.0.0.7")},
		"mixed.example":     {netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("127.0.0.1")},
	}
	tests := []struct {
		url          string
		allowPrivate bool
		ok           bool
	}{
		{"https://hooks.example.org/lesspost", false, true},
		{"https://hooks.example.org:8443/x?y=1", false, true},
		{"http://hooks.example.org/lesspost", false, false},
		{"http://hooks.example.org/lesspost", true, true},
		{"ftp://hooks.example.org/", true, false},
		{"https://inside.example/", false, false},
		{"https://inside.example/", true, true},
		{"https://mixed.example/", false, false},
		{"https://unknown.example/", false, false},
		{"https://127.0.0.1/", false, false},
		{"https://[::1]/", false, false},
		{"https://[::ffff:7f00:1]/", false, false},
		{"https://localhost/", false, false},
		{"https://a.localhost./", false, false},
		{"https://user:pw@hooks.example.org/", false, false},
		{"https://hooks.example.org/#frag", false, false},
		{"hooks.example.org/x", false, false},
		{"https:///path", false, false},
		{"https://93.184.215.14/", false, true},
	}
	for _, tt := range tests {
		g := &egress.Guard{AllowPrivate: tt.allowPrivate, Resolver: r}
		err := g.CheckURL(context.Background(), tt.url)
		if (err == nil) != tt.ok {
			t.Errorf("CheckURL(%s, allow private %v) = %v, want allowed %v", tt.url, tt.allowPrivate, err, tt.ok)
		}
	}
}

// A refusal of a name reaches the account that registered it (the 422
// answer, the delivery log): it must not say what the server's DNS knows
// about names inside — neither their addresses, nor whether they exist.
// The details go to the server's log.
func TestCheckURLRevealsNoDNS(t *testing.T) {
	r := resolver{
		"vault.corp.internal": {netip.MustParseAddr("10.20.30.40")},
		"mixed.example":       {netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("fd00::7")},
		"empty.example":       {},
	}
	var logged strings.Builder
	g := &egress.Guard{Resolver: r, Log: slog.New(slog.NewTextHandler(&logged, nil))}
	var first string
	for _, host := range []string{"vault.corp.internal", "mixed.example", "empty.example", "nowhere.corp.internal"} {
		err := g.CheckURL(t.Context(), "https://"+host+"/hook?token=s3cret")
		if !errors.Is(err, egress.ErrRefused) {
			t.Fatalf("%s: %v, want ErrRefused", host, err)
		}
		msg := err.Error()
		for _, secret := range []string{host, "corp", "10.20.30.40", "fd00", "93.184"} {
			if strings.Contains(msg, secret) {
				t.Errorf("%s: refusal %q tells %q", host, msg, secret)
			}
		}
		if first == "" {
			first = msg
		} else if msg != first {
			t.Errorf("%s: refusal %q differs from %q: tells which names exist", host, msg, first)
		}
	}
	for _, want := range []string{"vault.corp.internal", "10.20.30.40", "fd00::7", "nowhere.corp.internal"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("the server log lacks %q:\n%s", want, logged.String())
		}
	}
	if strings.Contains(logged.String(), "s3cret") {
		t.Errorf("the server log has the URL's query:\n%s", logged.String())
	}
}
