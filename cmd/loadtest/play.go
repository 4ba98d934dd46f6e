package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

// playConfig is what "loadtest play" is told.
type playConfig struct {
	URL          string
	Token        string
	LoginFromLog string
	Email        string
	Games        int
	Clients      int
	Players      int
	MaxTurns     int
	Duration     time.Duration
	Warmup       time.Duration
	Timeout      time.Duration
	GetFirst     bool
	Rate         float64
	PID          int
	OutboxDB     string
	MailWait     time.Duration
	WALOf        string
	JSON         bool

	transport func(http.RoundTripper) http.RoundTripper // tests wrap the HTTP transport
}

func playFlags(cfg *playConfig, out io.Writer) *flag.FlagSet {
	fs := newFlagSet("play", `Plays legal turns in --games games from --clients concurrent clients for --warmup
plus --duration, and reports accepted turns per second (201 answers, sent only
after the turn committed), latency percentiles and errors by kind.`, out)
	commonFlags(fs, &cfg.URL, &cfg.Token, &cfg.LoginFromLog, &cfg.Email, &cfg.Clients, &cfg.Duration, &cfg.Warmup, &cfg.Timeout, &cfg.PID, &cfg.JSON, 64)
	fs.IntVar(&cfg.Games, "games", 256, "`N` games played at a time (at least --clients: each client plays its own games); a finished game is replaced by a new one")
	fs.IntVar(&cfg.Players, "players", 2, "players per game: 2 (6x6 board) or 4 (8x8 board)")
	fs.IntVar(&cfg.MaxTurns, "max-turns", 0, "turns each player gets (options.max_turns); 0: the server's default (40 for 2 players, 20 for 4)")
	fs.Float64Var(&cfg.Rate, "rate", 0, "target turns per `second` over all clients, each client pacing itself to rate/clients; 0: as fast as the server answers.\nLatency is still measured from each request's start (a paced client that falls behind sends at once)")
	fs.BoolVar(&cfg.GetFirst, "get-first", false, "GET the game before every turn, as a client without local state would (default: use the game in the previous answer)")
	fs.StringVar(&cfg.OutboxDB, "outbox-db", "", "the server's database `file`: after the run, wait for the emails of turns in the window and report the turn -> SMTP hand-off latency")
	fs.DurationVar(&cfg.MailWait, "mail-wait", 60*time.Second, "with --outbox-db, how long to wait for the outbox to send the window's emails")
	fs.StringVar(&cfg.WALOf, "wal-of", "", "the server's SQLite database `file`: report the size of its write-ahead log (FILE-wal), sampled every 100 ms from the warmup on")
	return fs
}

// commonFlags are the flags every HTTP mode shares.
func commonFlags(fs *flag.FlagSet, url, token, logFile, email *string, clients *int, duration, warmup, timeout *time.Duration, pid *int, asJSON *bool, defClients int) {
	fs.StringVar(url, "url", "http://127.0.0.1:8080", "the server's base `URL`; several, comma-separated, for servers sharing one\ndatabase: requests go to each in turn, as through a load balancer")
	fs.StringVar(token, "token", "", "an account access `token` of --email, from POST /v1/auth/token or \"loadtest login\"; if empty, the environment variable LOADTEST_TOKEN")
	fs.StringVar(logFile, "login-from-log", "", "sign in by reading the login code from the server's log `file` (a server without --smtp-host prints emails to its log): asks for a login email for --email, waits for it in the file and exchanges the code")
	fs.StringVar(email, "email", "loadtest@example.org", "the load account's email `address`: every seat of every game gets it")
	fs.IntVar(clients, "clients", defClients, "`C` concurrent clients, each with its own keep-alive connection")
	fs.DurationVar(duration, "duration", 30*time.Second, "how long to measure, after the warmup")
	fs.DurationVar(warmup, "warmup", 5*time.Second, "how long to run before measuring")
	fs.DurationVar(timeout, "timeout", 10*time.Second, "timeout of one request")
	fs.IntVar(pid, "pid", 0, "the server's process id on this machine: report its RSS and CPU during the window, from /proc")
	fs.BoolVar(asJSON, "json", false, "print the summary as JSON")
}

func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg playConfig
	fs := playFlags(&cfg, stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case cfg.Players != 2 && cfg.Players != 4:
		return fmt.Errorf("--players %d: want 2 or 4", cfg.Players)
	case cfg.Clients < 1:
		return fmt.Errorf("--clients %d: want at least 1", cfg.Clients)
	case cfg.Games < cfg.Clients:
		return fmt.Errorf("--games %d: want at least --clients (%d), so that no two clients play the same game", cfg.Games, cfg.Clients)
	case cfg.Duration <= 0 || cfg.Warmup < 0:
		return errors.New("--duration must be positive and --warmup not negative")
	case cfg.Rate < 0:
		return fmt.Errorf("--rate %v: want 0 or more", cfg.Rate)
	}
	sum, err := play(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	if cfg.JSON {
		return writeJSON(stdout, sum)
	}
	sum.print(stdout)
	return nil
}

// play runs the whole measurement and returns its summary.
func play(ctx context.Context, cfg playConfig, log io.Writer) (*Summary, error) {
	c := newClient(cfg.URL, newHTTPClient(cfg.Clients, cfg.Timeout))
	if cfg.transport != nil {
		c.http.Transport = cfg.transport(c.http.Transport)
	}
	token, err := signIn(ctx, c, cfg.Token, cfg.LoginFromLog, cfg.Email)
	if err != nil {
		return nil, err
	}
	c.token = token

	// Set up: every game, created by C clients at once.
	fmt.Fprintf(log, "creating %d games of %d players...\n", cfg.Games, cfg.Players)
	t0 := time.Now()
	games := make([]*liveGame, cfg.Games)
	var setupErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range cfg.Clients {
		wg.Go(func() {
			for i := w; i < cfg.Games; i += cfg.Clients {
				g, err := createGame(ctx, c, cfg)
				if err != nil {
					mu.Lock()
					setupErr = errors.Join(setupErr, err)
					mu.Unlock()
					return
				}
				games[i] = g
			}
		})
	}
	wg.Wait()
	if setupErr != nil {
		var ae *apiError
		if errors.As(setupErr, &ae) && ae.Status == 429 {
			return nil, fmt.Errorf("create games: %w\nthe server limits how many games an account and an address may create "+
				"(by default 30 and 60 an hour): run the server under test with higher limits "+
				"(--limit-games-account 1000000/1h --limit-games-ip 1000000/1h), or use fewer --games", setupErr)
		}
		return nil, fmt.Errorf("create games: %w", setupErr)
	}
	fmt.Fprintf(log, "created in %v; playing for %v (warmup) + %v (measured) with %d clients\n",
		time.Since(t0).Round(time.Millisecond), cfg.Warmup, cfg.Duration, cfg.Clients)

	start := time.Now()
	w := window{start: start.Add(cfg.Warmup), end: start.Add(cfg.Warmup + cfg.Duration)}
	runCtx, cancel := context.WithDeadline(ctx, w.end)
	defer cancel()
	var prog progress
	recs := make([]*recorder, cfg.Clients)
	runID := strconv.FormatInt(time.Now().UnixNano(), 36)
	for i := range cfg.Clients {
		p := &player{c: c, cfg: cfg, rec: newRecorder(w), prog: &prog, rng: rand.New(rand.NewPCG(uint64(i), uint64(start.UnixNano()))),
			keyPrefix: "lt-" + runID + "-" + strconv.Itoa(i) + "-"}
		for j := i; j < len(games); j += cfg.Clients {
			p.games = append(p.games, games[j])
		}
		recs[i] = p.rec
		wg.Go(func() { p.run(runCtx) })
	}
	server, clientCPU := watch(runCtx, w, cfg.PID, &prog, "turn", log)
	var wal func() *WALStats
	if cfg.WALOf != "" {
		wal = watchWAL(runCtx, cfg.WALOf+"-wal", w)
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	all := newRecorder(w)
	for _, r := range recs {
		all.merge(r)
	}
	sum := &Summary{Mode: "play", URL: cfg.URL, Clients: cfg.Clients, Games: cfg.Games, Players: cfg.Players, Rate: cfg.Rate,
		Warmup: Duration(cfg.Warmup), Measured: Duration(cfg.Duration), Started: w.start,
		Ops: all.summary([]string{"turn", "get game", "create game"}), Errors: all.errors, WarmupErrors: all.warmupErrors,
		Server: server(), Client: ClientStats{CPUSeconds: clientCPU()}}
	for _, n := range all.errors {
		sum.ErrorCount += n
	}
	if wal != nil {
		sum.WAL = wal()
	}
	if cfg.OutboxDB != "" {
		fmt.Fprintf(log, "waiting up to %v for the emails of the window's turns...\n", cfg.MailWait)
		m, err := mailLatency(ctx, cfg.OutboxDB, w.start, w.end, cfg.MailWait, []string{"your_turn", "game_over"})
		if err != nil {
			return nil, err
		}
		sum.Mail = m
	}
	return sum, nil
}

// watch prints progress every 5 s and samples the server (--pid) during
// the window. It returns, for after the run, the server's figures and the
// CPU the load client used in the window.
func watch(ctx context.Context, w window, pid int, prog *progress, op string, log io.Writer) (func() *ServerStats, func() float64) {
	var sampler *serverSampler
	var cpuStart, cpuEnd float64
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		measuring := time.NewTimer(time.Until(w.start))
		defer measuring.Stop()
		started := false
		last, lastT, n := 0, time.Now(), 0
		for {
			select {
			case <-ctx.Done():
				if sampler != nil {
					sampler.sample()
				}
				_, _, cpuEnd, _ = procStats(os.Getpid())
				if !started {
					cpuEnd = cpuStart
				}
				return
			case <-measuring.C:
				started = true
				_, _, cpuStart, _ = procStats(os.Getpid())
				if pid > 0 {
					sampler = &serverSampler{pid: pid}
					sampler.start()
				}
			case now := <-tick.C:
				if sampler != nil {
					sampler.sample()
				}
				if n++; n%5 == 0 {
					cur := prog.get(op)
					phase := "warmup"
					if started {
						phase = "measuring"
					}
					fmt.Fprintf(log, "%s: %d %ss, %.0f/s over the last %v\n", phase, cur, op,
						float64(cur-last)/now.Sub(lastT).Seconds(), now.Sub(lastT).Round(time.Second))
					last, lastT = cur, now
				}
			}
		}
	}()
	server := func() *ServerStats {
		<-done
		if sampler == nil {
			return nil
		}
		return sampler.stop()
	}
	cpu := func() float64 {
		<-done
		return cpuEnd - cpuStart
	}
	return server, cpu
}

// liveGame is a game a client plays: the server's last word on it (the
// answer to the last turn), from which the position is rebuilt.
type liveGame struct {
	g apiGame
}

// player is one client: it plays its own games in turn.
type player struct {
	c         *client
	cfg       playConfig
	rec       *recorder
	prog      *progress
	rng       *rand.Rand
	games     []*liveGame
	keyPrefix string
	seq       int
}

func (p *player) run(ctx context.Context) {
	var interval time.Duration
	next := time.Now()
	if p.cfg.Rate > 0 {
		interval = time.Duration(float64(time.Second) * float64(p.cfg.Clients) / p.cfg.Rate)
		next = next.Add(time.Duration(p.rng.Int64N(int64(interval)))) // spread the clients' schedules
	}
	for i := 0; ctx.Err() == nil; i++ {
		if interval > 0 {
			if wait := time.Until(next); wait > 0 {
				pause(ctx, wait)
			}
			next = next.Add(interval)
		}
		lg := p.games[i%len(p.games)]
		if lg.g.Status != "active" {
			p.replace(ctx, lg)
			continue
		}
		if p.cfg.GetFirst && !p.get(ctx, lg, "get game") {
			continue
		}
		p.turn(ctx, lg)
	}
}

// replace starts a new game in place of a finished one.
func (p *player) replace(ctx context.Context, lg *liveGame) {
	t0 := time.Now()
	g, err := createGame(ctx, p.c, p.cfg)
	t1 := time.Now()
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		p.rec.fail("create game", err, t1)
		wait := 50 * time.Millisecond
		var ae *apiError
		if errors.As(err, &ae) && ae.Status == 429 {
			wait = time.Second // rate limited: do not hammer the server
		}
		pause(ctx, wait)
		return
	}
	p.rec.ok("create game", t1.Sub(t0), t1)
	*lg = *g
}

// get reloads a game; it reports whether that worked.
func (p *player) get(ctx context.Context, lg *liveGame, op string) bool {
	t0 := time.Now()
	var g apiGame
	err := p.c.call(ctx, "GET", "/v1/games/"+lg.g.ID, nil, &g)
	t1 := time.Now()
	if ctx.Err() != nil {
		return false
	}
	if err != nil {
		p.rec.fail(op, err, t1)
		pause(ctx, 50*time.Millisecond)
		return false
	}
	p.rec.ok(op, t1.Sub(t0), t1)
	lg.g = g
	return true
}

// turn picks a legal turn for the game and plays it.
func (p *player) turn(ctx context.Context, lg *liveGame) {
	pos, err := lg.g.position()
	if err != nil {
		p.rec.fail("turn", err, time.Now())
		p.get(ctx, lg, "resync")
		return
	}
	turn, err := pickTurn(pos, p.rng)
	if err != nil {
		p.rec.fail("turn", err, time.Now())
		p.get(ctx, lg, "resync")
		return
	}
	text := turn.String()
	body := fmt.Appendf(nil, `{"turn":%s,"ply":%d}`, strconv.Quote(text), lg.g.Ply)
	p.seq++
	key := p.keyPrefix + strconv.Itoa(p.seq)
	t0 := time.Now()
	_, data, err := p.c.do(ctx, "POST", "/v1/games/"+lg.g.ID+"/turns", body, map[string]string{"Idempotency-Key": key})
	t1 := time.Now()
	if ctx.Err() != nil {
		return // cut off by the end of the run: neither success nor error
	}
	if err == nil {
		var res apiPlayed
		if err = json.Unmarshal(data, &res); err == nil {
			if len(res.Played) == 0 || res.Played[0].Turn != text || res.Played[0].Ply != lg.g.Ply+1 || res.Game.Ply < lg.g.Ply+1 {
				err = fmt.Errorf("%w: played %s at ply %d, the answer says %+v", errMismatch, text, lg.g.Ply, res.Played)
			} else {
				lg.g = res.Game
			}
		}
	}
	if err != nil {
		p.rec.fail("turn", err, t1)
		if errorKind(err) == "transport: connection refused" {
			pause(ctx, 100*time.Millisecond)
		}
		p.get(ctx, lg, "resync")
		return
	}
	p.rec.ok("turn", t1.Sub(t0), t1)
	p.prog.add("turn")
}

func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// createGame creates a game whose every seat is the load account's.
func createGame(ctx context.Context, c *client, cfg playConfig) (*liveGame, error) {
	type player struct {
		Name  string `json:"name"`
		Email string `json:"email"`
	}
	req := struct {
		Players []player       `json:"players"`
		Board   map[string]any `json:"board"`
		Options map[string]any `json:"options,omitempty"`
	}{Board: map[string]any{"seed": strconv.FormatUint(rand.Uint64()>>1, 10)}}
	for i := range cfg.Players {
		req.Players = append(req.Players, player{Name: "P" + strconv.Itoa(i+1), Email: cfg.Email})
	}
	if cfg.MaxTurns > 0 {
		req.Options = map[string]any{"max_turns": cfg.MaxTurns}
	}
	var g apiGame
	if err := c.call(ctx, "POST", "/v1/games", req, &g); err != nil {
		return nil, err
	}
	return &liveGame{g: g}, nil
}

// WALStats is the size of the server's SQLite write-ahead log during a run
// (--wal-of): SQLite reuses the file from its start once a checkpoint has
// copied all of it, so its size is the most the log held at once (or the
// size it is truncated back to).
type WALStats struct {
	File         string `json:"file"`
	MaxBytes     int64  `json:"max_bytes"`        // from the warmup on
	WindowMax    int64  `json:"window_max_bytes"` // in the measured window
	EndBytes     int64  `json:"end_bytes"`
	OverMiB      int    `json:"samples_over_mib"` // of the window's samples, how many found more than 1 MiB
	WindowSample int    `json:"window_samples"`
}

// watchWAL samples the size of the file wal every 100 ms until ctx ends.
func watchWAL(ctx context.Context, wal string, w window) func() *WALStats {
	st := &WALStats{File: wal}
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			fi, err := os.Stat(wal)
			var size int64
			if err == nil {
				size = fi.Size()
			}
			now := time.Now()
			st.MaxBytes, st.EndBytes = max(st.MaxBytes, size), size
			if !now.Before(w.start) && now.Before(w.end) {
				st.WindowMax = max(st.WindowMax, size)
				st.WindowSample++
				if size > 1<<20 {
					st.OverMiB++
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() *WALStats {
		<-done
		return st
	}
}

func (s *WALStats) print(w io.Writer) {
	fmt.Fprintf(w, "WAL %s: max %.1f MB (%.1f MB in the window, %d of %d samples over 1 MiB), %.1f MB at the end\n",
		s.File, float64(s.MaxBytes)/1e6, float64(s.WindowMax)/1e6, s.OverMiB, s.WindowSample, float64(s.EndBytes)/1e6)
}
