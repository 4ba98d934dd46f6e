package api_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
)

var (
	keyOld = []byte(strings.Repeat("o", 32))
	keyNew = []byte(strings.Repeat("n", 32))
)

// replyLinks are links with reply addresses under play@less.example.org,
// signed with secret and checking with previous too.
func replyLinks(t *testing.T, secret []byte, previous ...[]byte) *api.Links {
	t.Helper()
	tokens, err := api.NewTokens(secret, time.Now, previous...)
	if err != nil {
		t.Fatal(err)
	}
	l, err := api.NewLinks("https://less.example.org", tokens).WithReplyAddress("Play@Less.Example.org")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestReplyAddressRoundTrip(t *testing.T) {
	l := replyLinks(t, keyNew)
	tests := []api.ReplyTarget{
		{GameID: "g_abcdefghijklmnopqrst", Color: "white", Ply: 0},
		{GameID: "g_abcdefghijklmnopqrst", Color: "chooser", Ply: 12345},
		{GameID: "g_1", Color: "yellow", Ply: 7},
	}
	for _, want := range tests {
		addr, err := l.ReplyAddress(want.GameID, want.Color, want.Ply)
		if err != nil {
			t.Fatalf("ReplyAddress(%+v): %v", want, err)
		}
		local, domain, _ := strings.Cut(addr, "@")
		if !strings.HasPrefix(local, "play+") || domain != "less.example.org" || len(local) > 64 {
			t.Errorf("ReplyAddress(%+v) = %q: want play+…@less.example.org, a local part of at most 64 octets", want, addr)
		}
		// A mail server may change the letter case of the whole address.
		for _, a := range []string{addr, strings.ToUpper(addr), " " + addr + " "} {
			got, err := l.ParseReplyAddress(a)
			if err != nil || got != want {
				t.Errorf("ParseReplyAddress(%q) = %+v, %v; want %+v", a, got, err, want)
			}
		}
	}
}

// The longest address a game of this server makes (a game id from
// domain.NewID, the longest seat, a ply of 5 digits, the longest base)
// fits RFC 5321's 64 octets.
func TestReplyAddressFits(t *testing.T) {
	tokens, err := api.NewTokens(keyNew, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	l, err := api.NewLinks("https://less.example.org", tokens).WithReplyAddress(strings.Repeat("p", api.MaxReplyBaseLocal) + "@less.example.org")
	if err != nil {
		t.Fatal(err)
	}
	addr, err := l.ReplyAddress("g_"+strings.Repeat("a", 20), "chooser", 99999)
	if local, _, _ := strings.Cut(addr, "@"); err != nil || len(local) > 64 {
		t.Errorf("the longest reply address %q (%d octets before @), %v", addr, len(local), err)
	}
}

func TestReplyAddressRefusesForgeries(t *testing.T) {
	l := replyLinks(t, keyNew)
	addr, err := l.ReplyAddress("g_game", "white", 4)
	if err != nil {
		t.Fatal(err)
	}
	local, _, _ := strings.Cut(addr, "@")
	mac := local[strings.LastIndexByte(local, '.')+1:]
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'a' {
			b[i] = 'b'
		} else {
			b[i] = 'a'
		}
		return string(b)
	}
	tests := map[string]string{
		"another ply":       "play+g_game.white.5." + mac + "@less.example.org",
		"another seat":      "play+g_game.black.4." + mac + "@less.example.org",
		"another game":      "play+g_gamf.white.4." + mac + "@less.example.org",
		"a ply with a zero": "play+g_game.white.04." + mac + "@less.example.org",
		"a changed MAC":     "play+g_game.white.4." + flip(mac, 0) + "@less.example.org",
		"a short MAC":       "play+g_game.white.4." + mac[:15] + "@less.example.org",
		"no MAC":            "play+g_game.white.4@less.example.org",
		"another domain":    local + "@less.example.com",
		"another base":      strings.Replace(addr, "play+", "game+", 1),
		"the base itself":   "play@less.example.org",
		"an extra part":     "play+x.g_game.white.4." + mac + "@less.example.org",
		"no address":        "",
		"a negative ply":    "play+g_game.white.-4." + mac + "@less.example.org",
		"signed by a stranger": func() string {
			a, _ := replyLinks(t, []byte(strings.Repeat("x", 32))).ReplyAddress("g_game", "white", 4)
			return a
		}(),
	}
	for name, a := range tests {
		if got, err := l.ParseReplyAddress(a); !errors.Is(err, api.ErrNotReplyAddress) {
			t.Errorf("%s: ParseReplyAddress(%q) = %+v, %v; want ErrNotReplyAddress", name, a, got, err)
		}
	}
}

// After a key rotation, addresses signed with the previous key (in emails
// already sent) still work; new ones are signed with the new key, which the
// old configuration does not know.
func TestReplyAddressKeyRotation(t *testing.T) {
	before := replyLinks(t, keyOld)
	after := replyLinks(t, keyNew, keyOld)
	old, err := before.ReplyAddress("g_game", "black", 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := after.ParseReplyAddress(old); err != nil || got.Ply != 3 {
		t.Errorf("an address of the previous key after the rotation: %+v, %v", got, err)
	}
	fresh, err := after.ReplyAddress("g_game", "black", 3)
	if err != nil || fresh == old {
		t.Fatalf("after the rotation: %q, %v; want an address of the new key", fresh, err)
	}
	if _, err := before.ParseReplyAddress(fresh); !errors.Is(err, api.ErrNotReplyAddress) {
		t.Errorf("an address of the new key with the old key only: %v, want ErrNotReplyAddress", err)
	}
	retired := replyLinks(t, keyNew)
	if _, err := retired.ParseReplyAddress(old); !errors.Is(err, api.ErrNotReplyAddress) {
		t.Errorf("an address of a retired key: %v, want ErrNotReplyAddress", err)
	}
}

func TestReplyAddressConfiguration(t *testing.T) {
	tokens, err := api.NewTokens(keyNew, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	off, err := api.NewLinks("https://less.example.org", tokens).WithReplyAddress("")
	if err != nil {
		t.Fatal(err)
	}
	if addr, err := off.ReplyAddress("g_game", "white", 0); addr != "" || err != nil {
		t.Errorf("with no reply address: %q, %v; want none", addr, err)
	}
	if _, err := off.ParseReplyAddress("play+g_game.white.0.aaaaaaaaaaaaaaaa@less.example.org"); !errors.Is(err, api.ErrNotReplyAddress) {
		t.Errorf("parsing with no reply address: %v", err)
	}
	for _, bad := range []string{"not an address", "play+x@less.example.org", strings.Repeat("p", api.MaxReplyBaseLocal+1) + "@less.example.org"} {
		if _, err := api.NewLinks("https://less.example.org", tokens).WithReplyAddress(bad); err == nil {
			t.Errorf("WithReplyAddress(%q) accepted", bad)
		}
	}
	on := replyLinks(t, keyNew)
	for _, id := range []string{"G_Upper", "g.dot", ""} {
		if addr, err := on.ReplyAddress(id, "white", 0); err == nil {
			t.Errorf("ReplyAddress for game %q = %q, want an error (the id would not survive lower-casing or splitting)", id, addr)
		}
	}
}
