package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/api/apitest"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/internal/app"
	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/repo/sqlite"
)

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i))
	}
	for p, want := range map[float64]time.Duration{50: 50, 95: 95, 99: 99, 99.9: 100, 100: 100, 0: 1} {
		if got := percentile(d, p); got != want {
			t.Errorf("p%v = %d, want %d", p, got, want)
		}
	}
	if got := percentile(nil, 99); got != 0 {
		t.Errorf("p99 of nothing = %v", got)
	}
}

func TestRecorderWindow(t *testing.T) {
	t0 := time.Now()
	w := window{start: t0.Add(time.Second), end: t0.Add(3 * time.Second)}
	r := newRecorder(w)
	r.ok("turn", time.Millisecond, t0.Add(500*time.Millisecond)) // warmup: not counted
	r.ok("turn", 2*time.Millisecond, t0.Add(1500*time.Millisecond))
	r.ok("turn", 3*time.Millisecond, t0.Add(2500*time.Millisecond))
	r.ok("turn", 4*time.Millisecond, t0.Add(3500*time.Millisecond)) // after the end
	r.fail("turn", &apiError{Status: 409, Code: "stale_ply"}, t0.Add(2*time.Second))
	r.fail("turn", &apiError{Status: 500}, t0.Add(100*time.Millisecond))
	other := newRecorder(w)
	other.ok("turn", 5*time.Millisecond, t0.Add(2600*time.Millisecond))
	r.merge(other)
	s := r.summary([]string{"turn"})
	if len(s) != 1 || s[0].Count != 3 || s[0].PerSecond != 1.5 || s[0].Max != Duration(5*time.Millisecond) ||
		s[0].MinSecond != 1 || s[0].MaxSecond != 2 {
		t.Errorf("summary %+v", s)
	}
	if r.errors["turn: HTTP 409 stale_ply"] != 1 || r.warmupErrors["turn: HTTP 500"] != 1 || len(r.errors) != 1 {
		t.Errorf("errors %v, warmup errors %v", r.errors, r.warmupErrors)
	}
}

func TestErrorKind(t *testing.T) {
	for err, want := range map[error]string{
		&apiError{Status: 409, Code: "stale_ply"}:                  "HTTP 409 stale_ply",
		&apiError{Status: 502}:                                     "HTTP 502",
		fmt.Errorf("dial: %w", syscall.ECONNREFUSED):               "transport: connection refused",
		fmt.Errorf("read: %w", syscall.ECONNRESET):                 "transport: connection reset",
		fmt.Errorf("post: %w", io.ErrUnexpectedEOF):                "transport: unexpected EOF",
		fmt.Errorf("post: %w", context.DeadlineExceeded):           "transport: timeout",
		fmt.Errorf("%w: played", errMismatch):                      "client: state mismatch",
		errors.New("something else\nwith a second line of detail"): "other: something else",
	} {
		if got := errorKind(err); got != want {
			t.Errorf("errorKind(%v) = %q, want %q", err, got, want)
		}
	}
}

func TestScanLoginCode(t *testing.T) {
	log := `{"time":"…","level":"INFO","msg":"starting"}
----- email to loadtest@example.org
Subject: Your lesspost sign-in link

Sign in: http://localhost:8080/login#t=OLDCODE1
Or enter this code in the app: OLDCODE1
----- end of email
----- email to other@example.org
Subject: Your lesspost sign-in link

Sign in: http://localhost:8080/login#t=NOTMINE2
----- end of email
{"time":"…","level":"INFO","msg":"request","path":"/v1/auth/login#t=NOTANEMAIL"}
----- email to LoadTest@example.org
Subject: Your lesspost sign-in link

Sign in: http://localhost:8080/login#t=NEWCODE3
Or enter this code in the app: NWFS-66QN
----- end of email
`
	code, err := scanLoginCode(strings.NewReader(log), "loadtest@example.org")
	if err != nil || code != "NEWCODE3" {
		t.Errorf("code %q, %v; want NEWCODE3", code, err)
	}
	if code, _ := scanLoginCode(strings.NewReader(log), "nobody@example.org"); code != "" {
		t.Errorf("code for nobody: %q", code)
	}
}

// Every turn pickTurn proposes is legal, in whole games on both boards,
// with and without early stops.
func TestPickTurnIsLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 24 {
		size := 6 + 2*(i%2)
		b, err := less.GenerateBoard(size, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		opts := less.Options{EarlyStop: i%3 == 0, MaxTurns: 30}
		g, _, err := less.NewGame(less.StartPosition(b, opts.EarlyStop), opts)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			p := g.Position()
			turn, err := pickTurn(p, rng)
			if err != nil {
				t.Fatalf("board %d ply %d: %v", i, g.Ply(), err)
			}
			if _, err := p.Check(turn); err != nil {
				t.Fatalf("board %d ply %d: picked %s, which is illegal in %s: %v", i, g.Ply(), turn, p, err)
			}
			if _, err := g.Play(turn); err != nil {
				t.Fatalf("board %d ply %d: %v", i, g.Ply(), err)
			}
		}
	}
}

func TestPositionFromJSON(t *testing.T) {
	b, err := less.GenerateBoard(6, 42)
	if err != nil {
		t.Fatal(err)
	}
	start := less.StartPosition(b, false)
	white := "white"
	g := apiGame{ID: "g_x", Status: "active", ToMove: &white, Pieces: map[string][]string{
		"white": {"e5", "e6", "f5", "f6"}, "black": {"a1", "a2", "b1", "b2"}}}
	g.Board.Size, g.Board.Walls = 6, b.Walls()
	p, err := g.position()
	if err != nil {
		t.Fatal(err)
	}
	if !p.Equal(start) {
		t.Errorf("position %s, want %s", p, start)
	}
}

// testServer runs the API with its outbox in this process, the way
// cmd/api wires them, with emails printed to a log file as a server without
// SMTP does. It returns the base URL, the log file and the database file.
func testServer(t *testing.T, dbPath string) (string, string) {
	t.Helper()
	db, err := sqlite.Open(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	logPath := filepath.Join(t.TempDir(), "server.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logFile.Close() })
	log := slog.New(slog.NewJSONHandler(logFile, &slog.HandlerOptions{Level: slog.LevelWarn}))
	var outbox *notify.Worker
	uses := app.New(app.Config{Store: db, PushEndpointCheck: api.PushEndpointCheck(nil), WebhookURLCheck: api.WebhookURLCheck(nil)})
	srv, err := api.New(api.Config{Logger: log, DB: db, App: uses, Secret: []byte("0123456789abcdef0123456789abcdef"),
		BaseURL: "http://lesspost.test", MailQueued: func() { outbox.Wake() }})
	if err != nil {
		t.Fatal(err)
	}
	outbox = notify.NewWorker(db, &notify.LogSender{Log: log, Out: logFile},
		&notify.Renderer{Store: db, Links: srv.Links(), Host: "lesspost.test"}, log, time.Now)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		outbox.Run(ctx)
	}()
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		cancel()
		<-done
	})
	return hs.URL, logPath
}

// The load tool against a real server, in short: it signs in from the log,
// plays legal turns without a single error in both game sizes, sees only
// answers that conform to openapi.yaml, and measures the outbox.
func TestPlayAgainstServer(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "lesspost.db")
	url, logPath := testServer(t, dbPath)
	checked := func(base http.RoundTripper) http.RoundTripper { return apitest.Transport(t, base) }
	for _, players := range []int{2, 4} {
		cfg := playConfig{URL: url, LoginFromLog: logPath, Email: "loadtest@example.org", Games: 3, Clients: 2,
			Players: players, Duration: 500 * time.Millisecond, Warmup: 200 * time.Millisecond, Timeout: 10 * time.Second,
			PID: os.Getpid(), transport: checked}
		if players == 2 { // the outbox renders a board picture per email: slow under -race
			cfg.OutboxDB, cfg.MailWait = dbPath, 20*time.Second
		} else {
			cfg.Duration = 300 * time.Millisecond
		}
		var sum *Summary
		err := untilMeasured(&cfg.Duration, func() (bool, error) {
			var err error
			sum, err = play(t.Context(), cfg, io.Discard)
			return err == nil && len(sum.Ops) > 0 && sum.Ops[0].Count > 0, err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(sum.Ops) == 0 || sum.Ops[0].Name != "turn" || sum.Ops[0].Count == 0 || sum.Ops[0].P99 <= 0 {
			t.Errorf("%d players: ops %+v", players, sum.Ops)
		}
		if sum.ErrorCount != 0 || len(sum.WarmupErrors) != 0 {
			t.Errorf("%d players: errors %v, during warmup %v", players, sum.Errors, sum.WarmupErrors)
		}
		if m := sum.Mail; players == 2 && (m == nil || m.Emails == 0 || m.Sent != m.Emails || m.P99 <= 0) {
			t.Errorf("%d players: mail %+v after %d turns", players, m, sum.Ops[0].Count)
		}
		if sum.Server == nil || sum.Server.RSSMaxKiB <= 0 {
			t.Errorf("%d players: server stats %+v", players, sum.Server)
		}
		var out strings.Builder
		sum.print(&out)
		if !strings.Contains(out.String(), "turn") || (players == 2 && !strings.Contains(out.String(), "hand-off")) {
			t.Errorf("summary:\n%s", out.String())
		}
	}
}

// untilMeasured runs a measurement until it has measured something, with a
// window twice as long each time: on a loaded machine (the race detector, other
// tests) one operation can outlast a short window, and these tests check what
// the tool measures and reports, not how fast the server is.
func untilMeasured(window *time.Duration, run func() (measured bool, err error)) error {
	for {
		measured, err := run()
		if err != nil || measured || *window >= 16*time.Second {
			return err
		}
		*window *= 2
	}
}

// seed writes games the store reads back as finished games of the right
// players, and the read mode reads them through the API without errors.
func TestSeedAndRead(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "seeded.db")
	cfg := seedConfig{DB: dbPath, Games: 300, Users: 10, Email: "loadtest@example.org", Mine: 30, Templates: 6,
		Four: 0.4, MaxHistory: 6, Batch: 70}
	if err := seed(t.Context(), cfg, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var games, finished, mine, other int
	err = raw.QueryRow(`SELECT count(*), count(*) FILTER (WHERE status = 'finished'),
		(SELECT count(DISTINCT game_id) FROM seats WHERE email = 'loadtest@example.org'),
		(SELECT count(DISTINCT game_id) FROM seats WHERE email = 'u3@seed.example') FROM games`).Scan(&games, &finished, &mine, &other)
	if err != nil {
		t.Fatal(err)
	}
	if games != 300 || finished != 300 || mine != 30 || other == 0 {
		t.Errorf("%d games, %d finished, %d of the load account, %d of u3", games, finished, mine, other)
	}

	url, logPath := testServer(t, dbPath)
	checked := func(base http.RoundTripper) http.RoundTripper { return apitest.Transport(t, base) }
	rcfg := readConfig{URL: url, LoginFromLog: logPath, Email: "loadtest@example.org", Clients: 2,
		Duration: 500 * time.Millisecond, Warmup: 100 * time.Millisecond, Timeout: 10 * time.Second, Limit: 20,
		MaxIDs: 1000, Mix: 0.5, transport: checked}
	var sum *Summary
	err = untilMeasured(&rcfg.Duration, func() (bool, error) {
		var err error
		sum, err = read(t.Context(), rcfg, io.Discard)
		return err == nil && len(sum.Ops) == 2 && sum.Ops[0].Count > 0 && sum.Ops[1].Count > 0, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Games != 30 || len(sum.Ops) != 2 || sum.Ops[0].Count == 0 || sum.Ops[1].Count == 0 || sum.ErrorCount != 0 {
		t.Errorf("read: %d games, ops %+v, errors %v", sum.Games, sum.Ops, sum.Errors)
	}
}

func TestHelp(t *testing.T) {
	var out strings.Builder
	if err := run(t.Context(), []string{"help"}, &out, io.Discard); err != nil || !strings.Contains(out.String(), "seed") {
		t.Errorf("help: %v\n%s", err, out.String())
	}
	for _, sub := range []string{"play", "read", "seed", "mail", "smtp", "login", "attack"} {
		var errOut strings.Builder
		err := run(t.Context(), []string{sub, "--help"}, io.Discard, &errOut)
		if !errors.Is(err, flag.ErrHelp) || !strings.Contains(errOut.String(), "Usage: loadtest "+sub) {
			t.Errorf("%s --help: %v\n%s", sub, err, errOut.String())
		}
	}
	if err := run(t.Context(), []string{"nonsense"}, io.Discard, io.Discard); err == nil {
		t.Error("an unknown subcommand was accepted")
	}
}

// Several servers are used in turn, as through a load balancer.
func TestClientTakesServersInTurn(t *testing.T) {
	c := newClient(" http://a:1/, http://b:2 ,", nil)
	var got []string
	for range 5 {
		got = append(got, c.server())
	}
	want := []string{"http://a:1", "http://b:2", "http://a:1", "http://b:2", "http://a:1"}
	if !slices.Equal(got, want) {
		t.Errorf("servers %q, want %q", got, want)
	}
	// With one server, every request goes to it.
	one := newClient("http://a:1/", nil)
	got = nil
	for range 3 {
		got = append(got, one.server())
	}
	if want := []string{"http://a:1", "http://a:1", "http://a:1"}; !slices.Equal(got, want) {
		t.Errorf("one server: %q, want %q", got, want)
	}
}
