package hooks_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
)

func TestCheckPushSubscription(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// The generator of P-256, uncompressed: a valid public key.
	point := append([]byte{4}, bytes.Repeat([]byte{0}, 64)...)
	gen := []byte{4,
		0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4, 0x40, 0xf2,
		0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96,
		0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a, 0x7c, 0x0f, 0x9e, 0x16,
		0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce, 0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5}
	ok := hooks.PushSubscription{Endpoint: "https://push.example/send/abc", P256DH: gen, Auth: make([]byte, 16)}
	with := func(change func(*hooks.PushSubscription)) hooks.PushSubscription {
		s := ok
		change(&s)
		return s
	}
	for _, tt := range []struct {
		name string
		sub  hooks.PushSubscription
		bad  string // in the message; "" for valid
	}{
		{"valid", ok, ""},
		{"expires later", with(func(s *hooks.PushSubscription) { s.ExpiresAt = now.Add(time.Hour) }), ""},
		// Plain http is the endpoint check's to refuse (see PushConfig).
		{"http", with(func(s *hooks.PushSubscription) { s.Endpoint = "http://push.example/x" }), ""},
		{"another scheme", with(func(s *hooks.PushSubscription) { s.Endpoint = "ftp://push.example/x" }), "https"},
		{"relative", with(func(s *hooks.PushSubscription) { s.Endpoint = "/push" }), "https"},
		{"no host", with(func(s *hooks.PushSubscription) { s.Endpoint = "https:///x" }), "https"},
		{"user info", with(func(s *hooks.PushSubscription) { s.Endpoint = "https://u:p@push.example/x" }), "https"},
		{"too long", with(func(s *hooks.PushSubscription) { s.Endpoint = "https://push.example/" + strings.Repeat("a", 2048) }), "longer"},
		{"short key", with(func(s *hooks.PushSubscription) { s.P256DH = gen[:33] }), "p256dh"},
		{"not on the curve", with(func(s *hooks.PushSubscription) { s.P256DH = point }), "curve"},
		{"short auth", with(func(s *hooks.PushSubscription) { s.Auth = make([]byte, 8) }), "auth"},
		{"expired", with(func(s *hooks.PushSubscription) { s.ExpiresAt = now }), "expired"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := hooks.CheckPushSubscription(tt.sub, now)
			if tt.bad == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			de, isDomain := domain.ErrorOf(err)
			if !isDomain || de.Code != hooks.CodeInvalidPushSubscription || !strings.Contains(de.Message, tt.bad) {
				t.Errorf("= %v; want %s naming %q", err, hooks.CodeInvalidPushSubscription, tt.bad)
			}
		})
	}
}
