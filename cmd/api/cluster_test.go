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
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql's "pgx", to read what the servers stored

	"github.com/lesspost/lesspost/notify/smtptest"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
)

const (
	multiEmail   = "multi@example.org"     // holds every seat of the played games and organises the tournament
	multiEarly   = "early@example.org"     // holds the games reminded while all three instances run
	multiAtKill  = "atkill@example.org"    // holds the games reminded as one instance is killed
	multiPlayers = 12                      // two-player games played under load
	multiKillAt  = 60                      // acknowledged turns before the kill
	multiAfter   = 60                      // acknowledged turns after it
	multiLoadMax = 20 * time.Second        // the most the load may take
	multiEntrant = "entrant%d@example.org" // the tournament's entrants
	multiEntries = 6                       // entrants: three games in the round
	multiVictim  = 2                       // the instance killed
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
	db := openReadOnly(t, path) // the first server creates the file
	t.Cleanup(func() { db.Close() })
	return sharedDB{dsn: path, read: db}
}

// TestThreeInstancesOneDatabase runs three processes of the real program
// on one database, as an operator runs them behind a load balancer: games
// whose turns go to each instance in turn, the same turn sent to all three
// at once, one instance killed with SIGKILL while clients play, and
// afterwards everything the three promised checked: every acknowledged turn
// stored, every game's record legal, every email at the mail server once,
// every reminder and round start once. On SQLite always (several servers on
// one file, one machine), and on PostgreSQL where pgtest finds a server.
func TestThreeInstancesOneDatabase(t *testing.T) {
	if os.Getenv(crashChildEnv) != "" {
		t.Skip("inside the child")
	}
	if testing.Short() {
		t.Skip("starts three server processes and plays for several seconds")
	}
	t.Run("sqlite", func(t *testing.T) { testThreeInstances(t, sqliteShared(t)) })
	t.Run("postgres", func(t *testing.T) { testThreeInstances(t, postgresShared(t)) })
}

// postgresShared is a new PostgreSQL database (see pgtest: the test skips
// where no server answers, and fails under CI=true).
func postgresShared(t *testing.T) sharedDB {
	dsn := pgtest.DSN(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return sharedDB{dsn: dsn, read: db}
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
			// Longer than startCrashServer's: an attempt starts in the first
			// half of its lease and must end within it, or another instance
			// sends the mail again. On a starved machine (three servers
			// built with -race on two busy cores) rendering and sending one
			// mail has taken more than 2.5s; killBusy holds mail up to 2s.
			"--mail-lease", "10s",
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
// mail it claimed: what it held back never reached the mail server, and
// must arrive once after the lease ends.
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

// scenario is one run of the test: the cluster, who signs in, what is
// created and what the servers acknowledged.
type scenario struct {
	t       *testing.T
	c       *cluster
	token   string            // multiEmail's
	tokens  map[string]string // of the reminded addresses
	tour    string            // the tournament
	remind  map[string]string // reminded game → its address
	games   []crashGame       // the played games, the race game last
	mu      sync.Mutex
	acks    []acked
	claimed map[string]bool // Message-IDs the killed instance held claims on at its death
}

func testThreeInstances(t *testing.T, db sharedDB) {
	began := time.Now()
	s := &scenario{t: t, c: newCluster(t, db, 3), tokens: map[string]string{}, remind: map[string]string{}}
	t.Logf("three instances up in %v", time.Since(began).Round(time.Millisecond))
	s.setUp()
	race := &s.games[len(s.games)-1]
	for round := range 4 {
		s.raceWithKey(race, fmt.Sprintf("race-%d", round))
	}
	for range 4 {
		s.raceWithoutKey(race)
	}
	// The early reminders fall due now, while all three instances run.
	dueReminders(t, s.c.client(0, s.tokens[multiEarly]))
	s.playAndKill(s.games[:len(s.games)-1])
	// The killed instance comes back on the same database.
	s.c.restart(multiVictim)

	checkAcked(t, s.at, s.games, s.acks)
	s.checkTournament()
	s.checkMail()
	t.Logf("%v in all", time.Since(began).Round(time.Millisecond))
	var wg sync.WaitGroup
	for _, i := range s.c.live() {
		wg.Go(s.c.servers[i].stop)
	}
	wg.Wait()
	s.c.checkLogs()
}

// at is a client of instance i (modulo the instances) with the player's token.
func (s *scenario) at(i int) *crashClient { return s.c.client(i%len(s.c.servers), s.token) }

// setUp signs in, creates the tournament and the games, each on another
// instance: a token or a game from one instance is good at all.
func (s *scenario) setUp() {
	t, c := s.t, s.c
	s.token = c.client(0, "").login(t, c.smtp, multiEmail)
	for i, email := range []string{multiEarly, multiAtKill} {
		s.tokens[email] = c.client(i+1, "").login(t, c.smtp, email)
	}

	// A tournament whose only round starts in a second: the three
	// schedulers race to start it.
	var entrants []map[string]any
	for i := range multiEntries {
		entrants = append(entrants, map[string]any{"name": fmt.Sprintf("E%d", i), "email": fmt.Sprintf(multiEntrant, i)})
	}
	var tour tournamentJSON
	s.at(1).must(t, "POST", "/v1/tournaments", map[string]any{"name": "Cluster Cup", "format": "swiss", "rounds": 1,
		"players": entrants, "schedule": map[string]any{"starts": []time.Time{time.Now().Add(time.Second)}, "round_hours": 1}},
		http.StatusCreated, &tour)
	s.tour = tour.ID

	// Games with a time control whose reminder falls due in the test (see
	// dueReminders).
	for i, email := range []string{multiEarly, multiEarly, multiAtKill, multiAtKill} {
		var g crashGame
		c.client(i%3, s.tokens[email]).must(t, "POST", "/v1/games", map[string]any{
			"players": []map[string]any{{"name": "R1", "email": email}, {"name": "R2", "email": email}},
			"time":    map[string]any{"kind": "per_turn", "hours": 1, "reminders_hours": []int{1}},
		}, http.StatusCreated, &g)
		s.remind[g.ID] = email
	}

	// The played games: two-player ones on boards of their own (one short,
	// so that it ends and sends its result), one of four players, and one
	// for the races.
	for i := range multiPlayers + 2 {
		var g crashGame
		s.at(i).must(t, "POST", "/v1/games", gameRequest(multiEmail, i, multiPlayers, 300+i), http.StatusCreated, &g)
		s.games = append(s.games, g)
	}
}

// record keeps the turns an answer acknowledged; the first is the one
// sent, with its key and body.
func (s *scenario) record(g *crashGame, key string, body any, data []byte) error {
	var res crashPlayed
	if err := json.Unmarshal(data, &res); err != nil || len(res.Played) == 0 {
		return fmt.Errorf("bad answer %s", data)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.acks = append(s.acks, ackedTurns(g.ID, key, body, res)...)
	*g = res.Game
	return nil
}

// nextTurn is a random legal turn of g, as a request body.
func nextTurn(g *crashGame, rng *rand.Rand) (map[string]any, error) {
	pos, err := g.position()
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return map[string]any{"turn": randomTurn(pos, rng).String(), "ply": g.Ply}, nil
}

// raceWithKey sends the same turn with one Idempotency-Key to all three at
// once: one instance applies it, the others answer with its stored
// response.
func (s *scenario) raceWithKey(g *crashGame, key string) {
	t := s.t
	body, err := nextTurn(g, rand.New(rand.NewPCG(uint64(g.Ply), 3)))
	if err != nil {
		t.Fatal(err)
	}
	answers := s.c.race(s.token, "/v1/games/"+g.ID+"/turns", body, map[string]string{"Idempotency-Key": key})
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
	if err := s.record(g, key, body, answers[0].body); err != nil {
		t.Fatal(err)
	}
}

// raceWithoutKey sends the same turn without a key to all three at once:
// one instance plays it, the others find its ply taken.
func (s *scenario) raceWithoutKey(g *crashGame) {
	t := s.t
	body, err := nextTurn(g, rand.New(rand.NewPCG(uint64(g.Ply), 4)))
	if err != nil {
		t.Fatal(err)
	}
	var won []answer
	for _, a := range s.c.race(s.token, "/v1/games/"+g.ID+"/turns", body, nil) {
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
	if err := s.record(g, "", nil, won[0].body); err != nil {
		t.Fatal(err)
	}
}

// playAndKill plays the games from one client each, every turn at the
// next instance, kills an instance in the middle and plays on on the
// survivors: a turn whose answer died with its instance goes again, with
// its key, to the next one.
func (s *scenario) playAndKill(games []crashGame) {
	t, c := s.t, s.c
	var (
		mu       sync.Mutex
		failures []string
		nAcked   atomic.Int64
		lost     atomic.Int64 // answers lost with the killed instance
		stop     atomic.Bool
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		failures = append(failures, err.Error())
		mu.Unlock()
		stop.Store(true)
	}
	// The round has started (the three schedulers raced for it) before
	// the load does: on a slow machine, waiting for it under load would
	// let the games run out of turns before the kill.
	waitFor(t, func() bool { return s.roundRunning(0) })
	ctx, cancel := context.WithTimeout(t.Context(), multiLoadMax)
	defer cancel()
	for i := range games {
		g := games[i]
		rng := rand.New(rand.NewPCG(uint64(i), 14))
		wg.Go(func() {
			for seq := 0; !stop.Load() && g.Status == "active"; seq++ {
				body, err := nextTurn(&g, rng)
				if err != nil {
					fail(err)
					return
				}
				key := fmt.Sprintf("load-%d-%d", i, seq)
				a, n := c.submit(ctx, s.token, i+seq, "/v1/games/"+g.ID+"/turns", body, key)
				lost.Add(int64(n))
				switch {
				case a.err != nil && ctx.Err() != nil:
					return
				case a.err != nil || a.status != http.StatusCreated:
					fail(fmt.Errorf("turn %v of %s: %d %v %s", body, g.ID, a.status, a.err, a.body))
					return
				}
				if err := s.record(&g, key, body, a.body); err != nil {
					fail(fmt.Errorf("turn %v of %s: %w", body, g.ID, err))
					return
				}
				nAcked.Add(1)
			}
		})
	}
	waitAcked := func(n int64) {
		for nAcked.Load() < n && ctx.Err() == nil && !stop.Load() {
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitAcked(multiKillAt)
	// The other reminders fall due just as an instance dies.
	dueReminders(t, c.client(0, s.tokens[multiAtKill]))
	inFlight, claimed := c.killBusy(multiVictim)
	s.claimed = claimed
	killedAt := nAcked.Load()
	waitAcked(killedAt + multiAfter)
	stop.Store(true)
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("while playing:\n%s", strings.Join(failures, "\n"))
	}
	if nAcked.Load() < killedAt+multiAfter {
		t.Fatalf("only %d turns acknowledged in %v, %d of them before the kill", nAcked.Load(), multiLoadMax, killedAt)
	}
	t.Logf("killed instance %d after %d acknowledged turns, with %d turns in flight and %d mails claimed; %d answers lost with it; %d turns in all",
		multiVictim, killedAt, inFlight, len(claimed), lost.Load(), len(s.acks))
}

// killBusy kills instance i in the middle of its work: with turns in
// flight, and holding claims on mail it is sending (the mail server hears
// no message from any instance meanwhile, for at most 2s: an attempt
// started in the first half of a 10s lease still ends within it). It
// returns the turns in flight and the Message-IDs the instance held claims
// on at its death.
func (c *cluster) killBusy(i int) (inFlight int64, claimed map[string]bool) {
	pid := c.servers[i].cmd.Process.Pid
	claims := func() map[string]bool {
		out := map[string]bool{}
		for _, r := range c.outboxRows() {
			if r.status == "pending" && claimedBy(r, pid) {
				out[r.messageID] = true
			}
		}
		return out
	}
	c.gate.hold()
	defer c.gate.release()
	for wait := time.Now().Add(2 * time.Second); time.Now().Before(wait); time.Sleep(5 * time.Millisecond) {
		if c.flying[i].Load() > 0 && len(claims()) > 0 {
			break
		}
	}
	inFlight = c.flying[i].Load()
	c.kill(i)
	return inFlight, claims()
}

// arrived counts the messages at the mail server by outbox Message-ID.
func (c *cluster) arrived() map[string]int {
	out := map[string]int{}
	for _, m := range c.smtp.Messages() {
		id := strings.TrimSuffix(strings.Trim(m.Header.Get("Message-Id"), "<>"), "@lesspost.test")
		out[id]++
	}
	return out
}

// roundRunning says whether the tournament's round has started, as
// instance i tells.
func (s *scenario) roundRunning(i int) bool {
	var got tournamentJSON
	s.at(i).must(s.t, "GET", "/v1/tournaments/"+s.tour, nil, http.StatusOK, &got)
	return got.Rounds[0].Status == "running"
}

// checkTournament checks that the round started once: one game per
// pairing, each entrant in one, and no other tournament game stored.
func (s *scenario) checkTournament() {
	t := s.t
	var got tournamentJSON
	s.at(1).must(t, "GET", "/v1/tournaments/"+s.tour, nil, http.StatusOK, &got)
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
	var stored int
	if err := s.c.db.read.QueryRowContext(t.Context(), `SELECT count(*) FROM games WHERE tournament_id IS NOT NULL`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != multiEntries/2 {
		t.Errorf("the database holds %d tournament games, want %d", stored, multiEntries/2)
	}
}

// checkMail waits for the outbox to empty (the killed instance's claims
// once their lease ends) and checks that every email reached the mail
// server once, each entrant got the round's invitation and each reminded
// game one reminder, to its mover.
//
// The one exception the design allows: mail the killed instance had
// handed to the mail server but not yet recorded (a worker records a
// batch when it is done) goes again after its lease: at-least-once across
// a crash, and the Message-ID lets mail clients drop the copy. Which copy
// came first the test cannot tell (what a process wrote before it died
// may reach the mail server after), so it allows two of such a mail.
func (s *scenario) checkMail() {
	t := s.t
	var outbox []outboxRow
	// The killed instance's claims wait out its 10s lease, on a machine
	// that may be starved.
	waitWithin(t, 30*time.Second, func() bool {
		outbox = s.c.outboxRows()
		return !slices.ContainsFunc(outbox, func(r outboxRow) bool { return r.status == "pending" })
	})
	arrived := s.c.arrived()
	kinds := map[string]int{}
	again := 0
	for _, r := range outbox {
		kinds[r.kind]++
		switch n := arrived[r.messageID]; {
		case r.status != "sent":
			t.Errorf("%s %s to %s is %s", r.kind, r.messageID, r.email, r.status)
		case n == 2 && s.claimed[r.messageID]:
			again++
		case n != 1:
			t.Errorf("%s %s to %s arrived %d times (claimed by the killed instance: %v)", r.kind, r.messageID, r.email, n, s.claimed[r.messageID])
		}
	}
	if len(arrived) != len(outbox) {
		t.Errorf("%d distinct emails arrived, the outbox has %d", len(arrived), len(outbox))
	}
	for i := range multiEntries {
		email := fmt.Sprintf(multiEntrant, i)
		var got []string
		for _, r := range outbox {
			if r.email == email {
				got = append(got, r.kind)
			}
		}
		if !slices.Equal(got, []string{"invitation"}) {
			t.Errorf("%s was sent %v, want one invitation", email, got)
		}
	}
	for id, email := range s.remind {
		var to []string
		for _, r := range outbox {
			if r.game == id && r.kind == "reminder" {
				to = append(to, r.email)
			}
		}
		if !slices.Equal(to, []string{email}) {
			t.Errorf("game %s: reminders to %v, want one to %s", id, to, email)
		}
	}
	t.Logf("%d emails (%v), each delivered once, but %d the killed instance had sent and not recorded, which went twice",
		len(outbox), kinds, again)
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
