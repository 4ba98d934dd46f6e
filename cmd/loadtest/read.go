package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

type readConfig struct {
	URL          string
	Token        string
	LoginFromLog string
	Email        string
	Clients      int
	Duration     time.Duration
	Warmup       time.Duration
	Timeout      time.Duration
	PID          int
	JSON         bool
	Limit        int
	MaxIDs       int
	Mix          float64
	Rate         float64

	transport func(http.RoundTripper) http.RoundTripper // tests wrap the HTTP transport
}

func runRead(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg readConfig
	fs := newFlagSet("read", `Reads as the load account for --warmup plus --duration from --clients concurrent
clients: "my games" (GET /v1/me/games, the first page) and single games
(GET /v1/games/{id}, ids drawn at random from all the account's games, listed
page by page first). Reports latency percentiles per operation. Use it on a
database filled by "loadtest seed".`, stderr)
	commonFlags(fs, &cfg.URL, &cfg.Token, &cfg.LoginFromLog, &cfg.Email, &cfg.Clients, &cfg.Duration, &cfg.Warmup, &cfg.Timeout, &cfg.PID, &cfg.JSON, 16)
	fs.IntVar(&cfg.Limit, "limit", 20, "games per page of my games (1-100; the API's default is 20)")
	fs.IntVar(&cfg.MaxIDs, "ids", 5000, "list at most this many of the account's game ids to read from")
	fs.Float64Var(&cfg.Mix, "mix", 0.5, "share of requests that are my games; the rest read one game")
	fs.Float64Var(&cfg.Rate, "rate", 0, "target requests per `second` over all clients, each client pacing itself to rate/clients; 0: as fast as the server answers")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case cfg.Clients < 1:
		return fmt.Errorf("--clients %d: want at least 1", cfg.Clients)
	case cfg.Limit < 1 || cfg.Limit > 100:
		return fmt.Errorf("--limit %d: want 1 to 100", cfg.Limit)
	case cfg.Mix < 0 || cfg.Mix > 1:
		return fmt.Errorf("--mix %v: want 0 to 1", cfg.Mix)
	case cfg.Duration <= 0 || cfg.Warmup < 0:
		return errors.New("--duration must be positive and --warmup not negative")
	case cfg.Rate < 0:
		return fmt.Errorf("--rate %v: want 0 or more", cfg.Rate)
	}
	sum, err := read(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	if cfg.JSON {
		return writeJSON(stdout, sum)
	}
	sum.print(stdout)
	return nil
}

type gamePage struct {
	Games      []apiGame `json:"games"`
	NextCursor *string   `json:"next_cursor"`
}

func read(ctx context.Context, cfg readConfig, log io.Writer) (*Summary, error) {
	c := newClient(cfg.URL, newHTTPClient(cfg.Clients, cfg.Timeout))
	if cfg.transport != nil {
		c.http.Transport = cfg.transport(c.http.Transport)
	}
	token, err := signIn(ctx, c, cfg.Token, cfg.LoginFromLog, cfg.Email)
	if err != nil {
		return nil, err
	}
	c.token = token

	// The ids to read: every game of the account, up to --ids.
	t0 := time.Now()
	var ids []string
	cursor, pages := "", 0
	for len(ids) < cfg.MaxIDs {
		q := url.Values{"limit": {"100"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page gamePage
		if err := c.call(ctx, "GET", "/v1/me/games?"+q.Encode(), nil, &page); err != nil {
			return nil, fmt.Errorf("list my games: %w", err)
		}
		pages++
		for _, g := range page.Games {
			ids = append(ids, g.ID)
		}
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%s has no games: seed some (loadtest seed) or play first", cfg.Email)
	}
	fmt.Fprintf(log, "listed %d games of %s in %d pages of 100 in %v (%v a page)\n", len(ids), cfg.Email, pages,
		time.Since(t0).Round(time.Millisecond), (time.Since(t0) / time.Duration(pages)).Round(time.Microsecond))

	start := time.Now()
	w := window{start: start.Add(cfg.Warmup), end: start.Add(cfg.Warmup + cfg.Duration)}
	runCtx, cancel := context.WithDeadline(ctx, w.end)
	defer cancel()
	var prog progress
	var wg sync.WaitGroup
	recs := make([]*recorder, cfg.Clients)
	myGames := "/v1/me/games?limit=" + strconv.Itoa(cfg.Limit)
	for i := range cfg.Clients {
		rec := newRecorder(w)
		recs[i] = rec
		rng := rand.New(rand.NewPCG(uint64(i), uint64(start.UnixNano())))
		wg.Go(func() {
			var interval time.Duration
			next := time.Now()
			if cfg.Rate > 0 {
				interval = time.Duration(float64(time.Second) * float64(cfg.Clients) / cfg.Rate)
				next = next.Add(time.Duration(rng.Int64N(int64(interval))))
			}
			for runCtx.Err() == nil {
				if interval > 0 {
					if wait := time.Until(next); wait > 0 {
						pause(runCtx, wait)
					}
					next = next.Add(interval)
				}
				op, path := "get game", "/v1/games/"+ids[rng.IntN(len(ids))]
				if rng.Float64() < cfg.Mix {
					op, path = "my games", myGames
				}
				t0 := time.Now()
				_, _, err := c.do(runCtx, "GET", path, nil, nil)
				t1 := time.Now()
				if runCtx.Err() != nil {
					return
				}
				if err != nil {
					rec.fail(op, err, t1)
					pause(runCtx, 50*time.Millisecond)
					continue
				}
				rec.ok(op, t1.Sub(t0), t1)
				prog.add("read")
			}
		})
	}
	server, clientCPU := watch(runCtx, w, cfg.PID, &prog, "read", log)
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	all := newRecorder(w)
	for _, r := range recs {
		all.merge(r)
	}
	sum := &Summary{Mode: "read", URL: cfg.URL, Clients: cfg.Clients, Games: len(ids), Rate: cfg.Rate,
		Warmup: Duration(cfg.Warmup), Measured: Duration(cfg.Duration), Started: w.start,
		Ops: all.summary([]string{"my games", "get game"}), Errors: all.errors, WarmupErrors: all.warmupErrors,
		Server: server(), Client: ClientStats{CPUSeconds: clientCPU()}}
	for _, n := range all.errors {
		sum.ErrorCount += n
	}
	return sum, nil
}
