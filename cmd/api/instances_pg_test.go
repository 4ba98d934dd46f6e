package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify/smtptest"
)

// Three processes of the real program on one database, as an operator runs
// them behind a load balancer: games whose turns go to each instance in
// turn, the same turn sent to all three at once, one instance killed with
// SIGKILL while clients play, and afterwards everything the three promised
// checked — every acknowledged turn stored, every game's record legal,
// every email at the mail server once, every reminder and round start once.

const (
	multiEmail   = "multi@example.org"     // holds every seat of the played games and organises the tournament
	multiEarly   = "early@example.org"     // holds the games reminded while all three instances run
	multiAtKill  = "atkill@example.org"    // holds the games reminded as one instance is killed
	multiPlayers = 12                      // two-player games played under load
	multiKillAt  = 60                      // acknowledged turns before the kill
	multiAfter   = 60                      // acknowledged turns after it
	multiLoadMax = 20 * time.Second        // the most the load may take
	multiEntrant = "entrant%d@example.org" // the tournament's entrants
	multiEntries = 6
)

// sharedDB is a database the three instances share: dsn is their --db,
// read the test's own read-only connection to it.
type sharedDB struct {
	dsn  string
	read *sql.DB
}

// sqliteShared is a new SQLite file. Several servers on one file is what
// the program supports on one machine; the test runs there always.
func sqliteShared(t *testing.T) sharedDB {
	path := filepath.Join(t.TempDir(), "lesspost.db")
	// Opened lazily: the first server creates the file.
	db, err := sql.Open("sqlite", "file:"+path+"?"+url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(5000)"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return sharedDB{dsn: path, read: db}
}

func TestThreeInstancesOneDatabase(t *testing.T) {
	if os.Getenv(crashChildEnv) != "" {
		t.Skip("inside the child")
	}
	if testing.Short() {
		t.Skip("starts three server processes and plays for several seconds")
	}
	t.Run("sqlite", func(t *testing.T) { testThreeInstances(t, sqliteShared(t)) })
}

// cluster is the server processes on one database and one mail server.
type cluster struct {
	t       *testing.T
	dir     string
	args    []string // for every instance, besides startCrashServer's
	db      sharedDB
	smtp    *smtptest.Server
	gate    *mailGate // the servers' way to smtp
	http    *http.Client
	mu      sync.Mutex
	servers []*crashServer
	dead    []atomic.Bool  // by instance: killed
	flying  []atomic.Int64 // by instance: turns sent and not yet answered
	started int            // processes started, for the log names
}

func newCluster(t *testing.T, db sharedDB, n int) *cluster {
	dir := t.TempDir()
	// The child process ignores the environment, and every instance must
	// sign with the same keys: one secret file for all.
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte(hex.EncodeToString(randomBytes(32))+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &cluster{t: t, dir: dir, db: db, smtp: smtptest.Start(t), dead: make([]atomic.Bool, n), flying: make([]atomic.Int64, n),
		http: &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 32, Proxy: nil}},
		args: []string{"--secret-file", secret,
			// The schedulers look every second, so that all three race for
			// what falls due.
			"--scheduler-interval", "1s",
			// Every request comes from 127.0.0.1 and one account.
			"--limit-login", "1000/1m", "--limit-token", "1000/1m", "--limit-games-ip", "1000/1m",
			"--limit-games-account", "1000/1m", "--limit-tournaments-ip", "1000/1m", "--limit-tournaments-account", "1000/1m"}}
	c.gate = startMailGate(t, c.smtp.Addr)
	c.servers = make([]*crashServer, n)
	// Started together, as an orchestrator does: all three migrate the
	// fresh database at once.
	var wg sync.WaitGroup
	for i := range n {
		log := c.logPath()
		wg.Go(func() { c.servers[i] = startCrashServer(t, db.dsn, c.gate.ln.Addr().String(), log, c.args...) })
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return c
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	crand.Read(b)
	return b
}

func (c *cluster) logPath() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.started++
	return filepath.Join(c.dir, fmt.Sprintf("server%d.log", c.started))
}

// client talks to instance i with token.
func (c *cluster) client(i int, token string) *crashClient {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &crashClient{base: c.servers[i].base, token: token, http: c.http}
}

// live lists the instances not killed.
func (c *cluster) live() []int {
	var out []int
	for i := range c.dead {
		if !c.dead[i].Load() {
			out = append(out, i)
		}
	}
	return out
}

// kill ends instance i with SIGKILL.
func (c *cluster) kill(i int) {
	c.dead[i].Store(true)
	c.servers[i].kill()
}

// restart starts a new process in place of the killed instance i.
func (c *cluster) restart(i int) {
	s := startCrashServer(c.t, c.db.dsn, c.gate.ln.Addr().String(), c.logPath(), c.args...)
	c.mu.Lock()
	c.servers[i] = s
	c.mu.Unlock()
	c.dead[i].Store(false)
}

// checkLogs fails on a data race or a panic in any server's log.
func (c *cluster) checkLogs() {
	for n := 1; n <= c.started; n++ {
		b, _ := os.ReadFile(filepath.Join(c.dir, fmt.Sprintf("server%d.log", n)))
		if bytes.Contains(b, []byte("DATA RACE")) || bytes.Contains(b, []byte("panic")) {
			c.t.Errorf("server%d.log reports a race or a panic:\n%s", n, b)
		}
	}
}

// mailGate stands between the servers and the mail server and can hold
// the messages the servers send (the DATA, not the commands around it), so
// that an instance can be killed while it is in the middle of delivering
// mail it claimed: its mail then never reached the mail server, and must
// arrive after its lease ends.
type mailGate struct {
	ln   net.Listener
	to   string
	mu   sync.Mutex
	open chan struct{} // closed while messages flow
}

func startMailGate(t *testing.T, to string) *mailGate {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &mailGate{ln: ln, to: to, open: make(chan struct{})}
	close(g.open)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go g.forward(conn)
		}
	}()
	return g
}

// forward relays one connection: the mail server's replies and the
// client's commands at once, each message when the gate is open. Holding
// only messages keeps a worker that is just closing an idle connection
// (QUIT) from being held, so that it can claim mail and be caught with it.
func (g *mailGate) forward(client net.Conn) {
	defer client.Close()
	server, err := net.Dial("tcp", g.to)
	if err != nil {
		return
	}
	defer server.Close()
	go func() {
		_, _ = io.Copy(client, server)
		client.Close()
	}()
	buf := make([]byte, 32<<10)
	var tail []byte // the end of what was forwarded, to follow the dialogue
	inData := false
	for {
		n, err := client.Read(buf)
		if n > 0 {
			if inData {
				<-g.opened()
			}
			if _, werr := server.Write(buf[:n]); werr != nil {
				return
			}
			tail = append(tail, buf[:n]...)
			tail = tail[max(len(tail)-8, 0):]
			// The client sends the message after DATA and the server's 354;
			// the message ends with a line of a single dot.
			switch {
			case !inData && bytes.HasSuffix(tail, []byte("\r\nDATA\r\n")):
				inData = true
			case inData && bytes.HasSuffix(tail, []byte("\r\n.\r\n")):
				inData = false
			}
		}
		if err != nil {
			return
		}
	}
}

func (g *mailGate) opened() chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open
}

// hold stops the messages the servers send from reaching the mail server.
func (g *mailGate) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open = make(chan struct{})
}

// release lets it through again.
func (g *mailGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.open:
	default:
		close(g.open)
	}
}

// answer is one HTTP answer, or the error that stood for it.
type answer struct {
	status int
	body   []byte
	header http.Header
	err    error
}

// problemCode is the code of a problem answer.
func (a answer) problemCode() string {
	var p struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(a.body, &p)
	return p.Code
}

// submit plays a turn at instance first and, as long as no answer comes
// back (the instance died with the request), sends the same request with
// the same key to the next live instance. lost counts the answers lost.
func (c *cluster) submit(ctx context.Context, token string, first int, path string, body any, key string) (a answer, lost int) {
	for try := 0; ctx.Err() == nil && try < 2*len(c.dead); try++ {
		i := (first + try) % len(c.dead)
		if c.dead[i].Load() {
			continue
		}
		c.flying[i].Add(1)
		a.status, a.body, a.header, a.err = c.client(i, token).do(ctx, "POST", path, body, map[string]string{"Idempotency-Key": key})
		c.flying[i].Add(-1)
		if a.err == nil {
			return a, lost
		}
		lost++
	}
	if a.err == nil {
		a.err = fmt.Errorf("no live instance answered: %w", ctx.Err())
	}
	return a, lost
}

// race sends one request to every live instance at once: each goroutine
// has its request ready and waits for the same signal.
func (c *cluster) race(token, path string, body any, header map[string]string) []answer {
	live := c.live()
	out := make([]answer, len(live))
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	for n, i := range live {
		ready.Add(1)
		cl := c.client(i, token)
		done.Go(func() {
			ready.Done()
			<-start
			a := &out[n]
			a.status, a.body, a.header, a.err = cl.do(c.t.Context(), "POST", path, body, header)
		})
	}
	ready.Wait()
	close(start)
	done.Wait()
	return out
}

// outboxRows reads the outbox: what was queued, and what became of it.
func (c *cluster) outboxRows() []outboxRow {
	return queryOutbox(c.t, c.db.read)
}

// tournamentJSON is the part of the API's Tournament the test checks.
type tournamentJSON struct {
	ID     string `json:"id"`
	Rounds []struct {
		Status string `json:"status"`
		Games  []struct {
			White  int     `json:"white"`
			Black  *int    `json:"black"`
			GameID *string `json:"game_id"`
		} `json:"games"`
	} `json:"rounds"`
}

func testThreeInstances(t *testing.T, db sharedDB) {
	began := time.Now()
	c := newCluster(t, db, 3)
	smtp := c.smtp
	t.Logf("three instances up in %v", time.Since(began).Round(time.Millisecond))

	// Sign in on different instances: a token from one is good at all.
	token := c.client(0, "").login(t, smtp, multiEmail)
	early := c.client(1, "").login(t, smtp, multiEarly)
	atKill := c.client(2, "").login(t, smtp, multiAtKill)

	// A tournament whose only round starts in a few seconds: the three
	// schedulers race to start it.
	var entrants []map[string]any
	for i := range multiEntries {
		entrants = append(entrants, map[string]any{"name": fmt.Sprintf("E%d", i), "email": fmt.Sprintf(multiEntrant, i)})
	}
	var tour tournamentJSON
	c.client(1, token).must(t, "POST", "/v1/tournaments", map[string]any{"name": "Cluster Cup", "format": "swiss", "rounds": 1,
		"players": entrants, "schedule": map[string]any{"starts": []time.Time{time.Now().Add(3 * time.Second)}, "round_hours": 1}},
		http.StatusCreated, &tour)

	// Games with a time control whose reminder falls due in the test (see
	// dueReminders), created on each instance.
	reminded := map[string]string{} // game → the address reminded
	for i, email := range []string{multiEarly, multiEarly, multiAtKill, multiAtKill} {
		tok := map[string]string{multiEarly: early, multiAtKill: atKill}[email]
		var g crashGame
		c.client(i%3, tok).must(t, "POST", "/v1/games", map[string]any{
			"players": []map[string]any{{"name": "R1", "email": email}, {"name": "R2", "email": email}},
			"time":    map[string]any{"kind": "per_turn", "hours": 1, "reminders_hours": []int{1}},
		}, http.StatusCreated, &g)
		reminded[g.ID] = email
	}

	// The played games: two-player ones on boards of their own (one short,
	// so that it ends and sends its result), one of four players, and one
	// for the races; each created on another instance.
	var games []crashGame
	for i := range multiPlayers + 2 {
		players := []map[string]any{{"name": "P1", "email": multiEmail}, {"name": "P2", "email": multiEmail}}
		if i == multiPlayers {
			players = append(players, map[string]any{"name": "P3", "email": multiEmail}, map[string]any{"name": "P4", "email": multiEmail})
		}
		req := map[string]any{"players": players, "board": map[string]any{"seed": strconv.Itoa(300 + i)}}
		if i == 0 {
			req["options"] = map[string]any{"max_turns": 3}
		}
		var g crashGame
		c.client(i%3, token).must(t, "POST", "/v1/games", req, http.StatusCreated, &g)
		games = append(games, g)
	}
	raceGame := &games[len(games)-1]

	var acks []acked
	record := func(key string, body any, res crashPlayed, g crashGame) {
		for j, p := range res.Played {
			a := acked{game: g.ID, ply: p.Ply, turn: p.Turn}
			if j == 0 {
				a.key, a.body = key, body
			}
			acks = append(acks, a)
		}
	}

	// The same turn at all three at once, with one Idempotency-Key: one
	// instance applies it, the others answer with its stored response.
	rng := rand.New(rand.NewPCG(14, 3))
	for round := range 4 {
		pos, err := raceGame.position()
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprintf("race-%d", round)
		body := map[string]any{"turn": randomTurn(pos, rng).String(), "ply": raceGame.Ply}
		answers := c.race(token, "/v1/games/"+raceGame.ID+"/turns", body, map[string]string{"Idempotency-Key": key})
		applied := 0
		for _, a := range answers {
			if a.err != nil || a.status != http.StatusCreated || !bytes.Equal(a.body, answers[0].body) {
				t.Fatalf("the same turn with key %s at three instances: %d %v %s\nfirst answer: %s", key, a.status, a.err, a.body, answers[0].body)
			}
			if a.header.Get("Idempotent-Replayed") != "true" {
				applied++
			}
		}
		if applied != 1 {
			t.Fatalf("the same turn with key %s at three instances: applied %d times, want once", key, applied)
		}
		var res crashPlayed
		if err := json.Unmarshal(answers[0].body, &res); err != nil {
			t.Fatal(err)
		}
		record(key, body, res, *raceGame)
		*raceGame = res.Game
	}
	// Without a key: one instance plays it, the others find the ply taken.
	for range 4 {
		pos, err := raceGame.position()
		if err != nil {
			t.Fatal(err)
		}
		body := map[string]any{"turn": randomTurn(pos, rng).String(), "ply": raceGame.Ply}
		answers := c.race(token, "/v1/games/"+raceGame.ID+"/turns", body, nil)
		var won []answer
		for _, a := range answers {
			switch {
			case a.err == nil && a.status == http.StatusCreated:
				won = append(won, a)
			case a.err == nil && a.status == http.StatusConflict && a.problemCode() == "stale_ply":
			default:
				t.Fatalf("the same turn without a key at three instances: %d %v %s", a.status, a.err, a.body)
			}
		}
		if len(won) != 1 {
			t.Fatalf("the same turn without a key at three instances: %d played it, want 1", len(won))
		}
		var res crashPlayed
		if err := json.Unmarshal(won[0].body, &res); err != nil {
			t.Fatal(err)
		}
		record("", nil, res, *raceGame)
		*raceGame = res.Game
	}

	// The early reminders fall due now, while all three instances run.
	dueReminders(t, c.client(0, early))

	// Clients play every game, each turn at the next instance, until the
	// kill and on after it.
	var (
		mu       sync.Mutex
		failures []string
		nAcked   atomic.Int64
		lostAns  atomic.Int64 // answers lost with the killed instance
		stop     atomic.Bool
		wg       sync.WaitGroup
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		failures = append(failures, fmt.Sprintf(format, args...))
		mu.Unlock()
		stop.Store(true)
	}
	ctx, cancel := context.WithTimeout(t.Context(), multiLoadMax)
	defer cancel()
	for i := range multiPlayers + 1 {
		g := games[i]
		rng := rand.New(rand.NewPCG(uint64(i), 14))
		wg.Go(func() {
			for seq := 0; !stop.Load() && g.Status == "active"; seq++ {
				pos, err := g.position()
				if err != nil {
					fail("game %s: %v", g.ID, err)
					return
				}
				key := fmt.Sprintf("load-%d-%d", i, seq)
				body := map[string]any{"turn": randomTurn(pos, rng).String(), "ply": g.Ply}
				a, lost := c.submit(ctx, token, i+seq, "/v1/games/"+g.ID+"/turns", body, key)
				lostAns.Add(int64(lost))
				if a.err != nil && ctx.Err() != nil {
					return
				}
				if a.err != nil || a.status != http.StatusCreated {
					fail("turn %v of %s: %d %v %s", body, g.ID, a.status, a.err, a.body)
					return
				}
				var res crashPlayed
				if err := json.Unmarshal(a.body, &res); err != nil || len(res.Played) == 0 || res.Played[0].Turn != body["turn"] {
					fail("turn %v of %s: bad answer %s", body, g.ID, a.body)
					return
				}
				mu.Lock()
				record(key, body, res, g)
				mu.Unlock()
				nAcked.Add(1)
				g = res.Game
			}
		})
	}
	waitAcked := func(n int64) {
		for nAcked.Load() < n && ctx.Err() == nil && !stop.Load() {
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitAcked(multiKillAt)
	// The round has started by now (or will, on the survivors); the other
	// reminders fall due just as an instance dies.
	dueReminders(t, c.client(0, atKill))
	// Killed in the middle of its work: with turns in flight, and holding
	// claims on mail it is sending (the mail server does not hear from any
	// instance meanwhile, for at most a second: well within the lease).
	const victim = 2
	pid := c.servers[victim].cmd.Process.Pid
	c.gate.hold()
	busy := func() bool {
		return c.flying[victim].Load() > 0 && slices.ContainsFunc(c.outboxRows(), func(r outboxRow) bool {
			return r.status == "pending" && claimedBy(r, pid)
		})
	}
	for wait := time.Now().Add(time.Second); !busy() && time.Now().Before(wait) && !stop.Load(); {
		time.Sleep(2 * time.Millisecond)
	}
	inFlight := c.flying[victim].Load()
	c.kill(victim)
	// The killed instance's claims at its death: mail it may have handed
	// to the mail server without recording it.
	var claimed []string
	for _, r := range c.outboxRows() {
		if r.status == "pending" && claimedBy(r, pid) {
			claimed = append(claimed, r.messageID)
		}
	}
	c.gate.release()
	killedAt := nAcked.Load()
	waitAcked(killedAt + multiAfter)
	stop.Store(true)
	wg.Wait()
	cancel()
	if len(failures) > 0 {
		t.Fatalf("while playing:\n%s", strings.Join(failures, "\n"))
	}
	if nAcked.Load() < killedAt+multiAfter {
		t.Fatalf("only %d turns acknowledged in %v, %d of them before the kill", nAcked.Load(), multiLoadMax, killedAt)
	}
	t.Logf("killed instance %d after %d acknowledged turns, with %d turns in flight and %d mails claimed; %d answers lost with it; %d turns in all",
		victim, killedAt, inFlight, len(claimed), lostAns.Load(), len(acks))

	// The killed instance comes back on the same database.
	c.restart(victim)
	at := func(i int) *crashClient { return c.client(i%3, token) }

	// Every acknowledged turn is stored, at its ply, as acknowledged, and
	// reads the same at every instance.
	stored := map[string]map[int]string{}
	for n, g := range games {
		var list struct {
			Turns []struct {
				Ply  int    `json:"ply"`
				Turn string `json:"turn"`
			} `json:"turns"`
		}
		at(n).must(t, "GET", "/v1/games/"+g.ID+"/turns", nil, http.StatusOK, &list)
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
	// Each game's last keyed turn is still answered by its key, at
	// another instance than most likely played it.
	n := 0
	for _, a := range last {
		n++
		status, data, h, err := at(n).do(t.Context(), "POST", "/v1/games/"+a.game+"/turns", a.body, map[string]string{"Idempotency-Key": a.key})
		if err != nil || status != http.StatusCreated || h.Get("Idempotent-Replayed") != "true" {
			t.Errorf("retry of turn %d of %s with its key: %d %v, replayed %q: %s", a.ply, a.game, status, err, h.Get("Idempotent-Replayed"), data)
		}
	}
	// Every game replays legally, from its record, to the stored state.
	for n, g := range games {
		checkReplay(t, at(n), g.ID)
	}

	// The round started once: one game per pairing, each entrant in one.
	var got tournamentJSON
	waitFor(t, func() bool {
		at(0).must(t, "GET", "/v1/tournaments/"+tour.ID, nil, http.StatusOK, &got)
		return got.Rounds[0].Status == "running"
	})
	seated := map[int]int{}
	for _, p := range got.Rounds[0].Games {
		if p.GameID == nil || p.Black == nil {
			t.Errorf("round 1 pairing %+v: no game", p)
			continue
		}
		seated[p.White]++
		seated[*p.Black]++
	}
	if len(got.Rounds[0].Games) != multiEntries/2 || len(seated) != multiEntries {
		t.Errorf("round 1: %d games seating %v, want %d games, each entrant once", len(got.Rounds[0].Games), seated, multiEntries/2)
	}
	var tourGames []string
	rows, err := db.read.QueryContext(t.Context(), `SELECT id FROM games WHERE tournament_id IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		tourGames = append(tourGames, id)
	}
	rows.Close()
	if len(tourGames) != multiEntries/2 {
		t.Errorf("the database holds %d tournament games, want %d: %v", len(tourGames), multiEntries/2, tourGames)
	}

	// The outbox empties: the killed instance's claims once their lease
	// ends.
	var outbox []outboxRow
	waitFor(t, func() bool {
		outbox = c.outboxRows()
		return !slices.ContainsFunc(outbox, func(r outboxRow) bool { return r.status == "pending" })
	})
	// Every email reached the mail server once. The one exception the
	// design allows: a mail the killed instance had handed over but not
	// yet recorded goes again (at-least-once across a crash; the
	// Message-ID lets mail clients drop the copy).
	arrived := map[string]int{}
	for _, m := range smtp.Messages() {
		arrived[strings.Trim(m.Header.Get("Message-Id"), "<>")]++
	}
	atRisk := map[string]bool{}
	for _, id := range claimed {
		atRisk[id] = true
	}
	kinds := map[string]int{}
	again := 0
	for _, r := range outbox {
		kinds[r.kind]++
		n := arrived[r.messageID+"@lesspost.test"]
		switch {
		case r.status != "sent":
			t.Errorf("%s %s to %s is %s", r.kind, r.messageID, r.email, r.status)
		case n == 1:
		case n == 2 && atRisk[r.messageID]:
			again++
		default:
			t.Errorf("%s %s to %s arrived %d times", r.kind, r.messageID, r.email, n)
		}
	}
	if len(arrived) != len(outbox) {
		t.Errorf("%d distinct emails arrived, the outbox has %d", len(arrived), len(outbox))
	}
	// Each entrant got the round's invitation once; each reminded game one
	// reminder, to its mover.
	for i := range multiEntries {
		email := fmt.Sprintf(multiEntrant, i)
		var mine []string
		for _, r := range outbox {
			if r.email == email {
				mine = append(mine, r.kind)
			}
		}
		if !slices.Equal(mine, []string{"invitation"}) {
			t.Errorf("%s was sent %v, want one invitation", email, mine)
		}
	}
	for id, email := range reminded {
		var sent []string
		for _, r := range outbox {
			if r.game == id && r.kind == "reminder" {
				sent = append(sent, r.email)
			}
		}
		if !slices.Equal(sent, []string{email}) {
			t.Errorf("game %s: reminders to %v, want one to %s", id, sent, email)
		}
	}
	t.Logf("%d emails (%v) each delivered once, %d of the killed instance's again; %v in all",
		len(outbox), kinds, again, time.Since(began).Round(time.Millisecond))

	for _, i := range c.live() {
		c.servers[i].stop()
	}
	c.checkLogs()
}

// claimedBy says whether the process pid holds (or held, when it sent) the
// row's claim: the outbox worker's claimant names are host/pid/random.
func claimedBy(r outboxRow, pid int) bool {
	return strings.Contains(r.deliveredBy, fmt.Sprintf("/%d/", pid))
}

// dueReminders makes the reminder of every game of the account's address
// due now. The shortest time control (an hour a turn, reminded an hour
// before) never reminds by itself: its reminder would be at the turn's
// start. A vacation moves the deadline later, and ending it at once
// (cancelling a vacation under way ends it now) leaves the deadline an
// hour after now, or less past its start than the vacation lasted: the
// reminder an hour before is due at once.
func dueReminders(t *testing.T, c *crashClient) {
	t.Helper()
	now := time.Now().UTC()
	if now.Second() >= 58 {
		// The server truncates the start to the minute, and refuses a
		// start more than a minute past.
		time.Sleep(3 * time.Second)
		now = time.Now().UTC()
	}
	var v struct {
		ID int64 `json:"id"`
	}
	c.must(t, "POST", "/v1/me/vacations", map[string]any{"start": now, "end": now.Add(24 * time.Hour)}, http.StatusCreated, &v)
	c.must(t, "DELETE", "/v1/me/vacations/"+strconv.FormatInt(v.ID, 10), nil, http.StatusNoContent, nil)
}
