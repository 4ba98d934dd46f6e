package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
)

// Migration 0019 keys suppressions, the budget's outbox rows and login
// tokens on the mailbox, as domain.Mailbox computes it: the suppression of
// two +tags of one mailbox becomes one.
func TestMigratedMailboxes(t *testing.T) {
	dsn := pgtest.DSN(t)
	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(t.Context()))
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(t.Context(), q, args...); err != nil {
			t.Fatalf("%.60s: %v", q, err)
		}
	}
	exec(`DROP SCHEMA public CASCADE; CREATE SCHEMA public`)
	exec(`CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`)
	all, err := postgres.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if m.Version >= 19 {
			break
		}
		exec(m.Script())
		exec(`INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name)
	}
	cases := []string{"ann@example.org", "ann+1@example.org", "ann+bar+baz@example.org", "+ann@example.org",
		"a.n.n@example.org", "a.n.n+x@gmail.com", "ann.b@googlemail.com", "ann+@example.org", "x@xn--bcher-kva.example"}
	for _, email := range cases {
		exec(`INSERT INTO suppressions (email, created_at) VALUES ($1, now())`, email)
		exec(`INSERT INTO outbox (kind, email, message_id, created_at, next_attempt_at, budgeted)
			VALUES ('invitation', $1, $2, now(), now(), true)`, email, "m"+email)
		exec(`INSERT INTO login_tokens (hash, email, expires_at) VALUES ($1, $2, now())`, []byte(email), email)
	}
	if _, err := postgres.MigrateConn(t.Context(), conn); err != nil {
		t.Fatal(err)
	}
	for _, email := range cases {
		want := domain.Mailbox(email)
		var outbox, login string
		var suppressed bool
		err := conn.QueryRow(t.Context(), `SELECT (SELECT mailbox FROM outbox WHERE email = $1),
			(SELECT mailbox FROM login_tokens WHERE email = $1), EXISTS (SELECT 1 FROM suppressions WHERE mailbox = $2)`,
			email, want).Scan(&outbox, &login, &suppressed)
		if err != nil {
			t.Fatal(err)
		}
		if outbox != want || login != want || !suppressed {
			t.Errorf("%s: outbox %q, login token %q, suppressed %v; want mailbox %q", email, outbox, login, suppressed, want)
		}
	}
	var n int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM suppressions WHERE mailbox = 'ann@example.org'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("suppressions of ann@example.org's mailbox: %d, %v; want one", n, err)
	}
}
