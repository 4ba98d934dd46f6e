package sqlite

import (
	"net/url"
	"path/filepath"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/migrations"
)

// mailboxCases are addresses whose mailbox (domain.Mailbox) migrations
// compute in SQL: each store's migration must agree with the Go rule.
var mailboxCases = []string{
	"ann@example.org", "ann+1@example.org", "ann+bar+baz@example.org", "+ann@example.org",
	"a.n.n@example.org", "a.n.n+x@gmail.com", "Ann.B@googlemail.com", "ann+@example.org", "x@xn--bcher-kva.example",
}

// Migration 0032 keys suppressions, the budget's outbox rows and login
// tokens on the mailbox, as domain.Mailbox computes it: the suppression of
// two +tags of one mailbox becomes one, and its mail still waiting and the
// last day's budgeted mail are counted by mailbox.
func TestMigratedMailboxes(t *testing.T) {
	db, err := openPool(t.Context(), filepath.Join(t.TempDir(), "test.db"),
		url.Values{"_txlock": {"immediate"}, "_pragma": {"foreign_keys(1)"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := migrate(t.Context(), db, migrationsBefore(t, "0032")); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(t.Context(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i, email := range mailboxCases {
		exec(`INSERT INTO suppressions (email, created_at) VALUES (?, ?)`, email, i)
		exec(`INSERT INTO outbox (kind, email, message_id, created_at, next_attempt_at, budgeted)
			VALUES ('invitation', ?, ?, 1, 1, 1)`, email, "m"+email)
		exec(`INSERT INTO login_tokens (hash, email, expires_at) VALUES (?, ?, 1)`, []byte(email), email)
	}
	if _, err := migrate(t.Context(), db, migrations.FS); err != nil {
		t.Fatal(err)
	}
	for _, email := range mailboxCases {
		want := domain.Mailbox(email)
		var outbox, login string
		var suppressed bool
		err := db.QueryRowContext(t.Context(), `SELECT (SELECT mailbox FROM outbox WHERE email = ?1),
			(SELECT mailbox FROM login_tokens WHERE email = ?1), EXISTS (SELECT 1 FROM suppressions WHERE mailbox = ?2)`,
			email, want).Scan(&outbox, &login, &suppressed)
		if err != nil {
			t.Fatal(err)
		}
		if outbox != want || login != want || !suppressed {
			t.Errorf("%s: outbox %q, login token %q, suppressed %v; want mailbox %q", email, outbox, login, suppressed, want)
		}
	}
	var n int
	if err := db.QueryRowContext(t.Context(), `SELECT count(*) FROM suppressions WHERE mailbox = 'ann@example.org'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("suppressions of ann@example.org's mailbox: %d, %v; want one", n, err)
	}
}
