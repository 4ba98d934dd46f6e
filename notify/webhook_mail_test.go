package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
)

// The email to the owner of a disabled webhook endpoint names it, says why
// and how to enable it, in the owner's language; golden files as
// TestGolden's (run with -update after a wording change).
func TestWebhookDisabledMail(t *testing.T) {
	r := &Renderer{Links: fakeLinks{}, Host: "less.example"}
	subjects := map[string]bool{}
	for _, locale := range languages {
		t.Run(locale, func(t *testing.T) {
			m := domain.OutboxMail{ID: 3, Email: "ann@example.org", Locale: locale, MessageID: "m1",
				Notice: domain.Notice{Kind: domain.NoticeWebhookDisabled, Email: "ann@example.org",
					Webhook: &domain.WebhookNotice{EndpointID: 7, URL: "https://hooks.example.org/a?b=<c>", Reason: "the endpoint answered 410 Gone"}}}
			msg, err := r.Render(t.Context(), m)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"https://hooks.example.org/a?b=<c>", "the endpoint answered 410 Gone", "/v1/me/webhooks/7/deliveries"} {
				if !strings.Contains(msg.Text, want) {
					t.Errorf("the text lacks %q:\n%s", want, msg.Text)
				}
			}
			if strings.Contains(msg.HTML, "<c>") || msg.Unsubscribe != "" || len(msg.Images) != 0 {
				t.Errorf("HTML unescaped, or an unsubscribe link or image in:\n%s", msg.HTML)
			}
			if subjects[msg.Subject] {
				t.Errorf("subject %q is another language's", msg.Subject)
			}
			subjects[msg.Subject] = true
			got := "To: " + msg.To + "\nSubject: " + msg.Subject + "\n\n" + msg.Text
			path := filepath.Join("testdata", "golden", "webhook_disabled."+locale+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("differs from %s (run with -update and read the diff):\n%s", path, got)
			}
		})
	}
	if _, err := r.Render(t.Context(), domain.OutboxMail{Notice: domain.Notice{Kind: domain.NoticeWebhookDisabled}}); err == nil {
		t.Error("a notice without its endpoint rendered")
	}
}
