package api

import (
	"strings"
	"testing"
	"time"
)

// The move and spectator links' compact tokens: short, checked by their
// MAC under any accepted key, refused when any part is changed, expired or
// written another way; the JWT links sent before keep working.
func TestLinkTokens(t *testing.T) {
	key, old := []byte(strings.Repeat("k", 32)), []byte(strings.Repeat("o", 32))
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	tokens, err := NewTokens(key, clock, old)
	if err != nil {
		t.Fatal(err)
	}
	oldTokens, _ := NewTokens(old, clock)
	const game = "g_abcdefghijklmnopqrst" // as domain.NewID makes them
	seat, err := tokens.Seat(game, "white", 3)
	if err != nil {
		t.Fatal(err)
	}
	watch, err := tokens.Watch(game, 0)
	if err != nil {
		t.Fatal(err)
	}
	jwtSeat, err := tokens.sign(claims{Use: useSeat, Game: game, Color: "white", Version: 3}, LinkTTL)
	if err != nil {
		t.Fatal(err)
	}
	oldKeySeat, _ := oldTokens.Seat(game, "white", 3)

	links := NewLinks("https://less.example.org", tokens)
	move, _ := links.MoveURL(game, "white", 3)
	t.Logf("move link: %d characters (a JWT's: %d)", len(move), len(move)-len(seat)+len(jwtSeat))
	if len(move) > 120 || len(seat) > 75 {
		t.Errorf("move link of %d characters (token %d): %s", len(move), len(seat), move)
	}

	good := []struct {
		name, token string
		want        claims
	}{
		{"seat", seat, claims{Use: useSeat, Game: game, Color: "white", Version: 3}},
		{"spectator", watch, claims{Use: useWatch, Game: game, Version: 0}},
		{"seat, a JWT sent before", jwtSeat, claims{Use: useSeat, Game: game, Color: "white", Version: 3}},
		{"seat, signed with the previous key", oldKeySeat, claims{Use: useSeat, Game: game, Color: "white", Version: 3}},
	}
	for _, g := range good {
		c, err := tokens.parse(g.token)
		if err != nil {
			t.Errorf("%s: %v", g.name, err)
			continue
		}
		if c.Use != g.want.Use || c.Game != g.want.Game || c.Color != g.want.Color || c.Version != g.want.Version {
			t.Errorf("%s: claims %+v, want %+v", g.name, *c, g.want)
		}
	}

	// resign signs a changed body with the real key, to prove that only
	// the change is why it is refused.
	resign := func(body string) string { return body + "." + linkMAC(key, body) }
	body := seat[:strings.LastIndexByte(seat, '.')]
	parts := strings.Split(body, ".")
	expiry := parts[4]
	bad := []struct{ name, token string }{
		{"another colour, MAC kept", strings.Replace(seat, ".white.", ".black.", 1)},
		{"another version, MAC kept", strings.Replace(seat, ".3.", ".4.", 1)},
		{"a seat made a spectator, MAC kept", "w." + strings.TrimPrefix(seat, "s.")},
		{"later expiry, MAC kept", strings.Replace(seat, "."+expiry+".", ".zzzzzz.", 1)},
		{"MAC of another key", strings.Join(parts, ".") + "." + linkMAC([]byte(strings.Repeat("e", 32)), body)},
		{"MAC cut short", seat[:len(seat)-1]},
		{"no MAC", body + "."},
		{"version written 03", resign(strings.Join([]string{"s", game, "white", "03", expiry}, "."))},
		{"negative version", resign(strings.Join([]string{"s", game, "white", "-1", expiry}, "."))},
		{"expiry in upper case", resign(strings.Join([]string{"s", game, "white", "3", strings.ToUpper(expiry)}, "."))},
		{"a part too many", resign(strings.Join([]string{"s", game, "white", "x", "3", expiry}, "."))},
		{"a spectator with a colour", resign(strings.Join([]string{"w", game, "white", "3", expiry}, "."))},
		{"expired", resign(strings.Join([]string{"s", game, "white", "3", "a"}, "."))},
		{"just a prefix", "s."},
	}
	for _, b := range bad {
		if c, err := tokens.parse(b.token); err == nil {
			t.Errorf("%s: %q accepted as %+v", b.name, b.token, *c)
		}
	}
	// The control: a body resigned unchanged works.
	if _, err := tokens.parse(resign(body)); err != nil {
		t.Errorf("the control, resigned unchanged: %v", err)
	}

	// A link lives LinkTTL, then is refused.
	now = now.Add(LinkTTL - time.Second)
	if _, err := tokens.parse(seat); err != nil {
		t.Errorf("a second before expiry: %v", err)
	}
	now = now.Add(time.Second)
	if _, err := tokens.parse(seat); err == nil {
		t.Error("an expired link accepted")
	}

	// Once the previous key is retired, its links are refused.
	current, _ := NewTokens(key, clock)
	now = now.Add(-time.Hour)
	if _, err := current.parse(oldKeySeat); err == nil {
		t.Error("a link of a retired key accepted")
	}
}
