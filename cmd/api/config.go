package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/lesspost/lesspost/api"
)

// Config is the whole configuration of the server.
type Config struct {
	Addr    string
	DB      string
	BaseURL string // without a trailing slash
	// Secret signs tokens; empty means the one stored in the database
	// (generated on first start). Never log it.
	Secret   string
	SMTP     SMTPConfig
	LogLevel slog.Level
	// SchedulerInterval is how often reminders and time-outs are looked for.
	SchedulerInterval time.Duration
	// TrustedProxies is the number of reverse proxies in front of the server
	// whose X-Forwarded-For entries rate limits may believe.
	TrustedProxies int
	// RateLimits bound logins, login-code exchanges, game and tournament
	// creation and move-link renewals.
	RateLimits api.RateLimits
	// PprofAddr, if set, serves Go's profiler there; it must be a loopback
	// address, because profiles show request data.
	PprofAddr string
}

// SMTPConfig says how to send email. Without a Host, emails are written to
// the log instead.
type SMTPConfig struct {
	Host     string
	Port     int
	TLS      string // "starttls", "tls" or "none"
	User     string
	Password string // never log it
	From     string
	// RetryDelay is the wait after a failed delivery; it doubles with every
	// further failure, up to an hour. Attempts is when a mail is given up.
	RetryDelay time.Duration
	Attempts   int
}

// minSecretLen is the shortest signing secret accepted: HS256 wants 256 bits.
const minSecretLen = 32

// envName is the environment variable that backs a flag: --smtp-host is
// LESSPOST_SMTP_HOST.
func envName(flagName string) string {
	return "LESSPOST_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// newFlagSet defines the flags, writing into cfg. The defaults here are the
// real defaults; the environment is applied after parsing, so that --help
// never prints a value taken from the environment (such as a secret).
func newFlagSet(cfg *Config) *flag.FlagSet {
	fs := flag.NewFlagSet("api", flag.ContinueOnError)
	fs.StringVar(&cfg.Addr, "addr", ":8080", "`address` to listen on, host:port")
	fs.StringVar(&cfg.DB, "db", "lesspost.db", "SQLite database `file`, created if missing")
	fs.StringVar(&cfg.BaseURL, "base-url", "http://localhost:8080", "public base `URL` of the server, for links in emails")
	fs.StringVar(&cfg.Secret, "secret", "", "token signing `secret`, at least 32 bytes; if empty, one is generated on first start and\nstored in the database. Prefer the environment variable: other users can see flags")
	fs.StringVar(&cfg.SMTP.Host, "smtp-host", "", "SMTP server `host`; if empty, emails are written to the log instead of sent")
	fs.IntVar(&cfg.SMTP.Port, "smtp-port", 587, "SMTP server `port`")
	fs.StringVar(&cfg.SMTP.TLS, "smtp-tls", "starttls", "SMTP transport security: starttls, tls or none")
	fs.StringVar(&cfg.SMTP.User, "smtp-user", "", "SMTP user `name`; if empty, no authentication")
	fs.StringVar(&cfg.SMTP.Password, "smtp-password", "", "SMTP `password`")
	fs.DurationVar(&cfg.SMTP.RetryDelay, "mail-retry-delay", 30*time.Second, "wait after a failed delivery; doubles with each further failure, up to 1h")
	fs.IntVar(&cfg.SMTP.Attempts, "mail-attempts", 8, "delivery attempts before a mail is marked failed")
	fs.DurationVar(&cfg.SchedulerInterval, "scheduler-interval", 30*time.Second, "how often reminders and time-outs are looked for")
	fs.IntVar(&cfg.TrustedProxies, "trusted-proxies", 0, "`number` of reverse proxies in front of the server that append the client address to\nX-Forwarded-For; 0 ignores the header. Rate limits count per client address")
	limits := []struct {
		p          *api.RateLimit
		def        api.RateLimit
		name, what string
	}{
		{&cfg.RateLimits.Login, api.DefaultRateLimits.Login, "limit-login", "login emails one client address may ask for"},
		{&cfg.RateLimits.Token, api.DefaultRateLimits.Token, "limit-token", "login codes one client address may try"},
		{&cfg.RateLimits.CreateGameIP, api.DefaultRateLimits.CreateGameIP, "limit-games-ip", "games one client address may create"},
		{&cfg.RateLimits.CreateGameAccount, api.DefaultRateLimits.CreateGameAccount, "limit-games-account", "games one account may create"},
		{&cfg.RateLimits.SeatLinkIP, api.DefaultRateLimits.SeatLinkIP, "limit-links-ip", "move-link renewals one client address may ask for"},
		{&cfg.RateLimits.SeatLinkAccount, api.DefaultRateLimits.SeatLinkAccount, "limit-links-account", "move-link renewals one account (or seat) may ask for"},
		{&cfg.RateLimits.TournamentIP, api.DefaultRateLimits.TournamentIP, "limit-tournaments-ip", "tournaments one client address may create"},
		{&cfg.RateLimits.TournamentAccount, api.DefaultRateLimits.TournamentAccount, "limit-tournaments-account", "tournaments one account may create"},
	}
	for _, l := range limits {
		fs.TextVar(l.p, l.name, l.def, l.what+", as `N/duration`: N at once, then N per duration")
	}
	fs.StringVar(&cfg.SMTP.From, "smtp-from", "", "sender `address` of emails, e.g. \"Less <games@example.org>\"; required with --smtp-host")
	fs.TextVar(&cfg.LogLevel, "log-level", slog.LevelInfo, "log `level`: debug, info, warn or error")
	fs.StringVar(&cfg.PprofAddr, "pprof-addr", "", "loopback `address` to serve Go's profiler (/debug/pprof/) on, e.g. 127.0.0.1:6060;\nempty turns it off")
	fs.VisitAll(func(f *flag.Flag) {
		f.Usage += " (env " + envName(f.Name) + ")"
	})
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: api [flags]

Serves the lesspost API on one SQLite file. Every flag can also be set with
the environment variable named after it; a flag wins over the environment.

`)
		fs.PrintDefaults()
	}
	return fs
}

// printUsage writes the --help text.
func printUsage(w io.Writer) {
	fs := newFlagSet(&Config{})
	fs.SetOutput(w)
	fs.Usage()
}

// loadConfig reads the configuration from command-line arguments (without
// the program name) and the environment: a flag wins over its environment
// variable, which wins over the default. It returns flag.ErrHelp for --help.
func loadConfig(args []string, getenv func(string) string) (Config, error) {
	var cfg Config
	fs := newFlagSet(&cfg)
	fs.SetOutput(io.Discard) // the caller reports errors and prints the help
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	onCommandLine := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { onCommandLine[f.Name] = true })
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		if v := getenv(envName(f.Name)); v != "" && !onCommandLine[f.Name] {
			if err := f.Value.Set(v); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", envName(f.Name), err))
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return Config{}, err
	}
	if err := cfg.validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// validate checks the values and normalises the base URL. Its messages never
// quote the secret or the password.
func (cfg *Config) validate() error {
	var errs []error
	if _, _, err := net.SplitHostPort(cfg.Addr); err != nil {
		errs = append(errs, fmt.Errorf("--addr %q: want host:port, such as :8080", cfg.Addr))
	}
	if cfg.DB == "" {
		errs = append(errs, errors.New("--db: empty"))
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		errs = append(errs, fmt.Errorf("--base-url %q: want an http or https URL, such as https://less.example.org", cfg.BaseURL))
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Secret != "" && len(cfg.Secret) < minSecretLen {
		errs = append(errs, fmt.Errorf("--secret: shorter than %d bytes", minSecretLen))
	}
	if cfg.SchedulerInterval < time.Second {
		errs = append(errs, fmt.Errorf("--scheduler-interval %v: want at least 1s", cfg.SchedulerInterval))
	}
	if cfg.TrustedProxies < 0 || cfg.TrustedProxies > 10 {
		errs = append(errs, fmt.Errorf("--trusted-proxies %d: want 0 to 10", cfg.TrustedProxies))
	}
	if cfg.PprofAddr != "" && !isLoopback(cfg.PprofAddr) {
		errs = append(errs, fmt.Errorf("--pprof-addr %q: want a loopback host:port, such as 127.0.0.1:6060", cfg.PprofAddr))
	}
	errs = append(errs, cfg.SMTP.validate()...)
	return errors.Join(errs...)
}

// isLoopback reports whether addr is host:port with a loopback IP or
// "localhost" as the host.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

func (s SMTPConfig) validate() []error {
	var errs []error
	if s.RetryDelay <= 0 {
		errs = append(errs, fmt.Errorf("--mail-retry-delay %v: want a positive duration", s.RetryDelay))
	}
	if s.Attempts < 1 {
		errs = append(errs, fmt.Errorf("--mail-attempts %d: want at least 1", s.Attempts))
	}
	if s.Port < 1 || s.Port > 65535 {
		errs = append(errs, fmt.Errorf("--smtp-port %d: out of range", s.Port))
	}
	switch s.TLS {
	case "starttls", "tls", "none":
	default:
		errs = append(errs, fmt.Errorf("--smtp-tls %q: want starttls, tls or none", s.TLS))
	}
	if s.From != "" {
		if _, err := mail.ParseAddress(s.From); err != nil {
			errs = append(errs, fmt.Errorf("--smtp-from %q: %w", s.From, err))
		}
	} else if s.Host != "" {
		errs = append(errs, errors.New("--smtp-from: required with --smtp-host"))
	}
	if (s.User == "") != (s.Password == "") {
		errs = append(errs, errors.New("--smtp-user and --smtp-password: give both or neither"))
	}
	return errs
}

// LogValue is what slog prints for a Config: everything but the secrets.
func (cfg Config) LogValue() slog.Value {
	mail := "log"
	if cfg.SMTP.Host != "" {
		mail = fmt.Sprintf("smtp://%s:%d (%s)", cfg.SMTP.Host, cfg.SMTP.Port, cfg.SMTP.TLS)
	}
	return slog.GroupValue(
		slog.String("addr", cfg.Addr),
		slog.String("db", cfg.DB),
		slog.String("base_url", cfg.BaseURL),
		slog.Bool("secret_given", cfg.Secret != ""),
		slog.String("mail", mail),
		slog.String("smtp_user", cfg.SMTP.User),
		slog.String("smtp_from", cfg.SMTP.From),
		slog.String("log_level", cfg.LogLevel.String()),
		slog.Int("trusted_proxies", cfg.TrustedProxies),
		slog.String("limit_login", cfg.RateLimits.Login.String()),
		slog.String("limit_token", cfg.RateLimits.Token.String()),
		slog.String("limit_games_ip", cfg.RateLimits.CreateGameIP.String()),
		slog.String("limit_games_account", cfg.RateLimits.CreateGameAccount.String()),
		slog.String("limit_links_ip", cfg.RateLimits.SeatLinkIP.String()),
		slog.String("limit_links_account", cfg.RateLimits.SeatLinkAccount.String()),
		slog.String("limit_tournaments_ip", cfg.RateLimits.TournamentIP.String()),
		slog.String("limit_tournaments_account", cfg.RateLimits.TournamentAccount.String()),
		slog.String("pprof_addr", cfg.PprofAddr),
	)
}
