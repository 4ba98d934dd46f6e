// Command api is the lesspost server, built as lesspost: the HTTP API and
// its background workers on one SQLite file, or, for several servers, one
// PostgreSQL database, and the operator's commands beside it (migrate,
// backup). Run it with --help for its configuration.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	netmail "net/mail"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/internal/app"
	"github.com/lesspost/lesspost/internal/metrics"
	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/notify/egress"
	"github.com/lesspost/lesspost/notify/webhook"
	"github.com/lesspost/lesspost/notify/webpush"
	"github.com/lesspost/lesspost/repo"
)

// shutdownTimeout bounds how long requests in flight may take to finish once
// a stop signal arrives; orchestrators usually kill after 30s.
const shutdownTimeout = 20 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second signal kills at once
	}()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "lesspost:", err)
		os.Exit(1)
	}
}

// run is the whole program minus the process: arguments, environment and log
// output come in, and cancelling ctx shuts the server down. onListen, if not
// nil, learns the address once connections are accepted. The first argument
// may name a command (see printUsage); serve is the default.
func run(ctx context.Context, args []string, getenv func(string) string, logOut io.Writer, onListen func(net.Addr)) error {
	if len(args) > 0 {
		switch args[0] {
		case "serve":
			args = args[1:]
		case "migrate":
			return runMigrate(ctx, args[1:], getenv, logOut)
		case "backup":
			return runBackup(ctx, args[1:], getenv, logOut)
		}
	}
	return runServe(ctx, args, getenv, logOut, onListen)
}

// runServe serves until ctx ends.
func runServe(ctx context.Context, args []string, getenv func(string) string, logOut io.Writer, onListen func(net.Addr)) error {
	cfg, err := loadConfig(args, getenv)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(logOut)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w (see --help)", err)
	}
	log := newLogger(logOut, cfg.LogLevel)
	slog.SetDefault(log) // for the few packages without a logger of their own (the SQLite store's checkpoints)
	log.Info("starting", "config", cfg)
	if cfg.WebhookAllowPrivate {
		log.Warn("webhooks and push messages may reach private, loopback and link-local addresses (--egress-allow-private): for tests only")
	}

	db, err := repo.OpenStoreWith(ctx, cfg.DB, cfg.storeOptions()) // also applies the migrations
	if err != nil {
		return err
	}
	// Deferred first, so it runs last: after the server and the workers stop.
	defer func() {
		if err := db.Close(); err != nil {
			log.Error("close database", "error", err)
		}
	}()
	keys, err := signingKeys(ctx, cfg, db, log)
	if err != nil {
		return err
	}
	// The key ids let an operator see which key signs after a rotation.
	log.Info("token signing keys", "signing_kid", api.KeyID(keys[0]), "previous_keys", len(keys)-1)

	push, err := pushKey(ctx, cfg, db, log)
	if err != nil {
		return err
	}
	var pushPublic []byte
	if push != nil {
		pushPublic = push.Public
	}

	// Counted whether or not they are served: counting costs next to nothing.
	counts := metrics.New(db, time.Now, log)
	// The server wakes the outbox worker after each commit that queued mail;
	// the worker needs the server's links, so it is built second.
	var outbox *notify.Worker
	// Webhook messages are queued with the events, which come with mail: a
	// change that queued mail may have queued messages too.
	guard := &egress.Guard{AllowPrivate: cfg.WebhookAllowPrivate}
	webhooks := webhook.NewWorker(db, guard, log, time.Now)
	webhooks.Observer = counts
	// Push messages are queued with the events too, when push is on.
	var pushes *webpush.Worker
	queued := func() {
		outbox.Wake()
		webhooks.Wake()
		if pushes != nil {
			pushes.Wake()
		}
	}
	// The use cases, once, for the server and the workers alike.
	uses := app.New(app.Config{Store: db, MailLimits: cfg.MailLimits, Replies: cfg.Inbound.replyLimits(),
		TournamentLog: cfg.TournamentLog, PushEndpointCheck: api.PushEndpointCheck(guard), WebhookURLCheck: api.WebhookURLCheck(guard)})
	srv, err := api.New(api.Config{Logger: log, DB: db, App: uses, Secret: keys[0], PreviousSecrets: keys[1:], BaseURL: cfg.BaseURL,
		ReplyAddress: cfg.ReplyAddress, MailQueued: queued, MailLag: func() time.Duration { return outbox.Lag() }, TrustedProxies: cfg.TrustedProxies, RateLimits: cfg.RateLimits,
		CORSOrigins: cfg.origins(), ObserveRequest: counts.ObserveRequest, WebhooksQueued: webhooks.Wake,
		PushKey: pushPublic, StreamLimits: cfg.StreamLimits, RequestTimeout: cfg.RequestTimeout})
	if err != nil {
		return err
	}
	renderer := &notify.Renderer{Store: db, Links: srv.Links(), Host: messageIDDomain(cfg)}
	sender, err := mailSender(cfg, log, logOut)
	if err != nil {
		return err
	}
	outbox = notify.NewWorker(db, sender, renderer, log, time.Now)
	outbox.BaseDelay, outbox.MaxAttempts, outbox.Lease = cfg.SMTP.RetryDelay, cfg.SMTP.Attempts, cfg.SMTP.Lease
	outbox.Observer = counts
	if push != nil {
		if pushes, err = pushWorker(cfg, *push, db, uses.Push, srv.Links(), guard, log); err != nil {
			return err
		}
		pushes.Observer = counts
	}
	receivers, err := inboundWorkers(cfg, db, uses.Games, srv.Links(), outbox.Claimant, log, queued)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	log.Info("listening", "addr", ln.Addr().String(), "base_url", cfg.BaseURL)
	if onListen != nil {
		onListen(ln.Addr())
	}

	// Background workers run beside the HTTP server until shutdown. Add the
	// email outbox and the scheduler here; each returns when its context ends.
	clock := &scheduler{app: uses.Games, tournaments: uses.Tournaments, db: db, log: log, now: uses.Now, interval: cfg.SchedulerInterval, queued: queued,
		mailRetention: cfg.MailRetention, observe: counts}
	workers := append([]func(context.Context) error{outbox.Run, webhooks.Run, clock.run}, receivers...)
	if pushes != nil {
		workers = append(workers, pushes.Run)
	}
	if cfg.PprofAddr != "" {
		workers = append(workers, func(ctx context.Context) error { return serveAside(ctx, log, "profiler", cfg.PprofAddr, pprofMux()) })
	}
	if cfg.MetricsAddr != "" {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", counts.Handler())
		workers = append(workers, func(ctx context.Context) error { return serveAside(ctx, log, "metrics", cfg.MetricsAddr, mux) })
	}

	err = serve(ctx, log, srv, ln, workers)
	log.Info("stopped")
	return err
}

// serve runs the HTTP server and the workers until ctx ends or one of them
// fails, then stops them in order: first the server (no new connections,
// requests in flight finish), then the workers, which may still have work
// those requests queued. The caller closes the database afterwards.
func serve(ctx context.Context, log *slog.Logger, srv *api.Server, ln net.Listener, workers []func(context.Context) error) error {
	// Not derived from ctx: workers must keep running while requests finish.
	workCtx, stopWorkers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWorkers()
	failed := make(chan error, 1+len(workers)) // room for every sender: none blocks
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := srv.Serve(ln); err != nil {
			failed <- fmt.Errorf("serve http: %w", err)
		}
	}()
	var wg sync.WaitGroup
	for _, work := range workers {
		wg.Go(func() {
			if err := work(workCtx); err != nil && workCtx.Err() == nil {
				failed <- fmt.Errorf("worker: %w", err)
			}
		})
	}

	var err error
	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case err = <-failed:
		log.Error("shutting down after a failure", "error", err)
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if serr := srv.Shutdown(shutdownCtx); serr != nil {
		err = errors.Join(err, fmt.Errorf("shut down http: %w", serr))
	}
	<-served // Serve has returned, so the listener is closed
	stopWorkers()
	wg.Wait()
	return err
}

// pprofMux serves Go's profiler, for measuring the server under load (see
// README).
func pprofMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// serveAside serves h on addr until ctx ends: the profiler and the metrics,
// each on a listener of its own, so that neither is ever reachable through
// the public one.
func serveAside(ctx context.Context, log *slog.Logger, name, addr string, h http.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s: listen: %w", name, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	log.Info(name+" listening", "addr", ln.Addr().String())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// newLogger logs text to a terminal, for people, and JSON otherwise, for
// log collectors.
func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return slog.New(slog.NewTextHandler(w, opts))
		}
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// mailSender is how email leaves: through SMTP when a host is configured,
// else printed to the log, so a newcomer can play from the terminal.
func mailSender(cfg Config, log *slog.Logger, out io.Writer) (notify.Sender, error) {
	if cfg.SMTP.Host == "" {
		return &notify.LogSender{Log: log, Out: out}, nil
	}
	return notify.NewSMTPSender(notify.SMTPConfig{Host: cfg.SMTP.Host, Port: cfg.SMTP.Port, TLS: cfg.SMTP.TLS,
		User: cfg.SMTP.User, Password: cfg.SMTP.Password, From: cfg.SMTP.From})
}

// messageIDDomain is the domain of Message-IDs: the domain of the address
// the emails come from, else of the reply address, else the server's public
// host. Mail filters (and people reading headers) expect a Message-ID in the
// sender's domain; the web host (often www. or a subdomain of its own) is a
// guess for when no mail domain is configured, as when emails go to the log.
func messageIDDomain(cfg Config) string {
	for _, addr := range []string{cfg.SMTP.From, cfg.ReplyAddress} {
		if a, err := netmail.ParseAddress(addr); err == nil {
			if at := strings.LastIndexByte(a.Address, '@'); at >= 0 && at < len(a.Address)-1 {
				return strings.ToLower(a.Address[at+1:])
			}
		}
	}
	return mailHost(cfg.BaseURL)
}

// mailHost is the public host of the server.
func mailHost(baseURL string) string {
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "lesspost.invalid"
}
