package notify

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
)

// LogSender "sends" mail by printing it: the server's transport until SMTP
// is configured, so a newcomer can play a whole game from the terminal by
// following the links it prints. The links carry tokens, which is exactly
// what a local playground wants and why production configures SMTP.
type LogSender struct {
	Log *slog.Logger
	Out io.Writer // where the message text goes, e.g. os.Stderr

	mu sync.Mutex // keeps messages from interleaving
}

// Send logs the message's envelope and prints its text.
func (s *LogSender) Send(ctx context.Context, m Message) error {
	s.Log.InfoContext(ctx, "email printed (SMTP is not configured)", "to", m.To, "subject", m.Subject, "message_id", m.MessageID)
	s.mu.Lock()
	defer s.mu.Unlock()
	// Reply-To is shown: a reply to it is a turn (see --reply-address).
	replyTo := ""
	if m.ReplyTo != "" {
		replyTo = "Reply-To: " + m.ReplyTo + "\n"
	}
	_, err := fmt.Fprintf(s.Out, "----- email to %s\nSubject: %s\n%s\n%s----- end of email\n", m.To, m.Subject, replyTo, m.Text)
	return err
}
