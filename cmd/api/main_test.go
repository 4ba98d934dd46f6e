package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/internal/app"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// syncBuffer is a log destination that the server and the test can share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestRun starts the real program on a free port and a fresh database,
// checks that it is ready, and stops it the way a signal would.
func TestRun(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "lesspost.db")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var logs syncBuffer
	listening := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		args := []string{"--addr", "127.0.0.1:0", "--db", dbPath}
		env := map[string]string{"LESSPOST_LOG_LEVEL": "debug"}
		done <- run(ctx, args, func(k string) string { return env[k] }, &logs, func(a net.Addr) { listening <- a })
	}()

	var base string
	select {
	case addr := <-listening:
		base = "http://" + addr.String()
	case err := <-done:
		t.Fatalf("run returned before listening: %v\n%s", err, logs.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("not listening after 30s\n%s", logs.String())
	}
	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("/readyz: %d", res.StatusCode)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no shutdown after 30s")
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Error("still serving after shutdown")
	}
	for _, want := range []string{`"msg":"listening"`, `"path":"/readyz"`, `"msg":"shutting down"`, `"msg":"stopped"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, logs.String())
		}
	}

	// The signing key was generated into a private file beside the database,
	// and never reached the log.
	keys, err := readSecretFile(defaultSecretFile(dbPath), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), string(keys[0])) {
		t.Error("the signing secret was logged")
	}
	if !strings.Contains(logs.String(), "generated a token signing secret") {
		t.Errorf("the log does not say that a signing secret was generated:\n%s", logs.String())
	}
}

func TestRunHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"--help"}, func(string) string { return "" }, &out, nil); err != nil {
		t.Fatalf("run --help: %v", err)
	}
	for _, want := range []string{"LESSPOST_DB", "lesspost migrate", "lesspost backup --to FILE"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	err := run(t.Context(), []string{"--smtp-tls", "ssl"}, func(string) string { return "" }, &bytes.Buffer{}, nil)
	if err == nil || !strings.Contains(err.Error(), "--smtp-tls") {
		t.Errorf("run = %v, want an --smtp-tls error", err)
	}
}

// serve stops the server before the workers, and a failing worker stops everything.
func TestServe(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name    string
		worker  func(ctx context.Context, serverDown func() bool) error
		cancel  bool
		wantErr error
	}{
		{
			name:   "stop signal: server first, then workers",
			cancel: true,
			worker: func(ctx context.Context, serverDown func() bool) error {
				<-ctx.Done()
				if !serverDown() {
					return errors.New("worker stopped while the server still accepted connections")
				}
				return nil
			},
		},
		{
			name:    "failing worker",
			worker:  func(context.Context, func() bool) error { return errBoom },
			wantErr: errBoom,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTestDB(t)
			uses := app.New(app.Config{Store: db, PushEndpointCheck: api.PushEndpointCheck(nil), WebhookURLCheck: api.WebhookURLCheck(nil)})
			srv, err := api.New(api.Config{DB: db, App: uses, Secret: []byte("0123456789abcdef0123456789abcdef"), Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			serverDown := func() bool {
				conn, err := net.Dial("tcp", ln.Addr().String())
				if err == nil {
					conn.Close()
				}
				return err != nil
			}
			var workerErr error
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tt.cancel {
				cancel()
			}
			err = serve(ctx, slog.New(slog.DiscardHandler), srv, ln, []func(context.Context) error{
				func(ctx context.Context) error {
					workerErr = tt.worker(ctx, serverDown)
					return workerErr
				},
			})
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("serve = %v, want %v", err, tt.wantErr)
			}
			if tt.cancel && workerErr != nil {
				t.Error(workerErr)
			}
		})
	}
}

func openTestDB(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(t.Context(), repotest.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
