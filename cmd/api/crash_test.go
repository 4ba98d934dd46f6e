package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/notify/smtptest"
)

// The crash test runs the real program in a separate process (this test
// binary, re-executed into TestCrashChild), so that it can be killed with
// SIGKILL like a server whose machine dies: no deferred cleanup, no graceful
// shutdown, requests cut off in the middle of a transaction.

const (
	crashChildEnv = "LESSPOST_CRASH_CHILD" // set: this process is the server
	crashArgsEnv  = "LESSPOST_CRASH_ARGS"  // its arguments, as a JSON array
	crashEmail    = "crash@example.org"
)

// TestCrashChild is not a test: it is the server process of
// TestCrashRecovery, run as this test binary with crashChildEnv set.
func TestCrashChild(t *testing.T) {
	if os.Getenv(crashChildEnv) == "" {
		t.Skip("the server process of TestCrashRecovery; runs only when it starts it")
	}
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv(crashArgsEnv)), &args); err != nil {
		fmt.Fprintln(os.Stderr, "crash child: bad arguments:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	err := run(ctx, args, func(string) string { return "" }, os.Stderr, func(a net.Addr) {
		fmt.Printf("LISTENING %s\n", a) // the parent waits for this line
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash child: run:", err)
		os.Exit(1)
	}
	os.Exit(0) // skip the test framework's own output
}

// crashServer is one server process.
type crashServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	base   string
	log    string        // its log file
	exited chan struct{} // closed once the process is gone
	err    error         // how it exited, once exited is closed
}

// startCrashServer starts the program in a child process on a free port and
// waits until it listens. extra are further arguments.
func startCrashServer(t *testing.T, dbPath, smtpAddr, logPath string, extra ...string) *crashServer {
	t.Helper()
	host, port, _ := net.SplitHostPort(smtpAddr)
	args, _ := json.Marshal(append([]string{"--addr", "127.0.0.1:0", "--db", dbPath, "--base-url", "http://lesspost.test",
		"--smtp-host", host, "--smtp-port", port, "--smtp-tls", "none", "--smtp-from", "Less <games@lesspost.test>",
		// The mail the killed server had claimed waits for its lease to end:
		// a short one, so the restarted server sends it within the test.
		"--mail-retry-delay", "100ms", "--mail-lease", "3s", "--log-level", "warn"}, extra...))
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), crashChildEnv+"=1", crashArgsEnv+"="+string(args))
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &crashServer{t: t, cmd: cmd, log: logPath, exited: make(chan struct{})}
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "LISTENING "); ok {
				listening <- addr
			}
		}
		s.err = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() { s.kill() })
	select {
	case addr := <-listening:
		s.base = "http://" + addr
	case <-s.exited:
		t.Fatalf("the server exited before listening: %v\n%s", s.err, s.logTail())
	case <-time.After(30 * time.Second):
		t.Fatalf("the server is not listening after 30s\n%s", s.logTail())
	}
	return s
}

// kill ends the process at once (SIGKILL) and waits for it.
func (s *crashServer) kill() {
	select {
	case <-s.exited:
	default:
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// stop ends the process as an orchestrator would (SIGTERM) and wants a
// clean exit.
func (s *crashServer) stop() {
	s.t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
		if s.err != nil {
			s.t.Errorf("the server did not stop cleanly: %v\n%s", s.err, s.logTail())
		}
	case <-time.After(30 * time.Second):
		s.t.Errorf("the server did not stop within 30s of SIGTERM\n%s", s.logTail())
		s.kill()
	}
}

func (s *crashServer) logTail() string {
	b, _ := os.ReadFile(s.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// crashClient is the HTTP side: one account token, one keep-alive pool.
type crashClient struct {
	base  string
	token string
	http  *http.Client
}

func (c *crashClient) do(ctx context.Context, method, path string, body any, header map[string]string) (int, []byte, http.Header, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res.StatusCode, data, res.Header, err
}

// must sends a request that has to succeed with want and decodes the answer.
func (c *crashClient) must(t *testing.T, method, path string, body any, want int, out any) []byte {
	t.Helper()
	status, data, _, err := c.do(t.Context(), method, path, body, nil)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if status != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, status, want, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
	return data
}

// login signs in through the emailed code and returns the access token.
func (c *crashClient) login(t *testing.T, smtp *smtptest.Server, email string) string {
	t.Helper()
	before := len(smtp.To(email))
	c.must(t, "POST", "/v1/auth/login", map[string]any{"email": email}, http.StatusAccepted, nil)
	waitFor(t, func() bool { return len(smtp.To(email)) > before })
	m := smtp.To(email)[before]
	code := codeRE.FindStringSubmatch(m.Text)
	if code == nil {
		t.Fatalf("no code in the login email:\n%s", m.Text)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	c.must(t, "POST", "/v1/auth/token", map[string]any{"email": email, "code": code[1]}, http.StatusOK, &tok)
	return tok.AccessToken
}

// crashGame is the part of the API's Game the test plays from.
type crashGame struct {
	ID     string  `json:"id"`
	Status string  `json:"status"`
	Ply    int     `json:"ply"`
	ToMove *string `json:"to_move"`
	Board  struct {
		Size  int    `json:"size"`
		Walls string `json:"walls"`
	} `json:"board"`
	Options struct {
		EarlyStop bool `json:"early_stop"`
	} `json:"options"`
	Pieces map[string][]string `json:"pieces"`
	Counts map[string]int      `json:"counts"`
}

func (g *crashGame) placement() (less.Placement, error) {
	out := less.Placement{}
	for name, squares := range g.Pieces {
		c, err := less.ParseColor(name)
		if err != nil {
			return nil, err
		}
		for _, text := range squares {
			sq, err := less.ParseSquare(text)
			if err != nil {
				return nil, err
			}
			out[c] = append(out[c], sq)
		}
	}
	return out, nil
}

// position rebuilds the current position from the game's JSON.
func (g *crashGame) position() (less.Position, error) {
	b, err := less.ParseBoard(g.Board.Size, g.Board.Walls)
	if err != nil {
		return less.Position{}, err
	}
	toMove, err := less.ParseColor(*g.ToMove)
	if err != nil {
		return less.Position{}, err
	}
	pl, err := g.placement()
	if err != nil {
		return less.Position{}, err
	}
	return less.NewPosition(b, pl, toMove, g.Options.EarlyStop)
}

// randomTurn picks one legal turn uniformly among all of them.
func randomTurn(p less.Position, rng *rand.Rand) less.Turn {
	var pick less.Turn
	n := 0
	p.EachTurn(func(t less.Turn, _ less.Position) bool {
		if n++; rng.IntN(n) == 0 {
			pick = append(pick[:0], t...)
		}
		return true
	})
	return pick
}

// acked is a turn the server acknowledged with 201.
type acked struct {
	game string
	ply  int
	turn string
	key  string // the Idempotency-Key of the request that played it ("" for an automatic pass after it)
	body any
}

type crashPlayed struct {
	Game   crashGame `json:"game"`
	Played []struct {
		Ply  int    `json:"ply"`
		Turn string `json:"turn"`
	} `json:"played"`
}

type crashMail struct {
	Kind   string `json:"kind"`
	Ply    int    `json:"ply"`
	Status string `json:"status"`
}

// TestCrashRecovery kills the server with SIGKILL while clients play turns,
// restarts it on the same database, and checks what a crash must not break:
// every acknowledged turn is stored (and its Idempotency-Key still answers
// it), the database file is intact, every game replays legally to the
// stored position, and the outbox delivers every email after the restart.
func TestCrashRecovery(t *testing.T) {
	if os.Getenv(crashChildEnv) != "" {
		t.Skip("inside the child")
	}
	began := time.Now()
	smtp := smtptest.Start(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "lesspost.db")
	srv := startCrashServer(t, dbPath, smtp.Addr, filepath.Join(dir, "server1.log"))
	c := &crashClient{base: srv.base, http: &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 16, Proxy: nil}}}

	c.token = c.login(t, smtp, crashEmail)

	// Games whose every seat is the account's: five of two players (one
	// short, so that it ends and sends its result) and one of four.
	var games []crashGame
	for i := range 6 {
		var g crashGame
		c.must(t, "POST", "/v1/games", gameRequest(crashEmail, i, 5, 100+i), http.StatusCreated, &g)
		games = append(games, g)
	}

	// Play from one client per game until the kill.
	var (
		mu      sync.Mutex
		acks    []acked
		killed  atomic.Bool
		nAcked  atomic.Int64
		flying  atomic.Int64 // requests sent and not yet answered
		wg      sync.WaitGroup
		errText []string
	)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	for i := range games {
		g := games[i]
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		wg.Go(func() {
			for seq := 0; ctx.Err() == nil && !killed.Load() && g.Status == "active"; seq++ {
				pos, err := g.position()
				if err != nil {
					mu.Lock()
					errText = append(errText, fmt.Sprintf("game %s: %v", g.ID, err))
					mu.Unlock()
					return
				}
				turn := randomTurn(pos, rng).String()
				key := fmt.Sprintf("crash-%d-%d", i, seq)
				body := map[string]any{"turn": turn, "ply": g.Ply}
				flying.Add(1)
				status, data, _, err := c.do(ctx, "POST", "/v1/games/"+g.ID+"/turns", body, map[string]string{"Idempotency-Key": key})
				flying.Add(-1)
				if err != nil || killed.Load() {
					return // the server is gone: the answer, if any, was never seen
				}
				if status != http.StatusCreated {
					mu.Lock()
					errText = append(errText, fmt.Sprintf("turn %s at ply %d of %s: %d %s", turn, g.Ply, g.ID, status, data))
					mu.Unlock()
					return
				}
				var res crashPlayed
				if err := json.Unmarshal(data, &res); err != nil || len(res.Played) == 0 || res.Played[0].Turn != turn {
					mu.Lock()
					errText = append(errText, fmt.Sprintf("turn %s of %s: bad answer %s", turn, g.ID, data))
					mu.Unlock()
					return
				}
				mu.Lock()
				acks = append(acks, ackedTurns(g.ID, key, body, res)...)
				mu.Unlock()
				nAcked.Add(1)
				g = res.Game
			}
		})
	}
	// Kill in the middle of the load: once enough turns were acknowledged,
	// with every client still sending.
	deadline := time.Now().Add(15 * time.Second)
	for nAcked.Load() < 60 && time.Now().Before(deadline) && len(errText) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	killed.Store(true)
	inFlight := flying.Load()
	srv.kill()
	wg.Wait()
	cancel()
	mu.Lock()
	if len(errText) > 0 {
		t.Fatalf("errors before the kill:\n%s\n%s", strings.Join(errText, "\n"), srv.logTail())
	}
	if nAcked.Load() < 60 {
		t.Fatalf("only %d turns acknowledged in 15s", nAcked.Load())
	}
	mu.Unlock()
	t.Logf("killed the server after %d acknowledged requests (%d turns with automatic passes), with %d requests in flight",
		nAcked.Load(), len(acks), inFlight)

	// The file a killed process left behind is intact.
	checkIntegrity(t, dbPath)

	// Restart on the same file.
	srv = startCrashServer(t, dbPath, smtp.Addr, filepath.Join(dir, "server2.log"))
	c.base = srv.base

	checkAcked(t, func(int) *crashClient { return c }, games, acks)

	// The outbox resumes: every email of every game is eventually sent,
	// the killed server's claims once their lease ends.
	var total int
	waitDeadline := time.Now().Add(20 * time.Second)
	for _, g := range games {
		for {
			var mail struct {
				Mail []crashMail `json:"mail"`
			}
			c.must(t, "GET", "/v1/games/"+g.ID+"/mail", nil, http.StatusOK, &mail)
			pending := slices.IndexFunc(mail.Mail, func(m crashMail) bool { return m.Status != "sent" })
			if pending < 0 {
				total += len(mail.Mail)
				break
			}
			if time.Now().After(waitDeadline) {
				t.Fatalf("game %s: mail %+v still not sent 20s after the restart\n%s", g.ID, mail.Mail[pending], srv.logTail())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// Each was handed to the SMTP server (a mail sent just before the kill
	// but not yet recorded goes again: duplicates are allowed, losses not).
	if got := len(smtp.To(crashEmail)); got < total+1 {
		t.Errorf("the SMTP server got %d emails, want at least %d (the login and every game's mail)", got, total+1)
	}

	srv.stop()
	checkIntegrity(t, dbPath)
	for _, name := range []string{"server1.log", "server2.log"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		if bytes.Contains(b, []byte("DATA RACE")) || bytes.Contains(b, []byte("panic")) {
			t.Errorf("%s reports a race or a panic:\n%s", name, b)
		}
	}
	t.Logf("%d acknowledged turns and %d emails survived a SIGKILL; %v in all", len(acks), total, time.Since(began).Round(time.Millisecond))
}

// ackedTurns lists the turns an answer acknowledged: the first is the one
// sent, with its key and body; any others were played automatically after it.
func ackedTurns(game, key string, body any, res crashPlayed) []acked {
	var out []acked
	for j, p := range res.Played {
		a := acked{game: game, ply: p.Ply, turn: p.Turn}
		if j == 0 {
			a.key, a.body = key, body
		}
		out = append(out, a)
	}
	return out
}

// gameRequest asks for game i of a set whose every seat is email's, on a
// board of its own (seed): the first is short, so that it ends and sends
// its result; the one at four has four players, the others two.
func gameRequest(email string, i, four, seed int) map[string]any {
	players := []map[string]any{{"name": "P1", "email": email}, {"name": "P2", "email": email}}
	if i == four {
		players = append(players, map[string]any{"name": "P3", "email": email}, map[string]any{"name": "P4", "email": email})
	}
	req := map[string]any{"players": players, "board": map[string]any{"seed": strconv.Itoa(seed)}}
	if i == 0 {
		req["options"] = map[string]any{"max_turns": 3}
	}
	return req
}

// checkAcked checks what a crash must not break: every acknowledged turn is
// stored, at its ply, as it was acknowledged; the Idempotency-Key of each
// game's last keyed turn still answers it (the stored response committed
// with the turn); every game replays legally, from its exported record, to
// the stored state. client(n) sends the n-th request, so that several
// instances can share them.
func checkAcked(t *testing.T, client func(n int) *crashClient, games []crashGame, acks []acked) {
	t.Helper()
	stored := map[string]map[int]string{}
	for n, g := range games {
		var list struct {
			Turns []struct {
				Ply  int    `json:"ply"`
				Turn string `json:"turn"`
			} `json:"turns"`
		}
		client(n).must(t, "GET", "/v1/games/"+g.ID+"/turns", nil, http.StatusOK, &list)
		stored[g.ID] = map[int]string{}
		for _, tr := range list.Turns {
			stored[g.ID][tr.Ply] = tr.Turn
		}
	}
	last := map[string]acked{}
	for _, a := range acks {
		if got, ok := stored[a.game][a.ply]; !ok || got != a.turn {
			t.Errorf("acknowledged turn %d of %s (%s) is stored as %q (present: %v)", a.ply, a.game, a.turn, got, ok)
		}
		if a.key != "" && a.ply > last[a.game].ply {
			last[a.game] = a
		}
	}
	n := 0
	for _, a := range last {
		n++
		status, data, h, err := client(n).do(t.Context(), "POST", "/v1/games/"+a.game+"/turns", a.body, map[string]string{"Idempotency-Key": a.key})
		if err != nil || status != http.StatusCreated || h.Get("Idempotent-Replayed") != "true" {
			t.Errorf("retry of turn %d of %s with its key: %d %v, replayed %q: %s", a.ply, a.game, status, err, h.Get("Idempotent-Replayed"), data)
		}
	}
	for n, g := range games {
		checkReplay(t, client(n), g.ID)
	}
}

// checkIntegrity opens the file as a new process would (recovering the WAL
// a killed process left) and runs SQLite's own checks.
func checkIntegrity(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var result string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&result); err != nil || result != "ok" {
		t.Errorf("PRAGMA integrity_check = %q, %v", result, err)
	}
	rows, err := db.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if rows.Next() {
		t.Error("PRAGMA foreign_key_check finds rows that point nowhere")
	}
}

// checkReplay imports the game's record with the rules engine (which replays
// and judges every turn) and compares where it leads with the stored game.
func checkReplay(t *testing.T, c *crashClient, id string) {
	t.Helper()
	var g crashGame
	c.must(t, "GET", "/v1/games/"+id, nil, http.StatusOK, &g)
	text := c.must(t, "GET", "/v1/games/"+id+"/record", nil, http.StatusOK, nil)
	rec, err := less.ParseRecord(string(text))
	if err != nil {
		t.Errorf("game %s: the record does not replay: %v\n%s", id, err, text)
		return
	}
	if len(rec.History) != g.Ply || rec.Game.Ply() != g.Ply {
		t.Errorf("game %s: the record has %d turns, the game is at ply %d", id, len(rec.History), g.Ply)
	}
	if over := g.Status == "finished"; rec.Game.Over() != over {
		t.Errorf("game %s: status %s, but the replay says over=%v", id, g.Status, rec.Game.Over())
	}
	pl, err := g.placement()
	if err != nil {
		t.Fatal(err)
	}
	replayed := rec.Game.Position()
	for c, squares := range replayed.Placement() {
		want := slices.Clone(pl[c])
		slices.SortFunc(want, func(a, b less.Square) int { return int(a.Row)*16 + int(a.Col) - int(b.Row)*16 - int(b.Col) })
		got := slices.Clone(squares)
		slices.SortFunc(got, func(a, b less.Square) int { return int(a.Row)*16 + int(a.Col) - int(b.Row)*16 - int(b.Col) })
		if !slices.Equal(got, want) {
			t.Errorf("game %s: %s stands on %v, the replay puts it on %v", id, c, want, got)
		}
		if n := g.Counts[c.String()]; n != rec.Game.Count(c) {
			t.Errorf("game %s: %s's count is %d, the replay says %d", id, c, n, rec.Game.Count(c))
		}
	}
	if g.Status == "active" && (g.ToMove == nil || *g.ToMove != replayed.ToMove().String()) {
		t.Errorf("game %s: %v to move, the replay says %s", id, g.ToMove, replayed.ToMove())
	}
}
