package notify

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// A printed email shows its Reply-To, the address a reply plays a turn
// through, so a newcomer can answer it (README, "Playing by reply").
func TestLogSenderPrintsReplyTo(t *testing.T) {
	for _, tt := range []struct {
		replyTo, want string
	}{
		{"play+g_1.white.0.abc@lesspost.test", "Subject: Your turn\nReply-To: play+g_1.white.0.abc@lesspost.test\n\nText\n"},
		{"", "Subject: Your turn\n\nText\n"},
	} {
		var out bytes.Buffer
		s := &LogSender{Log: slog.New(slog.DiscardHandler), Out: &out}
		if err := s.Send(t.Context(), Message{To: "ann@example.org", Subject: "Your turn", ReplyTo: tt.replyTo, Text: "Text\n"}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tt.want) {
			t.Errorf("printed\n%s\nwant it to hold\n%s", out.String(), tt.want)
		}
	}
}
