package inbound_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"testing"

	gosmtp "github.com/emersion/go-smtp"

	"github.com/lesspost/lesspost/notify/inbound"
)

// BenchmarkListener sends replies to the listener over one SMTP
// connection, each answered 250 once the store keeps it: the messages/s one
// sending server gets through (times ns/op).
func BenchmarkListener(b *testing.B) {
	store, _ := openStore(b)
	addr, _ := listen(b, &inbound.Listener{Inbox: store, Accept: accept, Log: slog.New(slog.DiscardHandler), Now: clock})
	c, err := gosmtp.Dial(addr)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ResetTimer()
	for i := range b.N {
		raw := message(ann, white, fmt.Sprintf("bench-%d@x", i), "e5e4:e4d4:d4c4")
		if err := c.SendMail(ann, []string{white}, bytes.NewReader(raw)); err != nil {
			b.Fatal(err)
		}
	}
}
