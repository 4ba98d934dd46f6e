package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
)

// within runs f and returns its error, failing the test if f has not
// returned after a minute: far longer than any bound of the store, so a
// wait it does not bound ends the test rather than hanging it.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s: still waiting for the frozen database after a minute", what)
		return nil
	}
}

// A database that stops answering (SIGSTOP, a partition: here a proxy
// that stops forwarding) costs each call at most a statement's timeout,
// connecting at most the connect timeout, and the error says the store is
// unavailable (before, each call waited as long as the freeze lasted);
// once the database answers again, so does the store.
func TestFrozenDatabase(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.DSN(t))
	opts := postgres.Options{ConnectTimeout: 300 * time.Millisecond, StatementTimeout: 300 * time.Millisecond}
	db, err := postgres.OpenWith(t.Context(), dsn, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	t.Cleanup(proxy.Thaw) // before the store closes, which waits for its statements
	ctx := t.Context()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	write := func() error {
		return db.Transact(ctx, func(tx domain.StoreTx) error {
			_, err := tx.EnsureUser(ctx, "ann@example.org", now)
			return err
		})
	}
	if err := write(); err != nil {
		t.Fatal(err)
	}

	proxy.Freeze()
	calls := []struct {
		name string
		call func() error
	}{
		{"a write", write},
		{"a read", func() error { _, err := db.Game(ctx, "g_frozen"); return err }},
		{"a read outside a transaction", func() error { _, err := db.UserByID(ctx, 1); return err }},
		{"a ping", func() error { return db.Ping(context.WithoutCancel(ctx)) }},
	}
	for _, c := range calls {
		if err := within(t, c.name, c.call); !domain.IsUnavailable(err) {
			t.Errorf("%s: %v; want an error marked unavailable", c.name, err)
		}
	}
	if _, err := within2(t, "opening another store", func() (*postgres.DB, error) { return postgres.OpenWith(ctx, dsn, opts) }); err == nil {
		t.Error("opened a store on a frozen database")
	}

	proxy.Thaw()
	if err := within(t, "a write after the thaw", write); err != nil {
		t.Errorf("a write after the thaw: %v", err)
	}
}

func within2[T any](t *testing.T, what string, f func() (T, error)) (T, error) {
	t.Helper()
	var v T
	err := within(t, what, func() (err error) { v, err = f(); return err })
	return v, err
}
