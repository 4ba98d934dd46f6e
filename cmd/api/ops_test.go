package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/lesspost/lesspost/migrations"
	"github.com/lesspost/lesspost/notify/smtptest"
	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// logged returns the attributes of the first JSON log line with the
// message, waiting for it to be written.
func logged(t *testing.T, logs *syncBuffer, msg string) map[string]any {
	t.Helper()
	var found map[string]any
	waitFor(t, func() bool {
		for line := range strings.Lines(logs.String()) {
			var v map[string]any
			if json.Unmarshal([]byte(line), &v) == nil && v["msg"] == msg {
				found = v
				return true
			}
		}
		return false
	})
	return found
}

// scrape reads the metrics endpoint and parses the text format.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("GET %s: not the text format: %v", url, err)
	}
	return mfs
}

// value sums the samples of a family whose labels include want: counters,
// gauges and histograms (their count).
func value(mfs map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	var sum float64
	for _, m := range mfs[name].GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			match = match && labels[k] == v
		}
		if match {
			sum += m.GetCounter().GetValue() + m.GetGauge().GetValue() + float64(m.GetHistogram().GetSampleCount())
		}
	}
	return sum
}

// The real server serves /metrics on its own listener, never the public
// one; after a game is created and a turn played, the request counters
// name the routes (never a game id), the mail counter matches what the
// mail server got, and the backlog is read from the store.
func TestMetricsEndpoint(t *testing.T) {
	smtp := smtptest.Start(t)
	s := startServer(t, filepath.Join(t.TempDir(), "lesspost.db"), smtp.Addr, "--metrics-addr", "127.0.0.1:0")
	url := "http://" + logged(t, s.logs, "metrics listening")["addr"].(string) + "/metrics"

	before := scrape(t, url)
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "lesspost_scheduler_passes_total"} {
		if _, ok := before[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	if up := value(before, "lesspost_backlog_up", nil); up != 1 {
		t.Errorf("lesspost_backlog_up %v", up)
	}
	s.call("GET", "/metrics", "", nil, http.StatusNotFound, nil)

	token := s.login(smtp, "org@example.org")
	var g game
	s.call("POST", "/v1/games", token, map[string]any{
		"players": []map[string]any{{"name": "Ann", "email": "org@example.org"}, {"name": "Bob", "email": "org@example.org"}},
		"board":   map[string]any{"walls": strings.Repeat("0", 60)},
	}, http.StatusCreated, &g)
	s.call("POST", "/v1/games/"+g.ID+"/turns", token, map[string]any{"turn": firstTurn, "ply": 0}, http.StatusCreated, nil)
	s.call("GET", "/v1/games/"+g.ID, token, nil, http.StatusOK, nil)
	waitFor(t, func() bool { return value(scrape(t, url), "lesspost_outbox_pending", nil) == 0 })

	after := scrape(t, url)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"lesspost_http_requests_total", map[string]string{"route": "/v1/games", "method": "POST", "status_class": "2xx"}, 1},
		{"lesspost_http_requests_total", map[string]string{"route": "/v1/games/:id/turns", "method": "POST", "status_class": "2xx"}, 1},
		{"lesspost_http_requests_total", map[string]string{"route": "/v1/games/:id", "method": "GET", "status_class": "2xx"}, 1},
		{"lesspost_http_requests_total", map[string]string{"route": "unmatched", "method": "GET", "status_class": "4xx"}, 1}, // GET /metrics
		{"lesspost_http_request_duration_seconds", map[string]string{"route": "/v1/games/:id/turns", "method": "POST"}, 1},
		{"lesspost_mail_sent_total", nil, float64(len(smtp.Messages()))}, // login, two invitations, your turn
		{"lesspost_mail_failed_attempts_total", nil, 0},
		{"lesspost_outbox_pending", nil, 0},
		{"lesspost_outbox_failed", nil, 0},
		{"lesspost_scheduler_due_games", nil, 0},
		{"lesspost_scheduler_lag_seconds", nil, 0},
		{"lesspost_webhooks_due", nil, 0},
		{"lesspost_webhooks_delivered_total", nil, 0},
	} {
		if got := value(after, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if n := len(smtp.Messages()); n < 4 {
		t.Errorf("%d emails arrived, want at least 4", n)
	}
	for _, m := range after["lesspost_http_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if strings.Contains(l.GetValue(), g.ID) {
				t.Errorf("a label names the game: %s=%q", l.GetName(), l.GetValue())
			}
		}
	}
}

// firstTurn is a legal opening for White on a board without walls.
const firstTurn = "e5e4:e4d4:d4c4"

// sqliteMigrations are the names of SQLite's migration files. Their count
// is not the newest version: numbers may be skipped.
var sqliteMigrations, _ = fs.Glob(migrations.FS, "*.sql")

// migrate applies what is pending and says so, then finds nothing to do;
// the database comes from --db or LESSPOST_DB.
func TestMigrateCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lesspost.db")
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		applied int
		wantErr string
	}{
		{name: "a new database", args: []string{"migrate", "--db", path}, applied: len(sqliteMigrations)},
		{name: "again, from the environment", args: []string{"migrate"}, env: map[string]string{"LESSPOST_DB": path}},
		// pgtest's databases are migrated already (repo/postgres tests a new one).
		{name: "PostgreSQL", args: []string{"migrate", "--db", postgresDB}},
		{name: "PostgreSQL unreachable", args: []string{"migrate", "--db", "postgres://lesspost@db.invalid/lesspost"},
			wantErr: "migrate database"},
		{name: "an argument", args: []string{"migrate", "now"}, wantErr: `unexpected argument "now"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			version := sqlite.SchemaVersion()
			if i := slices.Index(tt.args, postgresDB); i >= 0 {
				tt.args[i] = pgtest.DSN(t)
				all, err := postgres.Migrations()
				if err != nil {
					t.Fatal(err)
				}
				version = all[len(all)-1].Version
			}
			var logs syncBuffer
			err := run(t.Context(), tt.args, func(k string) string { return tt.env[k] }, &logs, nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("run = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("run: %v\n%s", err, logs.String())
			}
			if n := strings.Count(logs.String(), `"msg":"applied migration"`); n != tt.applied {
				t.Errorf("%d migrations reported, want %d:\n%s", n, tt.applied, logs.String())
			}
			done := logged(t, &logs, "schema is current")
			if done["version"] != float64(version) || done["applied"] != float64(tt.applied) {
				t.Errorf("reported %v", done)
			}
		})
	}
}

// postgresDB in a test's arguments stands for a new PostgreSQL database.
const postgresDB = "<a new PostgreSQL database>"

// A backup taken while a server plays games opens as a store and holds
// every game as far as it was played when the backup started.
func TestBackupWhilePlaying(t *testing.T) {
	smtp := smtptest.Start(t)
	dbPath := filepath.Join(t.TempDir(), "lesspost.db")
	s := startServer(t, dbPath, smtp.Addr)
	const email = "org@example.org"
	c := &crashClient{base: s.base, token: s.login(smtp, email), http: s.client}
	games := make([]crashGame, 4)
	for i := range games {
		players := []map[string]any{{"name": "P1", "email": email}, {"name": "P2", "email": email}}
		c.must(t, "POST", "/v1/games", map[string]any{"players": players,
			"board": map[string]any{"walls": strings.Repeat("0", 60)}}, http.StatusCreated, &games[i])
	}

	// One client plays the games in turn until told to stop; the test
	// reads how far each got.
	var mu sync.Mutex
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		rng := rand.New(rand.NewPCG(1, 2))
		for i := 0; ; i = (i + 1) % len(games) {
			select {
			case <-stop:
				return
			default:
			}
			mu.Lock()
			g := games[i]
			mu.Unlock()
			if g.Status != "active" {
				continue
			}
			pos, err := g.position()
			if err != nil {
				t.Error(err)
				return
			}
			status, data, _, err := c.do(t.Context(), "POST", "/v1/games/"+g.ID+"/turns",
				map[string]any{"turn": randomTurn(pos, rng).String(), "ply": g.Ply}, nil)
			var played crashPlayed
			if err == nil && status == http.StatusCreated {
				err = json.Unmarshal(data, &played)
			} else if err == nil {
				t.Errorf("turn: %d %s", status, data)
				return
			}
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			games[i] = played.Game
			mu.Unlock()
		}
	})
	defer func() {
		close(stop)
		wg.Wait()
	}()
	played := func() int {
		mu.Lock()
		defer mu.Unlock()
		return sumPly(games)
	}
	waitFor(t, func() bool { return played() >= 8 })

	mu.Lock()
	atStart := append([]crashGame(nil), games...)
	mu.Unlock()
	to := filepath.Join(t.TempDir(), "backup.db")
	var logs syncBuffer
	if err := run(t.Context(), []string{"backup", "--db", dbPath, "--to", to}, func(string) string { return "" }, &logs, nil); err != nil {
		t.Fatalf("backup: %v\n%s", err, logs.String())
	}
	t.Logf("%d plies before the backup, %d after", sumPly(atStart), played())
	logged(t, &logs, "backup written")

	db, err := sqlite.Open(t.Context(), to)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, want := range atStart {
		g, err := db.Game(t.Context(), want.ID)
		if err != nil {
			t.Errorf("game %s: %v", want.ID, err)
		} else if g.Ply() < want.Ply {
			t.Errorf("game %s at ply %d in the backup, %d before it started", want.ID, g.Ply(), want.Ply)
		}
	}
}

func sumPly(games []crashGame) int {
	n := 0
	for _, g := range games {
		n += g.Ply
	}
	return n
}

// backup refuses what it cannot do well, in words that say what to do.
func TestBackupCommandRefuses(t *testing.T) {
	src := repotest.Path(t)
	existing := filepath.Join(t.TempDir(), "existing.db")
	if err := os.WriteFile(existing, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no --to", []string{"backup", "--db", src}, "--to: required"},
		{"PostgreSQL", []string{"backup", "--db", "postgres://lesspost@db.example/lesspost", "--to", filepath.Join(t.TempDir(), "x")}, "pg_dump"},
		{"an existing file", []string{"backup", "--db", src, "--to", existing}, "--force overwrites it"},
		{"no database", []string{"backup", "--db", filepath.Join(t.TempDir(), "missing.db"), "--to", filepath.Join(t.TempDir(), "x")}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(t.Context(), tt.args, func(string) string { return "" }, &bytes.Buffer{}, nil)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("run = %v, want %q", err, tt.wantErr)
			}
		})
	}
	if data, _ := os.ReadFile(existing); string(data) != "keep me" {
		t.Errorf("the existing file was changed")
	}
	if err := run(t.Context(), []string{"backup", "--db", src, "--to", existing, "--force"}, func(string) string { return "" }, &bytes.Buffer{}, nil); err != nil {
		t.Errorf("--force: %v", err)
	}
}
