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
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/notify"
	"github.com/lesspost/lesspost/notify/webpush"
	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// Config is the whole configuration of the server.
type Config struct {
	Addr    string
	DB      string
	BaseURL string // without a trailing slash
	// ReplyAddress is the base of the addresses players move at by
	// replying to an email; "" turns that off (see api.Config).
	ReplyAddress string
	// Secret is LESSPOST_SECRET: the token signing keys, newest first (see
	// secret.go). It has no flag, because other users can see command lines.
	// Never log it.
	Secret string
	// SecretFile holds the keys when Secret is empty; empty means the file
	// beside the database, generated on first start.
	SecretFile string
	SMTP       SMTPConfig
	LogLevel   slog.Level
	// SchedulerInterval is how often reminders and time-outs are looked for.
	SchedulerInterval time.Duration
	// MailRetention is how long delivered and given-up mail is kept.
	MailRetention time.Duration
	// TrustedProxies is the number of reverse proxies in front of the server
	// whose X-Forwarded-For entries rate limits may believe.
	TrustedProxies int
	// RateLimits bound logins, login-code exchanges, game and tournament
	// creation and move-link renewals.
	RateLimits api.RateLimits
	// MailLimits are the mail policy's numbers: the recipient's daily
	// budget and the sender's limits (domain.MailPolicy).
	MailLimits domain.MailLimits
	// StreamLimits bound the event streams open at once per credential and
	// per client address.
	StreamLimits api.StreamLimits
	// CORSOrigins lists, comma-separated, the origins whose web pages may
	// call the API (see origins).
	CORSOrigins string
	// PprofAddr, if set, serves Go's profiler there; it must be a loopback
	// address, because profiles show request data.
	PprofAddr string
	// MetricsAddr, if set, serves /metrics there for Prometheus: any
	// address, since Prometheus scrapes from another host, but never the
	// public listener's.
	MetricsAddr string
	// WebhookAllowPrivate (--egress-allow-private, formerly
	// --webhook-allow-private) lets webhook endpoints and push
	// subscriptions' endpoints be http:// URLs and reach
	// private, loopback and link-local addresses: for tests and private
	// networks only (see egress.Guard).
	WebhookAllowPrivate bool
	// Inbound says how replies to game emails are received (inbound.go).
	Inbound InboundConfig
	// VAPIDSubject is the contact push services see with each push
	// notification (a mailto: or https: URL); empty turns push off.
	VAPIDSubject string
	// TournamentLog is the most entries a tournament's log keeps; older
	// ones are dropped, oldest first.
	TournamentLog int
	// SQLiteWALLimit is the size, in MiB, at which SQLite's write-ahead log
	// is started over (sqlite.Options.WALLimit).
	SQLiteWALLimit int
	// PostgresConnectTimeout and PostgresStatementTimeout bound the waits
	// on PostgreSQL (postgres.Options).
	PostgresConnectTimeout, PostgresStatementTimeout time.Duration
	// RequestTimeout bounds each API request but the event streams
	// (api.Config.RequestTimeout).
	RequestTimeout time.Duration
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
	// Lease is how long the outbox worker's claim on mail lasts (see
	// notify.DefaultLease).
	Lease time.Duration
}

// secretEnv holds the token signing keys (newest first, separated by white
// space) when they come from the environment.
const secretEnv = "LESSPOST_SECRET"

// envName is the environment variable that backs a flag: --smtp-host is
// LESSPOST_SMTP_HOST.
func envName(flagName string) string {
	return "LESSPOST_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// newFlagSet defines the flags, writing into cfg. The defaults here are the
// real defaults; the environment is applied after parsing, so that --help
// never prints a value taken from the environment (such as a secret).
func newFlagSet(cfg *Config) *flag.FlagSet {
	fs := flag.NewFlagSet("lesspost", flag.ContinueOnError)
	fs.StringVar(&cfg.Addr, "addr", ":8080", "`address` to listen on, host:port")
	dbFlag(fs, &cfg.DB)
	fs.StringVar(&cfg.BaseURL, "base-url", "http://localhost:8080", "public base `URL` of the server, for links in emails")
	fs.StringVar(&cfg.ReplyAddress, "reply-address", "", "base `address` players move at by replying to a your-turn email, e.g. play@less.example.org:\nemails carry Reply-To: play+<signed token>@less.example.org, whose mail must reach lesspost.\nIts local part has at most 10 octets and no '+'; empty: no Reply-To, play by link only")
	fs.StringVar(&cfg.SecretFile, "secret-file", "", "`file` of the token signing keys, newest first, one a line, each at least 32 bytes: the\nfirst signs, the others still verify (a rotation's grace period). If empty, and\n"+secretEnv+" is not set either, it is the SQLite database's path plus .secret, generated on\nfirst start; with PostgreSQL the keys must be given (the same to every server)")
	fs.StringVar(&cfg.SMTP.Host, "smtp-host", "", "SMTP server `host`; if empty, emails are written to the log instead of sent")
	fs.IntVar(&cfg.SMTP.Port, "smtp-port", 587, "SMTP server `port`")
	fs.StringVar(&cfg.SMTP.TLS, "smtp-tls", "starttls", "SMTP transport security: starttls, tls or none")
	fs.StringVar(&cfg.SMTP.User, "smtp-user", "", "SMTP user `name`; if empty, no authentication")
	fs.StringVar(&cfg.SMTP.Password, "smtp-password", "", "SMTP `password`")
	fs.DurationVar(&cfg.SMTP.RetryDelay, "mail-retry-delay", 30*time.Second, "wait after a failed delivery; doubles with each further failure, up to 1h")
	fs.IntVar(&cfg.SMTP.Attempts, "mail-attempts", 8, "delivery attempts before a mail is marked failed")
	fs.DurationVar(&cfg.SMTP.Lease, "mail-lease", notify.DefaultLease, "how long a server's claim on the mail it is sending keeps other servers on the same\ndatabase from sending it; mail claimed by a server that crashed waits this long.\nAt least twice the longest SMTP send")
	fs.DurationVar(&cfg.SchedulerInterval, "scheduler-interval", 30*time.Second, "how often reminders and time-outs are looked for")
	fs.IntVar(&cfg.TournamentLog, "tournament-log-entries", tournaments.DefaultLog, "the most `entries` a tournament's log keeps (every reading of the event shows it, every\nchange rewrites it); older ones are dropped, oldest first, and counted")
	fs.DurationVar(&cfg.MailRetention, "mail-retention", defaultMailRetention, "how long delivered and given-up mail is kept (GET /v1/games/{id}/mail shows it);\nended sessions and expired login codes are deleted without a flag")
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
		{&cfg.RateLimits.WebhookPingAccount, api.DefaultRateLimits.WebhookPingAccount, "limit-webhook-pings-account", "webhook pings one account may ask for"},
		{&cfg.RateLimits.WebhookRedeliverAccount, api.DefaultRateLimits.WebhookRedeliverAccount, "limit-webhook-redeliveries-account", "webhook redeliveries one account may ask for"},
	}
	for _, l := range limits {
		fs.TextVar(l.p, l.name, l.def, l.what+", as `N/duration`: N at once, then N per duration")
	}
	mail := domain.DefaultMailLimits
	fs.IntVar(&cfg.MailLimits.RecipientPerDay, "mail-budget", mail.RecipientPerDay, "`emails` that other people may cause to one mailbox (its +tags together) in 24 hours:\ninvitations, renewed links, tournament mail, the mail of games it has not played in yet")
	fs.IntVar(&cfg.MailLimits.PairPerDay, "limit-mail-per-stranger", mail.PairPerDay, "`emails` one account (or move link) and one client address may each cause to one\nstranger's mailbox in 24 hours, beyond a game's turns: invitations, links, an event's changes")
	fs.IntVar(&cfg.MailLimits.CallerPerHour, "limit-mail-requests-account", mail.CallerPerHour, "`requests` an hour that email anyone but the caller beyond a game's turns (mail sent or not),\nper account (or move link)")
	fs.IntVar(&cfg.MailLimits.ClientPerHour, "limit-mail-requests-ip", mail.ClientPerHour, "`requests` an hour that email anyone but the caller beyond a game's turns (mail sent or not),\nper client address")
	fs.IntVar(&cfg.StreamLimits.Credential, "limit-streams-credential", api.DefaultStreamLimits.Credential, "event streams one account (its sign-in and personal access tokens together), one\nseat's move link or one game's spectator link may hold open at once on this server")
	fs.IntVar(&cfg.StreamLimits.IP, "limit-streams-ip", api.DefaultStreamLimits.IP, "event streams one client address may hold open at once on this server")
	fs.StringVar(&cfg.SMTP.From, "smtp-from", "", "sender `address` of emails, e.g. \"Less <games@example.org>\"; required with --smtp-host")
	fs.TextVar(&cfg.LogLevel, "log-level", slog.LevelInfo, "log `level`: debug, info, warn or error")
	fs.StringVar(&cfg.CORSOrigins, "cors-origins", "", "comma-separated `origins` (such as https://app.example.org) whose web pages may call the\nAPI with bearer tokens (CORS, never cookies); * allows any. Empty: no CORS headers at all")
	fs.StringVar(&cfg.PprofAddr, "pprof-addr", "", "loopback `address` to serve Go's profiler (/debug/pprof/) on, e.g. 127.0.0.1:6060;\nempty turns it off")
	fs.StringVar(&cfg.MetricsAddr, "metrics-addr", "", "`address` to serve Prometheus metrics (/metrics) on, e.g. :9090, apart from the API;\nempty turns it off")
	fs.StringVar(&cfg.VAPIDSubject, "vapid-subject", "", "contact for the push services (Web Push, RFC 8292): a mailto: address or an https: URL,\ne.g. mailto:ops@example.org. Setting it turns on \"notify me when it's my turn\" on the\nplay page; the VAPID key pair is made once and kept in the database. Empty: push off")
	fs.BoolVar(&cfg.WebhookAllowPrivate, "egress-allow-private", false, "let webhook endpoints and push subscriptions use plain http and reach private,\nloopback and link-local addresses; for tests and closed networks only: on a public\nserver it lets any account or browser make this server call inside its network")
	fs.BoolVar(&cfg.WebhookAllowPrivate, "webhook-allow-private", false, "the former name of --egress-allow-private")
	fs.IntVar(&cfg.SQLiteWALLimit, "sqlite-wal-limit", sqlite.DefaultWALLimit>>20, "`MiB` of SQLite's write-ahead log at which it is copied into the database file and\nstarted over, waiting up to 100 ms for the reads in progress; after a full disk, writes\nresume once about this much is free beside what the database file grows by")
	fs.DurationVar(&cfg.PostgresConnectTimeout, "postgres-connect-timeout", postgres.DefaultConnectTimeout, "how long making a connection to PostgreSQL may take, unless the URL sets connect_timeout")
	fs.DurationVar(&cfg.PostgresStatementTimeout, "postgres-statement-timeout", postgres.DefaultStatementTimeout, "how long one statement on PostgreSQL may take (statement_timeout, unless the URL sets it;\nalso idle_in_transaction_session_timeout); the server waits 1s more for an answer, then\ncloses the connection and answers 503 unavailable. Migrations are not bounded")
	fs.DurationVar(&cfg.RequestTimeout, "request-timeout", api.DefaultRequestTimeout, "how long an API request may take (the event streams are not bounded); one that runs out\nwaiting for the database is answered 503 unavailable")
	inboundFlags(fs, &cfg.Inbound)
	fs.VisitAll(backByEnv)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: lesspost [serve] [flags]
       lesspost migrate [--db DATABASE]
       lesspost backup --to FILE [--force] [--db DATABASE]

lesspost serves play-by-email Less and Les on a SQLite file or a PostgreSQL
database.

Commands:
  serve    serve the API and its workers until SIGTERM or SIGINT (the default)
  migrate  apply the pending schema migrations, report them and the schema
           version, and exit (serve applies them too, at start)
  backup   copy a SQLite database into FILE while servers use it, and check
           the copy (for PostgreSQL, use pg_dump)
"lesspost migrate --help" and "lesspost backup --help" list their flags.

Every flag can also be set with the environment variable named after it; a
flag wins over the environment. The token signing keys come from `+secretEnv+`
(newest first, separated by spaces) or from --secret-file, never from a flag.

Flags of serve:
`)
		fs.PrintDefaults()
	}
	return fs
}

// dbFlag defines --db, which every command takes.
func dbFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "db", "lesspost.db", "the `database`: a SQLite file, created if missing, or a PostgreSQL URL\n(postgres://user:password@host/dbname), which several servers may share")
}

// backByEnv lets the environment variable named after f set it, and says
// so in its usage; parseFlags reads exactly the variables the usage names.
func backByEnv(f *flag.Flag) {
	f.Usage += envNote(f.Name)
}

func envNote(flagName string) string {
	return " (env " + envName(flagName) + ")"
}

// parseFlags parses args, which must all be flags, into fs, then sets each
// flag backed by the environment (see backByEnv) that is not on the
// command line from its variable.
func parseFlags(fs *flag.FlagSet, args []string, getenv func(string) string) error {
	fs.SetOutput(io.Discard) // the caller reports errors and prints the help
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	onCommandLine := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { onCommandLine[f.Name] = true })
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.HasSuffix(f.Usage, envNote(f.Name)) || onCommandLine[f.Name] {
			return
		}
		if v := getenv(envName(f.Name)); v != "" {
			if err := f.Value.Set(v); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", envName(f.Name), err))
			}
		}
	})
	return errors.Join(errs...)
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
	if secretOnCommandLine(args) {
		return Config{}, fmt.Errorf("--secret: not accepted on the command line, where other users can see it; use %s or --secret-file", secretEnv)
	}
	if err := parseFlags(newFlagSet(&cfg), args, getenv); err != nil {
		return Config{}, err
	}
	cfg.Secret = getenv(secretEnv)
	cfg.Inbound.IMAPPassword = getenv(imapPasswordEnv)
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
	if repo.IsPostgres(cfg.DB) && cfg.Secret == "" && cfg.SecretFile == "" {
		// Every server on the database must sign with the same keys, and a
		// server cannot write a file the others read.
		errs = append(errs, fmt.Errorf("--db is PostgreSQL: give the token signing keys with %s or --secret-file, the same to every server", secretEnv))
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		errs = append(errs, fmt.Errorf("--base-url %q: want an http or https URL, such as https://less.example.org", cfg.BaseURL))
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Secret != "" {
		if cfg.SecretFile != "" {
			errs = append(errs, fmt.Errorf("%s and --secret-file: give one or neither", secretEnv))
		} else if _, err := parseKeys(cfg.Secret); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", secretEnv, err))
		}
	}
	if cfg.MailRetention < time.Hour {
		errs = append(errs, fmt.Errorf("--mail-retention %v: want at least 1h", cfg.MailRetention))
	}
	if cfg.SchedulerInterval < time.Second {
		errs = append(errs, fmt.Errorf("--scheduler-interval %v: want at least 1s", cfg.SchedulerInterval))
	}
	if cfg.TournamentLog < 10 || cfg.TournamentLog > 10000 {
		errs = append(errs, fmt.Errorf("--tournament-log-entries %d: want 10 to 10000", cfg.TournamentLog))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"postgres-connect-timeout", cfg.PostgresConnectTimeout}, {"postgres-statement-timeout", cfg.PostgresStatementTimeout},
		{"request-timeout", cfg.RequestTimeout}} {
		if d.v < 100*time.Millisecond {
			errs = append(errs, fmt.Errorf("--%s %v: want at least 100ms", d.name, d.v))
		}
	}
	if cfg.SQLiteWALLimit < 1 || cfg.SQLiteWALLimit > 1024 {
		errs = append(errs, fmt.Errorf("--sqlite-wal-limit %d: want 1 to 1024 (MiB)", cfg.SQLiteWALLimit))
	}
	if cfg.TrustedProxies < 0 || cfg.TrustedProxies > 10 {
		errs = append(errs, fmt.Errorf("--trusted-proxies %d: want 0 to 10", cfg.TrustedProxies))
	}
	if cfg.StreamLimits.Credential < 1 || cfg.StreamLimits.IP < 1 {
		errs = append(errs, fmt.Errorf("--limit-streams-credential %d, --limit-streams-ip %d: want at least 1 each",
			cfg.StreamLimits.Credential, cfg.StreamLimits.IP))
	}
	if cfg.PprofAddr != "" && !isLoopback(cfg.PprofAddr) {
		errs = append(errs, fmt.Errorf("--pprof-addr %q: want a loopback host:port, such as 127.0.0.1:6060", cfg.PprofAddr))
	}
	if cfg.MetricsAddr != "" {
		if _, port, err := net.SplitHostPort(cfg.MetricsAddr); err != nil {
			errs = append(errs, fmt.Errorf("--metrics-addr %q: want host:port, such as :9090", cfg.MetricsAddr))
		} else if cfg.MetricsAddr == cfg.Addr && port != "0" { // port 0: a free port each
			errs = append(errs, fmt.Errorf("--metrics-addr %q: the API's address; metrics are never served to the public", cfg.MetricsAddr))
		}
	}
	for _, o := range cfg.origins() {
		if !isOrigin(o) {
			errs = append(errs, fmt.Errorf("--cors-origins %q: want * or origins such as https://app.example.org (scheme, host and port only)", o))
		}
	}
	if cfg.VAPIDSubject != "" {
		if err := webpush.CheckSubject(cfg.VAPIDSubject); err != nil {
			errs = append(errs, fmt.Errorf("--vapid-subject %q: want a mailto: address or an https: URL", cfg.VAPIDSubject))
		}
	}
	errs = append(errs, cfg.SMTP.validate()...)
	errs = append(errs, cfg.Inbound.validate(cfg.ReplyAddress)...)
	return errors.Join(errs...)
}

// origins splits --cors-origins.
func (cfg *Config) origins() []string {
	var out []string
	for o := range strings.SplitSeq(cfg.CORSOrigins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			out = append(out, o)
		}
	}
	return out
}

// isOrigin reports whether o is "*" or an origin as browsers send it in the
// Origin header (RFC 6454): a lower-case http or https scheme and host, an
// optional port, nothing else.
func isOrigin(o string) bool {
	if o == "*" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Hostname() != "" &&
		u.User == nil && u.Path == "" && u.RawQuery == "" && !u.ForceQuery && u.Fragment == "" &&
		o == strings.ToLower(o) && !strings.Contains(u.Host, "*") && u.String() == o
}

// secretOnCommandLine reports whether args try to give the signing secret as
// a flag, as earlier versions allowed (-secret, --secret=...), before any
// "--" that ends the flags.
func secretOnCommandLine(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "secret" {
			return true
		}
	}
	return false
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
	if s.Lease <= 0 {
		errs = append(errs, fmt.Errorf("--mail-lease %v: want a positive duration", s.Lease))
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
	return slog.GroupValue(append([]slog.Attr{
		slog.String("addr", cfg.Addr),
		slog.String("db", redactDSN(cfg.DB)),
		slog.String("base_url", cfg.BaseURL),
		slog.Bool("secret_from_env", cfg.Secret != ""),
		slog.String("secret_file", cfg.SecretFile),
		slog.String("mail", mail),
		slog.String("reply_address", cfg.ReplyAddress),
		slog.String("smtp_user", cfg.SMTP.User),
		slog.String("smtp_from", cfg.SMTP.From),
		slog.String("log_level", cfg.LogLevel.String()),
		slog.Int("trusted_proxies", cfg.TrustedProxies),
		slog.String("mail_retention", cfg.MailRetention.String()),
		slog.Int("tournament_log_entries", cfg.TournamentLog),
		slog.String("limit_login", cfg.RateLimits.Login.String()),
		slog.String("limit_token", cfg.RateLimits.Token.String()),
		slog.String("limit_games_ip", cfg.RateLimits.CreateGameIP.String()),
		slog.String("limit_games_account", cfg.RateLimits.CreateGameAccount.String()),
		slog.String("limit_links_ip", cfg.RateLimits.SeatLinkIP.String()),
		slog.String("limit_links_account", cfg.RateLimits.SeatLinkAccount.String()),
		slog.String("limit_tournaments_ip", cfg.RateLimits.TournamentIP.String()),
		slog.String("limit_tournaments_account", cfg.RateLimits.TournamentAccount.String()),
		slog.String("limit_webhook_pings_account", cfg.RateLimits.WebhookPingAccount.String()),
		slog.String("limit_webhook_redeliveries_account", cfg.RateLimits.WebhookRedeliverAccount.String()),
		slog.Int("mail_budget", cfg.MailLimits.RecipientPerDay),
		slog.Int("limit_mail_per_stranger", cfg.MailLimits.PairPerDay),
		slog.Int("limit_mail_requests_account", cfg.MailLimits.CallerPerHour),
		slog.Int("limit_mail_requests_ip", cfg.MailLimits.ClientPerHour),
		slog.Int("limit_streams_credential", cfg.StreamLimits.Credential),
		slog.Int("limit_streams_ip", cfg.StreamLimits.IP),
		slog.String("cors_origins", cfg.CORSOrigins),
		slog.String("pprof_addr", cfg.PprofAddr),
		slog.String("metrics_addr", cfg.MetricsAddr),
		slog.String("vapid_subject", cfg.VAPIDSubject),
		slog.Bool("webhook_allow_private", cfg.WebhookAllowPrivate),
		slog.Int("sqlite_wal_limit_mib", cfg.SQLiteWALLimit),
		slog.String("postgres_connect_timeout", cfg.PostgresConnectTimeout.String()),
		slog.String("postgres_statement_timeout", cfg.PostgresStatementTimeout.String()),
		slog.String("request_timeout", cfg.RequestTimeout.String()),
	}, cfg.Inbound.logAttrs()...)...)
}

// storeOptions is how the store is opened.
func (cfg *Config) storeOptions() repo.StoreOptions {
	return repo.StoreOptions{SQLite: sqlite.Options{WALLimit: int64(cfg.SQLiteWALLimit) << 20},
		Postgres: postgres.Options{ConnectTimeout: cfg.PostgresConnectTimeout, StatementTimeout: cfg.PostgresStatementTimeout}}
}

// redactDSN hides the password of a PostgreSQL URL, for the log.
func redactDSN(dsn string) string {
	if !repo.IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(unreadable URL)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
